import Foundation
import ParallaxCore
import Testing
@testable import ParallaxImages

/// Seeded random damage to real and hand-built files: every header read
/// and every date read ends with an answer or a typed error, never a trap,
/// and a date reader asks for a bounded number of sane ranges.
@Suite("Metadata readers against random damage")
struct MetadataMutationTests {
    typealias F = MetadataFixtures
    typealias B = ISOMediaBuilder

    static let originals: [(Data, ImageFormat)] = [
        (F.datedJPEG, .jpeg), (F.digitizedJPEG, .jpeg), (F.xmpJPEG, .jpeg), (F.exifPNG, .png), (F.xmpPNG, .png),
        (F.timePNG, .png), (F.latePNG, .png), (F.rawExifPNG, .png), (F.rawXMPPNG, .png), (F.datedWebP, .webp), (F.xmpWebP, .webp), (F.losslessWebP, .webp), (F.alphaWebP, .webp),
        (F.datedHEIC, .heif), (F.xmpHEIC, .heif), (F.datedAVIF, .avif), (F.rotatedAVIF, .avif),
        (B.heif(properties: [B.ispe(4000, 3000), B.irot(1), B.imir(1)], ipmaVersion: 1, wide: true, largeMeta: true), .heif),
        (CaptureDateReaderTests.jpeg(app1: CaptureDateReaderTests.tiff(littleEndian: false, ifd0: [(0x0132, "2020:01:01 00:00:03")],
                                                                       exif: [(0x9003, "2020:01:01 00:00:01"), (0x9011, "+01:00")])), .jpeg),
    ]

    /// `file` damaged in one of a few ways a disk, a transfer or an attacker damages files.
    static func mutate(_ file: Data, using rng: inout SplitMix64) -> Data {
        var bytes = [UInt8](file)
        guard !bytes.isEmpty else { return file }
        switch Int.random(in: 0..<6, using: &rng) {
        case 0:                                                   // a few random bytes
            for _ in 0..<Int.random(in: 1...8, using: &rng) {
                bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
        case 1:                                                   // a size or count field set to an extreme
            let at = Int.random(in: 0..<bytes.count, using: &rng)
            let extreme: [UInt8] = [[0, 0, 0, 0], [0xFF, 0xFF, 0xFF, 0xFF], [0x7F, 0xFF, 0xFF, 0xFF], [0, 0, 0, 1], [0, 0, 0, 8], [0x80, 0, 0, 0]]
                .randomElement(using: &rng)!
            for (i, byte) in extreme.enumerated() where at + i < bytes.count { bytes[at + i] = byte }
        case 2:                                                   // cut short
            bytes.removeLast(Int.random(in: 1...bytes.count, using: &rng))
        case 3:                                                   // a stretch repeated
            let start = Int.random(in: 0..<bytes.count, using: &rng)
            let end = min(bytes.count, start + Int.random(in: 1...64, using: &rng))
            bytes.insert(contentsOf: bytes[start..<end], at: Int.random(in: 0...bytes.count, using: &rng))
        case 4:                                                   // a stretch removed
            let start = Int.random(in: 0..<bytes.count, using: &rng)
            bytes.removeSubrange(start..<min(bytes.count, start + Int.random(in: 1...64, using: &rng)))
        default:                                                  // one bit flipped
            let at = Int.random(in: 0..<bytes.count, using: &rng)
            bytes[at] ^= 1 << UInt8.random(in: 0...7, using: &rng)
        }
        return Data(bytes)
    }

    @Test func damagedFilesEndInAnAnswerOrATypedError() {
        var rng = SplitMix64(seed: 25)
        var headers = 0, dates = 0, reads = 0
        for (original, format) in Self.originals {
            for _ in 0..<400 {
                let file = Self.mutate(original, using: &rng)
                if (try? ImageHeader.read(from: file)) != nil { headers += 1 }
                // Read in pieces from a small first read, as a folder would from a large file.
                // With the file's length half the time (the reader may then ask for a PNG's last bytes).
                var reader = CaptureDateReader(format: format, firstBytes: file.prefix(Int.random(in: 0...file.count, using: &rng)),
                                               fileLength: Bool.random(using: &rng) ? file.count : nil)
                var answered = false
                for _ in 0...(CaptureDateReader.maximumReads + 1) {
                    switch reader.read() {
                    case .found: dates += 1; answered = true
                    case .notFound: answered = true
                    case .needsBytes(let range):
                        #expect(range.lowerBound >= 0 && !range.isEmpty && range.count <= 4 << 20, "\(range)")
                        reads += 1
                        let start = min(range.lowerBound, file.count), end = min(range.upperBound, file.count)
                        reader.add(file.subdata(in: start..<end), at: range.lowerBound)
                    }
                    if answered { break }
                }
                #expect(answered, "the reader stops asking after \(CaptureDateReader.maximumReads) reads")
            }
        }
        // The damage leaves most files readable: the readers do not give up at the first odd byte.
        #expect(headers > Self.originals.count * 400 / 4)
        #expect(dates > Self.originals.count * 400 / 4)
        #expect(reads > 0)
    }

    @Test func everyConformanceFileCrashersIncludedEndsInAnAnswerOrATypedError() throws {
        let corpus = TestData.folder(environment: "PARALLAX_CONFORMANCE", named: "conformance")
        let walker = FileManager.default.enumerator(atPath: corpus.path)
        var read = 0
        while let file = walker?.nextObject() as? String {
            guard !file.hasSuffix(".ref"), !file.hasSuffix(".tsv"),
                  let data = FileManager.default.contents(atPath: corpus.appendingPathComponent(file).path),
                  let format = ImageFormat(sniffing: data) else { continue }
            _ = try? ImageHeader.read(from: data)
            for firstBytes in [64 << 10, 4096] {
                let (_, reads) = CaptureDateReaderTests.readInPieces(data, format: format, firstBytes: firstBytes)
                #expect(reads <= CaptureDateReader.maximumReads, "\(file)")
            }
            read += 1
        }
        #expect(read > 0, "no conformance files in \(corpus.path): run scripts/fetch-conformance.sh (make test does)")
    }

    @Test func everyPrefixOfEveryFileIsAnAnswerOrARequest() throws {
        for (original, format) in Self.originals {
            for length in 0...original.count {
                let prefix = original.prefix(length)
                _ = try? ImageHeader.read(from: prefix)
                var reader = CaptureDateReader(format: format, firstBytes: prefix)
                if case .needsBytes(let range) = reader.read() {
                    #expect(range.upperBound > min(length, range.lowerBound), "\(format) \(length)")
                }
            }
        }
    }
}
