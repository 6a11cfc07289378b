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
        try layout(mode, columns: columns, sections: [max(count, 0)], titled: false, size: size, shapes: shapes)
    }

    /// The height of a section's header (its title: "June 2024"), when the
    /// photos are grouped.
    package static let sectionHeaderHeight: CGFloat = 40

    /// The layout `mode` of photos in sections of `sections` photos each
    /// (positions run on from one section to the next), each section under
    /// a header ``sectionHeaderHeight`` tall, seen as one section of
    /// consecutive positions (``FlattenedSections``). A single section has
    /// a header only when `titled`; without one it is laid out as before.
    ///
    /// - Throws: ``LayoutError`` for a window too small for any layout.
    /// - Complexity: O(sections) for grid and list; O(count · columns) for
    ///   the waterfall and O(count) for the quilt.
    package static func layout(_ mode: GalleryLayout, columns: Int?, sections: [Int], titled: Bool, size: CGSize,
                               shapes: PhotoShapes) throws(LayoutError) -> any ItemLayout {
        let range = mode.pinchColumns
        let fixed = columns.map { min(max($0, range.lowerBound), range.upperBound) }
        let titled = titled || sections.count > 1
        let header = titled ? sectionHeaderHeight : nil
        func flattened<L: ItemLayout>(_ layout: L) -> any ItemLayout { titled ? FlattenedSections(layout) : layout }
        switch mode {
        case .grid, .list:
            return flattened(try grid(columns: mode == .list ? 1 : fixed, sections: sections, size: size, header: header))
        case .quilt:
            var n = fixed ?? 0
            if fixed == nil { n = max(try grid(columns: nil, sections: [0], size: size, header: nil).columnCount, range.lowerBound) }
            return flattened(try quilt(columns: n, sections: sections, size: size, shapes: shapes, header: header))
        case .waterfall:
            var configuration = WaterfallConfiguration()
            if let fixed { configuration.columns = .fixed(fixed) }
            if let header { configuration.headerHeight = header }
            var start = 0
            let sizes = sections.map { count -> [CGSize] in
                defer { start += max(count, 0) }
                return (start..<(start + max(count, 0))).map(shapes.waterfallSize(of:))
            }
            return flattened(try WaterfallLayout(configuration: configuration, sections: sizes, containerSize: size))
        }
    }

    /// The grid of `columns` fixed columns (the list for one column), or the
    /// flexible grid for `nil`.
    private static func grid(columns: Int?, sections: [Int], size: CGSize, header: CGFloat?) throws(LayoutError) -> GridLayout {
        var configuration = GridConfiguration.grid
        if let columns {
            if columns <= 1 { configuration = .list } else { configuration.columns = .fixed(columns) }
        }
        if let header { configuration.headerHeight = header }
        return try GridLayout(configuration: configuration, itemCounts: sections, containerSize: size)
    }

    /// A quilt of `columns` square blocks across the window: blocks inset by
    /// half the grid's gap, so photos sit 8 pt apart and 8 pt from the edges.
    private static func quilt(columns: Int, sections: [Int], size: CGSize,
                              shapes: PhotoShapes, header: CGFloat?) throws(LayoutError) -> QuiltLayout {
        let gap: CGFloat = 8
        let width = size.width.isFinite ? size.width : 0
        var block = (width - gap) / CGFloat(columns)
        // A window so narrow that the margin would fit another column: no margin.
        if (width / block).rounded(.down) > CGFloat(columns) { block = width / CGFloat(columns) }
        let configuration = QuiltConfiguration(
            blockSize: CGSize(width: block, height: block), itemInsets: EdgeInsets(all: gap / 2),
            headerHeight: header ?? gap / 2, footerHeight: gap / 2)
        var start = 0
        let spans = sections.map { count -> [QuiltSpan] in
            defer { start += max(count, 0) }
            return (start..<(start + max(count, 0))).map { shapes.quiltSpan(of: $0, columns: columns) }
        }
        return try QuiltLayout(configuration: configuration, sections: spans, containerSize: size)
    }

    /// The number of columns `layout` has (block columns for a quilt).
    package static func columnCount(of layout: any ItemLayout) -> Int {
        switch layout {
        case let grid as GridLayout: return grid.columnCount
        case let quilt as QuiltLayout: return quilt.columnCount
        case let waterfall as WaterfallLayout: return waterfall.columnCount
        case let any as AnyItemLayout: return columnCount(of: any.base)
        case let flattened as any FlattenedLayout: return columnCount(of: flattened.sectionedLayout)
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
        case let flattened as any FlattenedLayout: return rowStep(in: flattened.sectionedLayout)
        default: return 100
        }
    }
}
