#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore
import ParallaxImages

extension ParallaxScroller {
    /// The thumbnail a cell `cellSize` points large draws with this
    /// scroller: the effect's content (the cell plus its overscan; for a
    /// window effect, as long as the viewport of `viewportSize`) times the
    /// screen's `scale`. `nil` for an empty cell.
    ///
    /// The one rule for the size a cell asks for and the size a loading
    /// plan preloads (SwiftUI's `ParallaxLoadedImage` and
    /// `DensityPinchGrid` both use it), so what a plan loads ahead is what
    /// the cell then finds in memory. The cell's position does not matter:
    /// an effect's overscan is the same all along the viewport.
    ///
    /// Complexity: O(1).
    public func thumbnailSize(forCell cellSize: CGSize, viewportSize: CGSize?, scale: CGFloat) -> ThumbnailSize? {
        guard cellSize.width > 0, cellSize.height > 0, cellSize.width.isFinite, cellSize.height.isFinite
        else { return nil }
        let item = CGRect(origin: .zero, size: cellSize)
        var viewport = item
        if case .rate = effect.motion, let viewportSize, viewportSize.width > 0, viewportSize.height > 0 {
            viewport = CGRect(origin: .zero, size: viewportSize)
        }
        let contentSize = placement(forItemFrame: item, in: viewport).contentSize
        return try? ThumbnailSize(points: contentSize, scale: scale)
    }
}
