#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore
import ParallaxLayout

/// Builds the gallery's four layouts (``GalleryLayout``) for a window size,
/// a column count and what is known of the photos' shapes.
///
/// All four share the grid's spacing (RolfHendriks' UICollectionView-Demo:
/// 8-pt margins and gaps) so that switching between them moves photos, not
/// gutters. Every layout is computed once, in closed form (grid, list) or
/// in one pass over the photos (quilt, waterfall), and only read while
/// scrolling.
package enum GalleryLayouts {
    /// The layout `mode` of `count` photos in a window of `size`, with
    /// `columns` columns (a pinch's choice), or as many as fit for `nil`.
    ///
    /// - Throws: ``LayoutError`` for a window too small for any layout
    ///   (zero or not finite).
    /// - Complexity: O(1) for grid and list; O(count · columns) for the
    ///   waterfall and O(count) for the quilt.
    package static func layout(_ mode: GalleryLayout, columns: Int?, count: Int, size: CGSize,
                               shapes: PhotoShapes) throws(LayoutError) -> any ItemLayout {
        let range = mode.pinchColumns
        let fixed = columns.map { min(max($0, range.lowerBound), range.upperBound) }
        switch mode {
        case .grid, .list:
            return try grid(columns: mode == .list ? 1 : fixed, count: count, size: size)
        case .quilt:
            var n = fixed ?? 0
            if fixed == nil { n = max(try grid(columns: nil, count: 0, size: size).columnCount, range.lowerBound) }
            return try quilt(columns: n, count: count, size: size, shapes: shapes)
        case .waterfall:
            var configuration = WaterfallConfiguration()
            if let fixed { configuration.columns = .fixed(fixed) }
            let sizes = (0..<max(count, 0)).map(shapes.waterfallSize(of:))
            return try WaterfallLayout(configuration: configuration, itemSizes: sizes, containerSize: size)
        }
    }

    /// The grid of `columns` fixed columns (the list for one column), or the
    /// flexible grid for `nil`.
    private static func grid(columns: Int?, count: Int, size: CGSize) throws(LayoutError) -> GridLayout {
        guard let columns else { return try GridLayout(configuration: .grid, itemCount: count, containerSize: size) }
        if columns <= 1 { return try GridLayout(configuration: .list, itemCount: count, containerSize: size) }
        var configuration = GridConfiguration.grid
        configuration.columns = .fixed(columns)
        return try GridLayout(configuration: configuration, itemCount: count, containerSize: size)
    }

    /// A quilt of `columns` square blocks across the window: blocks inset by
    /// half the grid's gap, so photos sit 8 pt apart and 8 pt from the edges.
    private static func quilt(columns: Int, count: Int, size: CGSize,
                              shapes: PhotoShapes) throws(LayoutError) -> QuiltLayout {
        let gap: CGFloat = 8
        let width = size.width.isFinite ? size.width : 0
        var block = (width - gap) / CGFloat(columns)
        // A window so narrow that the margin would fit another column: no margin.
        if (width / block).rounded(.down) > CGFloat(columns) { block = width / CGFloat(columns) }
        let configuration = QuiltConfiguration(
            blockSize: CGSize(width: block, height: block), itemInsets: EdgeInsets(all: gap / 2),
            headerHeight: gap / 2, footerHeight: gap / 2)
        let spans = (0..<max(count, 0)).map { shapes.quiltSpan(of: $0, columns: columns) }
        return try QuiltLayout(configuration: configuration, spans: spans, containerSize: size)
    }

    /// The number of columns `layout` has (block columns for a quilt).
    package static func columnCount(of layout: any ItemLayout) -> Int {
        switch layout {
        case let grid as GridLayout: return grid.columnCount
        case let quilt as QuiltLayout: return quilt.columnCount
        case let waterfall as WaterfallLayout: return waterfall.columnCount
        case let any as AnyItemLayout: return columnCount(of: any.base)
        default: return 1
        }
    }

    /// How far an arrow key scrolls in `layout`: one row of photos.
    package static func rowStep(in layout: any ItemLayout) -> CGFloat {
        switch layout {
        case let grid as GridLayout: return grid.itemSize.height + grid.configuration.spacing.height
        case let quilt as QuiltLayout: return quilt.configuration.blockSize.height
        case let waterfall as WaterfallLayout: return waterfall.columnWidth * 3 / 4 + waterfall.configuration.spacing.height
        case let any as AnyItemLayout: return rowStep(in: any.base)
        default: return 100
        }
    }
}
