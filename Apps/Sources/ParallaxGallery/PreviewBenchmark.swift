#if canImport(CSDL2)
#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxImages

/// `parallax-gallery previews`: what a photo's ThumbHash preview costs and
/// how much of the photo it keeps, over the real photo set.
///
/// For every photo: the hash's bytes; the time to make it beside a decode
/// (from the grid thumbnail the loader has just decoded, as the loader
/// does) and from the photo itself (decoded at 100 px, as `parallax-gallery
/// manifest` and a server do); the time to render it (32 px, what a tile
/// shows first); and its PSNR against the sharp thumbnail, both at the
/// preview's size.
@MainActor
package enum PreviewBenchmark {
    /// Medians and extremes over the photos.
    package struct Results: Sendable {
        package var photos: Int
        package var thumbnailSize: ThumbnailSize
        /// Hash bytes: median, min, max.
        package var bytes: (median: Double, min: Double, max: Double)
        /// Base64 characters, median.
        package var base64Characters: Double
        /// Seconds, median and 90th percentile over photos (each photo's time the median of its rounds).
        package var encodeFromThumbnail: (median: Double, p90: Double)
        package var hashFromPhoto: (median: Double, p90: Double)
        package var thumbnailDecode: (median: Double, p90: Double)
        package var render: (median: Double, p90: Double)
        /// dB: median, min, max.
        package var psnr: (median: Double, min: Double, max: Double)
    }

    package static func run(library: PhotoLibrary, size: CGSize = CGSize(width: 1280, height: 800),
                           rounds: Int = 9) async throws -> Results {
        // The thumbnail size the grid asks for, from the gallery itself.
        let model = GalleryModel(library: library, settings: GallerySettings(), viewportSize: size)
        await model.loadPhotoList()
        await model.settle(at: 0)
        guard let thumbnailSize = model.cells.first(where: { $0.imageKey != nil })?.imageKey?.size else {
            throw CacheFormatBenchmark.Failure(reason: "the gallery shows no photo to measure")
        }
        let decoder = PlatformImageDecoder()
        var bytes: [Double] = [], characters: [Double] = [], encode: [Double] = [], whole: [Double] = []
        var decodes: [Double] = [], renders: [Double] = [], psnrs: [Double] = []
        for id in try await library.source.imageIDs() {
            let data = try await library.source.data(for: id)
            var decodeTimes: [Double] = [], encodeTimes: [Double] = [], wholeTimes: [Double] = [], renderTimes: [Double] = []
            var thumbnail = PixelImage(width: 0, height: 0)
            var hash = ThumbHash(encoding: thumbnail)
            for _ in 0..<rounds {
                var start = ContinuousClock.now
                thumbnail = try decoder.thumbnail(from: data, size: thumbnailSize).image
                decodeTimes.append(seconds(since: start))
                start = ContinuousClock.now
                hash = ThumbHash(encoding: thumbnail)
                encodeTimes.append(seconds(since: start))
                start = ContinuousClock.now
                _ = try ThumbHash(photo: data, decoder: decoder)
                wholeTimes.append(seconds(since: start))
                start = ContinuousClock.now
                _ = hash.render()
                renderTimes.append(seconds(since: start))
            }
            let preview = hash.render()
            let sharp = boxAverage(thumbnail, width: preview.width, height: preview.height)
            bytes.append(Double(hash.bytes.count))
            characters.append(Double(hash.base64.count))
            decodes.append(median(decodeTimes))
            encode.append(median(encodeTimes))
            whole.append(median(wholeTimes))
            renders.append(median(renderTimes))
            psnrs.append(CacheFormatBenchmark.psnr(preview, sharp))
        }
        return Results(photos: bytes.count, thumbnailSize: thumbnailSize,
                       bytes: (median(bytes), bytes.min() ?? 0, bytes.max() ?? 0), base64Characters: median(characters),
                       encodeFromThumbnail: (median(encode), percentile(encode, 0.9)),
                       hashFromPhoto: (median(whole), percentile(whole, 0.9)),
                       thumbnailDecode: (median(decodes), percentile(decodes, 0.9)),
                       render: (median(renders), percentile(renders, 0.9)),
                       psnr: (median(psnrs), psnrs.min() ?? 0, psnrs.max() ?? 0))
    }

    /// `image` averaged down to `width × height`, each output pixel the mean of the pixels its box covers.
    static func boxAverage(_ image: PixelImage, width: Int, height: Int) -> PixelImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            let top = y * image.height / height, bottom = max((y + 1) * image.height / height, top + 1)
            for x in 0..<width {
                let left = x * image.width / width, right = max((x + 1) * image.width / width, left + 1)
                var sums = [0, 0, 0, 0]
                for sy in top..<bottom {
                    for sx in left..<right {
                        let index = (sy * image.width + sx) * 4
                        for channel in 0..<4 { sums[channel] += Int(image.pixels[index + channel]) }
                    }
                }
                let count = (bottom - top) * (right - left)
                for channel in 0..<4 { pixels[(y * width + x) * 4 + channel] = UInt8((sums[channel] + count / 2) / count) }
            }
        }
        return PixelImage(width: width, height: height, pixels: pixels) ?? PixelImage(width: width, height: height)
    }

    private static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    private static func median(_ values: [Double]) -> Double { percentile(values, 0.5) }

    private static func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[min(Int((Double(sorted.count - 1) * p).rounded()), sorted.count - 1)]
    }
}

extension PreviewBenchmark.Results {
    /// One line per figure, for the terminal.
    package var summary: String {
        func ms(_ value: Double) -> String { String(format: "%.3f ms", value * 1000) }
        return """
        \(photos) photos: hash \(Int(bytes.median)) bytes (\(Int(bytes.min))–\(Int(bytes.max))), \(Int(base64Characters)) base64 characters
        made from the grid thumbnail: median \(ms(encodeFromThumbnail.median)), p90 \(ms(encodeFromThumbnail.p90)) (the thumbnail's decode: median \(ms(thumbnailDecode.median)))
        made from the photo (decoded at 100 px): median \(ms(hashFromPhoto.median)), p90 \(ms(hashFromPhoto.p90))
        rendered at 32 px: median \(ms(render.median)), p90 \(ms(render.p90))
        PSNR against the sharp thumbnail at the preview's size: median \(String(format: "%.1f", psnr.median)) dB (\(String(format: "%.1f–%.1f", psnr.min, psnr.max)))
        """
    }

    /// The results as Markdown: the `## Title` line, what was measured and
    /// the table. scripts/bench-report.py puts it into BENCHMARKS.md
    /// (section `preview-benchmarks`) with the date and the machine.
    package var markdown: String {
        func us(_ value: Double) -> String { String(format: "%.0f µs", value * 1_000_000) }
        return ["## Previews (ThumbHash)", "",
                "Every photo of the set (\(photos)): its ThumbHash, made as the loader makes it (from the grid thumbnail it has just decoded, \(thumbnailSize.width) × \(thumbnailSize.height) px, scaled to 100 px and transformed) and as `parallax-gallery manifest` or a server makes it (the photo decoded at 100 px, then the hash); rendered as a tile first shows it (32 px); and compared with the sharp thumbnail, both at the preview's size. Times are each photo's median of \(9) rounds, then the median and 90th percentile over photos, on one core.", "",
                "| Figure | Median | p90 / range |", "| --- | ---: | ---: |",
                "| Hash size | \(Int(bytes.median)) bytes (\(Int(base64Characters)) base64 characters) | \(Int(bytes.min))–\(Int(bytes.max)) bytes |",
                "| Made from the grid thumbnail (the loader's extra work per decode) | \(us(encodeFromThumbnail.median)) | \(us(encodeFromThumbnail.p90)) |",
                "| The grid thumbnail's own decode, for scale | \(us(thumbnailDecode.median)) | \(us(thumbnailDecode.p90)) |",
                "| Made from the photo (decoded at 100 px, as a manifest's) | \(us(hashFromPhoto.median)) | \(us(hashFromPhoto.p90)) |",
                "| Rendered at 32 px (once per photo shown, on the main thread) | \(us(render.median)) | \(us(render.p90)) |",
                "| PSNR of the preview against the sharp thumbnail | \(String(format: "%.1f dB", psnr.median)) | \(String(format: "%.1f–%.1f dB", psnr.min, psnr.max)) |",
                "",
                "For comparison, BlurHash's own documentation gives its strings as 20–30 characters (28 for its recommended 4 × 3 components) of base83 text, holding colours only: no aspect ratio and no transparency, which a ThumbHash of a few more bytes keeps."]
            .joined(separator: "\n")
    }
}
#endif
