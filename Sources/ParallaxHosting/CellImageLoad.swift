import Foundation
import ParallaxImages

/// How a cell that owns its own loading task shows a thumbnail: what to
/// draw at once, without waiting, and what to draw when the request ends.
///
/// A declarative cell (SwiftUI's `ParallaxLoadedImage`) asks for
/// ``immediateDisplay(of:showing:from:)`` when it is made, so a thumbnail
/// in memory is in the first frame it draws, and then awaits
/// ``load(_:priority:showing:from:)`` in a task tied to the cell and its
/// key (SwiftUI's `task(id:)`): the task is cancelled when the cell leaves
/// or asks for another key, which ends the request. This is what
/// ``ImageRequester`` does for UIKit's reused views, where a binding table
/// stands in for the task:
/// - a memory-cache hit shows at once, with no fade;
/// - otherwise the preview (when the loader knows one), then the thumbnail
///   with a ``fadeDuration`` cross-fade, or the failure;
/// - asking for the photo the cell already shows at another size (a
///   rotation, a column change) keeps the photo until the new size
///   arrives, which replaces it at once, and keeps it if that fails;
/// - a request the pipeline cancelled or lost to an erase while the cell
///   still wants it is made once more; a request whose task was cancelled
///   shows nothing more.
///
/// Complexity: O(1) besides the loader's own work.
public struct CellImageLoad: Sendable, Hashable {
    /// The cross-fade for thumbnails that had to load; RolfHendriks'
    /// UICollectionView-Demo uses 0.25 s.
    public var fadeDuration: TimeInterval

    /// Loading that fades thumbnails in over `fadeDuration` seconds.
    public init(fadeDuration: TimeInterval = 0.25) {
        self.fadeDuration = fadeDuration
    }

    /// What a cell showing `shown` (the photo it shows now, if any) draws
    /// for `key` before anything is awaited: the thumbnail from memory (no
    /// fade), or the photo's preview; `nil` to keep what it shows (the same
    /// photo at another size, or nothing known yet).
    public func immediateDisplay(of key: ThumbnailKey, showing shown: ImageID? = nil,
                                 from loader: some ThumbnailLoading) -> ImageDisplay? {
        if let image = loader.cachedImage(for: key) { return .image(image, fadeDuration: 0) }
        if shown == key.id { return nil }
        return loader.preview(for: key.id).map { .placeholder(.preview($0)) }
    }

    /// Loads `key` at `priority` for as long as the calling task runs, and
    /// returns what to draw when it ends: the thumbnail (faded in unless it
    /// came from memory or replaces the same photo), or the failure. `nil`
    /// when the task was cancelled, and when the same photo at a new size
    /// failed (the cell keeps the one it shows).
    public func load(_ key: ThumbnailKey, priority: LoadPriority, showing shown: ImageID? = nil,
                     from loader: some ThumbnailLoading) async -> ImageDisplay? {
        let isResize = shown == key.id
        var retries = 1
        while true {
            if Task.isCancelled { return nil }
            do throws(ImageLoadingError) {
                let loaded = try await loader.image(for: key, priority: priority)
                if Task.isCancelled { return nil }
                let fade = loaded.origin == .memory || isResize ? 0 : fadeDuration
                return .image(loaded.image, fadeDuration: fade)
            } catch {
                if Task.isCancelled { return nil }
                switch error {
                case .cancelled where retries > 0, .source(.erased) where retries > 0:
                    retries -= 1                        // the pipeline dropped it; the cell still wants it
                    continue
                default:
                    return isResize ? nil : .failure(error.description)
                }
            }
        }
    }
}
