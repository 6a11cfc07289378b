#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

/// A grid (or list) laid out in closed form: RHGridCollectionView's
/// constant-spacing grid (RolfHendriks' UICollectionView-Demo), with sections, headers, both axes and
/// right-to-left.
///
/// Nothing is stored per item. Building a layout costs O(sections); after
/// that the frame of any item is O(1), the items in a rectangle cost
/// O(log sections + sections crossed + k) for k results, and the content
/// size is a stored value. Ten million items cost the same as ten.
///
/// Column count (RHGridCollectionView), with `W` the width left between the
/// side margins, `cw` the preferred cell width and `s` the column spacing:
///
///     columns = fixed count, or 1 if W ≤ cw, else ⌊1 + (W − cw) / (cw + s)⌋
///
/// Flexible cells then stretch to `(W − (columns − 1)·s) / columns` (height
/// by the preferred aspect ratio, or the preferred height); fixed cells keep
/// their size and the margins share the rest equally.
///
/// A section's first item sits in the first column, unless the grid was
/// ``aligning(_:across:)`` an item to a column: then the section's first
/// row starts further in, as a calendar month starts mid-week, and every
/// item of the section sits that many cells later. ``DensityPinch`` does
/// this so that the photo under the fingers lands in the column under them
/// at every column count.
public struct GridLayout: ItemLayout {
    /// The settings the layout was built from.
    public let configuration: GridConfiguration
    /// The size of the container (the scroll view's bounds) it was built for.
    public let containerSize: CGSize
    /// The number of columns (lines across the scroll axis).
    public let columnCount: Int
    /// The size of every cell.
    public let itemSize: CGSize
    /// The size of all the content: the container's extent across the axis;
    /// along it, every section's header, margins and rows. A stored value.
    public let contentSize: CGSize

    @usableFromInline let itemCounts: [Int]
    /// `firstColumns[s]` is the column of section `s`'s first item, in
    /// `0..<columnCount` (0 unless aligned).
    @usableFromInline let firstColumns: [Int]
    /// `sectionStarts[s]` is where section `s` begins along the axis; the
    /// last element is where the content ends.
    @usableFromInline let sectionStarts: [CGFloat]
    @usableFromInline let crossOrigin: CGFloat   // cross position of the first column
    @usableFromInline let crossPitch: CGFloat    // cell cross extent + column spacing
    @usableFromInline let itemMain: CGFloat
    @usableFromInline let itemCross: CGFloat
    @usableFromInline let mainGap: CGFloat
    @usableFromInline let rowsOffset: CGFloat    // from a section's start to its first row (header + margin)

    @usableFromInline let mapping: AxisMapping

    /// The scroll axis, from the configuration.
    public var axis: ScrollAxis { configuration.axis }
    /// Whether the content starts on the right: a horizontal grid laid out
    /// right to left.
    public var isMainAxisMirrored: Bool { mapping.mirrorsMain }
    /// `true`: rows hold consecutive items, each section after the last.
    public var placesItemsInIndexOrder: Bool { true }

    /// Builds the layout for sections of `itemCounts` items in a container
    /// of `containerSize`.
    ///
    /// Any container size is accepted: a non-finite or negative extent
    /// reads as zero, which gives one column of zero-width cells (nothing is
    /// ever visible) instead of a crash, as happens to views that are not yet
    /// laid out.
    ///
    /// - Throws: ``LayoutError`` for a configuration value that is negative,
    ///   non-finite or zero where it must not be, or a negative item count.
    /// - Complexity: O(sections).
    public init(configuration: GridConfiguration, itemCounts: [Int], containerSize: CGSize) throws(LayoutError) {
        try self.init(configuration: configuration, itemCounts: itemCounts, containerSize: containerSize, firstColumns: [])
    }

    /// The designated initializer: `firstColumns` (taken modulo the column
    /// count; missing sections start in the first column) shifts each
    /// section's items along its rows.
    init(configuration: GridConfiguration, itemCounts: [Int], containerSize: CGSize,
         firstColumns: [Int]) throws(LayoutError) {
        try configuration.validate()
        for (section, count) in itemCounts.enumerated() {
            try LayoutError.require(count, "itemCounts[\(section)]", atLeast: 0)
        }
        let axis = configuration.axis
        let margins = configuration.margins
        let sanitized = CGSize(
            width: containerSize.width.isFinite ? max(containerSize.width, 0) : 0,
            height: containerSize.height.isFinite ? max(containerSize.height, 0) : 0)
        let containerCross = axis.cross(sanitized)
        let crossLower = axis == .vertical ? margins.left : margins.top
        let crossUpper = axis == .vertical ? margins.right : margins.bottom
        let crossGap = axis.cross(configuration.spacing)
        let preferredCross = axis.cross(configuration.preferredItemSize)
        let preferredMain = axis.main(configuration.preferredItemSize)
        let available = containerCross - crossLower - crossUpper

        let columns = configuration.columns.count(available: available, preferred: preferredCross, spacing: crossGap)
        let gaps = CGFloat(columns - 1) * crossGap
        var cellCross: CGFloat
        var cellMain: CGFloat
        let origin: CGFloat
        switch configuration.cellSizing {
        case .flexible:
            cellCross = max((available - gaps) / CGFloat(columns), 0)
            cellMain = configuration.rowHeight == .keepsAspectRatio ? cellCross * preferredMain / preferredCross : preferredMain
            origin = crossLower
        case .fixed:
            cellCross = preferredCross
            cellMain = preferredMain
            origin = crossLower + (available - (CGFloat(columns) * preferredCross + gaps)) / 2
        }
        if !(cellCross.isFinite && cellMain.isFinite) { cellCross = 0; cellMain = 0 }

        let leads = itemCounts.indices.map { section in
            section < firstColumns.count ? (firstColumns[section] % columns + columns) % columns : 0
        }
        let mainGap = axis.main(configuration.spacing)
        let mainLower = axis == .vertical ? margins.top : margins.left
        let mainUpper = axis == .vertical ? margins.bottom : margins.right
        var starts: [CGFloat] = []
        starts.reserveCapacity(itemCounts.count + 1)
        var position: CGFloat = 0
        for (count, lead) in zip(itemCounts, leads) {
            starts.append(position)
            let rows = Self.rows(count, columns, after: lead)
            let rowsExtent = rows > 0 ? CGFloat(rows) * cellMain + CGFloat(rows - 1) * mainGap : 0
            position += configuration.headerHeight + mainLower + rowsExtent + mainUpper
        }
        starts.append(position)

        self.configuration = configuration
        self.containerSize = sanitized
        self.columnCount = columns
        self.itemCounts = itemCounts
        self.firstColumns = leads
        self.sectionStarts = starts
        self.crossOrigin = origin
        self.crossPitch = cellCross + crossGap
        self.itemMain = cellMain
        self.itemCross = cellCross
        self.mainGap = mainGap
        self.rowsOffset = configuration.headerHeight + mainLower
        self.itemSize = axis.size(main: cellMain, cross: cellCross)
        self.contentSize = axis.size(main: position, cross: containerCross)
        self.mapping = AxisMapping(axis: axis, direction: configuration.layoutDirection,
                                   mainExtent: position, crossExtent: containerCross)
    }

    /// A single-section layout of `itemCount` items.
    public init(configuration: GridConfiguration, itemCount: Int, containerSize: CGSize) throws(LayoutError) {
        try self.init(configuration: configuration, itemCounts: [itemCount], containerSize: containerSize)
    }

    // MARK: ItemLayout

    /// The number of sections, empty ones included.
    public var numberOfSections: Int { itemCounts.count }

    /// The number of items in `section`, 0 for a section the grid does not
    /// have. O(1).
    @inlinable
    public func numberOfItems(inSection section: Int) -> Int {
        itemCounts.indices.contains(section) ? itemCounts[section] : 0
    }

    /// The frame of the item at `index`, in closed form: O(1), nothing stored
    /// per item. `nil` for an index the grid does not have (a negative item,
    /// one past its section's count, a section that does not exist).
    @inlinable
    public func frame(of index: ItemIndex) -> CGRect? {
        guard index.item >= 0, index.item < numberOfItems(inSection: index.section) else { return nil }
        let (row, column) = Self.cell(of: index.item, columns: columnCount, after: firstColumns[index.section])
        return unsafeFrame(row: row, column: column, section: index.section)
    }

    /// The column of `section`'s first item: 0 unless the grid was aligned
    /// (``aligning(_:across:)``); 0 for a section the grid does not have.
    public func firstColumn(ofSection section: Int) -> Int {
        firstColumns.indices.contains(section) ? firstColumns[section] : 0
    }

    /// The same grid with `index` in the column across from `position` (a
    /// coordinate across the axis, in content coordinates): the column whose
    /// cells are centred nearest to it, the first or the last beyond the
    /// edges. The item's section starts its first row further in to put it
    /// there; every other section is unchanged. The grid itself for an index
    /// it does not have or a non-finite position.
    ///
    /// - Complexity: O(sections).
    public func aligning(_ index: ItemIndex, across position: CGFloat) -> GridLayout {
        guard index.item >= 0, index.item < numberOfItems(inSection: index.section), position.isFinite,
              crossPitch > 0 else { return self }
        let logical = mapping.spans(of: axis.rect(main: Span(0, 0), cross: Span(position, 0))).cross.lowerBound
        let nearest = ((logical - crossOrigin - itemCross / 2) / crossPitch).rounded()
        let column = Int(min(max(nearest, 0), CGFloat(columnCount - 1)))
        var leads = firstColumns
        leads[index.section] = ((column - index.item) % columnCount + columnCount) % columnCount
        guard leads != firstColumns else { return self }
        // The configuration and container were accepted once; only the sections' starts change.
        return (try? GridLayout(configuration: configuration, itemCounts: itemCounts, containerSize: containerSize,
                                firstColumns: leads)) ?? self
    }

    /// The frame of `section`'s header: a band of
    /// ``GridConfiguration/headerHeight`` across the whole content at the
    /// section's start. `nil` when that height is 0 or the section does not
    /// exist.
    public func headerFrame(ofSection section: Int) -> CGRect? {
        guard configuration.headerHeight > 0, itemCounts.indices.contains(section) else { return nil }
        return mapping.band(Span(sectionStarts[section], configuration.headerHeight))
    }

    /// Calls `body` for every item whose frame is visible in `rect`
    /// (`CGRect.isVisible(in:)`), each exactly once, in index order. A `rect`
    /// with a non-finite value, or a grid whose cells have no area, reports
    /// nothing.
    ///
    /// Complexity: O(log sections + sections crossed + k) for k items, with
    /// no allocation.
    @inlinable
    public func forEachItem(in rect: CGRect, _ body: (ItemIndex, CGRect) throws -> Void) rethrows {
        guard itemMain > 0, itemCross > 0, AxisMapping.isUsable(rect) else { return }
        let query = mapping.spans(of: rect)
        let total = sectionStarts[sectionStarts.count - 1]
        guard query.main.upperBound > 0, query.main.lowerBound < total else { return }

        let pitch = itemMain + mainGap
        let lastColumn = CGFloat(columnCount - 1)
        let firstColumn = Int(min(max(((query.cross.lowerBound - crossOrigin) / crossPitch).rounded(.down), 0), lastColumn))
        let endColumn = Int(min(max(((query.cross.upperBound - crossOrigin) / crossPitch).rounded(.down), 0), lastColumn))

        var section = firstSection(endingAfter: query.main.lowerBound, in: sectionStarts)
        while section < itemCounts.count, sectionStarts[section] < query.main.upperBound {
            let count = itemCounts[section]
            let lead = firstColumns[section]
            let rows = Self.rows(count, columnCount, after: lead)
            if rows > 0 {
                let rowsStart = sectionStarts[section] + rowsOffset
                let lastRow = CGFloat(rows - 1)
                let firstRow = Int(min(max(((query.main.lowerBound - rowsStart) / pitch).rounded(.down), 0), lastRow))
                let endRow = Int(min(max(((query.main.upperBound - rowsStart) / pitch).rounded(.down), 0), lastRow))
                for row in firstRow...endRow {
                    let main = Span(rowsStart + CGFloat(row) * pitch, itemMain)
                    let rowStart = Self.firstItem(ofRow: row, columns: columnCount, after: lead)
                    for column in firstColumn...endColumn {
                        // Compared before adding: `rowStart + column` may not fit an `Int` past the last item.
                        guard rowStart < 0 || column < count - rowStart else { break }
                        let item = rowStart + column
                        guard item < count else { break }
                        guard item >= 0 else { continue }
                        let frame = mapping.rect(main: main, cross: Span(crossOrigin + CGFloat(column) * crossPitch, itemCross))
                        if frame.isVisible(in: rect) { try body(ItemIndex(item: item, section: section), frame) }
                    }
                }
            }
            section += 1
        }
    }

    /// The position that puts the row of `index` first: its section's start
    /// (header included) for a first row, else the row's start less one row
    /// spacing. O(1); `nil` for an index the grid does not have.
    public func restingPosition(showing index: ItemIndex) -> CGFloat? {
        guard index.item >= 0, index.item < numberOfItems(inSection: index.section) else { return nil }
        let line = Self.cell(of: index.item, columns: columnCount, after: firstColumns[index.section]).row
        return mapping.position(rests(ofSection: index.section).rest(line: line))
    }

    /// The resting position (see ``restingPosition(showing:)``) nearest to
    /// `position`, among the rows of the section it falls in and the next
    /// section's start. O(log sections); `nil` for a grid without sections
    /// or a non-finite position.
    public func restingPosition(nearest position: CGFloat) -> CGFloat? {
        guard position.isFinite, !itemCounts.isEmpty else { return nil }
        let logical = mapping.position(position)
        let section = min(firstSection(endingAfter: logical, in: sectionStarts), itemCounts.count - 1)
        let nearest = rests(ofSection: section).nearest(to: logical, nextSectionStart: sectionStarts[section + 1])
        return mapping.position(nearest)
    }

    // MARK: Geometry helpers

    /// The rows `count` items fill in `columns` columns, without the
    /// overflow `(count + columns − 1) / columns` has near `Int.max`.
    @inlinable
    static func rows(_ count: Int, _ columns: Int) -> Int {
        count / columns + (count % columns == 0 ? 0 : 1)
    }

    /// The rows `count` items fill in `columns` columns when the first row
    /// starts `lead` cells in (`0 ≤ lead < columns`); 0 for no items. No
    /// intermediate value exceeds `count`, so `Int.max` items are fine.
    @inlinable
    static func rows(_ count: Int, _ columns: Int, after lead: Int) -> Int {
        guard count > 0 else { return 0 }
        let rest = count % columns + lead                       // < 2 · columns
        return count / columns + rest / columns + (rest % columns == 0 ? 0 : 1)
    }

    /// The row and column of item `item` when the first row starts `lead`
    /// cells in, without forming `item + lead` (which may not fit an `Int`).
    @inlinable
    static func cell(of item: Int, columns: Int, after lead: Int) -> (row: Int, column: Int) {
        let rest = item % columns + lead
        return (item / columns + rest / columns, rest % columns)
    }

    /// The item in the first column of `row` when the first row starts
    /// `lead` cells in: negative for the first row of an aligned section
    /// (cells before its first item). Never past the row's real items, so
    /// it cannot overflow where they exist.
    @inlinable
    static func firstItem(ofRow row: Int, columns: Int, after lead: Int) -> Int {
        row == 0 ? -lead : (row - 1) * columns + (columns - lead)
    }

    /// The frame of the cell at `row` and `column` of `section`, unchecked.
    @inlinable
    func unsafeFrame(row: Int, column: Int, section: Int) -> CGRect {
        let main = sectionStarts[section] + rowsOffset + CGFloat(row) * (itemMain + mainGap)
        let cross = crossOrigin + CGFloat(column) * crossPitch
        return mapping.rect(main: Span(main, itemMain), cross: Span(cross, itemCross))
    }

    private func rests(ofSection section: Int) -> RegularSection {
        let count = itemCounts[section]
        return RegularSection(sectionStart: sectionStarts[section], firstLine: sectionStarts[section] + rowsOffset,
                              pitch: itemMain + mainGap,
                              count: Self.rows(count, columnCount, after: firstColumns[section]), gap: mainGap)
    }
}
