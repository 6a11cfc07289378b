#if canImport(CSDL2)
#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxImages

/// `parallax-gallery cache-formats`: how to store a thumbnail on disk,
/// decided by measurement. Every photo's grid thumbnail (the size the
/// gallery asks for in a 1280 × 800 window) is stored in a
/// ``DiskImageCache`` in each format and read back through it (file read
/// on the I/O threads, checksum, decode), and, for comparison, the
/// freedesktop.org shared store's way: a PNG fitted into 512 px (its
/// x-large size, the smallest that covers a grid tile), read and resampled
/// to the tile.
@MainActor
package enum CacheFormatBenchmark {
    /// One way of storing thumbnails, measured.
    package struct Row: Sendable {
        package var name: String
        package var bytesPerEntry: Double
        /// Median read-back time of one thumbnail, in seconds.
        package var readSeconds: Double
        /// PSNR of what is read back against the thumbnail stored (`+∞` when exact), mean and minimum.
        package var meanPSNR: Double
        package var minimumPSNR: Double
    }

    package struct Results: Sendable {
        package var thumbnailSize: ThumbnailSize
        package var photos: Int
        package var rows: [Row]
    }

    package static func run(library: PhotoLibrary, size: CGSize = CGSize(width: 1280, height: 800),
                           rounds: Int = 5) async throws -> Results {
        // The thumbnail size the grid asks for, from the gallery itself.
        let model = GalleryModel(library: library, settings: GallerySettings(), viewportSize: size)
        await model.loadPhotoList()
        await model.settle(at: 0)                                // a cell knows its key once its picture shows
        guard let thumbnailSize = model.cells.first(where: { $0.imageKey != nil })?.imageKey?.size else {
            throw Failure(reason: "the gallery shows no photo to measure")
        }
        let ids = try await library.source.imageIDs()
        var thumbnails: [(ThumbnailKey, PixelImage, Data)] = []
        for id in ids {
            let data = try await library.source.data(for: id)
            let key = ThumbnailKey(id: id, size: thumbnailSize)
            thumbnails.append((key, try CodecImageDecoder().thumbnail(from: data, size: thumbnailSize).image, data))
        }

        var rows: [Row] = []
        for format in [ThumbnailEntryFormat.raw, .jpeg(quality: 80), .jpeg(quality: 90), .jpeg(quality: 95)] {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-formats-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let cache = try DiskImageCache(directory: directory, sizeLimit: 1 << 40, format: format)
            for (key, image, _) in thumbnails { await cache.store(image, for: key, fingerprint: "v1") }
            let bytes = Double(await cache.byteCount) / Double(thumbnails.count)
            var times: [Double] = [], psnrs: [Double] = []
            for round in 0..<rounds {
                for (key, image, _) in thumbnails {
                    let start = ContinuousClock.now
                    guard let read = await cache.image(for: key, fingerprint: "v1") else {
                        throw Failure(reason: "\(format): \(key) was not read back")
                    }
                    times.append(seconds(ContinuousClock.now - start))
                    if round == 0 { psnrs.append(psnr(read, image)) }
                }
            }
            let finite = psnrs.filter(\.isFinite)
            rows.append(Row(name: "DiskImageCache, \(format)\(format == .default ? " (the default)" : "")",
                            bytesPerEntry: bytes, readSeconds: median(times),
                            meanPSNR: finite.isEmpty ? .infinity : finite.reduce(0, +) / Double(finite.count),
                            minimumPSNR: psnrs.min() ?? .infinity))
        }

        // The freedesktop.org store: an x-large (512 px) PNG per photo, read, decoded and resampled to the tile.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-xdg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let box = try ThumbnailSize(width: 512, height: 512, mode: .fit)
        var files: [(URL, PixelImage)] = [], total = 0
        for (index, (_, image, data)) in thumbnails.enumerated() {
            guard let png = try CodecImageDecoder().thumbnail(from: data, size: box).image.pngData() else { continue }
            let file = folder.appendingPathComponent("\(index).png")
            try png.write(to: file)
            total += png.count
            files.append((file, image))
        }
        var times: [Double] = [], psnrs: [Double] = []
        for round in 0..<rounds {
            for (file, image) in files {
                let start = ContinuousClock.now
                let png = try Data(contentsOf: file)
                let read = try CodecImageDecoder().thumbnail(from: png, size: thumbnailSize).image
                times.append(seconds(ContinuousClock.now - start))
                if round == 0 { psnrs.append(psnr(read, image)) }
            }
        }
        rows.append(Row(name: "freedesktop.org x-large PNG (512 px), resampled to the tile", bytesPerEntry: Double(total) / Double(max(files.count, 1)),
                        readSeconds: median(times), meanPSNR: psnrs.reduce(0, +) / Double(max(psnrs.count, 1)),
                        minimumPSNR: psnrs.min() ?? .infinity))
        return Results(thumbnailSize: thumbnailSize, photos: thumbnails.count, rows: rows)
    }

    struct Failure: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    /// PSNR over R, G and B, in dB.
    static func psnr(_ a: PixelImage, _ b: PixelImage) -> Double {
        guard a.width == b.width, a.height == b.height else { return 0 }
        var squared = 0.0, count = 0
        for i in stride(from: 0, to: a.pixels.count, by: 4) {
            for c in 0..<3 {
                let d = Double(a.pixels[i + c]) - Double(b.pixels[i + c])
                squared += d * d
                count += 1
            }
        }
        let mse = squared / Double(max(count, 1))
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }
}

extension CacheFormatBenchmark.Results {
    /// The results as Markdown: the `## Title` line, what was measured, the
    /// table and what it decides. scripts/bench-report.py puts it into
    /// BENCHMARKS.md (section `cache-format-benchmarks`) with the date and the machine.
    package var markdown: String {
        var lines = ["## Disk cache entry formats", "",
                     "Every photo's grid thumbnail (\(thumbnailSize.width) × \(thumbnailSize.height) px, what the gallery asks for in a 1280 × 800 window) of \(photos) photos, stored and read back through `DiskImageCache` (the read: the file on an I/O thread from a warm page cache, the checksum, the decode), median of every read. The last row is the freedesktop.org shared thumbnail store's way (`~/.cache/thumbnails/x-large`: a PNG fitted into 512 px, the smallest of its sizes that covers a grid tile), read and resampled to the tile. PSNR is against the thumbnail stored.", "",
                     "| Format | Bytes per thumbnail | Thumbnails in 150 MB | Read back (median) | PSNR mean / min |",
                     "| --- | ---: | ---: | ---: | ---: |"]
        for row in rows {
            let fits = Int(150 * 1_048_576 / max(row.bytesPerEntry, 1))
            let quality = row.meanPSNR.isFinite ? String(format: "%.1f / %.1f dB", row.meanPSNR, row.minimumPSNR) : "exact"
            lines.append("| \(row.name) | \(Int(row.bytesPerEntry.rounded()).formatted()) | \(fits.formatted()) | \(String(format: "%.2f ms", row.readSeconds * 1000)) | \(quality) |")
        }
        if let raw = rows.first(where: { $0.name.contains("raw") }), let chosen = rows.first(where: { $0.name.contains("default") }),
           let shared = rows.last, shared.name.contains("freedesktop") {
            lines += ["", String(format: "The default, JPEG at quality 90, takes %.0f %% of the raw bytes (%@ thumbnails fit in the 150 MB default instead of %@) and reads back in %.2f ms. ", 100 * chosen.bytesPerEntry / raw.bytesPerEntry, Int(150 * 1_048_576 / chosen.bytesPerEntry).formatted(), Int(150 * 1_048_576 / raw.bytesPerEntry).formatted(), chosen.readSeconds * 1000)
                + String(format: "The freedesktop.org x-large PNG takes %.1f× the bytes and %.1f× the read time of the default, its sizes are fitted boxes while the gallery needs exact crops per layout, and writing it would add a PNG encode per photo: the gallery neither reads nor writes that store.", shared.bytesPerEntry / chosen.bytesPerEntry, shared.readSeconds / chosen.readSeconds)]
        }
        return lines.joined(separator: "\n")
    }
}
#endif
