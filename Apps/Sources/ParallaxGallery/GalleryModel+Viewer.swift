#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxHosting
import ParallaxImages
import ParallaxLayout

/// The grid as the detail view sees it: the photos in the order shown,
/// their tiles on screen, and a scroll that keeps the photo being looked
/// at on screen.
extension GalleryModel: ViewerGrid {
    var photoCount: Int { photos.count }

    func photoID(at item: Int) -> ImageID? {
        let photos = self.photos
        return item >= 0 && item < photos.count ? photos[item] : nil
    }

    /// Photo `item`'s cell this frame, its content frame on screen. O(visible cells).
    func tile(of item: Int) -> ViewerTile? {
        guard let cell = cells.first(where: { $0.item == item }) else { return nil }
        return ViewerTile(frame: cell.frame, contentFrame: cell.contentFrame.offsetBy(dx: cell.frame.minX, dy: cell.frame.minY),
                          image: cell.image, imageKey: cell.imageKey)
    }

    func pictureSize(of item: Int) -> CGSize? {
        guard item >= 0, item < photos.count else { return nil }
        return shapes.size(of: photoNumber(at: item))
    }

    func preview(of id: ImageID) -> PixelImage? { loader.previews.image(for: id) }

    func fileModificationTime(of item: Int) -> Int64? {
        guard item >= 0, item < photos.count else { return nil }
        let photo = photoNumber(at: item)
        return timeline.timeSource(of: photo) == .fileModified ? timeline.time(of: photo) : nil
    }

    /// Scrolls (at once: the grid is hidden behind the detail view) the
    /// least that shows photo `item`'s tile whole, 12 points clear of the
    /// window's edges.
    func reveal(item: Int) {
        guard frames.isResting, let frame = layout.frame(of: ItemIndex(item: item)) else { return }
        let offset = RevealOffset.offset(revealing: frame, from: scroll.position, visibleLength: viewportSize.height,
                                         range: scroll.bounds, margin: 12)
        if offset != scroll.position { scroll.jump(to: offset) }
    }

    /// The photo under `point`, or else the one at the top: what Enter opens.
    func itemToOpen(at point: CGPoint?) -> Int? {
        point.flatMap(item(at:)) ?? topItem
    }
}

extension PhotoViewer {
    /// The detail view over `model`'s grid: the window's size, its scale,
    /// photos read from the model's source and decoded by the platform's
    /// decoder (its own queues; the loader's stay with the grid).
    static func make(for model: GalleryModel) -> PhotoViewer {
        let size = model.viewportSize, scale = model.settings.scale
        let screen = (try? ThumbnailSize(points: size, scale: scale, mode: .fit)) ?? (try! ThumbnailSize(width: 1, height: 1, mode: .fit))
        let pictures = ViewerPictures(source: model.server, decoder: PlatformImageDecoder(), screenSize: screen)
        return PhotoViewer(grid: model, pictures: pictures, bounds: CGRect(origin: .zero, size: size), screenScale: scale)
    }
}
