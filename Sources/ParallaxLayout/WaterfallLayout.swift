#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

/// A waterfall (masonry, Pinterest style): items of known aspect ratios in
/// equal-width columns, each item going to the column that is currently
/// shortest (the leftmost on a tie).
///
/// Building is O(N · columns); each column keeps its items in order, so the
/// items in a rectangle cost O(columns · log N + k). Appending items to the
/// last section places only the new ones, exactly where a rebuild would.
public struct WaterfallLayout: ItemLayout {
    @usableFromInline
    struct Placement: Sendable {
        @usableFromInline var main: CGFloat
        @usableFromInline var length: CGFloat
        @usableFromInline var column: Int32
    }

    @usableFromInline
    struct Section: Sendable {
        @usableFromInline var firstItem: Int
        @usableFromInline var itemCount: Int
        /// Per column, the section's items in that column, top to bottom.
        @usableFromInline var columns: [[Int32]]
        /// Per column, where the next item would go.
        var columnEnds: [CGFloat]
    }

    /// The settings the layout was built from.
    public let configuration: WaterfallConfiguration
    /// The size of the container (the scroll view's bounds) it was built
    /// for; a non-finite or negative side reads as zero.
    public let containerSize: CGSize
    /// The number of columns: the configuration's fixed count, or as many as
    /// fit at ``WaterfallConfiguration/preferredColumnWidth`` (at least 1).
    public let columnCount: Int
    /// The width of every column.
    public let columnWidth: CGFloat
    /// The size of all the content: the container's extent across the axis;
    /// along it, every section's header, margins and longest column. It grows
    /// only when items are appended.
    public private(set) var contentSize: CGSize
    /// What the layout had to adjust (the first 1,000; see ``diagnosticCount``).
    public var diagnostics: [LayoutDiagnostic] { log.entries }
    /// How many adjustments there were in all.
    public var diagnosticCount: Int { log.count }
    private var log = DiagnosticLog()

    @usableFromInline var placements: [Placement] = []
    @usableFromInline var sections: [Section] = []
    @usableFromInline var sectionStarts: [CGFloat] = [0]
    @usableFromInline var mapping: AxisMapping
    @usableFromInline let crossOrigin: CGFloat
    @usableFromInline let crossPitch: CGFloat
    private let mainGap: CGFloat
    private let leadMargin: CGFloat
    private let trailMargin: CGFloat

    /// The scroll axis, from the configuration.
    public var axis: ScrollAxis { configuration.axis }
    /// Whether the content starts on the right: a horizontal waterfall laid
    /// out right to left.
    public var isMainAxisMirrored: Bool { mapping.mirrorsMain }

    /// Builds the waterfall for `sections` of item sizes (any unit: only
    /// their aspect ratios matter, e.g. photos' pixel sizes) in a container
    /// of `containerSize`. An unusable size (zero, negative, not a number)
    /// is drawn square, and a ratio outside ``ItemAspectRatio/range`` (a
    /// header claiming 1 × 2³¹ pixels) is drawn at the range's end; both are
    /// reported in ``diagnostics``.
    ///
    /// - Throws: ``LayoutError`` for an unusable configuration value.
    /// - Complexity: O(N · columns).
    public init(configuration: WaterfallConfiguration, sections itemSizes: [[CGSize]], containerSize: CGSize) throws(LayoutError) {
        try configuration.validate()
        let axis = configuration.axis
        let sanitized = CGSize(
            width: containerSize.width.isFinite ? max(containerSize.width, 0) : 0,
            height: containerSize.height.isFinite ? max(containerSize.height, 0) : 0)
        let crossExtent = axis.cross(sanitized)
        let margins = configuration.margins
        let crossLower = axis == .vertical ? margins.left : margins.top
        let crossUpper = axis == .vertical ? margins.right : margins.bottom
        let crossGap = axis.cross(configuration.spacing)
        let available = crossExtent - crossLower - crossUpper
        let columns = configuration.columns.count(available: available, preferred: configuration.preferredColumnWidth,
                                                  spacing: crossGap)
        let width = max((available - CGFloat(columns - 1) * crossGap) / CGFloat(columns), 0)
        self.configuration = configuration
        self.containerSize = sanitized
        self.columnCount = columns
        self.columnWidth = width.isFinite ? width : 0
        self.crossOrigin = crossLower
        self.crossPitch = self.columnWidth + crossGap
        self.mainGap = axis.main(configuration.spacing)
        self.leadMargin = axis == .vertical ? margins.top : margins.left
        self.trailMargin = axis == .vertical ? margins.bottom : margins.right
        self.contentSize = axis.size(main: 0, cross: crossExtent)
        self.mapping = AxisMapping(axis: axis, direction: configuration.layoutDirection, mainExtent: 0, crossExtent: crossExtent)
        placements.reserveCapacity(itemSizes.reduce(0) { $0 + $1.count })
        for section in itemSizes { appendSection(section) }
    }

    /// A single-section waterfall.
    public init(configuration: WaterfallConfiguration, itemSizes: [CGSize], containerSize: CGSize) throws(LayoutError) {
        try self.init(configuration: configuration, sections: [itemSizes], containerSize: containerSize)
    }

    // MARK: Appending

    /// Adds a section holding items of `itemSizes`.
    public mutating func appendSection(_ itemSizes: [CGSize]) {
        let start = sectionStarts[sectionStarts.count - 1]
        let firstRow = start + configuration.headerHeight + leadMargin
        sections.append(Section(firstItem: placements.count, itemCount: 0,
                                columns: Array(repeating: [], count: columnCount),
                                columnEnds: Array(repeating: firstRow, count: columnCount)))
        sectionStarts.append(start)
        append(itemSizes)
    }

    /// Adds items of `itemSizes` at the end of the last section (a new
    /// section if there is none), exactly where a rebuild would put them.
    ///
    /// Complexity: O(new items · columns).
    public mutating func append(_ itemSizes: [CGSize]) {
        guard !sections.isEmpty else {
            appendSection(itemSizes)
            return
        }
        let s = sections.count - 1
        var section = sections[s]
        sections[s].columns = []        // keep the column lists uniquely referenced while they grow
        for size in itemSizes {
            // Length : breadth; the range is symmetric (it holds each ratio's inverse), so this is the
            // same clamp as width : height.
            var ratio: CGFloat = 1
            if let usable = ItemAspectRatio.of(CGSize(width: axis.main(size), height: axis.cross(size))) {
                ratio = usable
                let raw = axis.main(size) / axis.cross(size)
                if raw != usable {
                    log.record(.clampedAspectRatio(ItemIndex(item: section.itemCount, section: s), "\(size.width)×\(size.height)"))
                }
            } else {
                log.record(.invalidItemSize(ItemIndex(item: section.itemCount, section: s), "\(size.width)×\(size.height)"))
            }
            var shortest = 0
            for column in 1..<columnCount where section.columnEnds[column] < section.columnEnds[shortest] {
                shortest = column
            }
            let length = columnWidth * ratio
            let main = section.columnEnds[shortest]
            placements.append(Placement(main: main, length: length, column: Int32(shortest)))
            section.columns[shortest].append(Int32(section.itemCount))
            section.columnEnds[shortest] = main + length + mainGap
            section.itemCount += 1
        }
        sections[s] = section
        let rowsStart = sectionStarts[s] + configuration.headerHeight + leadMargin
        let deepest = section.columnEnds.max() ?? rowsStart
        let end = (section.itemCount > 0 ? deepest - mainGap : rowsStart) + trailMargin
        sectionStarts[s + 1] = end
        contentSize = axis.size(main: end, cross: axis.cross(contentSize))
        mapping = AxisMapping(axis: axis, direction: configuration.layoutDirection, mainExtent: end,
                              crossExtent: axis.cross(contentSize))
    }

    // MARK: ItemLayout

    /// The number of sections, empty ones included.
    public var numberOfSections: Int { sections.count }

    /// The number of items in `section`, 0 for a section the waterfall does
    /// not have. O(1).
    @inlinable
    public func numberOfItems(inSection section: Int) -> Int {
        sections.indices.contains(section) ? sections[section].itemCount : 0
    }

    /// The frame of the item at `index`: its column's width, and the length
    /// its aspect ratio gives at that width. O(1); `nil` for an index the
    /// waterfall does not have.
    @inlinable
    public func frame(of index: ItemIndex) -> CGRect? {
        guard index.item >= 0, index.item < numberOfItems(inSection: index.section) else { return nil }
        return frame(ofItemAt: sections[index.section].firstItem + index.item)
    }

    /// The frame of `section`'s header: a band of
    /// ``WaterfallConfiguration/headerHeight`` across the whole content at
    /// the section's start. `nil` when that height is 0 or the section does
    /// not exist.
    public func headerFrame(ofSection section: Int) -> CGRect? {
        guard configuration.headerHeight > 0, sections.indices.contains(section) else { return nil }
        return mapping.band(Span(sectionStarts[section], configuration.headerHeight))
    }

    /// Calls `body` for every item whose frame is visible in `rect`
    /// (`CGRect.isVisible(in:)`), each exactly once: section by section,
    /// column by column, top to bottom. A `rect` with a non-finite value
    /// reports nothing.
    ///
    /// Complexity: O(columns · log N + k) for k items, a binary search per
    /// column.
    @inlinable
    public func forEachItem(in rect: CGRect, _ body: (ItemIndex, CGRect) throws -> Void) rethrows {
        guard AxisMapping.isUsable(rect), crossPitch > 0, !sections.isEmpty else { return }
        let query = mapping.spans(of: rect)
        let lastColumn = CGFloat(columnCount - 1)
        let firstColumn = Int(min(max(((query.cross.lowerBound - crossOrigin) / crossPitch).rounded(.down), 0), lastColumn))
        let endColumn = Int(min(max(((query.cross.upperBound - crossOrigin) / crossPitch).rounded(.down), 0), lastColumn))
        var s = firstSection(endingAfter: query.main.lowerBound, in: sectionStarts)
        while s < sections.count, sectionStarts[s] < query.main.upperBound {
            let section = sections[s]
            for column in firstColumn...endColumn {
                let items = section.columns[column]
                // The first item of the column ending after the query's start.
                var low = 0, high = items.count
                while low < high {
                    let mid = (low + high) / 2
                    let placement = placements[section.firstItem + Int(items[mid])]
                    if placement.main + placement.length > query.main.lowerBound { high = mid } else { low = mid + 1 }
                }
                var next = low
                while next < items.count {
                    let item = Int(items[next])
                    let position = section.firstItem + item
                    guard placements[position].main < query.main.upperBound else { break }
                    let frame = frame(ofItemAt: position)
                    if frame.isVisible(in: rect) { try body(ItemIndex(item: item, section: s), frame) }
                    next += 1
                }
            }
            s += 1
        }
    }

    /// A waterfall has no rows: an item rests with its top edge (less the
    /// spacing) at the leading edge, or its section's start when it heads
    /// its column.
    public func restingPosition(showing index: ItemIndex) -> CGFloat? {
        guard index.item >= 0, index.item < numberOfItems(inSection: index.section) else { return nil }
        let section = sections[index.section]
        let placement = placements[section.firstItem + index.item]
        let headsColumn = section.columns[Int(placement.column)].first == Int32(index.item)
        return mapping.position(headsColumn ? sectionStarts[index.section] : placement.main - mainGap)
    }

    /// The nearest of the section starts and the items' resting positions
    /// in the section around `position`. O(columns · log N).
    public func restingPosition(nearest position: CGFloat) -> CGFloat? {
        guard position.isFinite, !sections.isEmpty else { return nil }
        let logical = mapping.position(position)
        let s = min(firstSection(endingAfter: logical, in: sectionStarts), sections.count - 1)
        let section = sections[s]
        var best = sectionStarts[s]
        func consider(_ candidate: CGFloat) {
            if abs(candidate - logical) < abs(best - logical) { best = candidate }
        }
        consider(sectionStarts[s + 1])
        for items in section.columns where items.count > 1 {
            // Resting positions in a column increase with the item; skip its first (the section start).
            var low = 1, high = items.count
            while low < high {
                let mid = (low + high) / 2
                if placements[section.firstItem + Int(items[mid])].main - mainGap < logical { low = mid + 1 } else { high = mid }
            }
            for candidate in [low - 1, low] where candidate >= 1 && candidate < items.count {
                consider(placements[section.firstItem + Int(items[candidate])].main - mainGap)
            }
        }
        return mapping.position(best)
    }

    // MARK: Geometry

    @inlinable
    func frame(ofItemAt position: Int) -> CGRect {
        let placement = placements[position]
        return mapping.rect(main: Span(placement.main, placement.length),
                            cross: Span(crossOrigin + CGFloat(placement.column) * crossPitch, columnWidth))
    }
}
