#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore
import ParallaxLayout

/// What the `parallax-demo` command shows: a layout, a viewport, a number
/// of items, a scroll position and an effect.
public struct DemoScene: Sendable, Hashable {
    /// The layouts the demo can build (RolfHendriks' UICollectionView-Demo's two).
    public enum Layout: String, Sendable, Hashable, CaseIterable, Codable {
        case grid, list
        /// The layout's configuration.
        public var configuration: GridConfiguration { self == .grid ? .grid : .list }
    }

    /// The effects the demo can apply.
    public enum Effect: String, Sendable, Hashable, CaseIterable, Codable {
        /// Depth parallax with RolfHendriks' UICollectionView-Demo's defaults (grid 10 pt, list 10 % of the cell).
        case depth
        /// A fixed background (the “Handmade Code: Parallax Table View” post).
        case window
        /// No parallax.
        case off
    }

    public var layout: Layout
    public var viewportSize: CGSize
    public var itemCount: Int
    public var contentOffset: CGFloat
    public var effect: Effect
    /// Overrides the depth amount in points (default: the layout's default, from RolfHendriks' UICollectionView-Demo).
    public var maxOffset: CGFloat?
    public var intensity: CGFloat
    public var reduceMotion: Bool

    public init(layout: Layout = .grid, viewportSize: CGSize = CGSize(width: 390, height: 844),
                itemCount: Int = 1000, contentOffset: CGFloat = 0, effect: Effect = .depth,
                maxOffset: CGFloat? = nil, intensity: CGFloat = 1, reduceMotion: Bool = false) {
        self.layout = layout
        self.viewportSize = viewportSize
        self.itemCount = itemCount
        self.contentOffset = contentOffset
        self.effect = effect
        self.maxOffset = maxOffset
        self.intensity = intensity
        self.reduceMotion = reduceMotion
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(layout)
        hasher.combine(size: viewportSize)
        hasher.combine(itemCount)
        hasher.combine(contentOffset)
        hasher.combine(effect)
        hasher.combine(maxOffset)
        hasher.combine(intensity)
        hasher.combine(reduceMotion)
    }

    /// The parallax effect the scene applies.
    public var parallaxEffect: ParallaxEffect {
        switch effect {
        case .off: return .none
        case .window: return .window
        case .depth:
            if let maxOffset { return .depth(maxOffset: maxOffset) }
            return layout == .grid ? .gridDefault : .listDefault
        }
    }

    /// Lays the scene out and measures every visible item.
    ///
    /// - Throws: ``LayoutError`` for an invalid item count.
    public func report() throws(LayoutError) -> FrameReport {
        let grid = try GridLayout(configuration: layout.configuration, itemCount: itemCount,
                                  containerSize: viewportSize)
        let viewport = ScrollViewport(size: viewportSize, contentOffset: CGPoint(x: 0, y: contentOffset))
        let scroller = ParallaxScroller(effect: parallaxEffect, intensity: intensity,
                                        isReduceMotionEnabled: reduceMotion)
        var rows: [FrameReport.Row] = []
        grid.forEachItem(in: viewport.visibleRect) { index, frame in
            let placement = scroller.placement(forItemFrame: frame, in: viewport.visibleRect)
            rows.append(FrameReport.Row(item: index.item, frame: .init(frame),
                                        parallaxOffset: Double(placement.offset.y),
                                        contentFrame: .init(placement.contentFrame)))
        }
        return FrameReport(layout: layout.rawValue, effect: effect.rawValue,
                           viewport: .init(CGRect(origin: viewport.contentOffset, size: viewportSize)),
                           contentSize: .init(width: Double(grid.contentSize.width), height: Double(grid.contentSize.height)),
                           columns: grid.columnCount, items: rows)
    }
}
