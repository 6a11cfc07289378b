import Foundation
import ParallaxHosting
import ParallaxImages

/// The pictures of the cells on screen: the one owner of what each cell
/// shows between the loader and the canvas.
///
/// Requests go through ``ImageRequester`` (the same requests the UIKit
/// image view makes), so a recycled cell never shows another cell's photo;
/// what each request last displayed is kept here, by item, and stamped
/// with the time its cross-fade starts on the first frame that draws it.
/// Cells that leave the screen let go of their picture (the memory cache
/// keeps it) and their request.
///
/// Complexity: O(1) per request; O(held pictures) per frame to stamp
/// arrivals and release cells that left.
@MainActor
package final class CellPictures {
    private let requests: ImageRequester<Int>
    /// What each cell's request last displayed.
    private var pictures: [Int: Picture] = [:]
    /// Cells with a request, displayed or not yet.
    private var boundItems: Set<Int> = []
    /// Who waits in ``waitForNextDisplay()``.
    private var displayWaiters: [CheckedContinuation<Void, Never>] = []

    /// Pictures from `loader`; `source` tells stored photos from ones to
    /// download (black placeholder or the illustration).
    package init(loader: ImageLoader, source: any ImageSource, fadeDuration: TimeInterval) {
        requests = ImageRequester(loader: loader, source: source, fadeDuration: fadeDuration,
                                  resizeBehavior: .showsPlaceholder)
    }

    /// What a cell shows while its photo loads at a new size: the
    /// placeholder (a layout switch, as RolfHendriks' UICollectionView-Demo
    /// does) or the photo it shows (a pinch, so nothing flashes).
    package var resizeBehavior: ImageRequester<Int>.ResizeBehavior {
        get { requests.resizeBehavior }
        set { requests.resizeBehavior = newValue }
    }

    /// Loads under way for cells.
    package var pendingCount: Int { requests.pendingCount }

    /// Pictures held for cells (only visible ones: the memory cache keeps the rest).
    package var heldImageCount: Int {
        pictures.values.reduce(0) { count, picture in
            if case .image = picture { return count + 1 }
            return count
        }
    }

    /// Whether a picture arrived that no frame has drawn yet.
    package var hasUndrawnArrivals: Bool {
        pictures.values.contains { if case .image(_, _, _, nil, _) = $0 { return true } else { return false } }
    }

    /// Asks for `key` in cell `item` at `priority`, unless that is what the
    /// cell already asked for (loading, shown or failed).
    package func request(_ key: ThumbnailKey, for item: Int, priority: LoadPriority) {
        guard requests.key(for: item) != key else { return }
        // The same photo at another size (after a pinch): the requester keeps it shown until the new size
        // arrives, when the resize behaviour keeps images.
        var shown: ImageID?
        if case .image(let shownKey, _, _, _, _)? = pictures[item], shownKey.id == key.id { shown = key.id }
        if shown == nil || requests.resizeBehavior == .showsPlaceholder { pictures[item] = nil }
        boundItems.insert(item)
        requests.load(key, into: item, replacing: shown, priority: priority) { [weak self] display in
            guard let self else { return }
            self.pictures[item] = Picture(display, key: key, replacing: self.pictures[item])
            let waiters = self.displayWaiters
            self.displayWaiters = []
            for waiter in waiters { waiter.resume() }
        }
    }

    /// Returns once the next display reaches a cell (a placeholder, a
    /// picture or a failure): for a test or a tool that waits for a state
    /// between a request and its picture, as an event rather than a poll.
    package func waitForNextDisplay() async {
        await withCheckedContinuation { displayWaiters.append($0) }
    }

    /// Stamps pictures that arrived since the last frame with `now`, the
    /// time their cross-fade starts.
    package func stampArrivals(at now: TimeInterval) {
        for (item, picture) in pictures {
            if case .image(let key, let image, let fade, nil, let underneath) = picture {
                pictures[item] = .image(key: key, image: image, fadeDuration: fade, arrival: now, over: underneath)
            }
        }
    }

    /// Fills `content`'s picture, placeholder or failure, faded in as of `now`.
    package func fill(_ content: inout CellContent, now: TimeInterval) {
        switch pictures[content.item] {
        case .placeholder(let placeholder)?:
            content.placeholder = placeholder
        case .image(let key, let image, let fade, let arrival, let underneath)?:
            content.placeholder = underneath
            content.image = image
            content.imageKey = key
            content.opacity = fade > 0 ? min(max((now - (arrival ?? now)) / fade, 0), 1) : 1
        case .failure(let message)?:
            content.failure = message
        case nil:
            break
        }
    }

    /// Cells not in `visible` let go of their picture and request (the
    /// loader's policy decides whether the download goes on).
    package func release(keeping visible: Set<Int>) {
        for item in boundItems.union(pictures.keys) where !visible.contains(item) {
            requests.cancel(item)
            boundItems.remove(item)
            pictures[item] = nil
        }
    }

    /// Forgets cell `item`'s request and picture, so the next frame asks
    /// again (a retry).
    package func forget(item: Int) {
        requests.cancel(item)
        pictures[item] = nil
    }

    /// Forgets every request and picture: call it once the pipeline was
    /// reset (reload, erase).
    package func forgetAll() {
        requests.reset()
        pictures.removeAll()
        boundItems.removeAll()
    }

    /// Returns once no request runs (every cell has its outcome), or once
    /// the calling task is cancelled.
    package func waitUntilSettled() async {
        await requests.waitUntilSettled()
    }
}

/// What one cell's request last displayed (see ``ImageDisplay``).
private enum Picture {
    case placeholder(ImagePlaceholder)
    /// `arrival` is when its cross-fade started (`nil` until the next
    /// frame); it fades in over the placeholder the cell showed before.
    case image(key: ThumbnailKey, image: PixelImage, fadeDuration: TimeInterval, arrival: TimeInterval?,
               over: ImagePlaceholder)
    case failure(String)

    init(_ display: ImageDisplay, key: ThumbnailKey, replacing previous: Picture?) {
        switch display {
        case .placeholder(let placeholder):
            self = .placeholder(placeholder)
        case .image(let image, let fade):
            var underneath = ImagePlaceholder.uncached
            if case .placeholder(let shown)? = previous { underneath = shown }
            self = .image(key: key, image: image, fadeDuration: fade, arrival: nil, over: underneath)
        case .failure(let message):
            self = .failure(message)
        }
    }
}
