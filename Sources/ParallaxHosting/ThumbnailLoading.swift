import Foundation
import ParallaxImages

/// What a cell-level loader (``CellImageLoad``) needs of an image pipeline:
/// an awaited request that ends when its task is cancelled, and what is
/// there at once (the memory cache, the photo's preview).
/// `ImageLoader` is one; tests use a fake that holds requests until told.
public protocol ThumbnailLoading: Sendable {
    /// The thumbnail for `key`, at `priority`. Cancelling the calling task
    /// ends the request (`ImageLoadingError.cancelled`).
    func image(for key: ThumbnailKey, priority: LoadPriority) async throws(ImageLoadingError) -> LoadedImage
    /// The thumbnail for `key` if it is in memory, without waiting.
    func cachedImage(for key: ThumbnailKey) -> PixelImage?
    /// The photo's preview if one is known, without waiting.
    func preview(for id: ImageID) -> PixelImage?
}

extension ImageLoader: ThumbnailLoading {
    /// The memory cache's thumbnail for `key`.
    public nonisolated func cachedImage(for key: ThumbnailKey) -> PixelImage? {
        memoryCache.image(for: key)
    }

    /// The preview store's picture for `id`.
    public nonisolated func preview(for id: ImageID) -> PixelImage? {
        previews.image(for: id)
    }
}
