import Foundation

/// Every photo's preview the pipeline knows: its ``ThumbHash``, and the
/// small picture rendered from it, which a surface shows from the first
/// frame a tile is on screen until the sharp thumbnail arrives.
///
/// Hashes come from whoever knows them first: a source's listing (a
/// manifest's `thumbhash`), the app's own model or library index
/// (``insert(_:for:)``), or the loader, which makes one from every
/// thumbnail it decodes for a photo that has none yet. An app that keeps
/// hashes (a library index) collects the loader's with ``takeMadeHashes()``.
///
/// Rendered pictures are kept apart from thumbnails, in a memory cache of
/// their own (``renderedCostLimit``, 4 KB each at 32 × 32), so previews
/// never evict a thumbnail. Surfaces read the store synchronously on their
/// own thread while decode threads fill it, so its state sits behind a lock.
///
/// Complexity: O(1) per call besides rendering; rendering a picture the
/// first time it is asked for costs about 40 terms per pixel of a 32 × 32
/// picture (tens of microseconds), outside the lock.
public final class PreviewStore: Sendable {
    private struct State {
        var hashes: [ImageID: ThumbHash] = [:]
        /// Hashes the loader made, not yet taken by ``takeMadeHashes()``.
        var made: [(id: ImageID, hash: ThumbHash)] = []
    }

    private let state = Locked(State())
    private let rendered: MemoryImageCache

    /// The longer side previews are rendered at: the reference's 32 pixels,
    /// which a surface scales up smoothly (the hash holds nothing finer).
    public static let renderedSide = 32

    /// The bytes of rendered previews kept (8 MiB, about 2,000 by default).
    public var renderedCostLimit: Int { rendered.limits.costLimit }

    /// An empty store keeping up to `renderedCostLimit` bytes of rendered previews.
    public init(renderedCostLimit: Int = 8 << 20) {
        rendered = MemoryImageCache(limits: .init(costLimit: renderedCostLimit))
    }

    /// The hash of photo `id`, if known.
    public func hash(for id: ImageID) -> ThumbHash? {
        state.withLock { $0.hashes[id] }
    }

    /// Whether photo `id`'s hash is known.
    public func contains(_ id: ImageID) -> Bool {
        state.withLock { $0.hashes[id] != nil }
    }

    /// The number of photos with a known hash.
    public var count: Int { state.withLock { $0.hashes.count } }

    /// Files `hash` for photo `id`, replacing any other (a rendered picture
    /// of the old one is dropped).
    public func insert(_ hash: ThumbHash, for id: ImageID) {
        let replaced = state.withLock { state in
            state.hashes.updateValue(hash, forKey: id).map { $0 != hash } ?? false
        }
        if replaced { rendered.removeImage(for: Self.key(for: id)) }
    }

    /// Makes room for `count` hashes in all, so that filing up to that many
    /// (an index's, which knows its count) never stops to grow the table.
    ///
    /// Complexity: O(count) when the table grows, else O(1).
    public func reserveCapacity(_ count: Int) {
        state.withLock { state in
            if count > state.hashes.capacity { state.hashes.reserveCapacity(count) }
        }
    }

    /// Files many hashes at once (a listing's, an index's).
    ///
    /// Complexity: O(hashes), under one lock.
    public func insert(contentsOf hashes: some Sequence<(id: ImageID, hash: ThumbHash)>) {
        var replaced: [ImageID] = []
        state.withLock { state in
            for (id, hash) in hashes {
                if let old = state.hashes.updateValue(hash, forKey: id), old != hash { replaced.append(id) }
            }
        }
        for id in replaced { rendered.removeImage(for: Self.key(for: id)) }
    }

    /// Files a hash the loader made from a thumbnail, unless one is known
    /// already (a listing's is of the whole photo; a thumbnail may be a
    /// crop), and keeps it for ``takeMadeHashes()``.
    func insertMade(_ hash: ThumbHash, for id: ImageID) {
        state.withLock { state in
            guard state.hashes[id] == nil else { return }
            state.hashes[id] = hash
            state.made.append((id, hash))
        }
    }

    /// Files a picture of photo `id` better than its hash's render (the
    /// thumbnail its file embeds) as its preview, and, unless one is known,
    /// a hash made from it, kept for ``takeMadeHashes()``: for when the
    /// picture is evicted, and for the next launch.
    func insertPicture(_ picture: PixelImage, for id: ImageID, makingHash: Bool) {
        rendered.insert(picture, for: Self.key(for: id))
        guard makingHash, !contains(id) else { return }
        insertMade(ThumbHash(encoding: picture), for: id)
    }

    /// The hashes the loader made since the last call, in the order made,
    /// for an app to keep (its library index), so that the next launch
    /// shows previews from its first frame.
    public func takeMadeHashes() -> [(id: ImageID, hash: ThumbHash)] {
        state.withLock { state in
            defer { state.made = [] }
            return state.made
        }
    }

    /// Photo `id`'s preview, rendered from its hash the first time it is
    /// asked for (then kept); `nil` when its hash is not known.
    public func image(for id: ImageID) -> PixelImage? {
        let key = Self.key(for: id)
        if let image = rendered.image(for: key) { return image }
        guard let hash = hash(for: id) else { return nil }
        let image = hash.render(maximumSide: Self.renderedSide)
        rendered.insert(image, for: key)
        return image
    }

    /// The key photo `id`'s rendered preview is filed under, in this store's own cache.
    private static func key(for id: ImageID) -> ThumbnailKey {
        ThumbnailKey(id: id, size: renderedSize)
    }

    private static let renderedSize = ThumbnailSize(uncheckedWidth: renderedSide, height: renderedSide, mode: .fit)

    /// Drops rendered previews until at most `fraction` of
    /// ``renderedCostLimit`` is used; every hash is kept (a few dozen bytes
    /// each), so each preview can be rendered again. The answer to memory
    /// pressure.
    public func trimRendered(toFraction fraction: Double) {
        rendered.trim(toFraction: fraction)
    }

    /// The bytes of rendered previews held.
    public var renderedCost: Int { rendered.totalCost }

    /// Forgets photo `id`'s hash and rendered preview: the photo was found
    /// edited, and the next thumbnail decoded of it makes its new one.
    func forget(_ id: ImageID) {
        state.withLock { _ = $0.hashes.removeValue(forKey: id) }
        rendered.removeImage(for: Self.key(for: id))
    }

    /// Forgets every hash and rendered preview (the loader's `eraseAll()`).
    public func removeAll() {
        state.withLock { $0 = State() }
        rendered.removeAll()
    }
}

extension ThumbnailSize {
    /// A size known to be valid.
    init(uncheckedWidth width: Int, height: Int, mode: ContentMode) {
        self.width = width
        self.height = height
        self.mode = mode
    }
}
