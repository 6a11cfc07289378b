import Foundation
import ParallaxImages
import Testing
@testable import ParallaxLibraryIndex

/// Two galleries on one index: separate connections, in one process and in
/// two, writing at once without an error, a lost row or a damaged file.
@Suite("Library index, shared")
struct LibraryIndexConcurrencyTests {
    /// What one gallery does: lists `count` photos of its own in batches of
    /// 100, records their metadata, and reads everything after each batch.
    static func write(_ index: LibraryIndex, prefix: String, count: Int) async throws {
        for start in stride(from: 0, to: count, by: 100) {
            let files = (start..<min(start + 100, count)).map { n in
                var file = Fixtures.file(n)
                file.id = ImageID("\(prefix)/\(n).jpg")
                return file
            }
            try await index.upsert(files)
            try await index.recordMetadata(files.map { (file: $0, metadata: Fixtures.metadata(1)) })
            _ = try await index.records()
        }
    }

    @Test func twoConnectionsWriteAtOnce() async throws {
        let scratch = try ScratchFolder()
        let first = try scratch.open(), second = try scratch.open()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await Self.write(first, prefix: "a", count: 3_000) }
            group.addTask { try await Self.write(second, prefix: "b", count: 3_000) }
            try await group.waitForAll()
        }
        try await first.verify()
        let records = try await second.records()
        #expect(records.count == 6_000)
        #expect(records.allSatisfy { $0.metadata == Fixtures.metadata(1) })
    }

    /// `library-index-writer` of this build (see `GalleryExecutable.binary`
    /// in the gallery's tests: `PARALLAX_BIN_PATH`, else beside the test bundle).
    static var writer: URL? {
        var folders: [URL] = []
        if let bin = ProcessInfo.processInfo.environment["PARALLAX_BIN_PATH"], !bin.isEmpty {
            folders.append(URL(fileURLWithPath: bin))
        }
        if let tests = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            folders.append(tests.deletingLastPathComponent())
        }
        return folders.map { $0.appendingPathComponent("library-index-writer") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs the writer on `scratch`'s index and waits for it to exit: its
    /// status, and standard output and error.
    static func runWriter(_ scratch: ScratchFolder, prefix: String, count: Int) async throws -> (Int32, String, String) {
        let executable = try #require(Self.writer, "build the apps first (swift build --package-path Apps): no library-index-writer")
        let process = Process()
        process.executableURL = executable
        process.arguments = [scratch.index.path, scratch.root.path, prefix, String(count)]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        func text(_ pipe: Pipe) -> String {
            String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        }
        return (status, text(output), text(errors))
    }

    @Test func twoProcessesAndThisOneWriteAtOnce() async throws {
        let scratch = try ScratchFolder()
        let index = try scratch.open()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for prefix in ["p", "q"] {
                group.addTask {
                    let (status, _, errors) = try await Self.runWriter(scratch, prefix: prefix, count: 3_000)
                    #expect(status == 0, "\(errors)")
                }
            }
            group.addTask { try await Self.write(index, prefix: "here", count: 3_000) }
            try await group.waitForAll()
        }
        try await index.verify()
        let records = try await index.records()
        #expect(records.count == 9_000)
        #expect(Set(records.map(\.id)).count == 9_000)
    }

    @Test func aGalleryKilledMidWriteLeavesAnIndexThatWorks() async throws {
        let scratch = try ScratchFolder()
        let executable = try #require(Self.writer, "build the apps first (swift build --package-path Apps): no library-index-writer")
        let process = Process()
        process.executableURL = executable
        process.arguments = [scratch.index.path, scratch.root.path, "killed", "1000000"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let exited = AsyncStream<Void> { continuation in
            process.terminationHandler = { _ in continuation.finish() }
        }
        // Its output, as an event: the first batch is committed (or it ended without one).
        let committed = AsyncStream<Void> { continuation in
            output.fileHandleForReading.readabilityHandler = { handle in
                let data = handle.availableData
                if data.isEmpty || String(decoding: data, as: UTF8.self).contains("committed") {
                    handle.readabilityHandler = nil
                    continuation.finish()
                }
            }
        }
        try process.run()
        // Once its first batch is committed (it says so), kill it where it stands, mid-write.
        for await _ in committed {}
        let index = try scratch.open()
        #expect(try await index.count() > 0)
        kill(process.processIdentifier, SIGKILL)
        for await _ in exited {}
        #expect(process.terminationReason == .uncaughtSignal)

        try await index.verify()
        let records = try await index.records()
        #expect(!records.isEmpty)
        try await index.upsert([Fixtures.file(1)])
        #expect(try await index.count() == records.count + 1)
        let reopened = try scratch.open()
        #expect(reopened.opening == .reopened)
        try await reopened.verify()
    }

    @Test func twoProcessesOpeningOneGarbageFileRebuildItOnce() async throws {
        let scratch = try ScratchFolder()
        try Fixtures.overwrite(scratch.index, with: Array(repeating: 0x42, count: 10_000))
        let outcomes = try await withThrowingTaskGroup(of: (Int32, String, String).self) { group in
            for prefix in ["p", "q"] {
                group.addTask { try await Self.runWriter(scratch, prefix: prefix, count: 1_000) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for (status, _, errors) in outcomes { #expect(status == 0, "\(errors)") }
        let index = try scratch.open()
        #expect(index.opening == .reopened)
        #expect(try await index.count() == 2_000)
        // The garbage was moved aside once: what is aside is the garbage, not a half-made index.
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.index.path + ".unusable")) == Data(repeating: 0x42, count: 10_000))
    }
}
