import Foundation

/// Resamples premultiplied RGBA by exact area averaging (a box filter with
/// fractional coverage): every output pixel is the average of the source
/// area it covers, partial pixels weighted by the part covered.
///
/// For shrinking, which is all a thumbnail pipeline does after DCT
/// scaling, this is the high-quality choice: no aliasing, no ringing, no
/// detail invented. It runs as two separable passes, so an `n × n` output
/// from an `m × m` region costs O(m · n) per pass, not O(m² · n²).
/// Premultiplied input makes averaging across transparent edges correct.
enum AreaResampler {
    /// The source pixels covering each output pixel along one axis, with weights summing to 1.
    struct Taps {
        var first: [Int32] = []
        var count: [Int32] = []
        var weights: [Float] = []
        var offsets: [Int32] = []

        /// Complexity: O(outputLength + taps), with no allocation per output
        /// pixel (a thumbnail decode made two arrays for each of its output
        /// columns and rows: a sixth of reading a cached thumbnail back).
        init(sourceStart: Double, sourceLength: Double, sourceLimit: Int, outputLength: Int) {
            let step = sourceLength / Double(outputLength)
            first.reserveCapacity(outputLength)
            count.reserveCapacity(outputLength)
            offsets.reserveCapacity(outputLength)
            if step.isFinite, step >= 0, step < Double(sourceLimit) {
                weights.reserveCapacity(outputLength * (Int(step.rounded(.up)) + 1))
            }
            for index in 0..<outputLength {
                let start = sourceStart + Double(index) * step
                let end = start + step
                var low = Int(start.rounded(.down))
                var high = Int(end.rounded(.up)) - 1
                low = min(max(low, 0), sourceLimit - 1)
                high = min(max(high, low), sourceLimit - 1)
                first.append(Int32(low))
                count.append(Int32(high - low + 1))
                offsets.append(Int32(weights.count))
                func covered(_ source: Int) -> Double {
                    max(min(end, Double(source + 1)) - max(start, Double(source)), 0)
                }
                var total: Double = 0
                for source in low...high { total += covered(source) }
                if total <= 0 {                   // a degenerate crop: take the nearest pixel
                    weights.append(1)
                    weights.append(contentsOf: repeatElement(0, count: high - low))
                } else {
                    for source in low...high { weights.append(Float(covered(source) / total)) }
                }
            }
        }
    }

    /// The `crop` region of `source` resampled to `width × height`.
    static func resample(_ source: PixelImage, crop: (x: Double, y: Double, width: Double, height: Double),
                         width: Int, height: Int) -> PixelImage {
        guard source.width > 0, source.height > 0, width > 0, height > 0 else {
            return PixelImage(width: max(width, 0), height: max(height, 0), filledWith: (0, 0, 0, 0))
        }
        let columns = Taps(sourceStart: crop.x, sourceLength: crop.width, sourceLimit: source.width, outputLength: width)
        let rows = Taps(sourceStart: crop.y, sourceLength: crop.height, sourceLimit: source.height, outputLength: height)
        let firstRow = Int(rows.first[0])
        let lastRow = Int(rows.first[height - 1] + rows.count[height - 1]) - 1
        let bandHeight = lastRow - firstRow + 1

        // Pass 1: every needed source row, resampled horizontally, kept as floats.
        var band = [Float](repeating: 0, count: bandHeight * width * 4)
        source.pixels.withUnsafeBufferPointer { pixels in
            band.withUnsafeMutableBufferPointer { band in
                columns.first.withUnsafeBufferPointer { first in
                columns.count.withUnsafeBufferPointer { count in
                columns.offsets.withUnsafeBufferPointer { offsets in
                columns.weights.withUnsafeBufferPointer { weights in
                    for row in 0..<bandHeight {
                        let sourceRow = (firstRow + row) * source.width * 4
                        let bandRow = row * width * 4
                        for x in 0..<width {
                            var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
                            let start = Int(first[x]), taps = Int(count[x]), offset = Int(offsets[x])
                            for tap in 0..<taps {
                                let weight = weights[offset + tap]
                                let p = sourceRow + (start + tap) * 4
                                r += weight * Float(pixels[p])
                                g += weight * Float(pixels[p + 1])
                                b += weight * Float(pixels[p + 2])
                                a += weight * Float(pixels[p + 3])
                            }
                            let q = bandRow + x * 4
                            band[q] = r; band[q + 1] = g; band[q + 2] = b; band[q + 3] = a
                        }
                    }
                }}}}
            }
        }

        // Pass 2: vertical, rounding to bytes.
        var output = [UInt8](repeating: 0, count: width * height * 4)
        band.withUnsafeBufferPointer { band in
            output.withUnsafeMutableBufferPointer { output in
                for y in 0..<height {
                    let start = Int(rows.first[y]) - firstRow, taps = Int(rows.count[y]), offset = Int(rows.offsets[y])
                    for x in 0..<(width * 4) {
                        var sum: Float = 0
                        for tap in 0..<taps {
                            sum += rows.weights[offset + tap] * band[(start + tap) * width * 4 + x]
                        }
                        output[y * width * 4 + x] = UInt8(min(max(sum + 0.5, 0), 255))
                    }
                }
            }
        }
        return PixelImage(unchecked: width, height: height, pixels: output)
    }
}
