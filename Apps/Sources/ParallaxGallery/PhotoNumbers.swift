import ParallaxImages

/// The number each photo is filed under, by its ID: ``PhotoTimeline``'s
/// way from an ID (a date read, a photo deleted) to the photo.
///
/// A `[ImageID: Int32]` hashes every ID again each time it grows, and a
/// walk's photos are filed on the frame loop: at 65,536 photos, growing
/// took 20-45 ms on a 2-core machine, a frame or three missed while the
/// listing streamed in. This table keys the numbers by each ID's hash
/// value instead, computed once as the photo is filed, so growing moves
/// integers and hashes none of the paths again. Each entry is checked
/// against the ID filed under its number, and the IDs whose hash values
/// collide with another's (about one in 2⁶⁴ pairs: never, in practice)
/// are kept by ID in a table of their own.
///
/// Complexity: O(1) amortized to file, find or remove an ID (one hash of
/// it, one comparison with the ID filed); growing is O(count) moves of
/// integers.
struct PhotoNumbers {
    private var byHash: [Int: Int32] = [:]
    /// IDs whose hash value another ID holds in ``byHash``.
    private var collided: [ImageID: Int32] = [:]
    private let hash: @Sendable (ImageID) -> Int

    /// An empty table; `hash` for tests, to make collisions.
    init(hash: @escaping @Sendable (ImageID) -> Int = { $0.hashValue }) {
        self.hash = hash
    }

    /// The number of IDs filed.
    var count: Int { byHash.count + collided.count }

    /// Makes room for `count` IDs in all.
    mutating func reserveCapacity(_ count: Int) {
        byHash.reserveCapacity(count)
    }

    /// The number `id` is filed under; `ids` gives the ID filed under each
    /// number (``PhotoTimeline/ids``).
    func number(of id: ImageID, in ids: [ImageID]) -> Int32? {
        if let number = byHash[hash(id)], ids[Int(number)] == id { return number }
        return collided.isEmpty ? nil : collided[id]
    }

    /// Files `id` under `number` (replacing the number it had) and returns
    /// the number it had, if any. `ids` gives the ID filed under each
    /// number up to `number` (the one for `number` itself need not be in it yet).
    @discardableResult
    mutating func file(_ id: ImageID, as number: Int32, in ids: [ImageID]) -> Int32? {
        let key = hash(id)
        if let held = byHash[key] {
            if ids[Int(held)] == id {
                byHash[key] = number
                return held
            }
            return collided.updateValue(number, forKey: id)
        }
        byHash[key] = number
        // Its hash value came free (the ID holding it was removed): it may still be among the collided.
        return collided.isEmpty ? nil : collided.removeValue(forKey: id)
    }

    /// Removes `id` and returns the number it was filed under, if any.
    mutating func remove(_ id: ImageID, in ids: [ImageID]) -> Int32? {
        let key = hash(id)
        if let held = byHash[key], ids[Int(held)] == id {
            byHash[key] = nil
            return held
        }
        return collided.isEmpty ? nil : collided.removeValue(forKey: id)
    }
}
