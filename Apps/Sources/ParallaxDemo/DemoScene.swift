#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore
import ParallaxLayout

/// What the `parallax-demo` command shows: a layout, a viewport, a number
/// of items, a scroll position and an effect.
package struct DemoScene: Sendable, Hashable {
    /// The layouts the demo can build (RolfHendriks' UICollectionView-Demo's two).
    package enum Layout: String, Sendable, Hashable, CaseIterable, Codable {
        case grid, list
        /// The layout's configuration.
        package var configuration: GridConfiguration { self == .grid ? .grid : .list }
    }

    /// The effects the demo can apply.
    package enum Effect: String, Sendable, Hashable, CaseIterable, Codable {
        /// Depth parallax with RolfHendriks' UICollectionView-Demo's defaults (grid 10 pt, list 10 % of the cell).
        case depth
        /// A fixed background (the “Handmade Code: Parallax Table View” post).
        case window
        /// No parallax.
        case off
    }

    package var layout: Layout
    package var viewportSize: CGSize
    package var itemCount: Int
    package var contentOffset: CGFloat
    package var effect: Effect
    /// Overrides the depth amount in points (default: the layout's default, from RolfHendriks' UICollectionView-Demo).
    package var maxOffset: CGFloat?
    package var intensity: CGFloat
    package var reduceMotion: Bool
    /// The most visible items the report lists; it counts the rest. Keeps the
    /// report (and the command's output) bounded however large the viewport.
    package var maximumListedItems: Int

    /// The default for ``maximumListedItems``: far more than any real
    /// screen shows, few enough to print in a moment.
    package static let defaultMaximumListedItems = 10_000

    package init(layout: Layout = .grid, viewportSize: CGSize = CGSize(width: 390, height: 844),
                itemCount: Int = 1000, contentOffset: CGFloat = 0, effect: Effect = .depth,
                maxOffset: CGFloat? = nil, intensity: CGFloat = 1, reduceMotion: Bool = false,
                maximumListedItems: Int = DemoScene.defaultMaximumListedItems) {
        self.layout = layout
        self.viewportSize = viewportSize
        self.itemCount = itemCount
        self.contentOffset = contentOffset
        self.effect = effect
        self.maxOffset = maxOffset
        self.intensity = intensity
        self.reduceMotion = reduceMotion
        self.maximumListedItems = maximumListedItems
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(layout)
        hasher.combine(viewportSize.width)
        hasher.combine(viewportSize.height)
        hasher.combine(itemCount)
        hasher.combine(contentOffset)
        hasher.combine(effect)
        hasher.combine(maxOffset)
        hasher.combine(intensity)
        hasher.combine(reduceMotion)
        hasher.combine(maximumListedItems)
    }

    /// The parallax effect the scene applies.
    package var parallaxEffect: ParallaxEffect {
        switch effect {
        case .off: return .none
        case .window: return .window
        case .depth:
            if let maxOffset { return .depth(maxOffset: maxOffset) }
            return layout == .grid ? .gridDefault : .listDefault
        }
    }

    /// Lays the scene out, counts every visible item and measures the first
    /// ``maximumListedItems`` of them.
    ///
    /// - Throws: ``LayoutError`` for an invalid item count.
    package func report() throws(LayoutError) -> FrameReport {
        let grid = try GridLayout(configuration: layout.configuration, itemCount: itemCount,
                                  containerSize: viewportSize)
        let viewport = ScrollViewport(size: viewportSize, contentOffset: CGPoint(x: 0, y: contentOffset))
        let scroller = ParallaxScroller(effect: parallaxEffect, intensity: intensity,
                                        isReduceMotionEnabled: reduceMotion)
        let placer = scroller.placer(for: viewport.visibleRect)
        let limit = max(maximumListedItems, 0)
        var rows: [FrameReport.Row] = []
        rows.reserveCapacity(min(limit, 1024))
        var visibleCount = 0
        grid.forEachItem(in: viewport.visibleRect) { index, frame in
            visibleCount += 1
            guard rows.count < limit else { return }
            let placement = placer.placement(forItemFrame: frame)
            rows.append(FrameReport.Row(item: index.item, frame: .init(frame),
                                        parallaxOffset: Double(placement.offset.y),
                                        contentFrame: .init(placement.contentFrame)))
        }
        return FrameReport(layout: layout.rawValue, effect: effect.rawValue,
                           viewport: .init(CGRect(origin: viewport.contentOffset, size: viewportSize)),
                           contentSize: .init(width: Double(grid.contentSize.width), height: Double(grid.contentSize.height)),
                           columns: grid.columnCount, visibleCount: visibleCount, items: rows)
    }
}
