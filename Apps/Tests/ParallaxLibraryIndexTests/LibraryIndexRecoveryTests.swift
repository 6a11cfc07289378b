import CSQLite
import Foundation
import ParallaxImages
import Testing
@testable import ParallaxLibraryIndex

/// Files the index must not trust: each is moved aside and replaced by an
/// empty index that works, on opening or when the damage shows later.
@Suite("Library index recovery")
struct LibraryIndexRecoveryTests {
    /// An index in `scratch` holding `count` photos, closed again.
    func filledIndex(_ scratch: ScratchFolder, count: Int = 5_000) async throws {
        let index = try scratch.open()
        try await index.upsert((0..<count).map { Fixtures.file($0) })
    }

    /// Checks `index` is empty and takes writes, and that the file it replaced is aside.
    func expectFreshAndUsable(_ index: LibraryIndex, asideIn scratch: ScratchFolder) async throws {
        #expect(try await index.records().isEmpty)
        try await index.upsert([Fixtures.file(1)])
        #expect(try await index.count() == 1)
        try await index.verify()
        #expect(FileManager.default.fileExists(atPath: scratch.index.path + ".unusable"))
    }

    @Test func rebuildsAFileOfGarbage() async throws {
        let scratch = try ScratchFolder()
        var generator = TestGenerator(seed: 3)
        let garbage = (0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try Fixtures.overwrite(scratch.index, with: garbage)
        let index = try scratch.open()
        guard case .rebuilt(.notADatabase) = index.opening else { Issue.record("\(index.opening)"); return }
        try await expectFreshAndUsable(index, asideIn: scratch)
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.index.path + ".unusable")) == Data(garbage))
    }

    @Test func rebuildsAFewBytesOfText() async throws {
        let scratch = try ScratchFolder()
        try Fixtures.overwrite(scratch.index, with: Array("not a database\n".utf8))
        let index = try scratch.open()
        guard case .rebuilt(.notADatabase) = index.opening else { Issue.record("\(index.opening)"); return }
        try await expectFreshAndUsable(index, asideIn: scratch)
    }

    @Test func takesAnEmptyFileForANewIndex() async throws {
        let scratch = try ScratchFolder()
        try Fixtures.overwrite(scratch.index, with: [])
        let index = try scratch.open()
        #expect(index.opening == .created)
        try await index.upsert([Fixtures.file(1)])
        #expect(try await index.count() == 1)
    }

    @Test func rebuildsATruncatedFileOnOpening() async throws {
        let scratch = try ScratchFolder()
        try await filledIndex(scratch)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: scratch.index.path)[.size] as? Int)
        #expect(size > 100_000)
        let handle = try FileHandle(forWritingTo: scratch.index)
        try handle.truncate(atOffset: UInt64(size / 2))
        try handle.close()
        // The first page says how many pages there are; SQLite refuses a file with fewer.
        let index = try scratch.open()
        guard case .rebuilt(.damaged) = index.opening else { Issue.record("\(index.opening)"); return }
        try await expectFreshAndUsable(index, asideIn: scratch)
    }

    /// Opens an index of 5,000 photos, overwrites every page after the first
    /// in place (the same file, so not a replacement), and runs `operation`.
    func damageUnderneath(_ operation: @Sendable (LibraryIndex) async throws -> Void) async throws {
        let scratch = try ScratchFolder()
        try await filledIndex(scratch)
        let index = try scratch.open()
        #expect(index.opening == .reopened)
        let handle = try FileHandle(forUpdating: scratch.index)
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: 4096)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: Int(size) - 4096))
        try handle.close()
        let error = await #expect(throws: LibraryIndexError.self) { try await operation(index) }
        guard case .rebuilt(.damaged) = error else { Issue.record("\(String(describing: error))"); return }
        try await expectFreshAndUsable(index, asideIn: scratch)
    }

    @Test func rebuildsAFileThatShowsDamageWhenRead() async throws {
        try await damageUnderneath { _ = try await $0.records() }
    }

    @Test func rebuildsAFileThatShowsDamageWhenChecked() async throws {
        try await damageUnderneath { try await $0.verify() }
    }

    @Test func rebuildsAnotherApplicationsDatabaseAndKeepsItAside() async throws {
        let scratch = try ScratchFolder()
        do {
            let foreign = try SQLiteConnection(path: scratch.index.path, busyTimeoutMilliseconds: 1000)
            try foreign.execute("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('keep me')")
        }
        let index = try scratch.open()
        #expect(index.opening == .rebuilt(.foreign(applicationID: 0)))
        try await expectFreshAndUsable(index, asideIn: scratch)
        let aside = try SQLiteConnection(path: scratch.index.path + ".unusable", busyTimeoutMilliseconds: 1000)
        #expect(try aside.text("SELECT text FROM notes") == "keep me")
    }

    @Test func rebuildsAnIndexOfANewerOrOlderLayout() async throws {
        for (version, reason) in [(IndexSchema.version + 1, IndexRebuildReason.newerLayout(IndexSchema.version + 1)),
                                  (0, .olderLayout(0))] {
            let scratch = try ScratchFolder()
            try await filledIndex(scratch, count: 10)
            do {
                let connection = try SQLiteConnection(path: scratch.index.path, busyTimeoutMilliseconds: 1000)
                try connection.execute("PRAGMA user_version = \(version)")
            }
            let index = try scratch.open()
            #expect(index.opening == .rebuilt(reason))
            try await expectFreshAndUsable(index, asideIn: scratch)
        }
    }

    @Test func rebuildsAFileMarkedOursWithOtherTables() async throws {
        let scratch = try ScratchFolder()
        do {
            let connection = try SQLiteConnection(path: scratch.index.path, busyTimeoutMilliseconds: 1000)
            try connection.execute("""
                CREATE TABLE library (singleton INTEGER PRIMARY KEY, root TEXT);
                INSERT INTO library VALUES (1, '\(IndexFile.realPath(of: scratch.root))');
                CREATE TABLE photo (id TEXT PRIMARY KEY, size INTEGER);
                PRAGMA application_id = \(IndexSchema.applicationID);
                PRAGMA user_version = \(IndexSchema.version);
                """)
        }
        let index = try scratch.open()
        guard case .rebuilt(.damaged) = index.opening else { Issue.record("\(index.opening)"); return }
        try await expectFreshAndUsable(index, asideIn: scratch)
    }

    @Test func rebuildsTheIndexOfAnotherLibrary() async throws {
        let scratch = try ScratchFolder()
        try await filledIndex(scratch, count: 10)
        let elsewhere = scratch.url.appendingPathComponent("Elsewhere")
        let index = try LibraryIndex(at: scratch.index, root: elsewhere)
        #expect(index.opening == .rebuilt(.otherLibrary(IndexFile.realPath(of: scratch.root))))
        try await expectFreshAndUsable(index, asideIn: scratch)
    }

    @Test func followsAFileAnotherGalleryRebuilt() async throws {
        let scratch = try ScratchFolder()
        let first = try scratch.open()
        try await first.upsert([Fixtures.file(1)])
        // Another gallery finds it unusable: moves it aside and starts a new one.
        try IndexFile.moveAside(scratch.index.path)
        let second = try scratch.open()
        #expect(second.opening == .created)
        try await second.upsert([Fixtures.file(2)])

        await #expect(throws: LibraryIndexError.rebuilt(.rebuiltElsewhere)) { try await first.upsert([Fixtures.file(3)]) }
        #expect(try await first.records().map(\.id) == [Fixtures.file(2).id])
        // Closing its old connection left the new file's log alone: both see each other's writes.
        try await first.upsert([Fixtures.file(4)])
        #expect(Set(try await second.records().map(\.id)) == [Fixtures.file(2).id, Fixtures.file(4).id])
        try await second.verify()
    }

    @Test func reportsAFolderItCannotWriteIn() throws {
        let scratch = try ScratchFolder()
        let blocker = scratch.url.appendingPathComponent("file")
        try Data().write(to: blocker)
        #expect(throws: LibraryIndexError.self) {
            try LibraryIndex(at: blocker.appendingPathComponent("index.sqlite"), root: scratch.root)
        }
    }
}
