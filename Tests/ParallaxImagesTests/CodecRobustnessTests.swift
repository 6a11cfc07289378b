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

    @Test func headersClaimingHugePicturesAreRefusedBeforeTheDecode() throws {
        /// The file with its `ispe` (image spatial extents) box claiming `width × height`.
        func claiming(_ name: String, _ width: UInt32, _ height: UInt32) throws -> Data {
            var data = try F.data(name)
            let ispe = try #require(data.firstRange(of: Data("ispe".utf8)))
            let size = withUnsafeBytes(of: width.bigEndian, Array.init) + withUnsafeBytes(of: height.bigEndian, Array.init)
            data.replaceSubrange((ispe.upperBound + 4)..<(ispe.upperBound + 12), with: size)
            return data
        }
        let size = try ThumbnailSize(width: 20, height: 20)
        for name in ["quad.heic", "quad.avif"] {
            // 256 megapixels: over the pixel limit, refused from the header.
            #expect(throws: ImageDecodingError.tooLarge(width: 16_000, height: 16_000, limit: 200_000_000), "\(name)") {
                try CodecImageDecoder().thumbnail(from: claiming(name, 16_000, 16_000), size: size)
            }
            // Within the limit but over the memory budget: refused before libheif or libavif allocates it.
            let large = try claiming(name, 12_000, 12_000)
            do {
                _ = try CodecImageDecoder().thumbnail(from: large, size: size)
                Issue.record("\(name) claiming 12000 × 12000 decoded")
            } catch {
                guard case .overBudget = error else { Issue.record("\(name): \(error)"); continue }
            }
        }
        // Wider than libheif's size limit (the pixel limit, per side): libheif refuses it while reading the boxes.
        var narrow = DecodingOptions()
        narrow.maximumPixelCount = 5_000
        let wide = try claiming("quad.heic", 6_000, 1)
        do {
            _ = try CodecImageDecoder(options: narrow).thumbnail(from: wide, size: size)
            Issue.record("a HEIF wider than libheif's limit decoded")
        } catch {
            guard case .unsupportedVariant(let text) = error else { Issue.record("\(error)"); return }
            #expect(text.lowercased().contains("security limit"), "\(text)")
        }
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
