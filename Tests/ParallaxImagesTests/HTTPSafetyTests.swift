import Foundation
import Testing
import ParallaxCore
@testable import ParallaxImages

/// What a hostile index or server cannot make `HTTPImageSource` do: fetch
/// outside the folder the user named, follow a redirect to another origin
/// or scheme, or turn a page that is not a listing into tiles. Every case
/// runs against a `LoopbackHTTPServer`, whose log of request targets shows
/// what was really asked for.
@Suite("HTTP image source stays where the user pointed it", .timeLimit(.minutes(5)))
struct HTTPSafetyTests {
    static let secret = Data("secret".utf8)

    @Test func namesThatClimbOutOfTheFolderAreRefusedAndNeverRequested() async throws {
        // A manifest and a listing naming files outside /photos/, every way we know to spell it.
        let hostileNames = ["../secret.jpg", "..%2Fsecret.jpg", "%2e%2e%2fsecret.jpg", "..\\secret.jpg",
                            "/etc/passwd.jpg", "http://127.0.0.1:9/x.jpg", "sub/../../secret.jpg", "..", ".", "%2e%2e",
                            "a\u{0}.jpg", "%252e%252e%252fsecret.jpg", "line\nbreak.jpg", "sub//x.jpg", "sub/./x.jpg",
                            "sub/%2e%2e/%2e%2e/secret.jpg", "sub/x%2F..%2F..%2Fsecret.jpg", "sub/", "sub\\x.jpg",
                            Array(repeating: "d", count: 64).joined(separator: "/") + "/x.jpg"]
        let manifest = try JSONSerialization.data(withJSONObject: ["images": hostileNames + ["good.jpg"]])
        let server = try LoopbackHTTPServer(routes: ["/photos/photos.json": manifest, "/photos/good.jpg": Data("ok".utf8),
                                                     "/secret.jpg": Self.secret])
        defer { server.stop() }
        let base = try #require(URL(string: "photos/", relativeTo: server.baseURL)?.absoluteURL)
        let source = try HTTPImageSource(baseURL: base, indexPath: "photos.json", maximumAttempts: 1)
        #expect(try await source.imageIDs() == ["good.jpg"])
        #expect(source.refusedNameCount == hostileNames.count)
        #expect(Set(source.refusedNames.map(\.name)) == Set(hostileNames))
        #expect(source.refusedNames.first { $0.name == "../secret.jpg" }?.reason == "not a file name (\"..\")")
        #expect(source.refusedNames.first { $0.name == "sub//x.jpg" }?.reason == "a path with an empty part (a leading, doubled or trailing /)")
        #expect(source.refusedNames.first { $0.name == "..%2Fsecret.jpg" }?.reason == "a part that is a path itself (an encoded / or a \\)")
        // Asking for them directly is refused before any request, with the reason.
        for name in hostileNames {
            await #expect(throws: ImageSourceError.self, "\(name)") { try await source.data(for: ImageID(name)) }
            await #expect(throws: ImageSourceError.self, "\(name)") { try await source.header(for: ImageID(name)) }
            #expect(await source.fingerprint(for: ImageID(name)) == nil)
        }
        do {
            _ = try await source.data(for: "../secret.jpg")
        } catch {
            #expect(error.description.contains("not requested: the name is not a file name (\"..\")"), "\(error)")
        }
        #expect(try await source.data(for: "good.jpg") == Data("ok".utf8))
        // The server's log: the manifest and the good photo, nothing else.
        #expect(server.requestedTargets == ["/photos/photos.json", "/photos/good.jpg"])
    }

    /// A manifest of a nested library (`parallax-gallery manifest` over a
    /// tree) names photos by relative paths: each is fetched from its
    /// folder under the base, every part encoded on its own, a Latin-1 name
    /// by its byte.
    @Test func aNestedLibrarysPathsAreFetchedFromTheirFoldersUnderTheBase() async throws {
        let names = ["2024/06-trip/IMG_0001.jpg", "2025/DCIM/100APPLE/IMG_2.JPG", "caf%E9/b.jpg", "top.jpg"]
        let manifest = try JSONSerialization.data(withJSONObject: ["images": names])
        let targets = ["/photos/2024/06-trip/IMG_0001.jpg", "/photos/2025/DCIM/100APPLE/IMG_2.JPG",
                       "/photos/caf%E9/b.jpg", "/photos/top.jpg"]
        var routes = ["/photos/photos.json": manifest]
        for (index, target) in targets.enumerated() { routes[target] = Data("photo \(index)".utf8) }
        let server = try LoopbackHTTPServer(routes: routes)
        defer { server.stop() }
        let base = try #require(URL(string: "photos/", relativeTo: server.baseURL)?.absoluteURL)
        let source = try HTTPImageSource(baseURL: base, indexPath: "photos.json", maximumAttempts: 1)
        #expect(try await source.imageIDs() == names.map { ImageID($0) })
        #expect(source.refusedNameCount == 0)
        for (index, name) in names.enumerated() {
            #expect(try await source.data(for: ImageID(name)) == Data("photo \(index)".utf8), "\(name)")
        }
        #expect(server.requestedTargets == ["/photos/photos.json"] + targets)
        // A folder listing or a text list names the files of one folder: a path there is refused.
        let list = try HTTPIndex.parse(Data("a.jpg\nsub/b.jpg\n".utf8), isJSONPath: false)
        #expect(list.names == ["a.jpg"])
        #expect(list.refused.first?.reason == "a path, not a single file name (only a JSON manifest names photos in folders)")
    }

    @Test func anHTMLListingThatLinksOutsideTheFolderGivesOnlyItsOwnPhotos() async throws {
        let listing = """
            <html><head><title>Index of /photos/</title></head><body><pre>
            <a href="../">../</a>
            <a href="%2e%2e%2fsecret.jpg">sneaky</a>
            <a href="..%2Fsecret.jpg">sneakier</a>
            <a href="good.jpg">good.jpg</a>
            </pre></body></html>
            """
        let server = try LoopbackHTTPServer(routes: ["/photos/": Data(listing.utf8), "/secret.jpg": Self.secret,
                                                     "/photos/good.jpg": Data("ok".utf8)])
        defer { server.stop() }
        let base = try #require(URL(string: "photos/", relativeTo: server.baseURL)?.absoluteURL)
        let source = try HTTPImageSource(baseURL: base, indexPath: "", maximumAttempts: 1)
        #expect(try await source.imageIDs() == ["good.jpg"])
        #expect(source.refusedNames.map(\.name) == ["../secret.jpg", "../secret.jpg"])
        #expect(!server.requestedTargets.contains { $0.lowercased().contains("secret") })
    }

    @Test func redirectsStayOnTheOriginUnlessNamed() async throws {
        let elsewhere = try LoopbackHTTPServer(routes: ["/x.jpg": Data(count: 914_024)])
        defer { elsewhere.stop() }
        let server = try LoopbackHTTPServer(routes: ["/moved/a.jpg": Data("same origin".utf8)])
        server.hostile = ["/a.jpg": .redirect(to: "/moved/a.jpg"),
                          "/away.jpg": .redirect(to: "\(elsewhere.baseURL.absoluteString)x.jpg"),
                          "/file.jpg": .redirect(to: "file:///etc/passwd"),
                          "/ftp.jpg": .redirect(to: "ftp://127.0.0.1/x.jpg")]
        defer { server.stop() }
        let source = try HTTPImageSource(baseURL: server.baseURL, maximumAttempts: 3)
        #expect(try await source.data(for: "a.jpg") == Data("same origin".utf8))
        for (name, words) in [("away.jpg", "redirected to another origin (http://127.0.0.1:\(elsewhere.port))"),
                              ("file.jpg", "redirected to file:///etc/passwd, which is not an http or https URL"),
                              ("ftp.jpg", "which is not an http or https URL")] {
            do {
                _ = try await source.data(for: ImageID(name))
                Issue.record("\(name) was followed")
            } catch {
                #expect(error.description.contains(words), "\(error)")
            }
            // Refused, not retried.
            #expect(server.requestCount(for: "/\(name)") == 1, "\(name)")
        }
        #expect(elsewhere.requestedTargets.isEmpty)
        // Named, the other origin is followed.
        let trusting = try HTTPImageSource(baseURL: server.baseURL, maximumAttempts: 1,
                                           redirects: .allowing([elsewhere.baseURL]))
        #expect(try await trusting.data(for: "away.jpg").count == 914_024)
        #expect(elsewhere.requestedTargets == ["/x.jpg"])
        #expect(throws: ImageSourceError.self) { try HTTPImageSource(baseURL: URL(fileURLWithPath: "/tmp")) }
    }

    @Test func nginxJSONAndXMLListingsGiveTheirPhotoFilesOnly() throws {
        let json = """
            [
            { "name":"sub", "type":"directory", "mtime":"Wed, 25 Nov 2026 10:00:00 GMT" },
            { "name":"a.jpg", "type":"file", "mtime":"Wed, 25 Nov 2026 10:00:00 GMT", "size":1234 },
            { "name":"notes.txt", "type":"file", "mtime":"Wed, 25 Nov 2026 10:00:00 GMT", "size":12 },
            { "name":"b &amp; c.PNG", "type":"file", "mtime":"Wed, 25 Nov 2026 10:00:00 GMT", "size":99 },
            { "name":"link.jpg", "type":"other", "mtime":"Wed, 25 Nov 2026 10:00:00 GMT" }
            ]
            """
        #expect(try HTTPIndex.parse(Data(json.utf8), isJSONPath: false).names == ["a.jpg", "b &amp; c.PNG"])
        let xml = """
            <?xml version="1.0"?>
            <list>
            <directory mtime="2026-11-25T10:00:00Z">sub</directory>
            <file mtime="2026-11-25T10:00:00Z" size="1234">a.jpg</file>
            <file mtime="2026-11-25T10:00:00Z" size="12">notes.txt</file>
            <file mtime="2026-11-25T10:00:00Z" size="99">b &amp; c.png</file>
            <file mtime="2026-11-25T10:00:00Z" size="1">..&#x2F;secret.jpg</file>
            </list>
            """
        let index = try HTTPIndex.parse(Data(xml.utf8), isJSONPath: false)
        #expect(index.names == ["a.jpg", "b & c.png"])
        #expect(index.refused.map(\.name) == ["../secret.jpg"])
    }

    @Test func whatIsNotAnIndexIsOneClearError() async throws {
        let login = "<!DOCTYPE html><html><body><form action=\"/login\"><input name=user></form><a href=\"/help\">help</a></body></html>"
        let xml = "<?xml version=\"1.0\"?><rss><channel></channel></rss>"
        let garbage = String(repeating: "GET /not/a/name HTTP/1.1\n", count: 51)
        let server = try LoopbackHTTPServer(routes: ["/login/": Data(login.utf8), "/rss/": Data(xml.utf8),
                                                     "/junk/index.txt": Data(garbage.utf8),
                                                     "/empty/": Data("<html><title>Index of /empty/</title><a href=\"../\">../</a></html>".utf8)])
        defer { server.stop() }
        func reason(_ folder: String, _ index: String = "") async throws -> String {
            let base = try #require(URL(string: folder, relativeTo: server.baseURL)?.absoluteURL)
            do {
                _ = try await HTTPImageSource(baseURL: base, indexPath: index, maximumAttempts: 1).imageIDs()
                return "no error"
            } catch {
                return error.description
            }
        }
        #expect(try await reason("login/").contains("links name no photo (JPEG, PNG, HEIC, AVIF or WebP) and no folder, not a folder listing (a login or error page?)"))
        #expect(try await reason("rss/").contains("is an XML document but not a folder listing"))
        #expect(try await reason("junk/", "index.txt").contains("is not a list of photo names: 51 of its 51 lines are not file names"))
        // An empty folder's listing is an empty list, not an error.
        let empty = try #require(URL(string: "empty/", relativeTo: server.baseURL)?.absoluteURL)
        #expect(try await HTTPImageSource(baseURL: empty, indexPath: "").imageIDs() == [])
    }

    @Test func photoNamesOverRandomBytesAreTheirPartsUnderTheBaseOrRefused() throws {
        var rng = SplitMix64(seed: 23)
        let base = try #require(URL(string: "http://127.0.0.1:8080/photos/"))
        let alphabet = Array("ab./\\%2eEfF\u{0}\n :?#&;é..".unicodeScalars)
        for _ in 0..<5_000 {
            var name = ""
            for _ in 0..<Int.random(in: 1...12, using: &rng) {
                name.unicodeScalars.append(alphabet[Int.random(in: 0..<alphabet.count, using: &rng)])
            }
            let refusal = HTTPPhotoName.refusal(of: name)
            guard let url = HTTPPhotoName.url(for: name, under: base) else {
                #expect(refusal != nil, "\(name.debugDescription) has a URL of nil but no refusal")
                continue
            }
            #expect(refusal == nil)
            #expect(HTTPPhotoName.isUnder(url, base: base), "\(url)")
            // One segment per part of the name (split at its literal /), each decoding back to the part exactly
            // (to the bytes a folder escape such as %FF stands for), none of them . or ..
            let encoded = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath)
            #expect(encoded.hasPrefix("/photos/"), "\(encoded)")
            let segments = encoded.dropFirst("/photos/".count).split(separator: "/", omittingEmptySubsequences: false)
            let parts = name.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            #expect(segments.count == parts.count, "\(encoded) for \(name.debugDescription)")
            for (segment, part) in zip(segments, parts) {
                let expected = part.contains("%") ? FolderImageSource.fileName(of: ImageID(part)) ?? Array(part.utf8) : Array(part.utf8)
                let decoded = Self.percentDecoded(segment)
                #expect(decoded == expected, "\(encoded)")
                #expect(decoded != Array(".".utf8) && decoded != Array("..".utf8) && !decoded.contains(UInt8(ascii: "/")))
            }
        }
    }

    /// The bytes `text` percent-encodes (every `%HH` decoded, whatever the bytes are).
    static func percentDecoded(_ text: Substring) -> [UInt8] {
        var bytes: [UInt8] = []
        var utf8 = text.utf8[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
               let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return bytes
    }

    @Test func aFolderEscapeForAByteThatIsNotUTF8IsOneFileNameOverHTTP() async throws {
        // "café.jpg" in Latin-1, as a folder source (and `parallax-gallery manifest`) names it.
        let id = FolderImageSource.imageID(forFileName: Array("caf".utf8) + [0xE9] + Array(".jpg".utf8))
        #expect(id.rawValue == "caf%E9.jpg")
        let server = try LoopbackHTTPServer(routes: ["/photos.json": Data(#"{"images": ["caf%E9.jpg", "caf%2F.jpg"]}"#.utf8)])
        defer { server.stop() }
        let source = try HTTPImageSource(baseURL: server.baseURL, indexPath: "photos.json", maximumAttempts: 1)
        #expect(try await source.imageIDs() == [id])
        #expect(source.refusedNames.map(\.name) == ["caf%2F.jpg"])
        #expect(source.url(for: id)?.absoluteString == "\(server.baseURL.absoluteString)caf%E9.jpg")
        // An escape of a '/' or of "..", which a folder never writes, stays a path; a '%' that is no escape is the name's own.
        #expect(HTTPPhotoName.refusal(of: "%2F") != nil && HTTPPhotoName.refusal(of: "%2E%2E") != nil)
        #expect(HTTPPhotoName.url(for: "100%.jpg", under: server.baseURL)?.absoluteString == "\(server.baseURL.absoluteString)100%25.jpg")
        #expect(HTTPPhotoName.url(for: "100%25.jpg", under: server.baseURL)?.absoluteString == "\(server.baseURL.absoluteString)100%25.jpg")
    }

    @Test func retryAfterDatesMatchFoundationsReading() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        var rng = SplitMix64(seed: 9110)
        for _ in 0..<2_000 {
            let date = Date(timeIntervalSince1970: TimeInterval(Int.random(in: -2_000_000_000...5_000_000_000, using: &rng)))
            let text = formatter.string(from: date)
            #expect(HTTPRetryPolicy.httpDate(text) == date, "\(text)")
        }
        for bad in ["", "Sun, 06 Nov 1994 08:49:37", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:49:37 GMT",
                    "Sun, 06 Nox 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun, 06 Nov 1994 08:49 GMT"] {
            #expect(HTTPRetryPolicy.httpDate(bad) == nil, "\(bad)")
        }
    }
}

@Suite("File name extensions")
struct FileNameExtensionTests {
    @Test func theExtensionIsReadFromTheNameAloneAsFoundationReadsIt() {
        for (name, expected) in [("a.JPG", "jpg"), ("a.b.png", "png"), ("photo", ""), (".hidden", ""), ("a.", ""),
                                 ("dir.d/file", ""), ("dir/file.jpeg", "jpeg"), ("x.tar.gz/", "gz"), ("", ""),
                                 ("é.JpEg", "jpeg"), ("..", ""), ("a..png", "png")] {
            #expect(FileNameExtension.of(name) == expected, "\(name)")
            if !name.isEmpty, !name.hasSuffix("."), name != ".." {
                #expect(URL(fileURLWithPath: "/x/" + name).pathExtension.lowercased() == expected, "\(name)")
            }
        }
    }
}
