import Foundation
import ParallaxImages

/// Pictures converted from decoded images (a `CGImage` for SwiftUI's
/// `Image`, say), kept by the decoded image's identity, so a view that is
/// made again, as SwiftUI makes views whenever a parent's body runs, finds
/// its picture instead of copying the pixels again.
///
/// The identity is the pixel buffer's: `PixelImage` is copy-on-write, so
/// the image a loader hands to a cell, and every copy of it, share one
/// buffer. Hashing the pixels would cost as much as converting them;
/// comparing the buffer's address costs nothing. Each entry keeps its
/// image, so the buffer cannot be freed and its address reused by another
/// image while the entry lives: an address names one picture for as long
/// as it is in the cache. (The loader's memory cache usually holds the
/// same buffer, so keeping it here adds nothing.)
///
/// At most ``costLimit`` bytes of pictures (each entry's cost is given by
/// the caller: the converted picture's bytes) are kept; the least recently
/// used go first. Safe to use from any thread; the pictures must be
/// immutable (a `CGImage` is).
///
/// Complexity: a hit or a miss is O(1) besides the conversion; an
/// eviction O(entries).
public final class ConvertedImageCache<Picture>: @unchecked Sendable {
    /// The bytes of pictures kept at most.
    public let costLimit: Int

    private struct Identity: Hashable {
        var address: UInt
        var width: Int
        var height: Int
    }

    private struct Entry {
        var image: PixelImage                    // keeps the buffer, and so the identity, alive
        var picture: Picture
        var cost: Int
        var lastUse: UInt64
    }

    private let lock = NSLock()
    private var entries: [Identity: Entry] = [:]
    private var totalCost = 0
    private var clock: UInt64 = 0
    private var conversionCount = 0

    /// A cache of up to `costLimit` bytes.
    public init(costLimit: Int) {
        self.costLimit = max(costLimit, 0)
    }

    /// The picture of `image`: the one made earlier for the same pixels, or
    /// `convert(image)`'s, kept at `cost(picture)` bytes. `nil` when
    /// `convert` gives none (nothing is kept then) and for an empty image.
    /// The conversion runs outside the lock, so a slow one blocks no other
    /// thread's hits; two threads converting the same new image at once
    /// each convert it.
    public func picture(of image: PixelImage, convert: (PixelImage) -> Picture?,
                        cost: (Picture) -> Int) -> Picture? {
        guard let identity = Self.identity(of: image) else { return nil }
        if let hit = lookUp(identity) { return hit }
        guard let picture = convert(image) else { return nil }
        insert(picture, of: image, identity: identity, cost: max(cost(picture), 0))
        return picture
    }

    /// How many pictures are kept.
    public var count: Int { locked { entries.count } }

    /// The bytes of pictures kept.
    public var currentCost: Int { locked { totalCost } }

    /// How many conversions were made and kept (for tests and a HUD).
    public var conversions: Int { locked { conversionCount } }

    /// Forgets every picture (a memory warning).
    public func removeAll() {
        locked {
            entries.removeAll()
            totalCost = 0
        }
    }

    /// `body` under the lock (`NSLocking.withLock` is newer than the oldest SDKs supported).
    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    private static func identity(of image: PixelImage) -> Identity? {
        guard image.width > 0, image.height > 0 else { return nil }
        // Only the address's value leaves the closure, never the pointer.
        let address = image.pixels.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        return Identity(address: address, width: image.width, height: image.height)
    }

    private func lookUp(_ identity: Identity) -> Picture? {
        locked {
            guard var entry = entries[identity] else { return nil }
            clock &+= 1
            entry.lastUse = clock
            entries[identity] = entry
            return entry.picture
        }
    }

    private func insert(_ picture: Picture, of image: PixelImage, identity: Identity, cost: Int) {
        locked {
            guard cost <= costLimit else { return }         // too large to keep: converted, not cached
            clock &+= 1
            conversionCount += 1
            if let old = entries.updateValue(Entry(image: image, picture: picture, cost: cost, lastUse: clock),
                                             forKey: identity) {
                totalCost -= old.cost
            }
            totalCost += cost
            while totalCost > costLimit, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                totalCost -= oldest.value.cost
                entries.removeValue(forKey: oldest.key)
            }
        }
    }
}
