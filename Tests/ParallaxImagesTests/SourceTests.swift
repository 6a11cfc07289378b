import Foundation
import ParallaxCore
import Testing
@testable import ParallaxImages

@Suite("Sources")
struct SourceTests {
    @Test func folderListsPicturesInNameOrder() async throws {
        let directory = temporaryDirectory()
        for name in ["b.JPG", "a.png", "c.jpeg", "notes.txt", ".hidden.jpg"] {
            try Data([1, 2, 3]).write(to: directory.appendingPathComponent(name))
        }
        let source = FolderImageSource(directory: directory)
        #expect(try await source.imageIDs() == ["a.png", "b.JPG", "c.jpeg"])
        await #expect(throws: ImageSourceError.unreadable("a.png", "is not a JPEG or PNG (it starts with 01 02 03)")) {
            try await source.data(for: "a.png")
        }
        await #expect(throws: ImageSourceError.notFound("missing.jpg")) { try await source.data(for: "missing.jpg") }
        await #expect(throws: ImageSourceError.notFound("../etc/passwd")) { try await source.data(for: "../etc/passwd") }
        #expect(await source.isStoredLocally("a.png"))
    }

    @Test func oddFilesAreNamedForWhatTheyAreAndCostNoMemory() async throws {
        let directory = temporaryDirectory()
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 7, count: 60))
        try jpeg.write(to: directory.appendingPathComponent("good.jpg"))
        // A gigabyte of zeros (sparse: no disk used), and a real header on a file over the limit.
        for (name, size, head) in [("big.jpg", 1 << 30, Data()), ("large.png", 3 << 20, Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))] {
            let url = directory.appendingPathComponent(name)
            try head.write(to: url)
            let handle = try FileHandle(forWritingTo: url)
            try handle.truncate(atOffset: UInt64(size))
            try handle.close()
        }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("folder.jpg"), withIntermediateDirectories: false)
        #expect(mkfifo(directory.appendingPathComponent("pipe.jpg").path, 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("gone.jpg").path, withDestinationPath: "/nonexistent/x.jpg")
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("zero.jpg").path, withDestinationPath: "/dev/zero")
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("linked.jpg").path,
                                                   withDestinationPath: directory.appendingPathComponent("good.jpg").path)
        try Data().write(to: directory.appendingPathComponent("empty.jpg"))
        let source = FolderImageSource(directory: directory, maximumFileSize: 2 << 20)
        // Only regular files (and links to them) are listed.
        #expect(try await source.imageIDs() == ["big.jpg", "empty.jpg", "good.jpg", "large.png", "linked.jpg"])
        #expect(try await source.data(for: "good.jpg") == jpeg)
        #expect(try await source.data(for: "linked.jpg") == jpeg)
        let expected: [(ImageID, String)] = [
            ("big.jpg", "is 1 GiB, over the 2 MiB limit for one photo (maximumFileSize)"),
            ("large.png", "is 3 MiB, over the 2 MiB limit for one photo (maximumFileSize)"),
            ("folder.jpg", "is a folder, not a photo"),
            ("pipe.jpg", "is a named pipe (FIFO), not a photo"),
            ("gone.jpg", "is a link to a file that does not exist, not a photo"),
            ("zero.jpg", "is a device, not a photo"),
            ("empty.jpg", "is empty"),
        ]
        for (id, reason) in expected {
            await #expect(throws: ImageSourceError.unreadable(id, reason)) { try await source.data(for: id) }
        }
        #expect(ImageSourceError.unreadable("pipe.jpg", "is a named pipe (FIFO), not a photo").description
                    == "pipe.jpg is a named pipe (FIFO), not a photo")
        // Under a limit it fits, the gigabyte of zeros is refused by its first bytes, having read 16 of them.
        let lenient = FolderImageSource(directory: directory, maximumFileSize: 2 << 30)
        await #expect(throws: ImageSourceError.unreadable("big.jpg", "is not a JPEG or PNG (it starts with 00 00 00 00)")) {
            try await lenient.data(for: "big.jpg")
        }
    }

    @Test func missingFolderIsAClearError() async {
        let source = FolderImageSource(directory: URL(fileURLWithPath: "/nonexistent/photos"))
        await #expect(throws: ImageSourceError.unavailable("there is no photo folder at /nonexistent/photos")) {
            try await source.imageIDs()
        }
    }

    @Test func simulatedServerDelaysOnlyTheFirstDownload() async throws {
        let backing = InMemoryImageSource(images: [("a", Data([1])), ("b", Data([2]))])
        let clock = ManualClock()
        let server = SimulatedImageServer(backing: backing, behavior: .init(latency: .milliseconds(400) ... .milliseconds(500)),
                                          clock: clock)
        #expect(await !server.isStoredLocally("a"))
        let first = Task { try await server.data(for: "a") }
        // The first download waits its latency on the server's clock: 400 to 500 ms.
        await clock.waitForSleepers(1)
        let delay = try #require(clock.remainingSleeps.first)
        #expect(delay >= .milliseconds(400) && delay <= .milliseconds(500))
        clock.advance(by: delay)
        #expect(try await first.value == Data([1]))
        #expect(await server.isStoredLocally("a"))
        // The second is answered with no sleep at all: the clock never moves, and no sleeper is left behind.
        #expect(try await server.data(for: "a") == Data([1]))
        #expect(clock.sleeperCount == 0)
        await server.reloadAll()
        #expect(await !server.isStoredLocally("a"))
        #expect(await server.downloadCount == 1)
    }

    @Test func simulatedFailuresAreDeterministicPerSeed() async throws {
        let backing = InMemoryImageSource(images: (0..<200).map { (ImageID("p\($0)"), Data([UInt8($0)])) })
        func failures(seed: UInt64) async -> [ImageID] {
            let server = SimulatedImageServer(backing: backing, behavior: .init(latency: .zero ... .zero, failureRate: 0.3, seed: seed))
            var failed: [ImageID] = []
            for i in 0..<200 {
                do { _ = try await server.data(for: ImageID("p\(i)")) } catch { failed.append(ImageID("p\(i)")) }
            }
            return failed
        }
        let a = await failures(seed: 1), b = await failures(seed: 1), c = await failures(seed: 2)
        #expect(a == b && a != c)
        #expect((40...80).contains(a.count))          // about 30 % of 200
    }

    @Test func eraseFailsDownloadsUnderWayAndRefetchesTheList() async throws {
        let backing = InMemoryImageSource(images: [("a", Data([1]))])
        let clock = ManualClock()
        let server = SimulatedImageServer(backing: backing, behavior: .init(latency: .milliseconds(600) ... .milliseconds(600)),
                                          clock: clock)
        #expect(try await server.imageIDs() == ["a"])
        let download = Task { try await server.data(for: "a") }
        await clock.waitForSleep(of: .milliseconds(600))       // the download is under way, waiting out its latency
        await server.eraseAll()
        clock.advance(by: .milliseconds(600))
        await #expect(throws: ImageSourceError.erased("a")) { try await download.value }
        #expect(try await server.imageIDs() == ["a"])
        #expect(await server.downloadsInFlight == 0)
    }
}
