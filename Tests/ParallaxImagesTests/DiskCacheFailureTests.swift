import Foundation
import Testing
@testable import ParallaxImages

/// A folder made read-only for real, for whoever runs the tests: by its
/// mode for an ordinary user; as root, whom modes do not stop, by the
/// immutable attribute (`chattr +i`, which stops root too: creating,
/// removing or renaming a file in it fails with EPERM, as on a read-only
/// mount). The cache's own code then meets the kernel's refusal; nothing
/// is simulated.
enum ReadOnlyFolder {
    /// Makes `directory` read-only; `false` if this system cannot.
    static func lock(_ directory: URL) -> Bool {
        guard geteuid() == 0 else { return chmod(directory.path, 0o555) == 0 }
        return chattr("+i", directory)
    }

    static func unlock(_ directory: URL) {
        if geteuid() == 0 { _ = chattr("-i", directory) } else { chmod(directory.path, 0o755) }
    }

    /// Whether a read-only folder can be made here (as root: chattr exists and the file system takes it).
    static let isAvailable: Bool = {
        let probe = temporaryDirectory()
        defer { unlock(probe); try? FileManager.default.removeItem(at: probe) }
        guard lock(probe) else { return false }
        return !FileManager.default.createFile(atPath: probe.appendingPathComponent("x").path, contents: Data())
    }()

    private static func chattr(_ flag: String, _ directory: URL) -> Bool {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chattr") else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        process.arguments = [flag, directory.path]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}

@Suite("Disk cache against a failing disk")
struct DiskCacheFailureTests {
    /// The ledger's total, if there is a ledger.
    func ledger(_ directory: URL) -> Int? {
        (try? String(contentsOf: directory.appendingPathComponent(".size"), encoding: .utf8)).flatMap { Int($0) }
    }

    func temporaryFiles(_ directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".tmp-") }
    }

    /// Writes half of what it is given, then reports a full disk.
    static let fullDisk = FileWriter { data, url in
        try data.prefix(data.count / 2).write(to: url)
        throw CocoaError(.fileWriteOutOfSpace)
    }

    @Test func anEntryReplacedByAFolderIsRemovedAndWrittenAgain() async throws {
        let directory = temporaryDirectory()
        let cache = try DiskImageCache(directory: directory)
        let image = solidImage(4, 90)
        for readFirst in [true, false] {
            let k = key(readFirst ? "read.jpg" : "written.jpg")
            await cache.store(image, for: k)
            let entry = directory.appendingPathComponent(DiskImageCache.fileName(for: k))
            try FileManager.default.removeItem(at: entry)
            try FileManager.default.createDirectory(at: entry, withIntermediateDirectories: false)
            try Data([1, 2, 3]).write(to: entry.appendingPathComponent("inside"))
            if readFirst { #expect(await cache.image(for: k) == nil) }        // the read removes it
            await cache.store(image, for: k)                                  // or the write does
            #expect(await cache.image(for: k) == image)
        }
        #expect(await cache.count == 2)
        // A squatter found at the next open (left by a crash, or put there) is removed, never counted.
        let squatter = directory.appendingPathComponent(DiskImageCache.fileName(for: key("squatter.jpg")))
        try FileManager.default.createDirectory(at: squatter, withIntermediateDirectories: false)
        try Data(count: 5_000).write(to: squatter.appendingPathComponent("inside"))
        let entryBytes = try ["read.jpg", "written.jpg"].reduce(0) { total, name in
            let path = directory.appendingPathComponent(DiskImageCache.fileName(for: key(name))).path
            return total + (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0)
        }
        let reopened = try DiskImageCache(directory: directory)
        let reopenedBytes = await reopened.byteCount          // after the opening's recount
        #expect(!FileManager.default.fileExists(atPath: squatter.path))
        #expect(reopenedBytes == entryBytes && ledger(directory) == reopenedBytes)
    }

    @Test func aWriteThatFailsPartWayLeavesNoPartialFileAndALedgerThatMatchesTheFolder() async throws {
        let directory = temporaryDirectory()
        let kept = key("kept.jpg")
        do {
            let cache = try DiskImageCache(directory: directory)
            await cache.store(solidImage(4, 10), for: kept)
        }
        let full = try DiskImageCache(directory: directory, writer: Self.fullDisk)
        await full.store(solidImage(4, 20), for: key("lost.jpg"))
        #expect(try temporaryFiles(directory).isEmpty)
        #expect(await full.image(for: key("lost.jpg")) == nil)
        #expect(await full.image(for: kept) == solidImage(4, 10))
        // The ledger is right, or gone (then recounted from the files by the next writer).
        let bytes = await full.byteCount
        #expect(ledger(directory) == nil || ledger(directory) == bytes)
        let healthy = try DiskImageCache(directory: directory)
        await healthy.store(solidImage(4, 30), for: key("next.jpg"))
        #expect(ledger(directory) == (await healthy.byteCount))
    }

    /// The entry is committed, then the ledger cannot be written: the stale
    /// ledger must not survive (it would undercount forever).
    @Test func aLedgerThatCannotBeWrittenIsRemovedNotLeftStale() async throws {
        let directory = temporaryDirectory()
        let ledgerFails = FileWriter { data, url in
            if url.lastPathComponent.contains("ledger") { try Self.fullDisk.write(data, url) } else { try data.write(to: url) }
        }
        do {
            let cache = try DiskImageCache(directory: directory)
            await cache.store(solidImage(4, 10), for: key("a.jpg"))
            #expect(ledger(directory) == (await cache.byteCount))
        }
        let cache = try DiskImageCache(directory: directory, writer: ledgerFails)
        await cache.store(solidImage(4, 20), for: key("b.jpg"))
        #expect(await cache.count == 2 && ledger(directory) == nil)
        #expect(try temporaryFiles(directory).isEmpty)
        let healthy = try DiskImageCache(directory: directory)
        let healthyBytes = await healthy.byteCount            // after the opening's recount
        #expect(ledger(directory) == healthyBytes)
    }

    @Test(.enabled(if: ReadOnlyFolder.isAvailable, "this system cannot make a read-only folder (as root: chattr +i)"))
    func aReadOnlyFolderIsStillReadAndWritesAreSkipped() async throws {
        let directory = temporaryDirectory()
        let stored = key("stored.jpg")
        do {
            let cache = try DiskImageCache(directory: directory)
            await cache.store(solidImage(4, 60), for: stored)
            #expect(!cache.isReadOnly)
        }
        let before = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(ReadOnlyFolder.lock(directory))
        defer { ReadOnlyFolder.unlock(directory) }
        let cache = try DiskImageCache(directory: directory)
        #expect(cache.isReadOnly)
        #expect(await cache.image(for: stored) == solidImage(4, 60))
        await cache.store(solidImage(4, 70), for: key("new.jpg"))
        #expect(await cache.image(for: key("new.jpg")) == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == before)
    }
}
