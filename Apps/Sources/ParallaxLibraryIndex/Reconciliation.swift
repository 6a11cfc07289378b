import ParallaxImages

/// What changed between the index and the library on disk: the difference
/// between the records the index holds and what a walk of the tree listed.
///
/// A pure value, computed without touching the index, so a gallery can
/// show the index at once, walk in the background, and apply only the
/// difference (``LibraryIndex/apply(_:)``).
package struct Reconciliation: Sendable, Hashable {
    /// Listed files the index does not hold, in listing order.
    package var new: [ListedFile] = []
    /// Listed files the index holds with a different stamp (edited,
    /// replaced): their metadata must be read again. In listing order.
    package var changed: [ListedFile] = []
    /// Listed files the index holds with the same stamp, in listing order.
    package var unchanged: [ImageID] = []
    /// Indexed photos the walk did not list (deleted, moved, now hidden),
    /// in the order of `indexed`.
    package var deleted: [ImageID] = []

    /// Whether the index already matches the listing.
    package var isEmpty: Bool { new.isEmpty && changed.isEmpty && deleted.isEmpty }

    /// Compares `indexed` (what the index holds) with `listed` (what a walk
    /// found).
    ///
    /// A walk names each file once; should `listed` repeat an ID anyway,
    /// its first listing counts and the rest are ignored. Likewise the first
    /// of repeated IDs in `indexed` counts (the index itself never repeats
    /// one).
    ///
    /// Complexity: O(*n* + *m*) for *n* indexed and *m* listed files, with
    /// one dictionary of *n* entries.
    package init(indexed: [LibraryRecord], listed: [ListedFile]) {
        // ID → position in `indexed`; a position's flag says whether the walk listed it.
        var positions = [ImageID: Int](minimumCapacity: indexed.count)
        for (position, record) in indexed.enumerated() where positions[record.id] == nil {
            positions[record.id] = position
        }
        var listedAt = [Bool](repeating: false, count: indexed.count)
        var newIDs = Set<ImageID>()
        for file in listed {
            guard let position = positions[file.id] else {
                if newIDs.insert(file.id).inserted { new.append(file) }
                continue
            }
            guard !listedAt[position] else { continue }
            listedAt[position] = true
            if indexed[position].stamp == file.stamp {
                unchanged.append(file.id)
            } else {
                changed.append(file)
            }
        }
        for (position, record) in indexed.enumerated() where !listedAt[position] && positions[record.id] == position {
            deleted.append(record.id)
        }
    }
}
