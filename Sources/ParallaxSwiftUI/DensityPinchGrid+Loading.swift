#if canImport(SwiftUI)
#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore
import ParallaxHosting
import ParallaxImages
import ParallaxLayout
import SwiftUI

#if canImport(SwiftUI, _version: 5.0)
/// Loading ahead: the grid's viewport, band and flings, planned through
/// the environment's ``ParallaxImageLoading`` (see ``DensityPinchGrid``).
@available(iOS 17, macOS 14, *)
extension DensityPinchGrid {
    /// Plans loading for the scroll view showing `size` at `offset` of
    /// `layout`, taking any release the scroll view reported since. Does
    /// nothing without `imageID` or a loading object.
    ///
    /// Complexity: O(1) on a frame that stays in its band with no new
    /// fling; O(planned items) when a plan is made.
    func planLoading(at offset: CGPoint, layout: ParallaxLayout.GridLayout, size: CGSize) {
        guard let imageID, let loading else { return }
        if let release = flings.take() {
            bandLoading.released(at: offset.y, towards: release.restingOffset)
        }
        let data = self.data
        let scroller = imageScroller, scale = displayScale
        bandLoading.scrolled(to: CGRect(origin: offset, size: size), of: layout, loading: loading.viewport) { index, frame in
            guard index.item >= 0, index.item < data.count, let id = imageID(data[data.startIndex + index.item]),
                  let thumbnail = scroller.thumbnailSize(forCell: frame.size, viewportSize: size, scale: scale)
            else { return nil }
            return ThumbnailKey(id: id, size: thumbnail)
        }
    }
}
#endif
#endif
