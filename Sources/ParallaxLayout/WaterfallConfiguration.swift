#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

/// The settings of a ``WaterfallLayout``: columns, margins and spacing as
/// in the grid (``GridConfiguration``), but every item keeps its own aspect
/// ratio.
public struct WaterfallConfiguration: Sendable, Hashable {
    /// How many columns: as many as fit at ``preferredColumnWidth``, or a
    /// fixed count.
    public var columns: GridConfiguration.Columns
    /// The minimum column width when the columns are flexible.
    public var preferredColumnWidth: CGFloat
    /// Space around the items of each section, in points.
    public var margins: EdgeInsets
    /// Space between columns (`width`) and between items in a column (`height`).
    public var spacing: CGSize
    /// The extent of each section's header along the axis; 0 for none.
    public var headerHeight: CGFloat
    /// The scroll axis; the columns run along it (a horizontal waterfall's
    /// columns are rows).
    public var axis: ScrollAxis
    /// Right-to-left mirrors the waterfall: the first column is on the right
    /// (and for a horizontal waterfall, the content starts on the right).
    public var layoutDirection: LayoutDirection

    /// A configuration. The defaults match the photo grid's
    /// (``GridConfiguration/grid``): flexible columns at least 148 pt wide,
    /// 8-pt margins and spacing, no header, vertical, left to right. Nothing
    /// is checked here: ``WaterfallLayout`` calls ``validate()`` when it is
    /// built.
    public init(
        columns: GridConfiguration.Columns = .flexible,
        preferredColumnWidth: CGFloat = 148,
        margins: EdgeInsets = EdgeInsets(all: 8),
        spacing: CGSize = CGSize(width: 8, height: 8),
        headerHeight: CGFloat = 0,
        axis: ScrollAxis = .vertical,
        layoutDirection: LayoutDirection = .leftToRight
    ) {
        self.columns = columns
        self.preferredColumnWidth = preferredColumnWidth
        self.margins = margins
        self.spacing = spacing
        self.headerHeight = headerHeight
        self.axis = axis
        self.layoutDirection = layoutDirection
    }

    /// Checks every value; ``WaterfallLayout`` calls this when it is built.
    public func validate() throws(LayoutError) {
        try LayoutError.require(Double(preferredColumnWidth), "preferredColumnWidth", atLeast: 0, inclusive: false)
        try LayoutError.require(margins, "margins")
        try LayoutError.require(spacing, "spacing")
        try LayoutError.require(Double(headerHeight), "headerHeight")
        if case .fixed(let count) = columns { try LayoutError.require(count, "columns", atLeast: 1) }
    }

    /// Hashes every setting, the values `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(columns)
        hasher.combine(preferredColumnWidth)
        hasher.combine(margins)
        hasher.combine(size: spacing)
        hasher.combine(headerHeight)
        hasher.combine(axis)
        hasher.combine(layoutDirection)
    }
}
