// The row-streaming decode and its memory budget (the libjpeg/libpng decoder exists on Linux only).
#if canImport(CParallaxCodecs)
import Foundation
import ParallaxCore
import Testing
@testable import ParallaxImages

@Suite("Row-streaming decode: memory that depends on the thumbnail, not on the picture")
struct DecodingBudgetTests {
    static func randomImage(width: Int, height: Int, using rng: inout SplitMix64) -> PixelImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) {
            let a = UInt8.random(in: 0...255, using: &rng)
            // Premultiplied: no colour above its alpha.
            for c in 0..<3 { pixels[i + c] = UInt8.random(in: 0...a, using: &rng) }
            pixels[i + 3] = a
        }
        return PixelImage(unchecked: width, height: height, pixels: pixels)
    }

    /// Feeds `image` to `resampler` as rows, in order, or as Adam7 pass rows.
    static func feed(_ image: PixelImage, to resampler: StreamingAreaResampler, interlaced: Bool) {
        let passes = interlaced
            ? [(0, 8, 0, 8), (4, 8, 0, 8), (0, 4, 4, 8), (2, 4, 0, 4), (0, 2, 2, 4), (1, 2, 0, 2), (0, 1, 1, 2)]
            : [(0, 1, 0, 1)]
        for (x0, dx, y0, dy) in passes {
            for y in stride(from: y0, to: image.height, by: dy) {
                var row: [UInt8] = []
                for x in stride(from: x0, to: image.width, by: dx) {
                    row += image.pixels[((y * image.width + x) * 4)..<((y * image.width + x) * 4 + 4)]
                }
                guard !row.isEmpty else { continue }
                _ = row.withUnsafeBufferPointer {
                    resampler.consume(y: y, x0: x0, dx: dx, count: row.count / 4, pixels: $0.baseAddress!)
                }
            }
        }
    }

    @Test func streamedRowsGiveTheVeryPixelsOfTheWholePictureResampler() {
        var rng = SplitMix64(seed: 12)
        for _ in 0..<150 {
            let width = Int.random(in: 1...90, using: &rng), height = Int.random(in: 1...90, using: &rng)
            let image = Self.randomImage(width: width, height: height, using: &rng)
            let cropWidth = Double.random(in: 0.5...Double(width), using: &rng)
            let cropHeight = Double.random(in: 0.5...Double(height), using: &rng)
            let crop = (Double.random(in: 0...(Double(width) - cropWidth), using: &rng),
                        Double.random(in: 0...(Double(height) - cropHeight), using: &rng), cropWidth, cropHeight)
            let outputWidth = Int.random(in: 1...60, using: &rng), outputHeight = Int.random(in: 1...60, using: &rng)
            let whole = AreaResampler.resample(image, crop: crop, width: outputWidth, height: outputHeight)
            let streamed = StreamingAreaResampler(sourceWidth: width, sourceHeight: height, crop: crop,
                                                  outputWidth: outputWidth, outputHeight: outputHeight)
            Self.feed(image, to: streamed, interlaced: false)
            #expect(streamed.finish() == whole, "\(width)×\(height) crop \(crop) → \(outputWidth)×\(outputHeight)")

            // Adam7 order sums the same terms in another order: equal to within a rounding step.
            let interlaced = StreamingAreaResampler(sourceWidth: width, sourceHeight: height, crop: crop,
                                                    outputWidth: outputWidth, outputHeight: outputHeight)
            Self.feed(image, to: interlaced, interlaced: true)
            let difference = zip(interlaced.finish().pixels, whole.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(difference <= 1, "\(width)×\(height) interlaced differs by \(difference)")
        }
    }

    @Test func aOneToOneCropIsCopiedWithoutAnAccumulator() {
        var rng = SplitMix64(seed: 5)
        let image = Self.randomImage(width: 37, height: 23, using: &rng)
        let crop = (3.0, 2.0, 30.0, 20.0)
        // Adam7's sparse rows, and dense rows (a JPEG's, a disk cache entry's) copied a row at a time.
        for interlaced in [true, false] {
            let resampler = StreamingAreaResampler(sourceWidth: 37, sourceHeight: 23, crop: crop, outputWidth: 30, outputHeight: 20)
            Self.feed(image, to: resampler, interlaced: interlaced)
            #expect(resampler.finish() == AreaResampler.resample(image, crop: crop, width: 30, height: 20), "interlaced: \(interlaced)")
        }
        #expect(StreamingAreaResampler.workingBytes(crop: crop, sourceWidth: 37, sourceHeight: 23,
                                                    outputWidth: 30, outputHeight: 20) == 30 * 20 * 4)
    }

    @Test func rowsInOrderStopOnceTheLastNeededRowArrives() {
        // The crop ends at row 40 of 100: row 40 is the last any output pixel reads.
        let resampler = StreamingAreaResampler(sourceWidth: 10, sourceHeight: 100, crop: (0, 20, 10, 20.5),
                                               outputWidth: 5, outputHeight: 5)
        #expect(resampler.lastNeededRow == 40)
        let row = [UInt8](repeating: 200, count: 40)
        row.withUnsafeBufferPointer { row in
            #expect(!resampler.consume(y: 39, x0: 0, dx: 1, count: 10, pixels: row.baseAddress!))
            #expect(resampler.consume(y: 40, x0: 0, dx: 1, count: 10, pixels: row.baseAddress!))
        }
    }

    @Test func aDecodeHoldsMemoryForTheThumbnailNotForThePicture() throws {
        // A 1600 × 1200 PNG (7.7 MB of pixels) and JPEG into a 160 × 120 thumbnail, with the default budget
        // and a tight one: the same memory, and for the PNG the same pixels.
        let png = TestImages.png(width: 1_600, height: 1_200, rgba: (0..<1_600 * 1_200 * 4).map { UInt8(truncatingIfNeeded: $0 * 7 / 5) })
        let jpeg = TestImages.jpeg(width: 1_600, height: 1_200) { x, y in (UInt8(x % 256), UInt8(y % 256), 40) }
        let size = try ThumbnailSize(width: 160, height: 120)
        var tight = DecodingOptions()
        tight.maximumDecodeBytes = 4 << 20
        for data in [png, jpeg] {
            for options in [DecodingOptions(), tight] {
                let decoded = try CodecImageDecoder(options: options).thumbnail(from: data, size: size)
                #expect(decoded.workingBytes > 160 * 120 * 4)
                #expect(decoded.workingBytes < 1_600 * 1_200 * 4 / 4, "\(decoded.workingBytes) bytes")
            }
        }
        let roomy = try CodecImageDecoder().thumbnail(from: png, size: size)
        let tightly = try CodecImageDecoder(options: tight).thumbnail(from: png, size: size)
        #expect(roomy.image == tightly.image)
    }

    @Test func aDecodeOverItsBudgetFailsBeforeAllocatingAndSaysHowMuch() throws {
        let jpeg = TestImages.jpeg(width: 800, height: 600, progressive: true) { x, y in (UInt8(x % 256), UInt8(y % 256), 9) }
        var tight = DecodingOptions.reference
        tight.maximumDecodeBytes = 1 << 20
        // A full-size reference decode of a progressive file: 480,000 pixels of output and 1.1 MB of coefficients.
        let full = try ThumbnailSize(width: 800, height: 600)
        #expect {
            try CodecImageDecoder(options: tight).thumbnail(from: jpeg, size: full)
        } throws: { error in
            guard case let .overBudget(needed, budget)? = error as? ImageDecodingError else { return false }
            return budget == 1 << 20 && needed > 800 * 600 * 4 + 800 * 600 / 64 * 128
        }
        // The default budget decodes it; a thumbnail needs little beyond the coefficients (1.4 MB).
        #expect(try CodecImageDecoder(options: .reference).thumbnail(from: jpeg, size: full).workingBytes <= 256 << 20)
        var thumbnailOptions = DecodingOptions()
        thumbnailOptions.maximumDecodeBytes = 2 << 20
        _ = try CodecImageDecoder(options: thumbnailOptions).thumbnail(from: jpeg, size: try ThumbnailSize(width: 64, height: 48))
        #expect(ImageDecodingError.overBudget(needed: 300 << 20, budget: 256 << 20).description
                == "decoding the image needs about 300 MB, more than its memory budget of 256 MB")
    }

    @Test func theSharedBudgetBoundsDecodesRunningTogether() async throws {
        let budget = DecodingMemoryBudget(byteLimit: 1_000)
        #expect(throws: ImageDecodingError.overBudget(needed: 1_001, budget: 1_000)) {
            try budget.withReservation(of: 1_001) { () throws(ImageDecodingError) in () }
        }
        let peak = Locked(0)
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                group.addTask {
                    try? budget.withReservation(of: 150 + index * 10) { () throws(ImageDecodingError) in
                        let held = budget.reservedBytes
                        peak.withLock { $0 = max($0, held) }
                        usleep(200)
                    }
                }
            }
        }
        #expect(peak.withLock { $0 } <= 1_000 && budget.reservedBytes == 0)
        // A decoder's reservation is released when it ends, whether it succeeds or fails inside it (a file cut
        // in half fails in the codec, holding its reservation).
        let roomy = DecodingMemoryBudget(byteLimit: 64 << 20)
        var lenient = DecodingOptions()
        lenient.requiresCompleteFile = false
        let decoder = CodecImageDecoder(options: lenient, memoryBudget: roomy)
        let jpeg = TestImages.jpeg(width: 256, height: 256) { x, y in (UInt8(x), UInt8(y), 9) }
        let size = try ThumbnailSize(width: 64, height: 64)
        #expect(throws: ImageDecodingError.self) { try decoder.thumbnail(from: jpeg.prefix(jpeg.count / 2), size: size) }
        #expect(roomy.reservedBytes == 0)
        _ = try decoder.thumbnail(from: jpeg, size: size)
        #expect(roomy.reservedBytes == 0)
    }

    @Test func aProgressiveJPEGWithMoreScansThanAllowedIsRefused() throws {
        let jpeg = TestImages.jpeg(width: 64, height: 64, progressive: true) { x, y in (UInt8(x * 4), UInt8(y * 4), 7) }
        var options = DecodingOptions.reference
        options.maximumScanCount = 2
        #expect(throws: ImageDecodingError.corrupt("the file has more than 2 scans")) {
            try CodecImageDecoder(options: options).thumbnail(from: jpeg, size: try ThumbnailSize(width: 64, height: 64))
        }
        _ = try CodecImageDecoder(options: .reference).thumbnail(from: jpeg, size: try ThumbnailSize(width: 64, height: 64))
    }
}
#endif
