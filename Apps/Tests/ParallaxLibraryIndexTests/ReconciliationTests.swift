import Foundation
import ParallaxImages
import Testing
@testable import ParallaxLibraryIndex

/// The difference between the index and a walk, against a plain quadratic
/// reading of its definition over seeded random libraries.
@Suite("Reconciliation")
struct ReconciliationTests {
    /// The definition, one linear search per file.
    static func oracle(indexed: [LibraryRecord], listed: [ListedFile]) -> Reconciliation {
        var result = Reconciliation(indexed: [], listed: [])
        var seen: [ImageID] = []
        for file in listed where !seen.contains(file.id) {
            seen.append(file.id)
            if let record = indexed.first(where: { $0.id == file.id }) {
                if record.stamp == file.stamp { result.unchanged.append(file.id) } else { result.changed.append(file) }
            } else {
                result.new.append(file)
            }
        }
        var deleted: [ImageID] = []
        for record in indexed where !seen.contains(record.id) && !deleted.contains(record.id) {
            deleted.append(record.id)
        }
        result.deleted = deleted
        return result
    }

    @Test func sortsASmallExampleIntoItsFourKinds() {
        func file(_ id: ImageID, _ size: Int64) -> ListedFile {
            ListedFile(id: id, stamp: FileStamp(size: size, modificationNanoseconds: 5, inode: 9))
        }
        let indexed = [file("a", 1), file("b", 1), file("c", 1)].map { LibraryRecord(id: $0.id, stamp: $0.stamp) }
        let listed = [file("d", 1), file("c", 2), file("a", 1), file("e", 1)]
        let result = Reconciliation(indexed: indexed, listed: listed)
        #expect(result.new == [file("d", 1), file("e", 1)])
        #expect(result.changed == [file("c", 2)])
        #expect(result.unchanged == ["a"])
        #expect(result.deleted == ["b"])
        #expect(!result.isEmpty)
        #expect(Reconciliation(indexed: indexed, listed: indexed.map { ListedFile(id: $0.id, stamp: $0.stamp) }).isEmpty)
        #expect(Reconciliation(indexed: [], listed: []).isEmpty)
    }

    @Test func agreesWithTheDefinitionOnRandomLibraries() {
        var generator = TestGenerator(seed: 0x5EED)
        for _ in 0..<300 {
            // A small name space, so listings share IDs with the index, repeat them, and miss some.
            let names = Int.random(in: 1...60, using: &generator)
            func randomFile() -> ListedFile {
                ListedFile(id: ImageID("\(Int.random(in: 0..<names, using: &generator)).jpg"),
                           stamp: FileStamp(size: Int64.random(in: 0..<3, using: &generator),
                                            modificationNanoseconds: Int64.random(in: 0..<2, using: &generator),
                                            inode: UInt64.random(in: 0..<2, using: &generator)))
            }
            let indexed = (0..<Int.random(in: 0...40, using: &generator)).map { _ in randomFile() }
                .map { LibraryRecord(id: $0.id, stamp: $0.stamp) }
            let listed = (0..<Int.random(in: 0...40, using: &generator)).map { _ in randomFile() }
            let expected = Self.oracle(indexed: indexed, listed: listed)
            #expect(Reconciliation(indexed: indexed, listed: listed) == expected)
            // Added a batch at a time, as a walk lists them: the same.
            var builder = Reconciliation.Builder(indexed: indexed)
            var rest = listed[...]
            while !rest.isEmpty {
                let batch = rest.prefix(Int.random(in: 1...7, using: &generator))
                builder.add(batch)
                rest = rest.dropFirst(batch.count)
            }
            #expect(builder.finished() == expected)
        }
    }
}
