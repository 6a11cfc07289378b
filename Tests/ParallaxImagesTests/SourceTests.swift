import Foundation
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
        #expect(try await source.data(for: "a.png") == Data([1, 2, 3]))
        await #expect(throws: ImageSourceError.notFound("missing.jpg")) { try await source.data(for: "missing.jpg") }
        await #expect(throws: ImageSourceError.notFound("../etc/passwd")) { try await source.data(for: "../etc/passwd") }
        #expect(await source.isStoredLocally("a.png"))
    }

    @Test func missingFolderIsAClearError() async {
        let source = FolderImageSource(directory: URL(fileURLWithPath: "/nonexistent/photos"))
        await #expect(throws: ImageSourceError.unavailable("there is no photo folder at /nonexistent/photos")) {
            try await source.imageIDs()
        }
    }

    @Test func simulatedServerDelaysOnlyTheFirstDownload() async throws {
        let backing = InMemoryImageSource(images: [("a", Data([1])), ("b", Data([2]))])
        let server = SimulatedImageServer(backing: backing, behavior: .init(latency: .milliseconds(400) ... .milliseconds(500)))
        let clock = ContinuousClock()
        #expect(await !server.isStoredLocally("a"))
        var fetched = Data()
        let first = try await clock.measure { fetched = try await server.data(for: "a") }
        #expect(fetched == Data([1]))
        #expect(first >= .milliseconds(400))
        #expect(await server.isStoredLocally("a"))
        let second = try await clock.measure { _ = try await server.data(for: "a") }
        #expect(second < .milliseconds(200))        // no delay: loose only for a loaded machine
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
        let server = SimulatedImageServer(backing: backing, behavior: .init(latency: .milliseconds(600) ... .milliseconds(600)))
        #expect(try await server.imageIDs() == ["a"])
        let download = Task { try await server.data(for: "a") }
        try await Task.sleep(for: .milliseconds(20))
        await server.eraseAll()
        await #expect(throws: ImageSourceError.erased("a")) { try await download.value }
        #expect(try await server.imageIDs() == ["a"])
        #expect(await server.downloadsInFlight == 0)
    }
}
