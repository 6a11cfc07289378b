import Foundation

/// ``AreaResampler``'s exact area averaging, fed one decoded row at a time,
/// so a decode never holds the source picture: memory is the thumbnail's
/// accumulator plus the one row the codec hands over.
///
/// Rows may arrive in any order and in pieces: a JPEG's scanlines top to
/// bottom, or an interlaced PNG's Adam7 passes, whose rows hold every 8th,
/// 4th or 2nd pixel. Every source pixel adds `weight(x) · weight(y) · pixel`
/// to the output pixels whose areas it overlaps, which is the same sum
/// whatever the order, so an interlaced file gives the very pixels of its
/// non-interlaced twin.
///
/// When the crop maps source pixels one to one onto the output (a
/// full-size reference decode), rows are copied straight into the output
/// and no accumulator exists.
///
/// Complexity: O(source width) per dense row, O(output width · rows it
/// touches) to accumulate; O(output pixels) memory (16 bytes each, 4 when
/// one to one) plus O(crop width + crop height) for the tap tables.
final class StreamingAreaResampler {
    let outputWidth: Int
    let outputHeight: Int
    /// The last source row any output pixel reads: once it has arrived in
    /// order, the decode can stop.
    let lastNeededRow: Int

    private let sourceWidth: Int
    private let columns: AreaResampler.Taps
    private let rows: AreaResampler.Taps
    private let firstRow: Int
    /// The pixels the codec has handed over so far, wanted or not: what a decode really produced.
    private(set) var pixelsHandedOver = 0
    /// The source columns any output pixel reads.
    private let columnSpan: Range<Int>
    /// For each source row from `firstRow`: the first output row that reads it, and how many do.
    private var rowReaders: [(first: Int32, count: Int32)] = []
    /// For each source column (sparse rows only, built on first use): the same, for output columns.
    private var columnReaders: [(first: Int32, count: Int32)] = []
    /// Premultiplied RGBA sums, 4 floats per output pixel (empty when one to one).
    private var accumulator: [Float] = []
    /// One source row resampled horizontally.
    private var horizontal: [Float] = []
    /// The output when one to one: the source offset of output pixel (0, 0).
    private let oneToOne: (x: Int, y: Int)?
    private var direct: [UInt8] = []

    /// A resampler of the `crop` region of a `sourceWidth × sourceHeight`
    /// picture to `outputWidth × outputHeight`.
    init(sourceWidth: Int, sourceHeight: Int, crop: (x: Double, y: Double, width: Double, height: Double),
         outputWidth: Int, outputHeight: Int) {
        self.sourceWidth = max(sourceWidth, 1)
        self.outputWidth = max(outputWidth, 1)
        self.outputHeight = max(outputHeight, 1)
        columns = AreaResampler.Taps(sourceStart: crop.x, sourceLength: crop.width, sourceLimit: self.sourceWidth,
                                     outputLength: self.outputWidth)
        rows = AreaResampler.Taps(sourceStart: crop.y, sourceLength: crop.height, sourceLimit: max(sourceHeight, 1),
                                  outputLength: self.outputHeight)
        firstRow = Int(rows.first[0])
        columnSpan = Int(columns.first[0])..<Int(columns.first[self.outputWidth - 1] + columns.count[self.outputWidth - 1])
        lastNeededRow = Int(rows.first[self.outputHeight - 1] + rows.count[self.outputHeight - 1]) - 1
        if Self.isOneToOne(crop: crop, outputWidth: self.outputWidth, outputHeight: self.outputHeight,
                           sourceWidth: self.sourceWidth, sourceHeight: max(sourceHeight, 1)) {
            oneToOne = (Int(crop.x), Int(crop.y))
            direct = [UInt8](repeating: 0, count: self.outputWidth * self.outputHeight * 4)
        } else {
            oneToOne = nil
            accumulator = [Float](repeating: 0, count: self.outputWidth * self.outputHeight * 4)
            horizontal = [Float](repeating: 0, count: self.outputWidth * 4)
            rowReaders = Self.readers(of: rows, sourceCount: lastNeededRow - firstRow + 1, from: firstRow)
        }
    }

    /// The bytes a resampler for these sizes holds: what a decode budgets for it.
    static func workingBytes(crop: (x: Double, y: Double, width: Double, height: Double), sourceWidth: Int,
                             sourceHeight: Int, outputWidth: Int, outputHeight: Int) -> Int {
        let pixels = outputWidth * outputHeight
        if isOneToOne(crop: crop, outputWidth: outputWidth, outputHeight: outputHeight,
                      sourceWidth: sourceWidth, sourceHeight: sourceHeight) {
            return pixels * 4
        }
        // The accumulator and the bytes it becomes; the horizontal row; tap tables for both axes (both
        // directions), whose entries are at most a few per source and output pixel.
        let taps = (Int(crop.width.rounded(.up)) + Int(crop.height.rounded(.up)) + outputWidth + outputHeight + 4) * 24
        return pixels * 20 + outputWidth * 16 + taps + sourceWidth * 8
    }

    private static func isOneToOne(crop: (x: Double, y: Double, width: Double, height: Double), outputWidth: Int,
                                   outputHeight: Int, sourceWidth: Int, sourceHeight: Int) -> Bool {
        crop.width == Double(outputWidth) && crop.height == Double(outputHeight)
            && crop.x == crop.x.rounded() && crop.y == crop.y.rounded() && crop.x >= 0 && crop.y >= 0
            && Int(crop.x) + outputWidth <= sourceWidth && Int(crop.y) + outputHeight <= sourceHeight
    }

    /// For each source index from `start` (`sourceCount` of them), the contiguous outputs whose taps include it.
    private static func readers(of taps: AreaResampler.Taps, sourceCount: Int, from start: Int) -> [(first: Int32, count: Int32)] {
        var readers = [(first: Int32, count: Int32)](repeating: (0, 0), count: max(sourceCount, 0))
        for output in 0..<taps.first.count {
            let low = Int(taps.first[output]) - start, high = low + Int(taps.count[output])
            for source in max(low, 0)..<min(high, readers.count) {
                if readers[source].count == 0 { readers[source].first = Int32(output) }
                readers[source].count += 1
            }
        }
        return readers
    }

    /// Adds `count` pixels of source row `y`, at columns `x0`, `x0 + dx`, …;
    /// returns whether every row the output needs has now arrived (only
    /// ever for dense rows arriving in order).
    func consume(y: Int, x0: Int, dx: Int, count: Int, pixels: UnsafePointer<UInt8>) -> Bool {
        pixelsHandedOver += max(count, 0)
        guard y >= firstRow, y <= lastNeededRow, count > 0, dx > 0, x0 >= 0 else { return y > lastNeededRow && dx == 1 }
        // Pixels past the picture's width (a codec bug, never seen) are ignored, not read.
        let count = min(count, (sourceWidth - x0 + dx - 1) / dx)
        guard count > 0 else { return false }
        if let origin = oneToOne {
            copy(y: y - origin.y, x0: x0 - origin.x, dx: dx, count: count, pixels: pixels)
        } else if dx == 1, x0 <= columnSpan.lowerBound, x0 + count >= columnSpan.upperBound {
            // A whole row, or a cropped one holding every column the output reads (a region's JPEG rows).
            gather(pixels, from: x0)
            accumulate(y)
        } else {
            scatter(x0: x0, dx: dx, count: count, pixels: pixels)
            accumulate(y)
        }
        return dx == 1 && y >= lastNeededRow
    }

    /// The finished output.
    func finish() -> PixelImage {
        if oneToOne != nil { return PixelImage(unchecked: outputWidth, height: outputHeight, pixels: direct) }
        var output = [UInt8](repeating: 0, count: accumulator.count)
        accumulator.withUnsafeBufferPointer { sums in
            output.withUnsafeMutableBufferPointer { bytes in
                for index in 0..<sums.count { bytes[index] = UInt8(min(max(sums[index] + 0.5, 0), 255)) }
            }
        }
        return PixelImage(unchecked: outputWidth, height: outputHeight, pixels: output)
    }

    // MARK: Rows

    private func copy(y: Int, x0: Int, dx: Int, count: Int, pixels: UnsafePointer<UInt8>) {
        guard (0..<outputHeight).contains(y) else { return }
        direct.withUnsafeMutableBufferPointer { out in
            if dx == 1 {
                // A dense row (every JPEG's, a disk cache entry's): the part inside the output in one copy.
                let first = max(x0, 0), end = min(x0 + count, outputWidth)
                guard first < end, let base = out.baseAddress else { return }
                (base + (y * outputWidth + first) * 4).update(from: pixels + (first - x0) * 4, count: (end - first) * 4)
                return
            }
            for index in 0..<count {
                let x = x0 + index * dx
                guard (0..<outputWidth).contains(x) else { continue }
                let target = (y * outputWidth + x) * 4, source = index * 4
                out[target] = pixels[source]; out[target + 1] = pixels[source + 1]
                out[target + 2] = pixels[source + 2]; out[target + 3] = pixels[source + 3]
            }
        }
    }

    /// A row whose first pixel is source column `x0`, horizontally: each output column the weighted sum
    /// of its taps (all within the row: ``columnSpan``).
    private func gather(_ pixels: UnsafePointer<UInt8>, from x0: Int) {
        columns.first.withUnsafeBufferPointer { first in
        columns.count.withUnsafeBufferPointer { count in
        columns.offsets.withUnsafeBufferPointer { offsets in
        columns.weights.withUnsafeBufferPointer { weights in
        horizontal.withUnsafeMutableBufferPointer { row in
            for x in 0..<outputWidth {
                var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
                let start = Int(first[x]), taps = Int(count[x]), offset = Int(offsets[x])
                for tap in 0..<taps {
                    let weight = weights[offset + tap]
                    let p = (start + tap - x0) * 4
                    r += weight * Float(pixels[p]); g += weight * Float(pixels[p + 1])
                    b += weight * Float(pixels[p + 2]); a += weight * Float(pixels[p + 3])
                }
                row[x * 4] = r; row[x * 4 + 1] = g; row[x * 4 + 2] = b; row[x * 4 + 3] = a
            }
        }}}}}
    }

    /// Some pixels of a row (an Adam7 pass row): each adds its weight to the output columns that read it.
    private func scatter(x0: Int, dx: Int, count: Int, pixels: UnsafePointer<UInt8>) {
        if columnReaders.isEmpty { columnReaders = Self.readers(of: columns, sourceCount: sourceWidth, from: 0) }
        for index in 0..<horizontal.count { horizontal[index] = 0 }
        columns.first.withUnsafeBufferPointer { first in
        columns.offsets.withUnsafeBufferPointer { offsets in
        columns.weights.withUnsafeBufferPointer { weights in
        horizontal.withUnsafeMutableBufferPointer { row in
            for index in 0..<count {
                let x = x0 + index * dx, readers = columnReaders[x], p = index * 4
                for output in Int(readers.first)..<Int(readers.first + readers.count) {
                    let weight = weights[Int(offsets[output]) + x - Int(first[output])]
                    row[output * 4] += weight * Float(pixels[p]); row[output * 4 + 1] += weight * Float(pixels[p + 1])
                    row[output * 4 + 2] += weight * Float(pixels[p + 2]); row[output * 4 + 3] += weight * Float(pixels[p + 3])
                }
            }
        }}}}
    }

    /// Adds the horizontal row, weighted, to every output row that reads source row `y`.
    private func accumulate(_ y: Int) {
        let readers = rowReaders[y - firstRow], width = outputWidth * 4
        horizontal.withUnsafeBufferPointer { row in
        accumulator.withUnsafeMutableBufferPointer { sums in
            for output in Int(readers.first)..<Int(readers.first + readers.count) {
                let weight = rows.weights[Int(rows.offsets[output]) + y - Int(rows.first[output])]
                let base = output * width
                for index in 0..<width { sums[base + index] += weight * row[index] }
            }
        }}
    }
}
