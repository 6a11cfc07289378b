import Foundation
import ParallaxImages

/// Loads thumbnails into reusable views (cells, image views) so that a view
/// never shows another item's picture, however requests, reuses, reloads
/// and erases interleave.
///
/// Each view is a `Target` (for UIKit, the view's `ObjectIdentifier`).
/// ``load(_:into:replacing:priority:display:)`` binds the target to a
/// thumbnail through `ImageBindingTable`; a result reaches `display` only if its ticket is still
/// the target's current one, checked on the main actor in the same step as
/// the display. Reusing a view for another item rebinds it, which cancels
/// the old request (the loader's scroll-away policy decides whether the
/// download itself goes on).
///
/// What the view is told follows RolfHendriks' UICollectionView-Demo: a memory-cache hit is shown at
/// once; otherwise a placeholder, then the thumbnail with a ``fadeDuration``
/// cross-fade. The placeholder is the photo's preview whenever the loader's
/// `previews` know it (a ThumbHash from the app, a listing or an earlier
/// decode), as Apple Photos shows a soft version first; else
/// ``ImagePlaceholder/cached`` black when the picture is stored on the
/// device, the illustration when it must be downloaded, replaced by the
/// thumbnail the photo's file embeds if that is read before the photo
/// is decoded (`ImageLoader.embeddedPreview(for:)`).
///
/// A thumbnail the loader replaces under a view (a kept thumbnail of a
/// photo on a server, found out of date after it was shown:
/// `ImageLoader.replacedThumbnails()`) is swapped in at once, in every
/// view still bound to it.
///
/// Complexity: O(1) per call, besides the loader's own work.
@MainActor
public final class ImageRequester<Target: Hashable & Sendable> {
    /// The pipeline thumbnails come from.
    public let loader: ImageLoader
    /// The cross-fade for thumbnails that had to load; RolfHendriks' UICollectionView-Demo uses 0.25 s.
    public var fadeDuration: TimeInterval
    /// What a view shows while the same photo loads at a new size.
    public var resizeBehavior: ResizeBehavior

    /// What a view shows while its photo loads again at a new size (a
    /// rotation, a layout switch, another effect).
    public enum ResizeBehavior: Sendable, Hashable {
        /// The photo it shows, until the new size arrives: no flash.
        case keepsImage
        /// The placeholder, then a cross-fade, as for any other photo:
        /// RolfHendriks' UICollectionView-Demo's photo browser does this when it rotates.
        case showsPlaceholder
    }

    private let source: (any ImageSource)?
    private var bindings = ImageBindingTable<Target>()
    private var tasks: [Target: Task<Void, Never>] = [:]
    /// Reads of a photo's embedded thumbnail, beside its request, by target.
    private var previewTasks: [Target: Task<Void, Never>] = [:]
    /// Targets shown a preview for their current request: no placeholder replaces it.
    private var previewed: Set<Target> = []
    /// Photos known to be on the device: the source said so, or the
    /// pipeline read them from there. A download does not make a photo
    /// stored (an HTTP source keeps nothing).
    private var storedIDs: Set<ImageID> = []
    /// Who waits in ``waitUntilSettled()``, by number (a cancelled wait
    /// takes its own out).
    private var settleWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
    private var nextSettleWaiter = 0
    /// How each bound target is shown its picture: where a replaced
    /// thumbnail goes.
    private var displays: [Target: @MainActor @Sendable (ImageDisplay) -> Void] = [:]
    /// Follows the loader's replaced thumbnails while the requester lives.
    private let replacementWatch = TaskOwner()

    /// Requests through `loader`. Give the loader's `source` to let the
    /// placeholder tell stored pictures from ones to download.
    public init(loader: ImageLoader, source: (any ImageSource)? = nil, fadeDuration: TimeInterval = 0.25,
                resizeBehavior: ResizeBehavior = .keepsImage) {
        self.loader = loader
        self.source = source
        self.fadeDuration = fadeDuration
        self.resizeBehavior = resizeBehavior
        let replaced = loader.replacedThumbnails()
        replacementWatch.task = Task { [weak self] in
            for await key in replaced {
                guard let self else { return }
                self.showReplacement(of: key)
            }
        }
    }

    /// Shows `key`'s new thumbnail in every target still bound to it whose
    /// request has ended (one under way gets the new thumbnail itself): at
    /// once, from memory, or loaded again as a resize would be (the old
    /// one stays until it comes). O(bound targets).
    private func showReplacement(of key: ThumbnailKey) {
        for (target, display) in displays where tasks[target] == nil && bindings.ticket(for: target)?.key == key {
            if let image = loader.memoryCache.image(for: key) {
                display(.image(image, fadeDuration: 0))
            } else {
                start(key, into: target, isResize: true, retriesIfCancelled: true, priority: .visible, display: display)
            }
        }
    }

    /// Requests still running.
    public var pendingCount: Int { tasks.count }

    /// Returns once no request is running (``pendingCount`` is 0): every
    /// view has been told its outcome, or was rebound or cancelled. An
    /// event, not a poll, so a test (or a screenshot tool) waits exactly as
    /// long as the work takes, however slow the machine.
    ///
    /// Returns early when the calling task is cancelled, so a wait with a
    /// time limit (the first frame of a launch waits for its pictures, but
    /// not for long) can stop waiting; the requests run on.
    public func waitUntilSettled() async {
        guard !tasks.isEmpty else { return }
        let number = nextSettleWaiter
        nextSettleWaiter += 1
        await withTaskCancellationHandler {
            await withCheckedContinuation { waiter in
                if Task.isCancelled { waiter.resume() } else { settleWaiters[number] = waiter }
            }
        } onCancel: {
            // On the main actor after the wait stored its continuation: both run there, the store first.
            Task { @MainActor in self.settleWaiters.removeValue(forKey: number)?.resume() }
        }
    }

    /// Wakes ``waitUntilSettled()`` once nothing runs.
    private func noteSettledIfIdle() {
        guard tasks.isEmpty, !settleWaiters.isEmpty else { return }
        let waiters = settleWaiters.values
        settleWaiters = [:]
        for waiter in waiters { waiter.resume() }
    }

    /// The thumbnail `target` is bound to, if any.
    public func key(for target: Target) -> ThumbnailKey? { bindings.ticket(for: target)?.key }

    /// Shows the thumbnail for `key` in `target`, through `display`, as long
    /// as `target` is not rebound or cancelled:
    /// - a memory-cache hit at once, with no fade;
    /// - otherwise a placeholder, then the image (with the cross-fade) or
    ///   the failure. The photo's preview, when known, is shown at once.
    ///   Otherwise the placeholder is shown at once when it is known
    ///   whether the photo is stored on the device; when that must first be
    ///   asked of the source, it is shown on the answer, so a stored photo
    ///   never flashes the download illustration (keep the view blank, as
    ///   for `.cached`, until then).
    ///
    /// Asking for the photo a view already shows (`shown`: the view knows
    /// what it shows) at another size, as after a rotation or a layout
    /// switch, shows no placeholder by default: the view keeps its photo
    /// until the new size arrives, which then replaces it at once (no
    /// cross-fade), and keeps it if the new size fails (see
    /// ``resizeBehavior``). A request the pipeline cancels or loses to an
    /// erase under a view that still wants it is made once more, and then
    /// fails; a request cancelled here (``cancel(_:)``, a rebind) shows
    /// nothing more.
    ///
    /// `priority` ranks the request against the loader's other work
    /// (a surface that plans its viewport's ranges with ``LoadingRanges``
    /// passes the item's planned priority, and re-ranks it later through
    /// `ImageLoader.follow(_:)`).
    public func load(_ key: ThumbnailKey, into target: Target, replacing shown: ImageID? = nil,
                     priority: LoadPriority = .visible,
                     display: @escaping @MainActor @Sendable (ImageDisplay) -> Void) {
        let isResize = resizeBehavior == .keepsImage && shown == key.id
        start(key, into: target, isResize: isResize, retriesIfCancelled: true, priority: priority, display: display)
    }

    private func start(_ key: ThumbnailKey, into target: Target, isResize: Bool, retriesIfCancelled: Bool,
                       priority: LoadPriority, display: @escaping @MainActor @Sendable (ImageDisplay) -> Void) {
        tasks.removeValue(forKey: target)?.cancel()
        stopPreview(of: target)
        let ticket = bindings.bind(target, to: key)
        displays[target] = display
        if let image = loader.memoryCache.image(for: key) {
            display(.image(image, fadeDuration: 0))
            noteSettledIfIdle()
            return
        }
        let knownStored = storedIDs.contains(key.id)
        let preview = isResize ? nil : loader.previews.image(for: key.id)
        let asksSource = !isResize && preview == nil && !knownStored && source != nil
        if let preview {
            display(.placeholder(.preview(preview)))
            previewed.insert(target)
        } else if !isResize, !asksSource {
            display(.placeholder(knownStored ? .cached : .uncached))
        }
        let loader = self.loader, source = self.source
        if preview == nil, !isResize {
            // The thumbnail a camera embedded, read beside the photo: shown if it comes first.
            previewTasks[target] = Task { [weak self] in
                guard let embedded = await loader.embeddedPreview(for: key), let self,
                      self.bindings.accepts(ticket, for: target), self.tasks[target] != nil else { return }
                self.previewTasks[target] = nil
                self.previewed.insert(target)
                display(.placeholder(.preview(embedded)))
            }
        }
        tasks[target] = Task { [weak self] in
            if asksSource, let source {
                let stored = await source.isStoredLocally(key.id)
                guard let self, self.bindings.accepts(ticket, for: target) else { return }
                if stored { self.storedIDs.insert(key.id) }
                // A preview read meanwhile stays: it is better than either placeholder.
                if !self.previewed.contains(target) { display(.placeholder(stored ? .cached : .uncached)) }
            }
            let result: Result<LoadedImage, ImageLoadingError>
            do throws(ImageLoadingError) {
                result = .success(try await loader.image(for: key, priority: priority))
            } catch {
                result = .failure(error)
            }
            self?.finish(result, ticket: ticket, target: target, isResize: isResize,
                         retriesIfCancelled: retriesIfCancelled, priority: priority, display: display)
        }
    }

    /// Stops showing anything new in `target` (it is being reused, or left
    /// the screen); its request is cancelled.
    public func cancel(_ target: Target) {
        tasks.removeValue(forKey: target)?.cancel()
        stopPreview(of: target)
        bindings.unbind(target)
        displays[target] = nil
        noteSettledIfIdle()
    }

    /// Ends the embedded-thumbnail read for `target`'s request, if any.
    private func stopPreview(of target: Target) {
        previewTasks.removeValue(forKey: target)?.cancel()
        previewed.remove(target)
    }

    /// Cancels every request and forgets which pictures are stored. Call it
    /// after the pipeline was reset (`ImageLoader.reloadAll()` or
    /// `eraseAll()` returned), so requests made while that ran go too.
    public func reset() {
        for task in tasks.values { task.cancel() }
        tasks.removeAll()
        for task in previewTasks.values { task.cancel() }
        previewTasks.removeAll()
        previewed.removeAll()
        bindings.unbindAll()
        displays.removeAll()
        storedIDs.removeAll()
        noteSettledIfIdle()
    }

    private func finish(_ result: Result<LoadedImage, ImageLoadingError>, ticket: ImageTicket, target: Target,
                        isResize: Bool, retriesIfCancelled: Bool, priority: LoadPriority,
                        display: @escaping @MainActor @Sendable (ImageDisplay) -> Void) {
        guard bindings.accepts(ticket, for: target) else { return }
        tasks[target] = nil
        stopPreview(of: target)
        defer { noteSettledIfIdle() }
        switch result {
        case .success(let loaded):
            if loaded.origin == .disk { storedIDs.insert(loaded.key.id) }
            // A resize swaps the photo for itself at its new size: at once, never a fade over its old self.
            display(.image(loaded.image, fadeDuration: loaded.origin == .memory || isResize ? 0 : fadeDuration))
        case .failure(.cancelled) where retriesIfCancelled, .failure(.source(.erased)) where retriesIfCancelled:
            start(ticket.key, into: target, isResize: isResize, retriesIfCancelled: false, priority: priority, display: display)
        case .failure where isResize:
            // The photo at its old size stays. The binding stays too, so the view does not ask again
            // every frame; it asks when it is reused or shown again.
            break
        case .failure(let error):
            // Bound still: a view asks again only when told to (a retry), never in a loop.
            display(.failure(error.description))
        }
    }
}

/// Owns a task for as long as it lives, and cancels it when it goes: a
/// main-actor object's watch of a stream, ended with the object.
private final class TaskOwner: @unchecked Sendable {
    // Set once, on the main actor, right after init; read only by deinit.
    var task: Task<Void, Never>?

    deinit { task?.cancel() }
}
