#if canImport(CParallaxCodecs)
import CParallaxCodecs
import Foundation
import ParallaxCore
import Testing
@testable import ParallaxImages

/// The PNG path that inflates (ISA-L) and unfilters rows here, a block of
/// rows at a time, against libpng's rows of the same files: the same
/// pixels, byte for byte, for every filter type and chunk layout; every
/// flawed or other file left to libpng before a row is handed over, and a
/// flaw found after that given libpng's status.
@Suite("PNG, rows unfiltered here")
struct PNGRowsTests {
    /// This path alone, libpng's alone, and `pk_png_decode_rows`, which
    /// chooses between them.
    enum Path { case streamed, libpng, chosen }

    /// The rows `path` hands over for `data`, or its status.
    static func decode(_ data: [UInt8], width: Int, height: Int, by path: Path,
                       maxMemory: Int = 1 << 30) -> (status: pk_status, rows: CollectedRows) {
        let rows = CollectedRows(width: width, height: height)
        var message = [CChar](repeating: 0, count: 200)
        let context = rows.context
        let status = data.withUnsafeBufferPointer { bytes in
            switch path {
            case .streamed: pk_png_streamed_rows(bytes.baseAddress, bytes.count, maxMemory, CollectedRows.sink, context, nil)
            case .libpng: pk_png_stream_rows(bytes.baseAddress, bytes.count, maxMemory, CollectedRows.sink, context, nil, &message, message.count)
            case .chosen: pk_png_decode_rows(bytes.baseAddress, bytes.count, maxMemory, CollectedRows.sink, context, nil, &message, message.count)
            }
        }
        return (status, rows)
    }

    // MARK: A PNG writer with chosen filters

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        return bigEndian(UInt32(body.count)) + typed + bigEndian(TestImages.crc32(typed))
    }

    /// The PNG filters' predictors (specification, 9.2), the oracle the
    /// writer filters rows with.
    static func predictor(_ filter: Int, a: Int, b: Int, c: Int) -> Int {
        switch filter {
        case 1: return a
        case 2: return b
        case 3: return (a + b) / 2
        case 4:
            let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
            return pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
        default: return 0
        }
    }

    /// `pixels` (`channels` bytes each, straight) filtered row by row with
    /// `filters`, in a zlib stream of stored blocks of at most `blockSize`
    /// bytes, split into IDATs of at most `idatSize` bytes, with `before`
    /// (chunks) between IHDR and the first IDAT.
    /// `damage`, when given, changes the zlib stream before it is cut into IDATs.
    static func png(width: Int, height: Int, channels: Int, pixels: [UInt8], filters: [Int], blockSize: Int = 65_535,
                    idatSize: Int = 1 << 30, before: [[UInt8]] = [], claimedHeight: Int? = nil,
                    damage: ((inout [UInt8]) -> Void)? = nil) -> [UInt8] {
        var raw: [UInt8] = []
        let stride = width * channels
        for y in 0..<height {
            raw.append(UInt8(filters[y]))
            for i in 0..<stride {
                let a = i >= channels ? Int(pixels[y * stride + i - channels]) : 0
                let b = y > 0 ? Int(pixels[(y - 1) * stride + i]) : 0
                let c = y > 0 && i >= channels ? Int(pixels[(y - 1) * stride + i - channels]) : 0
                raw.append(UInt8(truncatingIfNeeded: Int(pixels[y * stride + i]) - predictor(filters[y], a: a, b: b, c: c)))
            }
        }
        // zlib: header, stored blocks, Adler-32.
        var zlib: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let count = min(blockSize, raw.count - start)
            let isLast = start + count == raw.count
            zlib += [isLast ? 1 : 0, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8(~count >> 8 & 0xFF)]
            zlib += raw[start..<start + count]
            start += count
        } while start < raw.count
        var s1: UInt32 = 1, s2: UInt32 = 0
        for byte in raw { s1 = (s1 + UInt32(byte)) % 65_521; s2 = (s2 + s1) % 65_521 }
        zlib += bigEndian(s2 << 16 | s1)
        damage?(&zlib)

        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        file += chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(claimedHeight ?? height)) + [8, channels == 4 ? 6 : 2, 0, 0, 0])
        for extra in before { file += extra }
        var offset = 0
        while offset < zlib.count {
            let count = min(idatSize, zlib.count - offset)
            file += chunk("IDAT", Array(zlib[offset..<offset + count]))
            offset += count
        }
        return file + chunk("IEND", [])
    }

    // MARK: Tests

    /// Random images, RGB and RGBA (premultiplied as libpng's path does),
    /// every filter type on random rows, zlib blocks and IDATs cut anywhere,
    /// ancillary chunks before the data: the same rows from both paths.
    @Test func everyFilterAndLayoutGivesLibpngsPixels() throws {
        var random = SplitMix64(seed: 2_026)
        for round in 0..<150 {
            let width = Int.random(in: 1...41, using: &random), height = Int.random(in: 1...13, using: &random)
            let channels = Bool.random(using: &random) ? 4 : 3
            let pixels = (0..<width * height * channels).map { _ in UInt8.random(in: 0...255, using: &random) }
            let filters = (0..<height).map { _ in Int.random(in: 0...4, using: &random) }
            let before = round % 3 == 0 ? [Self.chunk("tEXt", Array("Comment\u{0}round \(round)".utf8)), Self.chunk("gAMA", Self.bigEndian(45_455))] : []
            let file = Self.png(width: width, height: height, channels: channels, pixels: pixels, filters: filters,
                           blockSize: Int.random(in: 1...300, using: &random), idatSize: Int.random(in: 1...200, using: &random),
                           before: before)
            let streamed = Self.decode(file, width: width, height: height, by: .streamed)
            let libpng = Self.decode(file, width: width, height: height, by: .libpng)
            #expect(streamed.status == PK_OK && libpng.status == PK_OK, "round \(round)")
            #expect(Self.firstDifference(streamed.rows.pixels, libpng.rows.pixels) == nil, "round \(round): \(width)×\(height), \(channels) channels")
            #expect(streamed.rows.handedOver == height)
        }
    }

    /// Photos' rows are nearly all Paeth, decoded two rows at a time: runs
    /// of Paeth rows of every parity, broken by other filters, one to a few
    /// pixels wide, against the pixels the file was made from and against
    /// libpng.
    @Test func paethRowPairsGiveTheImagesPixels() throws {
        var random = SplitMix64(seed: 4_004)
        for round in 0..<120 {
            let width = Int.random(in: 1...23, using: &random), height = Int.random(in: 1...9, using: &random)
            let channels = Bool.random(using: &random) ? 4 : 3
            // Opaque, so that the premultiplied RGBA rows are the pixels themselves.
            let pixels = (0..<width * height * channels).map { index in
                channels == 4 && index % 4 == 3 ? 255 : UInt8.random(in: 0...255, using: &random)
            }
            let filters = (0..<height).map { _ in Int.random(in: 0..<5, using: &random) == 0 ? Int.random(in: 0...3, using: &random) : 4 }
            let file = Self.png(width: width, height: height, channels: channels, pixels: pixels, filters: filters,
                                idatSize: Int.random(in: 1...64, using: &random))
            let expected = (0..<width * height).flatMap { pixel in
                (0..<4).map { channel in channel < channels ? pixels[pixel * channels + channel] : 255 }
            }
            for path in [Path.streamed, .libpng] {
                let decoded = Self.decode(file, width: width, height: height, by: path)
                #expect(decoded.status == PK_OK, "\(path), round \(round)")
                #expect(decoded.rows.handedOver == height, "\(path), round \(round)")
                #expect(Self.firstDifference(decoded.rows.pixels, expected) == nil,
                        "\(path), round \(round): \(width)×\(height), \(channels) channels, filters \(filters)")
            }
        }
    }

    /// The row-by-row path sums the stream's Adler-32 itself (zlib is told
    /// not to): a right one passes, and a wrong one read with the last row
    /// is a corrupt stream, as zlib and libpng find it. A trailer in an IDAT
    /// of its own is read by neither, nor here.
    @Test func theStreamsAdler32IsChecked() {
        let width = 7, height = 5
        var random = SplitMix64(seed: 32)
        let pixels = (0..<width * height * 3).map { _ in UInt8.random(in: 0...255, using: &random) }
        let filters = [4, 4, 1, 4, 2]
        // One IDAT; two, the second with the last row's last 2 bytes and the trailer; 2-byte IDATs.
        let streamBytes = 2 + 5 + height * (1 + width * 3) + 4              // header, one stored block, trailer
        for (idatSize, isRead) in [(1 << 30, true), (streamBytes - 6, true), (2, false)] {
            let intact = Self.png(width: width, height: height, channels: 3, pixels: pixels, filters: filters, idatSize: idatSize)
            #expect(Self.decode(intact, width: width, height: height, by: .streamed).status == PK_OK, "IDATs of \(idatSize)")
            for damagedByte in 1...4 {
                let wrong = Self.png(width: width, height: height, channels: 3, pixels: pixels, filters: filters,
                                     idatSize: idatSize) { $0[$0.count - damagedByte] ^= 0x10 }
                let streamed = Self.decode(wrong, width: width, height: height, by: .streamed)
                let libpng = Self.decode(wrong, width: width, height: height, by: .libpng)
                #expect(streamed.status == (isRead ? PK_ERROR_CORRUPT : PK_OK), "IDATs of \(idatSize), trailer byte \(damagedByte)")
                #expect(streamed.status == libpng.status, "IDATs of \(idatSize): libpng gives \(libpng.status)")
                #expect(streamed.rows.handedOver == (isRead ? height - 1 : height), "every row before the check's")
            }
        }
    }

    /// PNGs libpng itself wrote (its adaptive filters, real compression).
    @Test func libpngsOwnFilesGiveTheSamePixels() throws {
        var random = SplitMix64(seed: 7)
        for _ in 0..<20 {
            let width = Int.random(in: 1...300, using: &random), height = Int.random(in: 1...200, using: &random)
            // Smooth gradients with noise, as photos are: every filter gets chosen somewhere.
            let rgba = (0..<width * height).flatMap { index -> [UInt8] in
                let x = index % width, y = index / width
                return [UInt8((x * 255) / max(width, 1)), UInt8((y * 255) / max(height, 1)),
                        UInt8.random(in: 0...40, using: &random), UInt8.random(in: 200...255, using: &random)]
            }
            let file = [UInt8](TestImages.png(width: width, height: height, rgba: rgba))
            let streamed = Self.decode(file, width: width, height: height, by: .streamed)
            let libpng = Self.decode(file, width: width, height: height, by: .libpng)
            #expect(streamed.status == PK_OK && libpng.status == PK_OK)
            #expect(Self.firstDifference(streamed.rows.pixels, libpng.rows.pixels) == nil, "streamed, \(width)×\(height)")
        }
    }

    /// The real photos' PNGs: the same pixels.
    @Test func realPNGPhotosGiveTheSamePixels() throws {
        guard let photos = RealPhotos.manifest(), !photos.isEmpty else {
            Issue.record("no photos in \(RealPhotos.directory.path): run scripts/fetch-photos.sh (make test does)")
            return
        }
        let pngs = photos.filter { $0.format == "png" }.sorted { $0.width * $0.height < $1.width * $1.height }.prefix(2)
        #expect(!pngs.isEmpty)
        for photo in pngs {
            let file = [UInt8](try Data(contentsOf: RealPhotos.directory.appendingPathComponent(photo.file)))
            let streamed = Self.decode(file, width: photo.width, height: photo.height, by: .streamed)
            let libpng = Self.decode(file, width: photo.width, height: photo.height, by: .libpng)
            #expect(streamed.status == PK_OK && libpng.status == PK_OK, "\(photo.file)")
            #expect(Self.firstDifference(streamed.rows.pixels, libpng.rows.pixels) == nil, "streamed, \(photo.file)")
        }
    }

    /// Whatever is wrong with a file, or not for this path, it is left to
    /// libpng before any row is handed over; `pk_png_decode_rows` then gives
    /// libpng's answer.
    @Test func flawedAndOtherFilesAreLeftToLibpngBeforeAnyRow() {
        let width = 9, height = 5
        var random = SplitMix64(seed: 11)
        let pixels = (0..<width * height * 3).map { _ in UInt8.random(in: 0...255, using: &random) }
        let good = Self.png(width: width, height: height, channels: 3, pixels: pixels, filters: [0, 1, 2, 3, 4], idatSize: 40)
        var badFilter = Self.png(width: width, height: height, channels: 3, pixels: pixels, filters: [0, 1, 2, 3, 4])
        guard let idat = Self.firstIndex(of: "IDAT", in: good), let crcStart = Self.firstIndex(of: "IDAT", in: badFilter) else {
            Issue.record("the writer wrote no IDAT")
            return
        }
        var cases: [(String, [UInt8])] = []
        var badCRC = good; badCRC[idat + 8] ^= 0x01
        cases.append(("a damaged IDAT (its CRC no longer matches)", badCRC))
        // The first row's filter byte: after the chunk's type, the zlib header and the stored block's header.
        badFilter[crcStart + 4 + 2 + 5] = 5
        let length = Int(UInt32(badFilter[crcStart - 4]) << 24 | UInt32(badFilter[crcStart - 3]) << 16
                         | UInt32(badFilter[crcStart - 2]) << 8 | UInt32(badFilter[crcStart - 1]))
        let crc = Self.bigEndian(TestImages.crc32(badFilter[crcStart..<crcStart + 4 + length]))
        badFilter.replaceSubrange(crcStart + 4 + length..<crcStart + 8 + length, with: crc)
        cases.append(("a row with filter type 5", badFilter))
        cases.append(("a file cut inside its image data", Array(good[..<(idat + 20)])))
        cases.append(("a tRNS chunk", Self.png(width: width, height: height, channels: 3, pixels: pixels, filters: [0, 0, 0, 0, 0],
                                          before: [Self.chunk("tRNS", [0, 1, 0, 2, 0, 3])])))
        cases.append(("a PLTE chunk", Self.png(width: width, height: height, channels: 3, pixels: pixels, filters: [0, 0, 0, 0, 0],
                                          before: [Self.chunk("PLTE", [1, 2, 3])])))
        cases.append(("a zlib header that is not one (window of 64 KB)",
                      Self.png(width: width, height: height, channels: 3, pixels: pixels, filters: [0, 0, 0, 0, 0]) {
                          $0[0] = 0x88; $0[1] = 0x1C                       // CINFO 8, with a matching check
                      }))
        for (name, file) in cases {
            let streamed = Self.decode(file, width: width, height: height, by: .streamed)
            #expect(streamed.status == PK_ERROR_UNSUPPORTED, "\(name)")
            #expect(streamed.rows.handedOver == 0, "\(name)")
            let chosen = Self.decode(file, width: width, height: height, by: .chosen)
            let libpng = Self.decode(file, width: width, height: height, by: .libpng)
            #expect(chosen.status == libpng.status, "\(name): \(chosen.status) against libpng's \(libpng.status)")
            #expect(chosen.rows.handedOver == libpng.rows.handedOver, "\(name)")
        }
    }

    /// Flaws the rows show only as they come, after the first: the
    /// row-by-row path stops with the status libpng gives the same file,
    /// having handed over the rows before the flaw; a stream with more data
    /// than the image decodes, as libpng decodes it.
    @Test func flawsAfterTheFirstRowGetLibpngsStatus() {
        // Narrow rows, all in the first block inflated; rows of 9,001 bytes, seven to a block, the flaw in
        // the middle of the second and at its start.
        for (width, height, flawed) in [(9, 6, 3), (3_000, 20, 10), (3_000, 20, 7)] {
            flawsAfterTheFirstRowGetLibpngsStatus(width: width, height: height, flawedRow: flawed)
        }
    }

    func flawsAfterTheFirstRowGetLibpngsStatus(width: Int, height: Int, flawedRow: Int) {
        let stride = width * 3
        var random = SplitMix64(seed: 13)
        let pixels = (0..<width * height * 3).map { _ in UInt8.random(in: 0...255, using: &random) }
        let filters = (0..<height).map { [0, 1, 2, 3, 4, 4][$0 % 6] }
        // One row a stored block: block k's header at 2 + k × (5 + row bytes), its row's filter byte after it.
        let block = stride + 1, header = 2 + flawedRow * (5 + block)
        let cases: [(String, [UInt8], pk_status)] = [
            ("row \(flawedRow) with filter type 5",
             Self.png(width: width, height: height, channels: 3, pixels: pixels, filters: filters, blockSize: block, idatSize: 25) {
                 $0[header + 5] = 5
             }, PK_ERROR_CORRUPT),
            ("block \(flawedRow)'s length and its complement disagree",
             Self.png(width: width, height: height, channels: 3, pixels: pixels, filters: filters, blockSize: block, idatSize: 25) {
                 $0[header + 3] ^= 0xFF
             }, PK_ERROR_CORRUPT),
            ("too little image data",
             Self.png(width: width, height: height - 2, channels: 3, pixels: pixels, filters: filters, blockSize: block,
                      claimedHeight: height), PK_ERROR_TRUNCATED),
            ("too much image data",
             Self.png(width: width, height: height, channels: 3, pixels: pixels, filters: filters, blockSize: block,
                      claimedHeight: height - 2), PK_OK),
        ]
        for (name, file, expected) in cases {
            let streamed = Self.decode(file, width: width, height: height, by: .streamed)
            let libpng = Self.decode(file, width: width, height: height, by: .libpng)
            #expect(libpng.status == expected, "libpng: \(name)")
            #expect(streamed.status == libpng.status, "\(name): \(streamed.status) against libpng's \(libpng.status)")
            #expect(streamed.rows.handedOver > 0, "\(name)")
            #expect(streamed.rows.handedOver == libpng.rows.handedOver, "\(name), \(width) wide")
            #expect(Self.firstDifference(Array(streamed.rows.pixels.prefix(streamed.rows.handedOver * width * 4)),
                                         Array(libpng.rows.pixels.prefix(streamed.rows.handedOver * width * 4))) == nil, "\(name)")
        }
        // A file cut inside a later IDAT (every IDAT before it whole): the rows run out.
        let whole = Self.png(width: width, height: height, channels: 3, pixels: pixels, filters: filters, blockSize: block, idatSize: 40)
        let cut = Array(whole[..<(whole.count / 2 + 5)])
        let streamed = Self.decode(cut, width: width, height: height, by: .streamed)
        let libpng = Self.decode(cut, width: width, height: height, by: .libpng)
        #expect(libpng.status == PK_ERROR_TRUNCATED && streamed.status == PK_ERROR_TRUNCATED)
        #expect(streamed.rows.handedOver > 0)
        // Within the memory given only.
        let needed = whole.withUnsafeBufferPointer { pk_png_streamed_bytes($0.baseAddress, $0.count) }
        #expect(needed >= 2 * (stride + 1) + width * 4)
        #expect(Self.decode(whole, width: width, height: height, by: .streamed, maxMemory: needed - 1).status == PK_ERROR_UNSUPPORTED)
        #expect(Self.decode(whole, width: width, height: height, by: .streamed, maxMemory: needed).status == PK_OK)
    }

    /// Where two decodes' bytes first differ (or their lengths, if one is a
    /// prefix of the other), `nil` when they are the same: what a failed
    /// comparison reports, instead of two arrays of millions of bytes, whose
    /// printing alone would outlast the test run.
    static func firstDifference(_ one: [UInt8], _ other: [UInt8]) -> String? {
        if let index = (0..<min(one.count, other.count)).first(where: { one[$0] != other[$0] }) {
            return "byte \(index) (pixel \(index / 4)): \(one[index]) against \(other[index])"
        }
        return one.count == other.count ? nil : "\(one.count) bytes against \(other.count)"
    }

    static func firstIndex(of type: String, in file: [UInt8]) -> Int? {
        let pattern = Array(type.utf8)
        guard file.count >= 4 else { return nil }
        return (8...(file.count - 4)).first { Array(file[$0..<$0 + 4]) == pattern }
    }
}
#endif
