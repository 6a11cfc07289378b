#if canImport(Glibc)
import Glibc
#endif
import Foundation
import ParallaxImages
import ParallaxImagesHTTP
import ParallaxImagesHTTPTestSupport
import Testing

/// `HTTPImageSource` against a real nginx on loopback, over the libcurl
/// transport: its HTML, JSON and XML autoindex listings, a manifest that
/// tries to climb out of the photo folder (and names a photo in a folder
/// under it), and a file far over the size limit. nginx's access log is
/// the record of what was really asked for and sent. (The apps build
/// ParallaxKit without its `LinuxURLSession` trait, so `URLSessionTransport`
/// is not here; the library's own suite runs the source over it against
/// its loopback servers.)
@Suite("HTTP image source against nginx", .serialized,
       .enabled("needs nginx: installed by scripts/nginx-loopback.sh (apt-get, as root) when missing") {
           await NginxServer.isAvailable()
       })
struct HTTPImageSourceNginxTests {
    /// A photo folder inside a parent that also holds `secret.jpg`; nginx
    /// serves the parent, so the photos are at /photos/photos/ (and
    /// /json/photos/, /xml/photos/) and the secret is one `..` away, as with
    /// a `root` that holds more than the photo folder.
    struct Library {
        let parent: URL
        let folder: URL
        let nginx: NginxServer

        init() async throws {
            parent = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-nginx-\(UUID().uuidString)")
            folder = parent.appendingPathComponent("photos")
            let sub = folder.appendingPathComponent("2024")
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            for (name, text) in [("a.jpg", "first"), ("b & c.PNG", "second"), ("notes.txt", "not a photo"),
                                 ("é.jpeg", "third")] {
                try Data(text.utf8).write(to: folder.appendingPathComponent(name))
            }
            try Data("nested".utf8).write(to: sub.appendingPathComponent("d.jpg"))
            // A link back up, which nginx follows: the photo folder again under a longer path, for ever.
            try FileManager.default.createSymbolicLink(atPath: sub.appendingPathComponent("again").path, withDestinationPath: "..")
            try Data("the secret".utf8).write(to: parent.appendingPathComponent("secret.jpg"))
            let manifest = #"{"images": ["a.jpg", "../secret.jpg", "..%2Fsecret.jpg", "%2e%2e%2fsecret.jpg", "2024/d.jpg", "é.jpeg"]}"#
            try Data(manifest.utf8).write(to: folder.appendingPathComponent("photos.json"))
            nginx = try await NginxServer.start(serving: parent)
        }

        func base(_ location: String) -> URL { URL(string: "\(nginx.baseURL.absoluteString)\(location)/photos/")! }

        func close() async {
            await nginx.stop()
            try? FileManager.default.removeItem(at: parent)
        }
    }

    @Test
    func everyAutoindexFormatListsThePhotoFilesOfTheTreeOnly() async throws {
        let library = try await Library()
        for location in ["photos", "json", "xml"] {
            let source = try HTTPImageSource(baseURL: library.base(location), indexPath: "", transport: CurlTransport.shared)
            let names = try await source.imageIDs()
            #expect(Set(names) == ["a.jpg", "b & c.PNG", "é.jpeg", "2024/d.jpg"], "\(location)")
            #expect(try await source.data(for: "b & c.PNG") == Data("second".utf8), "\(location)")
            #expect(try await source.data(for: "é.jpeg") == Data("third".utf8), "\(location)")
            #expect(try await source.data(for: "2024/d.jpg") == Data("nested".utf8), "\(location)")
            // The link back up is read once, seen to repeat the photo folder, and reported.
            let report = source.listingReport
            #expect(report.folderCount == 2 && report.otherFileCount == 2, "\(location)")
            #expect(report.problems == [.init(path: "2024/again", kind: .linkLoop)], "\(location)")
        }
        await library.close()
    }

    @Test
    func aManifestThatClimbsOutOfTheFolderReachesNothingOutsideIt() async throws {
        let library = try await Library()
        // The attack is real: nginx does serve the secret to a request that encodes the slash.
        let attack = try await CurlTransport.shared.send(HTTPTransportRequest(
            url: URL(string: "\(library.nginx.baseURL.absoluteString)photos/photos/..%2Fsecret.jpg")!, maximumBodySize: 1 << 20,
            timeout: 30))
        #expect(attack.status == 200 && attack.body == Data("the secret".utf8), "nginx no longer serves the attack: \(attack.status)")
        // nginx logs a request once it has ended, which can be after the client has the whole answer.
        _ = try await library.nginx.entry(for: "/photos/photos/..%2Fsecret.jpg")
        let before = library.nginx.logEntries().count

        let source = try HTTPImageSource(baseURL: library.base("photos"), indexPath: "photos.json", maximumAttempts: 1,
                                         transport: CurlTransport.shared)
        // A photo in a folder under the base (a nested library's manifest) is fetched from there.
        #expect(try await source.imageIDs() == ["a.jpg", "2024/d.jpg", "é.jpeg"])
        #expect(source.refusedNameCount == 3)
        for name in ["../secret.jpg", "..%2Fsecret.jpg", "%2e%2e%2fsecret.jpg"] {
            await #expect(throws: ImageSourceError.self) { try await source.data(for: ImageID(name)) }
        }
        #expect(try await source.data(for: "a.jpg") == Data("first".utf8))
        #expect(try await source.data(for: "2024/d.jpg") == Data("nested".utf8))
        _ = try await library.nginx.entry(for: "/photos/photos/2024/d.jpg")
        let asked = library.nginx.logEntries().dropFirst(before).map(\.uri)
        #expect(asked == ["/photos/photos/photos.json", "/photos/photos/a.jpg", "/photos/photos/2024/d.jpg"], "\(asked)")
        await library.close()
    }

    /// A photo edited on the server between two launches (nginx's `ETag`
    /// is its modification time and size): the second launch shows the
    /// thumbnails it kept before asking anything, then one `HEAD` per photo
    /// finds the edit, and the edited photo alone is downloaded again and
    /// replaces its thumbnail. The first launch asked no `HEAD`: its
    /// downloads' own `ETag`s filed the thumbnails. What was asked is
    /// recorded as the transport gets nginx's answers (its access log is
    /// written a moment after an answer is sent, which a test could only
    /// poll for).
    @Test
    func anEditedPhotoIsShownFromTheCacheThenReplaced() async throws {
        let library = try await Library()
        func write(_ name: String, _ value: UInt8, side: Int) throws {
            let png = try #require(PixelImage(width: side, height: side, filledWith: (value, 0, 0, 255)).pngData())
            try png.write(to: library.folder.appendingPathComponent(name))
        }
        try write("red.png", 200, side: 16)
        try write("dark.png", 40, side: 16)
        let cacheFolder = library.parent.appendingPathComponent("thumbnails")
        let size = try ThumbnailSize(width: 8, height: 8)
        let red = ThumbnailKey(id: "red.png", size: size), dark = ThumbnailKey(id: "dark.png", size: size)
        let transport = RecordingTransport()
        func launch() throws -> ImageLoader {
            ImageLoader(source: try HTTPImageSource(baseURL: library.base("photos"), transport: transport),
                        diskCache: try DiskImageCache(directory: cacheFolder, format: .raw))
        }
        func redness(_ image: PixelImage) -> UInt8? { image.pixel(x: 4, y: 4)?.r }

        let first = try launch()
        #expect(redness(try await first.image(for: red).image) == 200)
        #expect(redness(try await first.image(for: dark).image) == 40)
        await first.waitUntilIdle()
        #expect(transport.take().sorted() == ["GET /photos/photos/dark.png 200", "GET /photos/photos/red.png 200"])
        // Edited: another size (so another ETag even within the second nginx stamps).
        try write("red.png", 90, side: 24)

        let second = try launch()
        var replaced = second.replacedThumbnails().makeAsyncIterator()
        let kept = try await second.image(for: red)
        #expect(kept.origin == .disk && redness(kept.image) == 200)              // the old one, at once
        #expect(redness(try await second.image(for: dark).image) == 40)
        #expect(await replaced.next() == red)
        #expect(redness(try #require(second.memoryCache.image(for: red))) == 90)
        await second.waitUntilIdle()
        let secondLaunch = transport.take()
        #expect(secondLaunch.sorted() == ["GET /photos/photos/red.png 200", "HEAD /photos/photos/dark.png 200",
                                          "HEAD /photos/photos/red.png 200"], "\(secondLaunch)")
        // The third launch finds the edited photo's thumbnail kept, and asks only its version.
        let third = try launch()
        let edited = try await third.image(for: red)
        #expect(edited.origin == .disk && redness(edited.image) == 90)
        await third.waitUntilIdle()
        #expect(await third.statistics.keptThumbnailsReplaced == 0)
        #expect(transport.take() == ["HEAD /photos/photos/red.png 200"])
        await library.close()
    }

    @Test
    func aFileOverTheLimitIsRefusedFromItsLength() async throws {
        let library = try await Library()
        let path = library.folder.appendingPathComponent("huge.jpg").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil) && truncate(path, 300 << 20) == 0)
        let source = try HTTPImageSource(baseURL: library.base("photos"), maximumAttempts: 3, maximumBodySize: 8 << 20,
                                         transport: CurlTransport.shared)
        do {
            _ = try await source.data(for: "huge.jpg")
            Issue.record("a 300 MB answer was accepted")
        } catch {
            #expect(error.description.contains("the answer would be 300 MiB, over the 8 MiB limit"), "\(error)")
        }
        let entry = try await library.nginx.entry(for: "/photos/photos/huge.jpg")
        #expect(library.nginx.logEntries().filter { $0.uri == "/photos/photos/huge.jpg" }.count == 1)   // not retried
        // Closed, not drained: what nginx handed the kernel is the socket buffers' worth, far below 300 MB.
        #expect(entry.bytesSent < 64 << 20, "\(entry)")
        await library.close()
    }
}

/// Sends through `CurlTransport.shared`, noting each request that got an
/// answer as "METHOD /path STATUS", in the order answered.
private final class RecordingTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var answered: [String] = []

    func send(_ request: HTTPTransportRequest) async throws(HTTPTransportError) -> HTTPTransportResponse {
        let response = try await CurlTransport.shared.send(request)
        lock.withLock { answered.append("\(request.method.rawValue) \(request.url.path) \(response.status)") }
        return response
    }

    /// What was answered since the last call.
    func take() -> [String] {
        lock.withLock {
            defer { answered = [] }
            return answered
        }
    }
}
