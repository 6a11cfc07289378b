#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxHosting
import ParallaxImages

/// What one visible cell shows: the frame the model decided and the
/// picture ``CellPictures`` holds for it, ready to draw.
package struct CellContent: Sendable {
    /// What shows while the picture loads: the illustration while it
    /// downloads, black while a stored one decodes (RolfHendriks' UICollectionView-Demo).
    package typealias Placeholder = ImagePlaceholder

    package var item: Int
    package var id: ImageID
    /// The cell's frame on screen.
    package var frame: CGRect
    /// Where the picture goes, in the cell's coordinates (parallax applied).
    package var contentFrame: CGRect
    package var image: PixelImage?
    package var imageKey: ThumbnailKey?
    /// The picture the cell asked for this frame: its photo at the size it
    /// has (or is heading for); `nil` while its shape is unknown.
    package var wantedKey: ThumbnailKey?
    /// How far the picture has faded in, 0…1.
    package var opacity: Double
    package var placeholder: Placeholder
    package var failure: String?
    package var isPressed: Bool
}
