#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

/// A grid (or list) laid out in closed form: RHGridCollectionView's
/// constant-spacing grid (seed 003), with sections, headers, both axes and
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
public struct GridLayout: ItemLayout {
    /// The settings the layout was built from.
    public let configuration: GridConfiguration
    /// The size of the container (the scroll view's bounds) it was built for.
    public let containerSize: CGSize
    /// The number of columns (lines across the scroll axis).
    public let columnCount: Int
    /// The size of every cell.
    public let itemSize: CGSize
    public let contentSize: CGSize

    private let itemCounts: [Int]
    /// `sectionStarts[s]` is where section `s` begins along the axis; the
    /// last element is where the content ends.
    private let sectionStarts: [CGFloat]
    private let crossOrigin: CGFloat   // cross position of the first column
    private let crossPitch: CGFloat    // cell cross extent + column spacing
    private let itemMain: CGFloat
    private let itemCross: CGFloat
    private let mainGap: CGFloat
    private let rowsOffset: CGFloat    // from a section's start to its first row (header + margin)

    public var axis: ScrollAxis { configuration.axis }
    public var isMainAxisMirrored: Bool { axis == .horizontal && configuration.layoutDirection == .rightToLeft }
    private var isCrossAxisMirrored: Bool { axis == .vertical && configuration.layoutDirection == .rightToLeft }

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

        let columns: Int
        switch configuration.columns {
        case .fixed(let count):
            columns = count
        case .flexible:
            // Capped so an absurd width cannot overflow Int.
            columns = available <= preferredCross
                ? 1 : Int(min((1 + (available - preferredCross) / (preferredCross + crossGap)).rounded(.down), 1e6))
        }
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

        let mainGap = axis.main(configuration.spacing)
        let mainLower = axis == .vertical ? margins.top : margins.left
        let mainUpper = axis == .vertical ? margins.bottom : margins.right
        var starts: [CGFloat] = []
        starts.reserveCapacity(itemCounts.count + 1)
        var position: CGFloat = 0
        for count in itemCounts {
            starts.append(position)
            let rows = (count + columns - 1) / columns
            let rowsExtent = rows > 0 ? CGFloat(rows) * cellMain + CGFloat(rows - 1) * mainGap : 0
            position += configuration.headerHeight + mainLower + rowsExtent + mainUpper
        }
        starts.append(position)

        self.configuration = configuration
        self.containerSize = sanitized
        self.columnCount = columns
        self.itemCounts = itemCounts
        self.sectionStarts = starts
        self.crossOrigin = origin
        self.crossPitch = cellCross + crossGap
        self.itemMain = cellMain
        self.itemCross = cellCross
        self.mainGap = mainGap
        self.rowsOffset = configuration.headerHeight + mainLower
        self.itemSize = axis.size(main: cellMain, cross: cellCross)
        self.contentSize = axis.size(main: position, cross: containerCross)
    }

    /// A single-section layout of `itemCount` items.
    public init(configuration: GridConfiguration, itemCount: Int, containerSize: CGSize) throws(LayoutError) {
        try self.init(configuration: configuration, itemCounts: [itemCount], containerSize: containerSize)
    }

    // MARK: ItemLayout

    public var numberOfSections: Int { itemCounts.count }

    public func numberOfItems(inSection section: Int) -> Int {
        itemCounts.indices.contains(section) ? itemCounts[section] : 0
    }

    @inlinable
    public func frame(of index: ItemIndex) -> CGRect? {
        guard index.item >= 0, index.item < numberOfItems(inSection: index.section) else { return nil }
        return unsafeFrame(row: index.item / columnCount, column: index.item % columnCount, section: index.section)
    }

    public func headerFrame(ofSection section: Int) -> CGRect? {
        guard configuration.headerHeight > 0, itemCounts.indices.contains(section) else { return nil }
        return physicalRect(main: Span(sectionStarts[section], configuration.headerHeight),
                            cross: Span(0, axis.cross(contentSize)))
    }

    public func forEachItem(in rect: CGRect, _ body: (ItemIndex, CGRect) throws -> Void) rethrows {
        guard itemMain > 0, itemCross > 0, rect.origin.x.isFinite, rect.origin.y.isFinite,
              rect.size.width.isFinite, rect.size.height.isFinite else { return }
        let query = logicalSpans(of: rect)
        let total = sectionStarts[sectionStarts.count - 1]
        guard query.main.upperBound > 0, query.main.lowerBound < total else { return }

        let pitch = itemMain + mainGap
        let lastColumn = CGFloat(columnCount - 1)
        let firstColumn = Int(min(max(((query.cross.lowerBound - crossOrigin) / crossPitch).rounded(.down), 0), lastColumn))
        let endColumn = Int(min(max(((query.cross.upperBound - crossOrigin) / crossPitch).rounded(.down), 0), lastColumn))

        var section = firstSection(endingAfter: query.main.lowerBound)
        while section < itemCounts.count, sectionStarts[section] < query.main.upperBound {
            let count = itemCounts[section]
            let rows = (count + columnCount - 1) / columnCount
            if rows > 0 {
                let rowsStart = sectionStarts[section] + rowsOffset
                let lastRow = CGFloat(rows - 1)
                let firstRow = Int(min(max(((query.main.lowerBound - rowsStart) / pitch).rounded(.down), 0), lastRow))
                let endRow = Int(min(max(((query.main.upperBound - rowsStart) / pitch).rounded(.down), 0), lastRow))
                for row in firstRow...endRow {
                    for column in firstColumn...endColumn {
                        let item = row * columnCount + column
                        guard item < count else { break }
                        let frame = unsafeFrame(row: row, column: column, section: section)
                        if frame.isVisible(in: rect) { try body(ItemIndex(item: item, section: section), frame) }
                    }
                }
            }
            section += 1
        }
    }

    public func restingPosition(showing index: ItemIndex) -> CGFloat? {
        guard index.item >= 0, index.item < numberOfItems(inSection: index.section) else { return nil }
        return physicalPosition(logicalRest(row: index.item / columnCount, section: index.section))
    }

    public func restingPosition(nearest position: CGFloat) -> CGFloat? {
        guard position.isFinite, !itemCounts.isEmpty else { return nil }
        let logical = isMainAxisMirrored ? contentExtent - position : position
        let section = firstSection(endingAfter: logical)
        let clampedSection = min(section, itemCounts.count - 1)
        // Candidates: the section's start, the rows around the position, the next section's start.
        var best = sectionStarts[clampedSection]
        func consider(_ candidate: CGFloat) {
            if abs(candidate - logical) < abs(best - logical) { best = candidate }
        }
        let rows = (itemCounts[clampedSection] + columnCount - 1) / columnCount
        let pitch = itemMain + mainGap
        if rows > 1, pitch > 0 {
            let rowsStart = sectionStarts[clampedSection] + rowsOffset
            let fractional = (logical + mainGap - rowsStart) / pitch
            let below = min(max(fractional.rounded(.down), 1), CGFloat(rows - 1))
            consider(logicalRest(row: Int(below), section: clampedSection))
            consider(logicalRest(row: Int(min(below + 1, CGFloat(rows - 1))), section: clampedSection))
        }
        consider(sectionStarts[min(clampedSection + 1, itemCounts.count)])
        return physicalPosition(best)
    }

    // MARK: Geometry helpers

    /// The frame of the cell at `row` and `column` of `section`, unchecked.
    @usableFromInline
    func unsafeFrame(row: Int, column: Int, section: Int) -> CGRect {
        let main = sectionStarts[section] + rowsOffset + CGFloat(row) * (itemMain + mainGap)
        let cross = crossOrigin + CGFloat(column) * crossPitch
        return physicalRect(main: Span(main, itemMain), cross: Span(cross, itemCross))
    }

    private func logicalRest(row: Int, section: Int) -> CGFloat {
        row == 0
            ? sectionStarts[section]
            : sectionStarts[section] + rowsOffset + CGFloat(row) * (itemMain + mainGap) - mainGap
    }

    /// Mirrored layouts flip positions; the flip is its own inverse.
    private func physicalPosition(_ logical: CGFloat) -> CGFloat {
        isMainAxisMirrored ? contentExtent - logical : logical
    }

    @usableFromInline
    func physicalRect(main: Span, cross: Span) -> CGRect {
        var main = main, cross = cross
        if isMainAxisMirrored { main.lowerBound = contentExtent - main.upperBound }
        if isCrossAxisMirrored { cross.lowerBound = axis.cross(contentSize) - cross.upperBound }
        return axis.rect(main: main, cross: cross)
    }

    private func logicalSpans(of rect: CGRect) -> (main: Span, cross: Span) {
        var main = axis.mainSpan(of: rect), cross = axis.crossSpan(of: rect)
        if isMainAxisMirrored { main.lowerBound = contentExtent - main.upperBound }
        if isCrossAxisMirrored { cross.lowerBound = axis.cross(contentSize) - cross.upperBound }
        return (main, cross)
    }

    /// The first section whose end lies after `position` (binary search);
    /// `numberOfSections` if none does.
    private func firstSection(endingAfter position: CGFloat) -> Int {
        var low = 0, high = itemCounts.count
        while low < high {
            let mid = (low + high) / 2
            if sectionStarts[mid + 1] > position { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
