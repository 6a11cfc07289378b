import Foundation
import Testing
@testable import ParallaxImages

/// A manifest's `thumbhash`: read (Immich's spelling and camel case),
/// written back, ignored when it is not a hash, and served by an HTTP
/// index only for names the index took.
struct ManifestPreviewTests {
    static let flower = "k0oGLQaSVsN0BVhn2oq2Z5SQUQcZ"

    @Test func aManifestsHashesAreReadAndWrittenBack() throws {
        let json = """
        { "images": [
            { "name": "a.jpg", "width": 30, "height": 40, "thumbhash": "\(Self.flower)" },
            { "name": "b.jpg", "thumbHash": "\(Self.flower.dropLast(4))" },
            { "name": "c.jpg", "thumbhash": "not a hash" },
            { "name": "d.jpg", "thumbhash": 12 },
            "e.jpg"
        ] }
        """
        let manifest = try ImageManifest(json: Data(json.utf8))
        let flower = try #require(ThumbHash(base64: Self.flower))
        #expect(manifest.imageIDs == ["a.jpg", "b.jpg", "c.jpg", "d.jpg", "e.jpg"])
        #expect(manifest.previewHashes == ["a.jpg": flower])           // b's is cut short: not a hash
        #expect(manifest.entries[0].header?.width == 30)
        let again = try ImageManifest(json: manifest.json())
        #expect(again == manifest)
        #expect(String(decoding: manifest.json(), as: UTF8.self).contains("\"thumbhash\" : \"\(Self.flower)\""))
    }

    @Test func anHTTPIndexServesHashesOnlyForTheNamesItTook() throws {
        let json = """
        [ { "name": "a.jpg", "thumbhash": "\(Self.flower)" },
          { "name": "../outside.jpg", "thumbhash": "\(Self.flower)" },
          { "name": "a.jpg", "width": 3, "height": 4 },
          { "name": "sub/b.png", "width": 3, "height": 4, "thumbhash": "\(Self.flower)" } ]
        """
        let index = try HTTPIndex.parse(Data(json.utf8), isJSONPath: true)
        #expect(index.names == ["a.jpg", "sub/b.png"])
        #expect(Set(index.previews.keys) == ["a.jpg", "sub/b.png"])
        #expect(index.refused.map(\.name) == ["../outside.jpg"])
    }

    @Test func readingASourceMakesEachPicturesHashOfTheWholePicture() async throws {
        // A 300 × 100 picture, red on its left third and blue elsewhere: the hash is of the whole picture, landscape.
        var pixels: [UInt8] = []
        for _ in 0..<100 { for x in 0..<300 { pixels += x < 100 ? [255, 0, 0, 255] : [0, 0, 255, 255] } }
        let wide = try #require(PixelImage(width: 300, height: 100, pixels: pixels)?.pngData())
        let source = InMemoryImageSource(images: [("wide.png", wide), ("broken.png", Data([0x89, 0x50, 0x4E, 0x47]))])
        let manifest = try await ImageManifest.reading(source, makingPreviews: true)
        #expect(manifest.imageIDs == ["wide.png", "broken.png"])
        let hash = try #require(manifest.entries[0].previewHash)
        #expect(manifest.entries[1].previewHash == nil)
        #expect(hash.approximateAspectRatio == 7.0 / 2)            // 300 × 100: 7 terms across, round(7/3) = 2 down
        let picture = hash.render()
        let left = try #require(picture.pixel(x: 1, y: picture.height / 2)), right = try #require(picture.pixel(x: picture.width - 2, y: picture.height / 2))
        #expect(left.r > 150 && left.b < 110 && right.b > 150 && right.r < 110)
        #expect(try await ImageManifest.reading(source).previewHashes.isEmpty)
    }
}
