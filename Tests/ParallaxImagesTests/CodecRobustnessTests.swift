// The codec decoders exist on Linux only (Apple platforms decode with ImageIO).
#if canImport(CParallaxCodecs)
import Foundation
import ParallaxCore
import Testing
@testable import ParallaxImages

@Suite("WebP, HEIF and AVIF: cut, corrupt and mutated files fail typed; other formats are named")
struct CodecRobustnessTests {
    typealias F = CodecFixtures

    @Test func everyFixtureDecodes() throws {
        #expect(F.all.count >= 20)
        for name in F.all {
            let thumbnail = try CodecImageDecoder().thumbnail(from: F.data(name), size: ThumbnailSize(width: 20, height: 20))
            #expect((thumbnail.image.width, thumbnail.image.height) == (20, 20), "\(name)")
        }
    }

    @Test func cutFilesFailTyped() throws {
        let size = try ThumbnailSize(width: 20, height: 20)
        for name in F.all {
            let data = try F.data(name)
            for length in [12, 40, data.count / 2, data.count - 10, data.count - 1] where length > 0 && length < data.count {
                for options in [DecodingOptions(), .reference] {
                    do {
                        _ = try CodecImageDecoder(options: options).thumbnail(from: data.prefix(length), size: size)
                        Issue.record("\(name) cut to \(length) bytes decoded")
                    } catch {
                        switch error {
                        case .truncated, .corrupt: break
                        default: Issue.record("\(name) cut to \(length) bytes: \(error)")
                        }
                    }
                }
            }
        }
        // libwebp says which it is.
        let webp = try F.data("quad.webp")
        #expect(throws: ImageDecodingError.truncated("the WebP data ends before the picture does")) {
            try CodecImageDecoder().thumbnail(from: webp.prefix(webp.count - 20), size: size)
        }
    }

    @Test func randomByteMutationsNeverTrap() throws {
        var random = SplitMix64(seed: 25)
        let size = try ThumbnailSize(width: 17, height: 13)
        var decoded = 0, failed = 0
        for name in F.all {
            let original = try F.data(name)
            for _ in 0..<60 {
                var data = original
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let at = Int.random(in: 0..<data.count, using: &random)
                    data[at] = UInt8.random(in: 0...255, using: &random)
                }
                var options = DecodingOptions()
                options.maximumDecodeBytes = 64 << 20
                do {
                    let thumbnail = try CodecImageDecoder(options: options).thumbnail(from: data, size: size)
                    #expect((thumbnail.image.width, thumbnail.image.height) == (17, 13))
                    decoded += 1
                } catch {
                    _ = error.description
                    failed += 1
                }
            }
        }
        #expect(decoded + failed == F.all.count * 60)
        print("mutations: \(decoded) decoded, \(failed) failed typed")
    }

    @Test func formatsNotReadAreNamed() throws {
        let size = try ThumbnailSize(width: 10, height: 10)
        let cases: [(Data, String)] = [
            (Data("GIF89a".utf8) + Data(count: 20), "a GIF image"),
            (Data([0x49, 0x49, 0x2A, 0x00]) + Data(count: 20), "a TIFF image"),
            (Data([0x4D, 0x4D, 0x00, 0x2A]) + Data(count: 20), "a TIFF image"),
            (Data([0x42, 0x4D]) + Data(count: 20), "a BMP image"),
            (Data([0xFF, 0x0A]) + Data(count: 20), "a JPEG XL image"),
            (Data([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) + Data(count: 20), "a JPEG XL image"),
        ]
        for (data, name) in cases {
            #expect(throws: ImageDecodingError.unsupportedVariant(name + " (this decoder reads JPEG, PNG, WebP, HEIF and AVIF)")) {
                try CodecImageDecoder().thumbnail(from: data, size: size)
            }
        }
        #expect(throws: ImageDecodingError.unsupportedFormat) { try CodecImageDecoder().thumbnail(from: Data("BM".utf8), size: size) }
    }
}
#endif
