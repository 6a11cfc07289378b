import Foundation
import Testing
@testable import ParallaxImages

/// A nested library behind folder listings (`HTTPImageSource+Folders`):
/// every folder's listing read, in every listing format, and the bounds a
/// hostile server's listings meet (loops, depth, folder count).
extension HTTPTests {
    @Suite("HTTP folder listings", .timeLimit(.minutes(5)))
    struct HTTPFolderListingTests {
        /// What `python3 -m http.server` writes for a folder linking `links`.
        static func pythonListing(_ path: String, _ links: [String]) -> Data {
            let items = links.map { "<li><a href=\"\($0)\">\($0)</a></li>" }.joined(separator: "\n")
            return Data("""
                <!DOCTYPE HTML>
                <html lang="en"><head><title>Directory listing for \(path)</title></head><body>
                <h1>Directory listing for \(path)</h1><hr><ul>
                \(items)
                </ul><hr></body></html>
                """.utf8)
        }

        func source(_ server: LoopbackHTTPServer) throws -> HTTPImageSource {
            try HTTPImageSource(baseURL: server.baseURL, indexPath: "", maximumAttempts: 1)
        }

        @Test func aNestedLibraryIsListedFolderByFolderInEveryListingFormat() async throws {
            let routes: [String: Data] = [
                // The top: photos, folders, a hidden folder, the parent, an absolute link and other files.
                "/": Self.pythonListing("/", ["a.jpg", "2024/", "DCIM/", ".thumbnails/", "../", "/elsewhere/",
                                              "http://other.example/x/", "notes.txt"]),
                "/2024/": Self.pythonListing("/2024/", ["06-trip/", "x.jpg", "x.jpg"]),
                "/2024/06-trip/": Self.pythonListing("/2024/06-trip/", ["b%20c.jpg", "clip.MOV", "b%20c.jpg.xmp"]),
                // nginx's JSON and XML listings.
                "/DCIM/": Data(#"[{"name":"100APPLE","type":"directory"},{"name":"IMG_1.HEIC","type":"file"},{"name":"IMG_1.MOV","type":"file"}]"#.utf8),
                "/DCIM/100APPLE/": Data("<?xml version=\"1.0\"?>\n<list><directory mtime=\"x\">gone</directory><file size=\"5\">IMG_2.JPG</file></list>".utf8),
                "/2024/06-trip/b c.jpg": Data("nested photo".utf8),
            ]
            // The first folder answers last: the photos still come in the listings' order.
            let server = try LoopbackHTTPServer(routes: routes, delays: ["/2024/": 0.2])
            defer { server.stop() }
            let source = try source(server)
            var batches: [[ImageID]] = []
            let ids = try await source.imageIDs(onBatch: { batches.append(Array($0)) })
            // Level by level, each folder's photos in its listing's order, handed out a folder at a time.
            #expect(ids == ["a.jpg", "2024/x.jpg", "DCIM/IMG_1.HEIC", "2024/06-trip/b c.jpg", "DCIM/100APPLE/IMG_2.JPG"])
            #expect(batches == ids.map { [$0] })
            #expect(try await source.data(for: "2024/06-trip/b c.jpg") == Data("nested photo".utf8))
            let report = source.listingReport
            #expect(report.folderCount == 5)
            #expect(report.photoCount == 5)
            #expect(report.videoCount == 2 && report.otherFileCount == 2)
            #expect(report.problems == [.init(path: "DCIM/100APPLE/gone", kind: .unreadableFolder("HTTP 404"))])
            #expect(!report.isComplete)
            // Nothing hidden, above or outside the base was asked for.
            #expect(server.requestCount(for: "/.thumbnails/") == 0)
            #expect(server.requestCount(for: "/elsewhere/") == 0)
            #expect(server.requestCount(for: "/2024/") == 1)
        }

        @Test func aFolderThatIsALinkBackUpIsReportedAndReadOnce() async throws {
            // A server following `loop -> .` shows the top again under every longer path.
            var routes: [String: Data] = [:]
            var path = "/"
            for _ in 0..<10 {
                routes[path] = Self.pythonListing(path, ["p.jpg", "loop/", "Photos/"])
                path += "loop/"
            }
            // `Photos/Photos`: a folder whose one entry has its parent's name is not a loop.
            routes["/Photos/"] = Self.pythonListing("/Photos/", ["Photos/"])
            routes["/Photos/Photos/"] = Self.pythonListing("/Photos/Photos/", ["Photos/"])
            routes["/Photos/Photos/Photos/"] = Self.pythonListing("/Photos/Photos/Photos/", ["q.jpg"])
            let server = try LoopbackHTTPServer(routes: routes)
            defer { server.stop() }
            let source = try source(server)
            #expect(try await source.imageIDs() == ["p.jpg", "Photos/Photos/Photos/q.jpg"])
            #expect(source.listingReport.problems == [.init(path: "loop", kind: .linkLoop)])
            #expect(server.requestCount(for: "/loop/") == 1 && server.requestCount(for: "/loop/loop/") == 0)
        }

        @Test func nestingStopsAtTheDepthANameCanHave() async throws {
            // d1/d2/…/d70, a photo in each.
            var routes: [String: Data] = [:]
            var path = "/"
            for level in 0..<70 {
                routes[path] = Self.pythonListing(path, ["p\(level).jpg", "d\(level + 1)/"])
                path += "d\(level + 1)/"
            }
            let server = try LoopbackHTTPServer(routes: routes)
            defer { server.stop() }
            let source = try source(server)
            let ids = try await source.imageIDs()
            let depth = HTTPImageSource.maximumFolderDepth
            #expect(depth == 63)
            #expect(ids.count == depth + 1)
            #expect(ids.last?.rawValue == (1...depth).map { "d\($0)/" }.joined() + "p\(depth).jpg")
            #expect(ids.allSatisfy { source.url(for: $0) != nil })
            #expect(source.listingReport.problems == [
                .init(path: (1...depth + 1).map { "d\($0)" }.joined(separator: "/"), kind: .tooDeep(limit: depth)),
            ])
            #expect(source.listingReport.folderCount == depth + 1)
        }

        /// The top (a photo and three folders), the first of them holding a
        /// folder of its own: five folders, five photos, one each.
        static let fiveFolders: [String: Data] = [
            "/": pythonListing("/", ["a/", "b/", "c/", "top.jpg"]),
            "/a/": pythonListing("/a/", ["1.jpg", "deeper/"]),
            "/b/": pythonListing("/b/", ["2.jpg"]),
            "/c/": pythonListing("/c/", ["3.jpg"]),
            "/a/deeper/": pythonListing("/a/deeper/", ["4.jpg"]),
        ]

        @Test func theFolderLimitEndsTheListingWithAProblem() async throws {
            let server = try LoopbackHTTPServer(routes: Self.fiveFolders)
            defer { server.stop() }
            let source = try source(server)
            let root = try HTTPIndex.parse(Self.fiveFolders["/"]!, isJSONPath: false)
            // Three folders in all: the top and the first two it links; the third is never asked for.
            let three = try await source.addingSubfolders(to: root, folderLimit: 3)
            #expect(three.names == ["top.jpg", "a/1.jpg", "b/2.jpg"])
            #expect(three.report.problems == [.init(path: "c", kind: .tooManyFolders(limit: 3))])
            #expect(three.report.folderCount == 3)
            #expect(server.requestCount(for: "/c/") == 0)
            // Room for four: the limit is met at a folder of the second level.
            let four = try await source.addingSubfolders(to: root, folderLimit: 4)
            #expect(four.names == ["top.jpg", "a/1.jpg", "b/2.jpg", "c/3.jpg"])
            #expect(four.report.problems == [.init(path: "a/deeper", kind: .tooManyFolders(limit: 4))])
        }

        /// The photo limit, as a local walk's: a folder that fills the room
        /// exactly is taken whole and reported only if a photo past it
        /// turns up; the folder holding that photo is the one reported.
        @Test func thePhotoLimitIsReportedAtTheFirstPhotoPastIt() async throws {
            let server = try LoopbackHTTPServer(routes: Self.fiveFolders)
            defer { server.stop() }
            let source = try source(server)
            let root = try HTTPIndex.parse(Self.fiveFolders["/"]!, isJSONPath: false)
            // Room for three: "b" fills it; "c" holds the fourth.
            let three = try await source.addingSubfolders(to: root, photoLimit: 3)
            #expect(three.names == ["top.jpg", "a/1.jpg", "b/2.jpg"])
            #expect(three.report.problems == [.init(path: "c", kind: .tooManyPhotos(limit: 3))])
            #expect(server.requestCount(for: "/a/deeper/") == 0)
            // Room for four: the first level fills it, and the photo past it is a level down.
            let four = try await source.addingSubfolders(to: root, photoLimit: 4)
            #expect(four.names == ["top.jpg", "a/1.jpg", "b/2.jpg", "c/3.jpg"])
            #expect(four.report.problems == [.init(path: "a/deeper", kind: .tooManyPhotos(limit: 4))])
            // Room for exactly every photo: nothing to report.
            let five = try await source.addingSubfolders(to: root, photoLimit: 5)
            #expect(five.names == ["top.jpg", "a/1.jpg", "b/2.jpg", "c/3.jpg", "a/deeper/4.jpg"])
            #expect(five.report.problems.isEmpty)
        }

        /// A folder that does not answer holds back the listings read ahead
        /// of it (parsed, waiting to be taken in order) to at most
        /// ``HTTPImageSource/folderListingsAhead``, not the whole level; and
        /// cancelling the listing ends it at once.
        @Test func aFolderThatDoesNotAnswerHoldsBackOnlyTheListingsAheadOfIt() async throws {
            let names = (0..<30).map { "f\($0)" }
            var routes: [String: Data] = ["/": Self.pythonListing("/", names.map { $0 + "/" })]
            for name in names.dropFirst() { routes["/\(name)/"] = Self.pythonListing("/\(name)/", ["\(name).jpg"]) }
            let server = try LoopbackHTTPServer(routes: routes)
            server.hostile = ["/f0/": .silent]
            defer { server.stop() }
            // Deadlines on a clock that never moves: only the test's cancellation ends f0.
            let clock = ManualClock()
            let source = try HTTPImageSource(baseURL: server.baseURL, indexPath: "", timeout: 60, maximumAttempts: 1, clock: clock)
            let listing = Task { try await source.imageIDs() }
            #expect(HTTPImageSource.folderListingsAhead == 8)
            // f1 to f7 are read while f0 hangs, and nothing past them for as long as it does: f8 is never
            // asked for, however long the test waits here.
            await server.waitForRequests(1, to: "/f7/")
            #expect(server.requestCount(for: "/f8/") == 0, "\(server.requestedTargets)")
            listing.cancel()
            let error = try await #require(throws: ImageSourceError.self) { try await listing.value }
            guard case .cancelled = error else {
                Issue.record("expected cancelled, got \(error)")
                return
            }
            #expect(server.requestCount(for: "/f8/") == 0)
        }

        /// A hostile listing's folder links are taken once each, each repeat
        /// found in O(1): a search of the folders taken per link ran three
        /// minutes here, past the suite's one-minute limit.
        @Test func aHundredThousandFolderLinksAreReadOnceEach() throws {
            let links = (0..<100_000).map { "<a href=\"d\($0 % 50_000)/\">d</a>" }.joined()
            let index = try HTTPIndex.parse(Data("<html><title>Index of /</title>\(links)</html>".utf8), isJSONPath: false)
            #expect(index.folders.count == 50_000)
            #expect(index.folders.first == "d0" && index.folders.last == "d49999")
        }

        @Test func aListingOfFoldersOnlyIsAListingAndAFolderThatIsNotOneIsReported() async throws {
            let routes: [String: Data] = [
                "/": Data(#"<html><body><a href="2023/">2023/</a> <a href="2024/">2024/</a></body></html>"#.utf8),
                "/2023/": Data("<html><body><h1>Please log in</h1><a href=\"/login\">log in</a></body></html>".utf8),
                "/2024/": Self.pythonListing("/2024/", ["new.webp"]),
            ]
            let server = try LoopbackHTTPServer(routes: routes)
            defer { server.stop() }
            let source = try source(server)
            #expect(try await source.imageIDs() == ["2024/new.webp"])
            let problem = try #require(source.listingReport.problems.first)
            #expect(problem.path == "2023")
            #expect(problem.description.hasPrefix("2023: the folder cannot be read (its listing is an HTML page whose 1 links name no photo"))
        }
    }
}
