#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

/// A quilt: items covering whole blocks of a block grid, `w × h` blocks
/// each, packed first-fit in row-major order from the first open block
/// (RFQuiltLayout's model), with sections, headers and footers, both axes
/// and right-to-left.
///
/// The whole layout is computed up front, so the content size is known at
/// once and never grows while scrolling (RFQuiltLayout lays out lazily and
/// its content size grows). Packing uses bitset occupancy per block row
/// (`QuiltPacker`): about O(N · (w + h)) for N items, a million items in
/// well under half a second. Items are indexed by their top row, so the
/// items in a rectangle cost O(log sections + rows + k). Storage is about
/// 16 bytes per item. Appending items to the last section places only the
/// new ones.
///
/// The content is centred across the axis, as in RFQuiltLayout: with
/// `W` the width and `b` the block width there are `max(1, ⌊W / b⌋)`
/// columns and `(W − columns · b) / 2` on either side. An item wider than
/// the quilt goes at column 0, clipped to the width, and is reported in
/// ``diagnostics``.
public struct QuiltLayout: ItemLayout {
    /// Where one item sits, in blocks: 12 bytes.
    @usableFromInline
    struct Placement: Sendable {
        @usableFromInline var row: Int32
        @usableFromInline var column: UInt16
        @usableFromInline var across: UInt16
        @usableFromInline var along: UInt16
    }

    /// One section: its items, rows and the index from rows to items.
    @usableFromInline
    struct Section: Sendable {
        /// The position of the section's first item among all items.
        @usableFromInline var firstItem: Int
        @usableFromInline var itemCount: Int
        /// Block rows used.
        @usableFromInline var rowCount: Int
        /// The tallest item, in rows: how far above a query to look for
        /// items reaching into it.
        @usableFromInline var tallest: Int
        @usableFromInline var index: QuiltRowIndex
    }

    /// The largest span, in blocks, an item can have along either axis,
    /// and the most columns a quilt can have.
    public static let maximumSpan = Int(UInt16.max)

    /// The settings the layout was built from.
    public let configuration: QuiltConfiguration
    /// The size of the container it was built for.
    public let containerSize: CGSize
    /// The number of block columns.
    public let columnCount: Int
    /// The size of all the content: the container's extent across the axis;
    /// along it, every section's header, block rows and footer. Known as soon
    /// as the quilt is built; it grows only when items are appended.
    public private(set) var contentSize: CGSize
    /// What the layout had to adjust (the first 1,000; see ``diagnosticCount``).
    public var diagnostics: [LayoutDiagnostic] { log.entries }
    /// How many adjustments there were in all.
    public var diagnosticCount: Int { log.count }
    private var log = DiagnosticLog()

    @usableFromInline var placements: [Placement] = []
    @usableFromInline var sections: [Section] = []
    /// `sectionStarts[s]` is where section `s` begins; the last element is the content's end.
    @usableFromInline var sectionStarts: [CGFloat] = [0]
    @usableFromInline var mapping: AxisMapping
    /// Insets that differ from the configuration's, by item position.
    @usableFromInline var customInsets: [Int: EdgeInsets] = [:]
    @usableFromInline let blockMain: CGFloat
    @usableFromInline let blockCross: CGFloat
    @usableFromInline let crossOrigin: CGFloat
    /// Packing state of the last section, kept for appending.
    private var packer: QuiltPacker

    /// The scroll axis, from the configuration.
    public var axis: ScrollAxis { configuration.axis }
    /// Whether the content starts on the right: a horizontal quilt laid out
    /// right to left.
    public var isMainAxisMirrored: Bool { mapping.mirrorsMain }

    /// Builds the quilt for `sections` of item spans in a container of
    /// `containerSize`, giving item `index` the insets `insets(index)`
    /// (default: the configuration's).
    ///
    /// A non-finite or negative container extent reads as zero (one column).
    ///
    /// - Throws: ``LayoutError`` for an unusable configuration value.
    /// - Complexity: about O(N · (w + h)) for N items of w × h blocks.
    public init(
        configuration: QuiltConfiguration, sections spans: [[QuiltSpan]], containerSize: CGSize,
        insets: ((ItemIndex) -> EdgeInsets)? = nil
    ) throws(LayoutError) {
        try configuration.validate()
        let axis = configuration.axis
        let sanitized = CGSize(
            width: containerSize.width.isFinite ? max(containerSize.width, 0) : 0,
            height: containerSize.height.isFinite ? max(containerSize.height, 0) : 0)
        let crossExtent = axis.cross(sanitized)
        let blockCross = axis.cross(configuration.blockSize)
        let columns = Int(min(max((crossExtent / blockCross).rounded(.down), 1), CGFloat(Self.maximumSpan)))
        self.configuration = configuration
        self.containerSize = sanitized
        self.columnCount = columns
        self.blockMain = axis.main(configuration.blockSize)
        self.blockCross = blockCross
        self.crossOrigin = (crossExtent - CGFloat(columns) * blockCross) / 2
        self.contentSize = axis.size(main: 0, cross: crossExtent)
        self.mapping = AxisMapping(axis: axis, direction: configuration.layoutDirection, mainExtent: 0,
                                   crossExtent: crossExtent)
        self.packer = QuiltPacker(columns: columns)
        placements.reserveCapacity(spans.reduce(0) { $0 + $1.count })
        for section in spans { appendSection(section, insets: insets) }
    }

    /// A single-section quilt.
    public init(
        configuration: QuiltConfiguration, spans: [QuiltSpan], containerSize: CGSize,
        insets: ((ItemIndex) -> EdgeInsets)? = nil
    ) throws(LayoutError) {
        try self.init(configuration: configuration, sections: [spans], containerSize: containerSize, insets: insets)
    }

    // MARK: Appending

    /// Adds a section holding `spans`.
    ///
    /// Complexity: O(new items · (w + h)); placed items are not touched.
    public mutating func appendSection(_ spans: [QuiltSpan], insets: ((ItemIndex) -> EdgeInsets)? = nil) {
        sections.append(Section(firstItem: placements.count, itemCount: 0, rowCount: 0, tallest: 1,
                                index: QuiltRowIndex()))
        sectionStarts.append(sectionStarts[sectionStarts.count - 1])
        packer = QuiltPacker(columns: columnCount)
        append(spans, insets: insets)
    }

    /// Adds `spans` at the end of the last section (a new section if there
    /// is none), exactly where a rebuild would put them.
    ///
    /// Complexity: O(new items · (w + h)); placed items are not touched.
    public mutating func append(_ spans: [QuiltSpan], insets: ((ItemIndex) -> EdgeInsets)? = nil) {
        if sections.isEmpty {
            appendSection(spans, insets: insets)
            return
        }
        let s = sections.count - 1
        var section = sections[s]
        sections[s].index = QuiltRowIndex()          // keep the index uniquely referenced while it grows
        for span in spans {
            let index = ItemIndex(item: section.itemCount, section: s)
            var across = axis == .vertical ? span.width : span.height
            var along = axis == .vertical ? span.height : span.width
            if across < 1 || along < 1 {
                log.record(.invalidItemSize(index, span.description))
                across = 1
                along = 1
            }
            if across > columnCount {
                log.record(.clippedToWidth(index, requested: across, available: columnCount))
                across = columnCount
            }
            along = min(along, Self.maximumSpan)
            let (row, column) = packer.place(width: across, height: along)
            placements.append(Placement(row: Int32(row), column: UInt16(column),
                                        across: UInt16(across), along: UInt16(along)))
            section.index.add(item: section.itemCount, row: row)
            section.index.seal(below: packer.firstOpenRow)
            section.tallest = max(section.tallest, along)
            if let insets {
                let custom = insets(index)
                if custom != configuration.itemInsets { customInsets[placements.count - 1] = custom }
            }
            section.itemCount += 1
        }
        section.rowCount = packer.rowCount
        sections[s] = section
        let length = configuration.headerHeight + CGFloat(section.rowCount) * blockMain + configuration.footerHeight
        sectionStarts[s + 1] = sectionStarts[s] + length
        contentSize = axis.size(main: sectionStarts[s + 1], cross: axis.cross(contentSize))
        mapping = AxisMapping(axis: axis, direction: configuration.layoutDirection,
                              mainExtent: sectionStarts[s + 1], crossExtent: axis.cross(contentSize))
    }

    // MARK: ItemLayout

    /// The number of sections, empty ones included.
    public var numberOfSections: Int { sections.count }

    /// The number of items in `section`, 0 for a section the quilt does not
    /// have. O(1).
    @inlinable
    public func numberOfItems(inSection section: Int) -> Int {
        sections.indices.contains(section) ? sections[section].itemCount : 0
    }

    /// The frame of the item at `index`: its blocks less its insets. O(1);
    /// `nil` for an index the quilt does not have.
    @inlinable
    public func frame(of index: ItemIndex) -> CGRect? {
        guard index.item >= 0, index.item < numberOfItems(inSection: index.section) else { return nil }
        return frame(ofItemAt: sections[index.section].firstItem + index.item, section: index.section)
    }

    /// The frame of `section`'s header: a band of
    /// ``QuiltConfiguration/headerHeight`` across the whole content at the
    /// section's start. `nil` when that height is 0 or the section does not
    /// exist.
    public func headerFrame(ofSection section: Int) -> CGRect? {
        guard configuration.headerHeight > 0, sections.indices.contains(section) else { return nil }
        return mapping.band(Span(sectionStarts[section], configuration.headerHeight))
    }

    /// The frame of `section`'s footer, or `nil` if it has none.
    public func footerFrame(ofSection section: Int) -> CGRect? {
        guard configuration.footerHeight > 0, sections.indices.contains(section) else { return nil }
        return mapping.band(Span(sectionStarts[section + 1] - configuration.footerHeight, configuration.footerHeight))
    }

    /// Calls `body` for every item whose frame is visible in `rect`
    /// (`CGRect.isVisible(in:)`), each exactly once: section by section, in
    /// the order of the block row each item starts in. A `rect` with a
    /// non-finite value reports nothing.
    ///
    /// Complexity: O(log sections + rows + k) for k items, through the
    /// index of items by their top row.
    @inlinable
    public func forEachItem(in rect: CGRect, _ body: (ItemIndex, CGRect) throws -> Void) rethrows {
        guard AxisMapping.isUsable(rect), !sections.isEmpty else { return }
        let query = mapping.spans(of: rect)
        let header = configuration.headerHeight
        var s = firstSection(endingAfter: query.main.lowerBound, in: sectionStarts)
        while s < sections.count, sectionStarts[s] < query.main.upperBound {
            let rowCount = sections[s].rowCount
            if rowCount > 0 {
                let rowsStart = sectionStarts[s] + header
                let last = CGFloat(rowCount - 1)
                let low = ((query.main.lowerBound - rowsStart) / blockMain).rounded(.down) - CGFloat(sections[s].tallest - 1)
                let high = ((query.main.upperBound - rowsStart) / blockMain).rounded(.down)
                if high >= 0, low <= last {
                    let firstItem = sections[s].firstItem
                    let section = s
                    let uniformInsets = customInsets.isEmpty ? configuration.itemInsets : nil
                    try placements.withUnsafeBufferPointer { placements in
                        try sections[s].index.forEachItem(startingIn: Int(max(low, 0))...Int(min(high, last))) { item in
                            let position = firstItem + item
                            let insets = uniformInsets ?? customInsets[position] ?? configuration.itemInsets
                            let frame = frame(of: placements[position], rowsStart: rowsStart, insets: insets)
                            if frame.isVisible(in: rect) { try body(ItemIndex(item: item, section: section), frame) }
                        }
                    }
                }
            }
            s += 1
        }
    }

    /// The position that puts the block row `index` starts in first: its
    /// section's start (header included) for the first row, else the row's
    /// start. O(1); `nil` for an index the quilt does not have.
    public func restingPosition(showing index: ItemIndex) -> CGFloat? {
        guard index.item >= 0, index.item < numberOfItems(inSection: index.section) else { return nil }
        let row = Int(placements[sections[index.section].firstItem + index.item].row)
        return mapping.position(rests(ofSection: index.section).rest(line: row))
    }

    /// The resting position (see ``restingPosition(showing:)``) nearest to
    /// `position`, among the block rows of the section it falls in and the
    /// next section's start. O(log sections); `nil` for a quilt without
    /// sections or a non-finite position.
    public func restingPosition(nearest position: CGFloat) -> CGFloat? {
        guard position.isFinite, !sections.isEmpty else { return nil }
        let logical = mapping.position(position)
        let s = min(firstSection(endingAfter: logical, in: sectionStarts), sections.count - 1)
        return mapping.position(rests(ofSection: s).nearest(to: logical, nextSectionStart: sectionStarts[s + 1]))
    }

    // MARK: Geometry

    @inlinable
    func frame(ofItemAt position: Int, section: Int) -> CGRect {
        frame(ofItemAt: position, rowsStart: sectionStarts[section] + configuration.headerHeight)
    }

    /// The frame of the item at `position` among all items, in a section
    /// whose first block row starts at `rowsStart`.
    @inlinable
    func frame(ofItemAt position: Int, rowsStart: CGFloat) -> CGRect {
        let insets = customInsets.isEmpty ? configuration.itemInsets : customInsets[position] ?? configuration.itemInsets
        return frame(of: placements[position], rowsStart: rowsStart, insets: insets)
    }

    @inlinable
    func frame(of placement: Placement, rowsStart: CGFloat, insets: EdgeInsets) -> CGRect {
        let main = Span(rowsStart + CGFloat(placement.row) * blockMain, CGFloat(placement.along) * blockMain)
        let cross = Span(crossOrigin + CGFloat(placement.column) * blockCross, CGFloat(placement.across) * blockCross)
        let blocks = mapping.rect(main: main, cross: cross)
        return CGRect(x: blocks.origin.x + insets.left, y: blocks.origin.y + insets.top,
                      width: max(blocks.size.width - insets.left - insets.right, 0),
                      height: max(blocks.size.height - insets.top - insets.bottom, 0))
    }

    private func rests(ofSection s: Int) -> RegularSection {
        RegularSection(sectionStart: sectionStarts[s], firstLine: sectionStarts[s] + configuration.headerHeight,
                 pitch: blockMain, count: sections[s].rowCount, gap: 0)
    }
}
