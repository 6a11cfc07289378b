import Foundation
import Testing
@testable import ParallaxImages

/// ``CaptureDateReader`` on files made by exiftool, cwebp, heif-enc and
/// avifenc, and on hand-built EXIF structures.
@Suite("Capture dates from metadata")
struct CaptureDateReaderTests {
    typealias F = MetadataFixtures
    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Date {
        CaptureDateTests.utc(year, month, day, hour, minute, second)
    }

    /// The date `reader` reaches when every range it asks for is cut from
    /// `file`, with how many ranges it asked for.
    static func readInPieces(_ file: Data, format: ImageFormat, firstBytes: Int = 64 << 10) -> (date: CaptureDate?, reads: Int) {
        var reader = CaptureDateReader(format: format, firstBytes: file.prefix(firstBytes), fileLength: file.count)
        for reads in 0...CaptureDateReader.maximumReads {
            switch reader.read() {
            case .found(let date): return (date, reads)
            case .notFound: return (nil, reads)
            case .needsBytes(let range):
                let start = min(range.lowerBound, file.count), end = min(range.upperBound, file.count)
                reader.add(file.subdata(in: start..<end), at: range.lowerBound)
            }
        }
        Issue.record("the reader kept asking")
        return (nil, CaptureDateReader.maximumReads)
    }

    @Test func eachFormatsEXIFDateWithItsOffsetAndFraction() throws {
        let taken = Self.utc(2024, 6, 15, 12, 30, 5).addingTimeInterval(0.25)
        for (file, format) in [(F.datedJPEG, ImageFormat.jpeg), (F.datedWebP, .webp), (F.datedHEIC, .heif), (F.datedAVIF, .avif)] {
            let date = try #require(CaptureDateReader.read(fromWholeFile: file, format: format), "\(format)")
            #expect(date == CaptureDate(date: taken, hasUTCOffset: true, source: .exifOriginal), "\(format)")
        }
        let png = try #require(CaptureDateReader.read(fromWholeFile: F.exifPNG, format: .png))   // big-endian eXIf
        #expect(png == CaptureDate(date: Self.utc(2021, 3, 4, 10, 6, 7), hasUTCOffset: true, source: .exifOriginal))
    }

    @Test func fallbacksInOrderOfTrust() throws {
        #expect(CaptureDateReader.read(fromWholeFile: F.digitizedJPEG, format: .jpeg)
                == CaptureDate(date: Self.utc(2003, 2, 1, 10, 11, 12), hasUTCOffset: false, source: .exifDigitized))
        #expect(CaptureDateReader.read(fromWholeFile: F.modifiedJPEG, format: .jpeg)
                == CaptureDate(date: Self.utc(2010, 10, 10, 13, 40, 10), hasUTCOffset: true, source: .exifModified))
        #expect(CaptureDateReader.read(fromWholeFile: F.timePNG, format: .png)
                == CaptureDate(date: Self.utc(2019, 1, 2, 3, 4, 5), hasUTCOffset: true, source: .pngModified))
        // Zeros and blanks mean unknown.
        #expect(CaptureDateReader.read(fromWholeFile: F.unknownJPEG, format: .jpeg) == nil)
        #expect(CaptureDateReader.read(fromWholeFile: F.losslessWebP, format: .webp) == nil)
    }

    @Test func xmpDatesInEveryFormat() throws {
        let created = CaptureDate(date: Self.utc(2018, 5, 6, 7, 8, 9), hasUTCOffset: true, source: .xmpOriginal)
        for (file, format) in [(F.xmpJPEG, ImageFormat.jpeg), (F.xmpWebP, .webp), (F.xmpHEIC, .heif)] {
            #expect(CaptureDateReader.read(fromWholeFile: file, format: format) == created, "\(format)")
        }
        #expect(CaptureDateReader.read(fromWholeFile: F.xmpPNG, format: .png)
                == CaptureDate(date: Self.utc(2020, 2, 29, 17, 40), hasUTCOffset: true, source: .xmpOriginal))
    }

    @Test func xmpAttributeAndElementForms() throws {
        func date(_ xmp: String) -> CaptureDate? {
            Data(xmp.utf8).withUnsafeBytes { XMPDates.best(in: ByteView($0.bindMemory(to: UInt8.self))) }
        }
        #expect(date(#"<rdf:Description xmp:CreateDate="2001-01-01T00:00:00Z" exif:DateTimeOriginal='2000-01-01T00:00:00Z'/>"#)
                == CaptureDate(date: Self.utc(2000, 1, 1), hasUTCOffset: true, source: .xmpOriginal))
        #expect(date("<xmp:CreateDate>2001-01-01T10:00:00</xmp:CreateDate>")
                == CaptureDate(date: Self.utc(2001, 1, 1, 10), hasUTCOffset: false, source: .xmpCreated))
        #expect(date(#"<x subexif:DateTimeOriginal="2000-01-01T00:00:00Z"/>"#) == nil)
        #expect(date(#"exif:DateTimeOriginal="not a date" xap:CreateDate="1999-09-09""#)?.source == .xmpCreated)
        #expect(date("exif:DateTimeOriginal") == nil)
        #expect(date("") == nil)
    }

    @Test func heifExifDataAfterTheFirstBytesIsAskedForByItsRange() throws {
        let file = F.datedHEIC
        // The first bytes end after the meta box: the Exif item, in mdat, is asked for exactly.
        let metaEnd = 28 + 0x1E1
        let first = CaptureDateReader.read(from: file.prefix(metaEnd), format: .heif)
        guard case .needsBytes(let range) = first else { Issue.record("\(first)"); return }
        #expect(range.lowerBound >= metaEnd && range.upperBound <= file.count)
        var reader = CaptureDateReader(format: .heif, firstBytes: file.prefix(metaEnd))
        reader.add(file.subdata(in: range), at: range.lowerBound)
        let second = reader.read()
        guard case .found(let date) = second else { Issue.record("\(second)"); return }
        #expect(date.source == .exifOriginal)
        // Fewer bytes than the meta box: the meta box (or the way to it) first, then the Exif item.
        for length in [0, 16, 40, metaEnd - 1] {
            let (found, reads) = Self.readInPieces(file, format: .heif, firstBytes: length)
            #expect(found?.source == .exifOriginal && reads <= 3, "\(length): \(reads)")
        }
    }

    @Test func webpMetadataAfterLargeImageDataTakesAReadOrTwo() throws {
        // A 300 KB VP8 chunk, then EXIF: the first 64 KB end in the image data.
        var bytes = [UInt8](F.datedWebP)
        let vp8 = 30
        let size = Int(bytes[vp8 + 4]) | Int(bytes[vp8 + 5]) << 8
        let padding = [UInt8](repeating: 0, count: 300_000)
        bytes.insert(contentsOf: padding, at: vp8 + 8 + size)
        let newSize = size + padding.count
        bytes.replaceSubrange((vp8 + 4)..<(vp8 + 8), with: WebPHeaderTests.le32(newSize))
        bytes.replaceSubrange(4..<8, with: WebPHeaderTests.le32(bytes.count - 8))
        let (date, reads) = Self.readInPieces(Data(bytes), format: .webp)
        #expect(date?.source == .exifOriginal)
        #expect(reads == 1, "one read of the chunk after the image data holds the small EXIF chunk")
    }

    @Test func aShortFileNeverAsksForMore() {
        var webp = CaptureDateReader(format: .webp, firstBytes: F.losslessWebP, fileLength: F.losslessWebP.count)
        #expect(webp.read() == .notFound)
        var png = CaptureDateReader(format: .png, firstBytes: F.timePNG.prefix(40), fileLength: 40)
        #expect(png.read() == .notFound)
        // A range that comes back short marks the end of the file: the reader asks no more.
        var cut = CaptureDateReader(format: .png, firstBytes: F.timePNG.prefix(33))
        guard case .needsBytes(let range) = cut.read() else { Issue.record("expected a request"); return }
        cut.add(F.timePNG.subdata(in: 33..<40), at: range.lowerBound)
        #expect(cut.read() == .notFound)
    }

    // MARK: Hand-built EXIF

    /// A TIFF structure: IFD0 with `ifd0` entries, pointing (0x8769) to an
    /// Exif IFD with `exif` entries; ASCII values stored after the IFDs.
    static func tiff(littleEndian: Bool, ifd0: [(Int, String)], exif: [(Int, String)], exifPointer: Int? = nil, nextIFD: Int = 0) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] : [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { littleEndian ? u16(v & 0xFFFF) + u16(v >> 16) : u16(v >> 16) + u16(v & 0xFFFF) }
        let ifd0Size = 2 + 12 * (ifd0.count + 1) + 4, exifSize = 2 + 12 * exif.count + 4
        let exifOffset = 8 + ifd0Size
        var values: [UInt8] = []
        var valueOffset = exifOffset + exifSize
        func entries(_ list: [(Int, String)]) -> [UInt8] {
            list.flatMap { tag, text -> [UInt8] in
                let bytes = Array(text.utf8) + [0]
                defer { if bytes.count > 4 { values += bytes; valueOffset += bytes.count } }
                let value = bytes.count > 4 ? u32(valueOffset) : bytes + [UInt8](repeating: 0, count: 4 - bytes.count)
                return u16(tag) + u16(2) + u32(bytes.count) + value
            }
        }
        var out = (littleEndian ? Array("II".utf8) : Array("MM".utf8)) + u16(42) + u32(8)
        out += u16(ifd0.count + 1) + entries(ifd0) + u16(0x8769) + u16(4) + u32(1) + u32(exifPointer ?? exifOffset) + u32(nextIFD)
        out += u16(exif.count) + entries(exif) + u32(0)
        return out + values
    }

    static func jpeg(app1 tiff: [UInt8]) -> Data {
        let payload = Array("Exif\0\0".utf8) + tiff
        let length = payload.count + 2
        return Data([0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + [0xFF, 0xDA, 0, 2, 0xFF, 0xD9])
    }

    @Test func bothByteOrdersAndEveryFallback() {
        for little in [true, false] {
            let full = Self.tiff(littleEndian: little, ifd0: [(0x0132, "2020:01:01 00:00:03")],
                                 exif: [(0x9003, "2020:01:01 00:00:01"), (0x9004, "2020:01:01 00:00:02"), (0x9011, "Z"), (0x9291, "5")])
            #expect(CaptureDateReader.read(fromWholeFile: Self.jpeg(app1: full), format: .jpeg)
                    == CaptureDate(date: Self.utc(2020, 1, 1, 0, 0, 1).addingTimeInterval(0.5), hasUTCOffset: true, source: .exifOriginal))
            let digitized = Self.tiff(littleEndian: little, ifd0: [(0x0132, "2020:01:01 00:00:03")],
                                      exif: [(0x9003, "0000:00:00 00:00:00"), (0x9004, "2020:01:01 00:00:02"), (0x9012, "+01:00")])
            #expect(CaptureDateReader.read(fromWholeFile: Self.jpeg(app1: digitized), format: .jpeg)
                    == CaptureDate(date: Self.utc(2019, 12, 31, 23, 0, 2), hasUTCOffset: true, source: .exifDigitized))
        }
    }

    @Test func loopsAndWildOffsetsEndQuietly() {
        // The Exif IFD pointer pointing back at IFD0, or past the end, or at itself.
        for pointer in [8, 1 << 30, 4, 0] {
            let looped = Self.tiff(littleEndian: true, ifd0: [(0x0132, "2020:01:01 00:00:03")], exif: [], exifPointer: pointer)
            #expect(CaptureDateReader.read(fromWholeFile: Self.jpeg(app1: looped), format: .jpeg)?.source == .exifModified, "\(pointer)")
        }
        // A value offset past the end of the segment.
        var wild = Self.tiff(littleEndian: true, ifd0: [], exif: [(0x9003, "2020:01:01 00:00:01")])
        wild.replaceSubrange((wild.count - 20 - 4 - 8)..<(wild.count - 20 - 4 - 4), with: [0xFF, 0xFF, 0xFF, 0x7F])
        #expect(CaptureDateReader.read(fromWholeFile: Self.jpeg(app1: wild), format: .jpeg) == nil)
    }
}
