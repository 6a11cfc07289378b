import Foundation
import ParallaxImages

/// `thumbnail-benchmark --headers`: how fast a photo's shape is known before
/// its pixels. Every photo's header is read as `FolderImageSource.header(for:)`
/// reads it (the file's first 64 KB from a warm page cache, then
/// `ImageHeader.read`), here on the calling thread, many rounds over; the same
/// photos' 400 px thumbnails, decoded in the same run, are the yardstick.
enum HeaderBenchmark {
    static let rounds = 20
    /// Photos a second the header read must reach.
    static let minimumRate = 3_000.0

    /// The section's Markdown.
    static func run(_ set: PhotoSet) throws(Failure) -> String {
        let clock = ContinuousClock()
        // Warms the page cache, and checks every header against the manifest.
        for photo in set.photos {
            let header = header(atPath: photo.path)
            guard let header, header.storedWidth == photo.width, header.storedHeight == photo.height else {
                throw Failure("\(photo.file): the header gives \(header.map { "\($0.storedWidth) × \($0.storedHeight)" } ?? "nothing"), "
                              + "the manifest \(photo.width) × \(photo.height)")
            }
        }
        var roundTimes: [Double] = []
        for _ in 0..<rounds {
            let start = clock.now
            for photo in set.photos { _ = header(atPath: photo.path) }
            roundTimes.append((clock.now - start).milliseconds)
        }
        let header = median(roundTimes) / Double(set.photos.count)
        var decodeTimes: [Double] = []
        for photo in set.photos {
            guard let data = FileManager.default.contents(atPath: photo.path) else { throw Failure("\(photo.file): unreadable") }
            decodeTimes.append(try DecoderPath.parallaxKit.time(data, of: photo, mode: .fit, runs: 3).milliseconds)
        }
        let decode = mean(decodeTimes)
        progress(String(format: "headers: %.3f ms per photo (%.0f photos/s); thumbnails %.2f ms per photo", header, 1_000 / header, decode))
        return [
            "## Photo shapes before pixels", "",
            "The header of each of the \(set.photos.count) photos read as `FolderImageSource.header(for:)` reads it (open, read the first 64 KB from a warm page cache, `ImageHeader.read`: the frame header and the EXIF orientation), \(rounds) rounds, median round; every header checked against the photo manifest first. Beside it, the same photos' fit-400 thumbnails decoded in the same run (mean of each photo's median of 3).", "",
            "| Measure | Per photo | Photos per second |", "| --- | ---: | ---: |",
            String(format: "| Header (size and orientation) | %.3f ms | %@ |", header, grouped((1_000 / header).rounded(.down))),
            String(format: "| Thumbnail decode (fit 400) | %.2f ms | %@ |", decode, grouped((1_000 / decode).rounded(.down))), "",
            String(format: "A header costs %.1f %% of a thumbnail decode. Target: at least %@ photos a second: **%@**.",
                   100 * header / decode, grouped(minimumRate), 1_000 / header >= minimumRate ? "PASS" : "FAIL"),
        ].joined(separator: "\n")
    }

    /// The header from the file's first 64 KB (every photo here has its frame header within them).
    private static func header(atPath path: String) -> ImageHeader? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let prefix = try? handle.read(upToCount: 64 << 10) else { return nil }
        return try? ImageHeader.read(from: prefix)
    }
}
