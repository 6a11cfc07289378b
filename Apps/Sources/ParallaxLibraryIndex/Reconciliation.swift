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
}

extension Reconciliation {
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
        var builder = Builder(indexed: indexed)
        builder.add(listed)
        self = builder.finished()
    }

    /// A reconciliation made as a walk lists its files, a batch at a time,
    /// so that the walk's whole listing is never held beside it: at the end
    /// of a first launch over 100,000 photos the listing, the new files and
    /// the files to write were three copies of 5 MB each.
    ///
    /// Adding every file in one batch or in many gives the same
    /// reconciliation as ``Reconciliation/init(indexed:listed:)``.
    package struct Builder: Sendable {
        private let indexed: [LibraryRecord]
        /// ID → position in `indexed`; a position's flag in `listedAt` says whether the walk listed it.
        private var positions: [ImageID: Int]
        private var listedAt: [Bool]
        private var newIDs = Set<ImageID>()
        private var made = Reconciliation()

        /// A reconciliation against `indexed`, with nothing listed yet. O(*n*).
        package init(indexed: [LibraryRecord]) {
            self.indexed = indexed
            positions = [ImageID: Int](minimumCapacity: indexed.count)
            for (position, record) in indexed.enumerated() where positions[record.id] == nil {
                positions[record.id] = position
            }
            listedAt = [Bool](repeating: false, count: indexed.count)
        }

        /// Takes the next files the walk listed. O(files).
        package mutating func add(_ listed: some Sequence<ListedFile>) {
            for file in listed {
                guard let position = positions[file.id] else {
                    if newIDs.insert(file.id).inserted { made.new.append(file) }
                    continue
                }
                guard !listedAt[position] else { continue }
                listedAt[position] = true
                if indexed[position].stamp == file.stamp {
                    made.unchanged.append(file.id)
                } else {
                    made.changed.append(file)
                }
            }
        }

        /// The reconciliation of everything added: what the walk did not
        /// list is deleted. O(*n*).
        package func finished() -> Reconciliation {
            var result = made
            for (position, record) in indexed.enumerated() where !listedAt[position] && positions[record.id] == position {
                result.deleted.append(record.id)
            }
            return result
        }
    }
}
