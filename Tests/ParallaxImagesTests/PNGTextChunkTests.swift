import Foundation
import Testing
@testable import ParallaxImages

/// PNG metadata kept in text chunks (compressed or not) and after the
/// image data, and the inflater that reads the compressed ones.
@Suite("PNG metadata in text chunks and after the image data")
struct PNGTextChunkTests {
    typealias F = MetadataFixtures

    static func inflate(_ data: Data, limit: Int = 1 << 20) -> [UInt8]? {
        data.withUnsafeBytes { Inflater.inflate(zlib: $0.bindMemory(to: UInt8.self), limit: limit) }
    }

    @Test func theInflaterReadsStoredFixedAndDynamicBlocksAsZlibWroteThem() throws {
        let plain = [UInt8](F.plainText)
        for stream in [F.storedZlib, F.fixedZlib, F.dynamicZlib] {
            #expect(Self.inflate(stream) == plain)
            #expect(Self.inflate(stream, limit: 100) == Array(plain.prefix(100)), "output stops at the limit")
        }
        // Cut short, or with its header or a code damaged: nil, not a trap.
        #expect(Self.inflate(F.dynamicZlib.prefix(F.dynamicZlib.count / 2)) == nil)
        #expect(Self.inflate(Data([0x78, 0x9C])) == nil)
        #expect(Self.inflate(Data([0x79, 0x9C, 0x03, 0x00])) == nil)
        var damaged = [UInt8](F.dynamicZlib)
        damaged[3] ^= 0xFF
        _ = Self.inflate(Data(damaged))
        #expect(Self.inflate(Data([0x78, 0x01, 0x01, 0x05, 0x00, 0xFA, 0xFF] + Array("hello".utf8))) == Array("hello".utf8))
    }

    @Test func rawProfilesInZTXtChunksAsGIMPAndImageMagickWriteThem() throws {
        let taken = CaptureDate(date: CaptureDateTests.utc(2024, 6, 15, 12, 30, 5).addingTimeInterval(0.25), hasUTCOffset: true, source: .exifOriginal)
        #expect(CaptureDateReader.read(fromWholeFile: F.rawExifPNG, format: .png) == taken)
        #expect(CaptureDateReader.read(fromWholeFile: F.rawXMPPNG, format: .png)
                == CaptureDate(date: CaptureDateTests.utc(2018, 5, 6, 7, 8, 9), hasUTCOffset: true, source: .xmpOriginal))
        #expect(PNGTextChunks.rawProfile(Array("\nexif\n       4\n4578 6966\n".utf8))?.bytes == Array("Exif".utf8))
        #expect(PNGTextChunks.rawProfile(Array("\nexif\n       4\n45zz\n".utf8)) == nil)
        #expect(PNGTextChunks.rawProfile(Array("\nexif\n\n".utf8)) == nil)
    }

    @Test func exifAfterTheImageDataIsFoundInTheFilesLastBytesWhenItsLengthIsKnown() throws {
        let taken = CaptureDate(date: CaptureDateTests.utc(2024, 6, 15, 12, 30, 5).addingTimeInterval(0.25), hasUTCOffset: true, source: .exifOriginal)
        // ImageMagick 6: tIME (the conversion's time) before the image data, eXIf after it.
        #expect(CaptureDateReader.read(fromWholeFile: F.latePNG, format: .png) == taken)
        #expect(CaptureDateReader.read(from: F.latePNG, format: .png).isFound(source: .pngModified), "without the length, the early tIME")
        // Behind 200 KB of image data: one more read, of the last 32 KB.
        var bytes = [UInt8](F.latePNG)
        let idat = try #require((0..<bytes.count - 4).first { bytes[$0..<($0 + 4)].elementsEqual("IDAT".utf8) }) - 4
        let filler = ISOMediaBuilder.be32(200_000) + Array("IDAT".utf8) + [UInt8](repeating: 0, count: 200_004)   // data and CRC
        bytes.insert(contentsOf: filler, at: idat)
        let (found, reads) = CaptureDateReaderTests.readInPieces(Data(bytes), format: .png)
        #expect(found == taken && reads == 1)
    }
}

extension CaptureDateReader.Reading {
    func isFound(source: CaptureDate.Source) -> Bool {
        if case .found(let date) = self { return date.source == source }
        return false
    }
}
