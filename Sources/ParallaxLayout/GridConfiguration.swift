#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

/// The settings of a ``GridLayout``: RHGridCollectionView's model (RolfHendriks' UICollectionView-Demo).
///
/// Unlike a flow layout, the grid keeps a **constant spacing** between
/// cells; what flexes is either the cells (``CellSizing/flexible``: they
/// stretch to use the whole width) or the margins (``CellSizing/fixed``).
/// A list is the same grid with one column and no side margins, which is
/// why the two can switch into each other seamlessly.
///
/// "Width" below means the extent across the scroll axis; for a horizontal
/// grid read "height".
public struct GridConfiguration: Sendable, Hashable {
    /// How many columns there are.
    public enum Columns: Sendable, Hashable {
        /// As many as fit at the preferred cell width.
        case flexible
        /// Exactly this many; cells are sized to fit.
        case fixed(Int)
    }

    /// What absorbs the width left over once the columns are placed.
    public enum CellSizing: Sendable, Hashable {
        /// Cells stretch; the preferred size is their minimum.
        case flexible
        /// Cells keep the preferred size; the margins grow.
        case fixed
    }

    /// How tall a row is when cells stretch.
    public enum RowHeight: Sendable, Hashable {
        /// The preferred aspect ratio is kept.
        case keepsAspectRatio
        /// The preferred height is kept.
        case fixed
    }

    /// The preferred (minimum, for flexible sizing) cell size.
    public var preferredItemSize: CGSize
    /// Space around the items of each section.
    public var margins: EdgeInsets
    /// Space between columns (`width`) and between rows (`height`).
    public var spacing: CGSize
    /// How many columns there are: as many as fit (the default), or a fixed
    /// count of at least 1.
    public var columns: Columns
    /// What absorbs the width left over: the cells (the default) or the
    /// margins.
    public var cellSizing: CellSizing
    /// How tall a row is when cells stretch: by the preferred aspect ratio
    /// (the default) or the preferred height. Fixed cells keep the preferred
    /// size either way.
    public var rowHeight: RowHeight
    /// The height of each section's header; 0 for none.
    public var headerHeight: CGFloat
    /// The scroll axis. A horizontal grid fills columns of rows.
    public var axis: ScrollAxis
    /// Right-to-left mirrors the grid: the first column is on the right
    /// (and for a horizontal grid, the content starts on the right).
    public var layoutDirection: LayoutDirection

    /// A configuration. The defaults are RolfHendriks'
    /// UICollectionView-Demo's photo grid (``grid``): 148 × 148 pt preferred
    /// cells, 8-pt margins and spacing, flexible columns and cells, rows that
    /// keep the aspect ratio, no header, vertical, left to right. Nothing is
    /// checked here: ``GridLayout`` calls ``validate()`` when it is built.
    public init(
        preferredItemSize: CGSize = CGSize(width: 148, height: 148),
        margins: EdgeInsets = EdgeInsets(all: 8),
        spacing: CGSize = CGSize(width: 8, height: 8),
        columns: Columns = .flexible,
        cellSizing: CellSizing = .flexible,
        rowHeight: RowHeight = .keepsAspectRatio,
        headerHeight: CGFloat = 0,
        axis: ScrollAxis = .vertical,
        layoutDirection: LayoutDirection = .leftToRight
    ) {
        self.preferredItemSize = preferredItemSize
        self.margins = margins
        self.spacing = spacing
        self.columns = columns
        self.cellSizing = cellSizing
        self.rowHeight = rowHeight
        self.headerHeight = headerHeight
        self.axis = axis
        self.layoutDirection = layoutDirection
    }

    /// RolfHendriks' UICollectionView-Demo's photo grid: 148 × 148 preferred, 8-pt margins and
    /// spacing, flexible columns and cells, square cells. Two columns at
    /// 320 and 414 pt wide, four at 736.
    public static let grid = GridConfiguration()

    /// RolfHendriks' UICollectionView-Demo's list: one column, no margins, 8 pt between rows, cells
    /// as wide as the view and half as tall.
    public static let list = GridConfiguration(
        preferredItemSize: CGSize(width: 2, height: 1),
        margins: .zero,
        spacing: CGSize(width: 0, height: 8),
        columns: .fixed(1)
    )

    /// Checks every value; ``GridLayout`` calls this when it is built.
    public func validate() throws(LayoutError) {
        try LayoutError.require(Double(preferredItemSize.width), "preferredItemSize.width", atLeast: 0, inclusive: false)
        try LayoutError.require(Double(preferredItemSize.height), "preferredItemSize.height", atLeast: 0, inclusive: false)
        try LayoutError.require(margins, "margins")
        try LayoutError.require(spacing, "spacing")
        try LayoutError.require(Double(headerHeight), "headerHeight")
        if case .fixed(let count) = columns { try LayoutError.require(count, "columns", atLeast: 1) }
    }

    /// Hashes every setting, the values `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(size: preferredItemSize)
        hasher.combine(margins)
        hasher.combine(size: spacing)
        hasher.combine(columns)
        hasher.combine(cellSizing)
        hasher.combine(rowHeight)
        hasher.combine(headerHeight)
        hasher.combine(axis)
        hasher.combine(layoutDirection)
    }
}

extension GridConfiguration.Columns {
    /// The number of columns for `available` width between the margins,
    /// RHGridCollectionView's rule: the fixed count, or `1` if the
    /// preferred width does not fit more than once, else
    /// `⌊1 + (available − preferred) / (preferred + spacing)⌋` (capped at a
    /// million so an absurd width cannot overflow).
    func count(available: CGFloat, preferred: CGFloat, spacing: CGFloat) -> Int {
        switch self {
        case .fixed(let count):
            return count
        case .flexible:
            guard available > preferred else { return 1 }
            return Int(min((1 + (available - preferred) / (preferred + spacing)).rounded(.down), 1e6))
        }
    }
}
