import Foundation

/// Decoded thumbnails kept in memory, least recently used evicted first,
/// with a limit on their total bytes and one on their number.
///
/// The cost of an entry is the bytes of its pixels. An image larger than
/// the whole cost limit is not stored (it would only evict everything).
/// Surfaces read it synchronously on their own thread (a cell about to
/// appear checks here before showing a placeholder) while the loader fills
/// it from other threads, so the state sits behind a lock; every
/// operation is O(1).
public final class MemoryImageCache: Sendable {
    /// The limits of a cache.
    public struct Limits: Sendable, Hashable {
        /// The most bytes of pixels held.
        public var costLimit: Int
        /// The most images held.
        public var countLimit: Int

        /// Limits of `costLimit` bytes of pixels and `countLimit` images (no
        /// count limit by default); a negative value counts as 0.
        public init(costLimit: Int, countLimit: Int = .max) {
            self.costLimit = max(costLimit, 0)
            self.countLimit = max(countLimit, 0)
        }

        /// 15 % of physical memory, at most 768 MB (Nuke's rule).
        public static var `default`: Limits {
            let physical = Double(ProcessInfoMemory.physicalMemory)
            return Limits(costLimit: Int(min(physical * 0.15, 768 * 1_048_576)))
        }
    }

    /// A doubly linked list threaded through arrays, head = most recent.
    private struct State {
        var limits: Limits
        var index: [ThumbnailKey: Int] = [:]
        var keys: [ThumbnailKey?] = []
        var images: [PixelImage?] = []
        var previous: [Int] = []
        var next: [Int] = []
        var free: [Int] = []
        var head = -1
        var tail = -1
        var totalCost = 0

        mutating func unlink(_ slot: Int) {
            let p = previous[slot], n = next[slot]
            if p >= 0 { next[p] = n } else { head = n }
            if n >= 0 { previous[n] = p } else { tail = p }
            previous[slot] = -1
            next[slot] = -1
        }

        mutating func pushFront(_ slot: Int) {
            previous[slot] = -1
            next[slot] = head
            if head >= 0 { previous[head] = slot }
            head = slot
            if tail < 0 { tail = slot }
        }

        mutating func remove(_ slot: Int) {
            unlink(slot)
            if let key = keys[slot] { index[key] = nil }
            totalCost -= images[slot]?.byteCount ?? 0
            keys[slot] = nil
            images[slot] = nil
            free.append(slot)
        }

        mutating func evict(toCost cost: Int, count: Int) {
            while tail >= 0, totalCost > cost || index.count > count { remove(tail) }
        }
    }

    private let state: Locked<State>

    /// An empty cache with `limits` (15 % of physical memory, at most
    /// 768 MB, by default).
    public init(limits: Limits = .default) {
        state = Locked(State(limits: limits))
    }

    /// The image for `key`, which becomes the most recently used.
    public func image(for key: ThumbnailKey) -> PixelImage? {
        state.withLock { state in
            guard let slot = state.index[key] else { return nil }
            state.unlink(slot)
            state.pushFront(slot)
            return state.images[slot]
        }
    }

    /// Whether `key` is cached, without touching its recency.
    public func contains(_ key: ThumbnailKey) -> Bool {
        state.withLock { $0.index[key] != nil }
    }

    /// Stores `image` for `key` as the most recently used, evicting the
    /// least recently used until both limits hold.
    public func insert(_ image: PixelImage, for key: ThumbnailKey) {
        state.withLock { state in
            if let slot = state.index[key] { state.remove(slot) }
            guard image.byteCount <= state.limits.costLimit, state.limits.countLimit > 0 else { return }
            let slot: Int
            if let reused = state.free.popLast() {
                slot = reused
                state.keys[slot] = key
                state.images[slot] = image
            } else {
                slot = state.keys.count
                state.keys.append(key)
                state.images.append(image)
                state.previous.append(-1)
                state.next.append(-1)
            }
            state.index[key] = slot
            state.totalCost += image.byteCount
            state.pushFront(slot)
            state.evict(toCost: state.limits.costLimit, count: state.limits.countLimit)
        }
    }

    /// Removes `key`'s image.
    public func removeImage(for key: ThumbnailKey) {
        state.withLock { state in
            if let slot = state.index[key] { state.remove(slot) }
        }
    }

    /// Evicts least recently used images until at most `fraction` of the
    /// cost limit is used: the answer to memory pressure.
    public func trim(toFraction fraction: Double) {
        state.withLock { state in
            let clamped = fraction.isFinite ? min(max(fraction, 0), 1) : 0
            state.evict(toCost: Int(Double(state.limits.costLimit) * clamped), count: state.limits.countLimit)
        }
    }

    /// Forgets every image.
    public func removeAll() {
        state.withLock { state in
            let limits = state.limits
            state = State(limits: limits)
        }
    }

    /// The bytes of pixels held.
    public var totalCost: Int { state.withLock { $0.totalCost } }
    /// The number of images held.
    public var count: Int { state.withLock { $0.index.count } }
    /// The limits.
    public var limits: Limits { state.withLock { $0.limits } }
}

/// Physical memory, read once.
enum ProcessInfoMemory {
    static let physicalMemory: UInt64 = ProcessInfo.processInfo.physicalMemory
}
