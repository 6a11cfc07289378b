import Foundation

/// A photo's preview in about 25 bytes: Evan Wallace's ThumbHash, written
/// here from its published description (evanw.github.io/thumbhash).
///
/// A ThumbHash keeps a photo's average colour, its aspect ratio, whether it
/// has transparency, and a handful of low-frequency cosine terms of its
/// lightness (up to 7 × 7), its two colour-difference channels (3 × 3) and
/// its alpha (5 × 5), each quantised to 4 bits. Rendered, it is a soft,
/// correct-looking picture of the photo: what a tile shows from the first
/// frame, before any pixel of the photo has been fetched or decoded. Photo
/// services ship one with every photo's metadata for that reason (Immich
/// serves `thumbhash`, base64, as ``init(base64:)`` reads), and the bytes
/// are the reference encoder's, so hashes made elsewhere render here and
/// the other way round.
///
/// Complexity: ``init(encoding:)`` is O(pixels) after scaling the image to
/// at most 100 × 100; ``render(maximumSide:)`` is O(output pixels × terms),
/// about 40 terms for 32 × 32 pixels.
public struct ThumbHash: Sendable, Hashable, CustomStringConvertible {
    /// The bytes, kept inline (a hash has at most 25): no allocation per
    /// hash, so a library's 100,000 hashes cost their bytes and no more.
    private let storage: InlineBytes

    /// The hash's bytes, as the reference encoder writes them.
    public var bytes: [UInt8] { storage.array }

    /// The hash in `bytes`, or `nil` when they are not one: shorter or
    /// longer than their own header says, or stating a shape no encoder
    /// writes. Bytes from a server are checked here, so rendering never
    /// reads past them or makes an empty picture.
    public init?(bytes: [UInt8]) {
        guard bytes.count >= 5, let layout = Layout(bytes), bytes.count == layout.byteCount,
              let storage = InlineBytes(bytes) else { return nil }
        self.storage = storage
    }

    /// The hash in base64 (with or without its `=` padding), as Immich's
    /// API and most manifests carry it; `nil` when it is not base64 of a hash.
    public init?(base64: String) {
        var text = base64.trimmingCharacters(in: .whitespaces)
        guard text.count <= 128 else { return nil }
        while text.count % 4 != 0 { text += "=" }
        guard let data = Data(base64Encoded: text) else { return nil }
        self.init(bytes: [UInt8](data))
    }

    /// The hash in base64, padded: what ``init(base64:)`` reads.
    public var base64: String { Data(bytes).base64EncodedString() }

    public var description: String { base64 }

    /// Whether the photo has transparent parts.
    public var hasAlpha: Bool { layout.hasAlpha }

    /// The photo's width over its height, as the hash keeps it: to within
    /// about one seventh (the hash stores how many cosine terms each side
    /// has, not the size). A photo's header gives the exact ratio.
    public var approximateAspectRatio: Double {
        let layout = self.layout
        return Double(layout.shapeColumns) / Double(layout.shapeRows)
    }

    /// The photo's average colour, straight (not premultiplied) RGBA, each 0…1.
    public var averageColor: (red: Double, green: Double, blue: Double, alpha: Double) {
        let layout = self.layout
        let rgb = Self.rgb(l: layout.lightnessDC, p: layout.pDC, q: layout.qDC)
        return (rgb.red, rgb.green, rgb.blue, layout.alphaDC)
    }

    private var layout: Layout {
        // `init` checked the bytes.
        Layout(bytes)!
    }

    // MARK: Encoding

    /// The hash of `image` (premultiplied RGBA, as decoded). An image larger
    /// than 100 pixels on a side is first scaled down to fit 100 × 100 by
    /// area averaging, as the algorithm expects; an empty image has the
    /// hash of one transparent pixel.
    public init(encoding image: PixelImage) {
        var source = image
        if source.width == 0 || source.height == 0 {
            source = PixelImage(width: 1, height: 1, filledWith: (0, 0, 0, 0))
        }
        let longest = max(source.width, source.height)
        if longest > 100 {
            let width = max(1, Int((Double(source.width) * 100 / Double(longest)).rounded()))
            let height = max(1, Int((Double(source.height) * 100 / Double(longest)).rounded()))
            source = AreaResampler.resample(source, crop: (0, 0, Double(source.width), Double(source.height)),
                                            width: width, height: height)
        }
        // An encoder's hash is at most 25 bytes: it always fits.
        storage = InlineBytes(Self.encode(source)) ?? InlineBytes([])!
    }

    /// The hash of the photo in `data` (any format `decoder` reads): the
    /// whole photo, upright, decoded straight to at most 100 × 100 pixels
    /// (a JPEG at a reduced DCT scale), as a server makes one for its
    /// manifest. Runs on the caller's thread: call it off the main thread.
    /// - Throws: what decoding the photo throws.
    public init(photo data: Data, decoder: some ImageDecoding = PlatformImageDecoder()) throws(ImageDecodingError) {
        let size = ThumbnailSize(uncheckedWidth: 100, height: 100, mode: .fit)
        self.init(encoding: try decoder.thumbnail(from: data, size: size).image)
    }

    private static func encode(_ image: PixelImage) -> [UInt8] {
        let width = image.width, height = image.height, count = width * height
        // The average colour, weighted by alpha (premultiplied values summed are exactly that).
        var average = (r: 0.0, g: 0.0, b: 0.0, a: 0.0)
        image.pixels.withUnsafeBufferPointer { pixels in
            for index in stride(from: 0, to: count * 4, by: 4) {
                average.r += Double(pixels[index]) / 255
                average.g += Double(pixels[index + 1]) / 255
                average.b += Double(pixels[index + 2]) / 255
                average.a += Double(pixels[index + 3]) / 255
            }
        }
        if average.a > 0 {
            average.r /= average.a
            average.g /= average.a
            average.b /= average.a
        }
        let hasAlpha = average.a < Double(count)
        let termLimit = hasAlpha ? 5.0 : 7.0
        let longest = Double(max(width, height))
        let lx = max(1, Int((termLimit * Double(width) / longest).rounded()))
        let ly = max(1, Int((termLimit * Double(height) / longest).rounded()))

        // Lightness and two colour differences of each pixel composited over the average colour.
        var l = [Double](repeating: 0, count: count), p = l, q = l, a = l
        image.pixels.withUnsafeBufferPointer { pixels in
            for pixel in 0..<count {
                let alpha = Double(pixels[pixel * 4 + 3]) / 255
                let r = average.r * (1 - alpha) + Double(pixels[pixel * 4]) / 255
                let g = average.g * (1 - alpha) + Double(pixels[pixel * 4 + 1]) / 255
                let b = average.b * (1 - alpha) + Double(pixels[pixel * 4 + 2]) / 255
                l[pixel] = (r + g + b) / 3
                p[pixel] = (r + g) / 2 - b
                q[pixel] = r - g
                a[pixel] = alpha
            }
        }
        let cosines = Cosines(width: width, height: height, columns: max(3, lx, hasAlpha ? 5 : 3),
                              rows: max(3, ly, hasAlpha ? 5 : 3))
        let lightness = cosines.transform(l, columns: max(3, lx), rows: max(3, ly))
        let pChannel = cosines.transform(p, columns: 3, rows: 3)
        let qChannel = cosines.transform(q, columns: 3, rows: 3)
        let alphaChannel = hasAlpha ? cosines.transform(a, columns: 5, rows: 5) : nil

        let isLandscape = width > height
        let header24 = Int((63 * lightness.dc).rounded()) | Int((31.5 + 31.5 * pChannel.dc).rounded()) << 6
            | Int((31.5 + 31.5 * qChannel.dc).rounded()) << 12 | Int((31 * lightness.scale).rounded()) << 18
            | (hasAlpha ? 1 << 23 : 0)
        let header16 = (isLandscape ? ly : lx) | Int((63 * pChannel.scale).rounded()) << 3
            | Int((63 * qChannel.scale).rounded()) << 9 | (isLandscape ? 1 << 15 : 0)
        var bytes: [UInt8] = [UInt8(header24 & 255), UInt8(header24 >> 8 & 255), UInt8(header24 >> 16 & 255),
                              UInt8(header16 & 255), UInt8(header16 >> 8 & 255)]
        if let alphaChannel {
            bytes.append(UInt8(Int((15 * alphaChannel.dc).rounded()) | Int((15 * alphaChannel.scale).rounded()) << 4))
        }
        // The AC terms as 4-bit nibbles, the low nibble of each byte first.
        var nibbles = 0
        for channel in [lightness, pChannel, qChannel] + (alphaChannel.map { [$0] } ?? []) {
            for term in channel.ac {
                let nibble = UInt8(min(max(Int((15 * term).rounded()), 0), 15))
                if nibbles & 1 == 0 { bytes.append(nibble) } else { bytes[bytes.count - 1] |= nibble << 4 }
                nibbles += 1
            }
        }
        return bytes
    }

    // MARK: Rendering

    /// The preview: premultiplied RGBA, `maximumSide` pixels on its longer
    /// side (32 by default, as the reference renders it; a larger side
    /// costs more but scales up more smoothly) and the hash's aspect ratio.
    public func render(maximumSide: Int = 32) -> PixelImage {
        let layout = self.layout
        let side = Double(min(max(maximumSide, 1), 256))
        let ratio = approximateAspectRatio
        let width = max(1, Int((ratio > 1 ? side : side * ratio).rounded()))
        let height = max(1, Int((ratio > 1 ? side / ratio : side).rounded()))

        var reader = NibbleReader(bytes: bytes, start: layout.acStart)
        let lTerms = reader.terms(columns: layout.lightnessColumns, rows: layout.lightnessRows, scale: layout.lightnessScale)
        // The colour terms are boosted by a quarter, as the reference decoder does, against quantisation's dulling.
        let pTerms = reader.terms(columns: 3, rows: 3, scale: layout.pScale * 1.25)
        let qTerms = reader.terms(columns: 3, rows: 3, scale: layout.qScale * 1.25)
        let aTerms = layout.hasAlpha ? reader.terms(columns: 5, rows: 5, scale: layout.alphaScale) : Terms()

        let columns = max(layout.lightnessColumns, layout.hasAlpha ? 5 : 3)
        let rows = max(layout.lightnessRows, layout.hasAlpha ? 5 : 3)
        let cosines = Cosines(width: width, height: height, columns: columns, rows: rows)
        let channels = layout.hasAlpha ? [lTerms, pTerms, qTerms, aTerms] : [lTerms, pTerms, qTerms]
        let dc = [layout.lightnessDC, layout.pDC, layout.qDC, layout.alphaDC]
        // Separably: each row first sums every channel's terms down its column of terms (cos at y), then
        // each pixel sums those along the row (cos at x): O(columns) a pixel and channel, not O(terms).
        var rowSums = [Double](repeating: 0, count: channels.count * columns)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        pixels.withUnsafeMutableBufferPointer { pixels in
            cosines.columnCosines.withUnsafeBufferPointer { columnCosines in
                rowSums.withUnsafeMutableBufferPointer { rowSums in
                    for y in 0..<height {
                        for (channel, terms) in channels.enumerated() {
                            for cx in 0..<columns {
                                var sum = 0.0
                                if cx < terms.columns {
                                    for cy in 0..<terms.rows {
                                        sum += terms.values[cy * terms.columns + cx] * cosines.rowCosines[cy * height + y]
                                    }
                                }
                                rowSums[channel * columns + cx] = sum * 2
                            }
                        }
                        let count = channels.count
                        for x in 0..<width {
                            // Four sums in registers, no array a pixel.
                            var l = dc[0], p = dc[1], q = dc[2], a = dc[3]
                            for cx in 0..<columns {
                                let cosine = columnCosines[cx * width + x]
                                l += rowSums[cx] * cosine
                                p += rowSums[columns + cx] * cosine
                                q += rowSums[2 * columns + cx] * cosine
                                if count == 4 { a += rowSums[3 * columns + cx] * cosine }
                            }
                            let alpha = layout.hasAlpha ? min(max(a, 0), 1) : 1
                            let rgb = Self.rgb(l: l, p: p, q: q)
                            let index = (y * width + x) * 4
                            pixels[index] = Self.byte(rgb.red * alpha)
                            pixels[index + 1] = Self.byte(rgb.green * alpha)
                            pixels[index + 2] = Self.byte(rgb.blue * alpha)
                            pixels[index + 3] = Self.byte(alpha)
                        }
                    }
                }
            }
        }
        return PixelImage(unchecked: width, height: height, pixels: pixels)
    }

    /// Red, green and blue (each clamped to 0…1) of lightness `l` and colour differences `p`, `q`.
    private static func rgb(l: Double, p: Double, q: Double) -> (red: Double, green: Double, blue: Double) {
        let b = l - 2.0 / 3 * p
        let r = (3 * l - b + q) / 2
        let g = r - q
        return (min(max(r, 0), 1), min(max(g, 0), 1), min(max(b, 0), 1))
    }

    /// `value` (0…1) as a byte, rounded half up (a truncation: no `round` call a channel).
    private static func byte(_ value: Double) -> UInt8 { UInt8(min(max(value * 255 + 0.5, 0), 255)) }
}

extension ThumbHash {
    /// Up to 32 bytes in four words and a count: hashable, no allocation.
    private struct InlineBytes: Sendable, Hashable {
        private var w0: UInt64 = 0, w1: UInt64 = 0, w2: UInt64 = 0, w3: UInt64 = 0
        private var count: UInt8 = 0

        init?(_ bytes: [UInt8]) {
            guard bytes.count <= 32 else { return nil }
            count = UInt8(bytes.count)
            for (index, byte) in bytes.enumerated() {
                let shifted = UInt64(byte) << UInt64(8 * (index % 8))
                switch index / 8 {
                case 0: w0 |= shifted
                case 1: w1 |= shifted
                case 2: w2 |= shifted
                default: w3 |= shifted
                }
            }
        }

        var array: [UInt8] {
            (0..<Int(count)).map { index in
                let word = [w0, w1, w2, w3][index / 8]
                return UInt8(truncatingIfNeeded: word >> UInt64(8 * (index % 8)))
            }
        }
    }

    /// What a hash's header says: its constants and how many terms follow.
    private struct Layout {
        var lightnessDC, pDC, qDC, lightnessScale, pScale, qScale, alphaDC, alphaScale: Double
        var hasAlpha: Bool
        /// The lightness terms' grid (at least 3 × 3).
        var lightnessColumns, lightnessRows: Int
        /// The shape the header states, for the aspect ratio.
        var shapeColumns, shapeRows: Int
        var acStart: Int

        init?(_ bytes: [UInt8]) {
            guard bytes.count >= 5 else { return nil }
            let header24 = Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16
            let header16 = Int(bytes[3]) | Int(bytes[4]) << 8
            hasAlpha = header24 >> 23 != 0
            guard !hasAlpha || bytes.count >= 6 else { return nil }
            lightnessDC = Double(header24 & 63) / 63
            pDC = Double(header24 >> 6 & 63) / 31.5 - 1
            qDC = Double(header24 >> 12 & 63) / 31.5 - 1
            lightnessScale = Double(header24 >> 18 & 31) / 31
            pScale = Double(header16 >> 3 & 63) / 63
            qScale = Double(header16 >> 9 & 63) / 63
            let isLandscape = header16 >> 15 != 0
            let longSide = hasAlpha ? 5 : 7
            let shortSide = header16 & 7
            // An encoder writes 1 up to the long side's count for the short side.
            guard shortSide >= 1, shortSide <= longSide else { return nil }
            shapeColumns = isLandscape ? longSide : shortSide
            shapeRows = isLandscape ? shortSide : longSide
            lightnessColumns = max(3, shapeColumns)
            lightnessRows = max(3, shapeRows)
            alphaDC = hasAlpha ? Double(bytes[5] & 15) / 15 : 1
            alphaScale = hasAlpha ? Double(bytes[5] >> 4) / 15 : 0
            acStart = hasAlpha ? 6 : 5
        }

        /// The bytes a hash with this header has: its header and every term's nibble.
        var byteCount: Int {
            let nibbles = Self.termCount(columns: lightnessColumns, rows: lightnessRows) + 2 * Self.termCount(columns: 3, rows: 3)
                + (hasAlpha ? Self.termCount(columns: 5, rows: 5) : 0)
            return acStart + (nibbles + 1) / 2
        }

        /// The AC terms of a `columns × rows` channel: those in the triangle
        /// `cx · rows < columns · (rows − cy)`, the DC term left out.
        static func termCount(columns: Int, rows: Int) -> Int {
            var count = 0
            for cy in 0..<rows {
                for cx in 0..<columns where cx * rows < columns * (rows - cy) && (cx > 0 || cy > 0) { count += 1 }
            }
            return count
        }
    }

    /// One channel's AC terms as a `rows × columns` grid (row-major), 0
    /// outside the triangle the hash keeps and for the DC term.
    struct Terms: Sendable {
        var columns = 0
        var rows = 0
        var values: [Double] = []
    }

    /// A channel transformed: its DC term, its AC terms mapped to 0…1 (½ is
    /// zero) and the scale that maps them back.
    private struct Channel {
        var dc = 0.0
        var ac: [Double] = []
        var scale = 0.0
    }

    /// The cosines of each term at each column and row of an image.
    private struct Cosines {
        let width, height: Int
        /// `columnCosines[cx * width + x]` = cos(π · cx · (x + ½) / width).
        let columnCosines: [Double]
        let rowCosines: [Double]

        init(width: Int, height: Int, columns: Int, rows: Int) {
            self.width = width
            self.height = height
            columnCosines = Self.table(count: width, terms: columns)
            rowCosines = Self.table(count: height, terms: rows)
        }

        /// `table[k · count + i]` = cos(π · k · (i + ½) / count), by the
        /// recurrence cos(kθ) = 2 cos θ · cos((k − 1)θ) − cos((k − 2)θ): one
        /// `cos` per position instead of one per term.
        private static func table(count: Int, terms: Int) -> [Double] {
            var table = [Double](repeating: 1, count: count * terms)
            for i in 0..<count {
                let first = cos(Double.pi / Double(count) * (Double(i) + 0.5))
                if terms > 1 { table[count + i] = first }
                var k = 2
                while k < terms {
                    table[k * count + i] = 2 * first * table[(k - 1) * count + i] - table[(k - 2) * count + i]
                    k += 1
                }
            }
            return table
        }

        /// The channel's cosine transform over `columns × rows` terms (the
        /// triangle the hash keeps), one row sum per term column first.
        func transform(_ channel: [Double], columns: Int, rows: Int) -> Channel {
            var rowSums = [Double](repeating: 0, count: height * columns)
            for y in 0..<height {
                for cx in 0..<columns {
                    var sum = 0.0
                    for x in 0..<width { sum += channel[y * width + x] * columnCosines[cx * width + x] }
                    rowSums[y * columns + cx] = sum
                }
            }
            var result = Channel()
            let pixels = Double(width * height)
            for cy in 0..<rows {
                for cx in 0..<columns where cx * rows < columns * (rows - cy) {
                    var sum = 0.0
                    for y in 0..<height { sum += rowSums[y * columns + cx] * rowCosines[cy * height + y] }
                    let term = sum / pixels
                    if cx == 0 && cy == 0 {
                        result.dc = term
                    } else {
                        result.ac.append(term)
                        result.scale = max(result.scale, abs(term))
                    }
                }
            }
            if result.scale > 0 { result.ac = result.ac.map { 0.5 + 0.5 / result.scale * $0 } }
            return result
        }
    }

    /// Reads the AC nibbles in order, the low nibble of each byte first.
    private struct NibbleReader {
        let bytes: [UInt8]
        let start: Int
        var index = 0

        mutating func terms(columns: Int, rows: Int, scale: Double) -> Terms {
            var terms = Terms(columns: columns, rows: rows, values: [Double](repeating: 0, count: columns * rows))
            for cy in 0..<rows {
                for cx in (cy > 0 ? 0 : 1)..<columns where cx * rows < columns * (rows - cy) {
                    let byte = bytes[start + index >> 1]
                    let nibble = index & 1 == 0 ? byte & 15 : byte >> 4
                    index += 1
                    terms.values[cy * columns + cx] = (Double(nibble) / 7.5 - 1) * scale
                }
            }
            return terms
        }
    }
}
