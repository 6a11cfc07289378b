import Foundation
import Testing
@testable import ParallaxImages

/// A JPEG whose frame header lies behind `comment` bytes of COM segments:
/// large metadata, as a camera's embedded preview makes it.
func jpegWithMetadata(width: Int, height: Int, comment: Int, orientation: Int? = nil) -> Data {
    let jpeg = TestImages.jpeg(width: width, height: height, orientation: orientation) { x, y in (UInt8(x % 256), UInt8(y % 256), 0) }
    var out = Data(jpeg.prefix(2))                                   // SOI
    var left = comment
    while left > 0 {
        let chunk = min(left, 65_000)
        out.append(contentsOf: [0xFF, 0xFE, UInt8((chunk + 2) >> 8), UInt8((chunk + 2) & 0xFF)])
        out.append(Data(repeating: 0x20, count: chunk))
        left -= chunk
    }
    out.append(jpeg.dropFirst(2))
    return out
}

/// Photo shapes before pixels: every source answers a photo's header, each
/// reading as little as it can.
@Suite("Headers from every source")
struct SourceHeaderTests {
    @Test func anInMemorySourceReadsTheWholePictureAndSaysWhyItCannot() async throws {
        let source = InMemoryImageSource(images: [("tall.jpg", jpegWithMetadata(width: 30, height: 50, comment: 0, orientation: 6)),
                                                  ("text.txt", Data("hello".utf8))])
        let header = try await source.header(for: "tall.jpg")
        #expect(header.width == 50 && header.height == 30 && header.orientation == .right)
        await #expect(throws: ImageSourceError.notFound("missing.jpg")) { try await source.header(for: "missing.jpg") }
        do {
            _ = try await source.header(for: "text.txt")
            Issue.record("a text file has a header")
        } catch {
            guard case .unreadable(let id, let reason) = error else { Issue.record("\(error)"); return }
            #expect(id == "text.txt" && reason.hasPrefix("has no readable header"), "\(reason)")
        }
    }

    @Test func theSimulatedServerPassesItsBackingSizesOnWithoutADownload() async throws {
        let backing = InMemoryImageSource(images: [("wide.jpg", jpegWithMetadata(width: 64, height: 16, comment: 0))])
        let clock = ManualClock()        // never advanced: a download would wait for ever
        let server = SimulatedImageServer(backing: backing, behavior: .init(latency: .seconds(5) ... .seconds(5), failureRate: 1),
                                          clock: clock)
        let header = try await server.header(for: "wide.jpg")
        #expect(header.width == 64 && header.height == 16)
        #expect(await server.downloadCount == 0)
    }
}

extension HTTPTests {
    @Suite("HTTP headers by byte range", .timeLimit(.minutes(5)))
    struct HTTPHeaderTests {
        @Test func theFirst64KiBAreAskedForThenMoreBehindLargeMetadata() async throws {
            let small = jpegWithMetadata(width: 40, height: 30, comment: 0, orientation: 8)
            let large = jpegWithMetadata(width: 20, height: 90, comment: 150_000)
            let server = try LoopbackHTTPServer(routes: ["/small.jpg": small, "/large.jpg": large])
            defer { server.stop() }
            let source = try HTTPImageSource(baseURL: server.baseURL)
            let first = try await source.header(for: "small.jpg")
            #expect(first.width == 30 && first.height == 40 && first.orientation == .left)
            #expect(server.ranges(for: "/small.jpg") == ["bytes=0-65535"])
            let second = try await source.header(for: "large.jpg")
            #expect(second.width == 20 && second.height == 90)
            #expect(server.ranges(for: "/large.jpg") == ["bytes=0-65535", "bytes=0-262143"])
        }

        @Test func aServerWithoutRangesSendsEverythingAndThatIsReadInstead() async throws {
            let server = try LoopbackHTTPServer(routes: ["/large.jpg": jpegWithMetadata(width: 20, height: 90, comment: 150_000)])
            server.honoursRanges = false
            defer { server.stop() }
            let header = try await HTTPImageSource(baseURL: server.baseURL).header(for: "large.jpg")
            #expect(header.width == 20 && header.height == 90)
            #expect(server.requestCount(for: "/large.jpg") == 1)
        }

        @Test func aManifestGivesEverySizeWithTheListAndNoPictureIsAskedFor() async throws {
            let manifest = """
            { "images": [ { "name": "wide.jpg", "width": 640, "height": 480 },
                          { "name": "turned.jpg", "width": 480, "height": 640, "orientation": 8 },
                          "unmeasured.jpg" ] }
            """
            let server = try LoopbackHTTPServer(routes: [
                "/photos.json": Data(manifest.utf8),
                "/unmeasured.jpg": jpegWithMetadata(width: 20, height: 90, comment: 0),
            ])
            defer { server.stop() }
            let source = try HTTPImageSource(baseURL: server.baseURL, indexPath: "photos.json")
            #expect(source.listedSizeCount == 0, "nothing is known before the index is read")
            #expect(try await source.imageIDs() == ["wide.jpg", "turned.jpg", "unmeasured.jpg"])
            #expect(source.listedSizeCount == 2)
            let wide = try await source.header(for: "wide.jpg")
            #expect(wide.width == 640 && wide.height == 480 && wide.format == .jpeg)
            let turned = try await source.header(for: "turned.jpg")
            #expect(turned.width == 480 && turned.height == 640 && turned.orientation == .left)
            #expect(server.requestCount(for: "/wide.jpg") == 0 && server.requestCount(for: "/turned.jpg") == 0)
            // A photo the manifest gives no size for is read by range, as without a manifest.
            let unmeasured = try await source.header(for: "unmeasured.jpg")
            #expect(unmeasured.width == 20 && unmeasured.height == 90)
            #expect(server.ranges(for: "/unmeasured.jpg") == ["bytes=0-65535"])

            // The probe publishes every stated size without a single picture request.
            let probe = HeaderProbe(source: source)
            await probe.probe(["wide.jpg", "turned.jpg"])
            await probe.waitUntilIdle()
            #expect(await probe.header(for: "turned.jpg")?.height == 640)
            #expect(server.requestCount(for: "/wide.jpg") == 0 && server.requestCount(for: "/turned.jpg") == 0)
        }

        @Test func aBrokenJSONIndexSaysSoAndATextListStartingWithABracketIsStillAList() async throws {
            let server = try LoopbackHTTPServer(routes: ["/photos.json": Data("{ \"images\": [".utf8),
                                                         "/index.txt": Data("[2019] beach.jpg\nsea.jpg\n".utf8)])
            defer { server.stop() }
            let broken = try HTTPImageSource(baseURL: server.baseURL, indexPath: "photos.json", maximumAttempts: 1)
            do {
                _ = try await broken.imageIDs()
                Issue.record("a broken manifest was read")
            } catch {
                guard case .unavailable(let reason) = error else { Issue.record("\(error)"); return }
                #expect(reason.hasSuffix("photos.json cannot be read: the manifest is not valid JSON (it ends early, expecting a value)"), "\(reason)")
            }
            let text = try HTTPImageSource(baseURL: server.baseURL, indexPath: "index.txt")
            #expect(try await text.imageIDs() == ["[2019] beach.jpg", "sea.jpg"])
            #expect(text.listedSizeCount == 0)
        }

        @Test func missingAndBrokenPicturesSayWhy() async throws {
            var cut = jpegWithMetadata(width: 20, height: 90, comment: 100_000)
            cut = cut.prefix(90_000)                            // ends inside the metadata
            let server = try LoopbackHTTPServer(routes: ["/cut.jpg": cut, "/notes.txt": Data("plain text".utf8)])
            defer { server.stop() }
            let source = try HTTPImageSource(baseURL: server.baseURL, maximumAttempts: 1)
            await #expect(throws: ImageSourceError.notFound("gone.jpg")) { try await source.header(for: "gone.jpg") }
            for (id, start) in [("cut.jpg", "ends before its frame header (90000 bytes)"), ("notes.txt", "has no readable header")] {
                do {
                    _ = try await source.header(for: ImageID(id))
                    Issue.record("\(id) has a header")
                } catch {
                    guard case .unreadable(_, let reason) = error else { Issue.record("\(error)"); return }
                    #expect(reason.hasPrefix(start), "\(reason)")
                }
            }
        }
    }
}
