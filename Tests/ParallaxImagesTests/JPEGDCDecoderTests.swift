#if canImport(CParallaxCodecs)
import CParallaxCodecs
import Foundation
import ParallaxCore
import Testing
@testable import ParallaxImages

/// The DC-only decode of progressive JPEGs at 1/8 scale, checked against
/// libjpeg's own 1/8-scale decode of the same scans (the independent
/// reference) over files libjpeg-turbo's `cjpeg` writes with every option
/// that changes how DC coefficients are coded.
@Suite("Progressive JPEG, DC coefficients only")
struct JPEGDCDecoderTests {
    /// The DC decode's rows, or its status when it gives up.
    static func dcDecode(_ data: Data, missingBits: Int = 1) -> Result<[UInt8], ImageDecodingError> {
        let (width, height) = scaledSize(data)
        let rows = CollectedRows(width: width, height: height)
        let status = data.withUnsafeBytes { raw in
            pk_jpeg_decode_dc_rows(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, Int32(missingBits), 1_000,
                                   Int32(width), Int32(height), CollectedRows.sink, rows.context, nil)
        }
        return status == PK_OK ? .success(rows.pixels) : .failure(.unsupportedVariant("status \(status.rawValue)"))
    }

    /// libjpeg's rows at 1/8 scale, stopping after the same scans.
    static func libjpegDecode(_ data: Data, missingBits: Int = 1) -> [UInt8]? {
        let (width, height) = scaledSize(data)
        let rows = CollectedRows(width: width, height: height)
        var message = [CChar](repeating: 0, count: 200)
        var damaged: Int32 = 0
        let status = data.withUnsafeBytes { raw in
            pk_jpeg_decode_rows(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, 8, Int32(missingBits), 1_000,
                                Int32(width), Int32(height), 0, 1 << 30, CollectedRows.sink, rows.context,
                                nil, &damaged, &message, message.count)
        }
        return status == PK_OK && damaged == 0 ? rows.pixels : nil
    }

    static func info(_ data: Data) -> pk_jpeg_info {
        var info = pk_jpeg_info()
        var message = [CChar](repeating: 0, count: 200)
        _ = data.withUnsafeBytes { raw in
            pk_jpeg_read_info(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &info, &message, message.count)
        }
        return info
    }

    static func scaledSize(_ data: Data) -> (Int, Int) {
        let info = info(data)
        return ((Int(info.width) + 7) / 8, (Int(info.height) + 7) / 8)
    }

    /// A picture with detail at every scale (gradients, blocks of colour,
    /// noise), so DC values vary from block to block.
    static func picture(width: Int, height: Int, seed: UInt64) -> Data {
        var rng = SplitMix64(seed: seed)
        var ppm = Data("P6\n\(width) \(height)\n255\n".utf8)
        let tint = (Int.random(in: 0..<256, using: &rng), Int.random(in: 0..<256, using: &rng))
        for y in 0..<height {
            for x in 0..<width {
                let noise = Int.random(in: -40...40, using: &rng)
                let r = (x * 255 / max(width - 1, 1) + noise) & 0xFF
                let g = ((y * 255 / max(height - 1, 1)) ^ tint.0) & 0xFF
                let b = (((x / 13 + y / 7) % 2 == 0 ? tint.1 : 255 - tint.1) + noise / 2) & 0xFF
                ppm.append(contentsOf: [UInt8(clamping: r), UInt8(clamping: g), UInt8(clamping: b)])
            }
        }
        return ppm
    }

    /// `cjpeg` (libjpeg-turbo's encoder) run on `ppm` with `arguments`.
    static func cjpeg(_ ppm: Data, _ arguments: [String], scans: String? = nil) throws -> Data {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.ppm"), output = folder.appendingPathComponent("out.jpg")
        try ppm.write(to: input)
        var all = arguments
        if let scans {
            let script = folder.appendingPathComponent("scans.txt")
            try scans.write(to: script, atomically: true, encoding: .utf8)
            all += ["-scans", script.path]
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/cjpeg")
        process.arguments = all + ["-outfile", output.path, input.path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "cjpeg \(all) failed")
        return try Data(contentsOf: output)
    }

    /// The largest difference of any channel of any pixel.
    static func largestDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    /// A scan script whose DC goes one component at a time, with the point
    /// transform refined in a later scan after the AC scans.
    static let separateDCScans = """
        0: 0 0 0 1;
        1: 0 0 0 1;
        2: 0 0 0 1;
        0: 1 63 0 2;
        1: 1 63 0 1;
        2: 1 63 0 1;
        0: 1 63 2 1;
        0: 0 0 1 0;
        1: 0 0 1 0;
        2: 0 0 1 0;
        0: 1 63 1 0;
        """

    static let variants: [(name: String, arguments: [String], scans: String?)] = [
        ("4:2:0", ["-progressive", "-sample", "2x2"], nil),
        ("4:2:2", ["-progressive", "-sample", "2x1"], nil),
        ("4:4:4", ["-progressive", "-sample", "1x1"], nil),
        ("4:4:0", ["-progressive", "-sample", "1x2"], nil),
        ("grey", ["-progressive", "-grayscale"], nil),
        ("restarts every row", ["-progressive", "-restart", "1"], nil),
        ("restarts every 3 MCUs", ["-progressive", "-sample", "2x2", "-restart", "3B"], nil),
        ("quality 100 (quantizer 1)", ["-progressive", "-quality", "100"], nil),
        ("quality 10", ["-progressive", "-quality", "10"], nil),
        ("optimized tables", ["-progressive", "-optimize"], nil),
        ("one DC scan a component, refined later", [], separateDCScans),
        ("separate DC scans with restarts", ["-restart", "2B"], separateDCScans),
    ]

    /// Whether `cjpeg` with `arguments` writes 4:2:0 (its default for colour).
    static func halvesChromaBothWays(_ arguments: [String]) -> Bool {
        guard !arguments.contains("-grayscale") else { return false }
        guard let at = arguments.firstIndex(of: "-sample") else { return true }
        return arguments[at + 1] == "2x2"
    }

    @Test(arguments: variants.indices)
    func matchesLibjpegsEighthScaleDecodeOfTheSameScans(variant: Int) throws {
        let (name, arguments, scans) = Self.variants[variant]
        for (index, size) in [(1, 1), (7, 9), (8, 8), (17, 33), (100, 67), (333, 250)].enumerated() {
            let data = try Self.cjpeg(Self.picture(width: size.0, height: size.1, seed: UInt64(variant * 100 + index)),
                                      arguments, scans: scans)
            #expect(Self.info(data).dc_decodable == 1)
            for missingBits in [0, 1] {
                let reference = try #require(Self.libjpegDecode(data, missingBits: missingBits))
                // With every DC bit asked for, libjpeg reads on past AC scans to the DC refinement, and
                // for 4:2:0 chroma (which it decodes 2 × 2 at this scale) it uses their first AC
                // coefficients: that is left to it.
                if missingBits == 0, Self.halvesChromaBothWays(arguments) {
                    #expect((try? Self.dcDecode(data, missingBits: 0).get()) == nil, "\(name)")
                    continue
                }
                let dc = try Self.dcDecode(data, missingBits: missingBits).get()
                #expect(Self.largestDifference(dc, reference) == 0, "\(name), \(size.0)×\(size.1), \(missingBits) bits missing")
            }
        }
    }

    @Test func filesItDoesNotReadAreLeftToLibjpeg() throws {
        let ppm = Self.picture(width: 64, height: 48, seed: 3)
        let baseline = try Self.cjpeg(ppm, [])
        let arithmetic = try Self.cjpeg(ppm, ["-progressive", "-arithmetic"])
        let progressive = try Self.cjpeg(ppm, ["-progressive"])
        #expect(Self.info(baseline).dc_decodable == 0)
        #expect(Self.info(arithmetic).dc_decodable == 0)
        #expect(Self.info(progressive).dc_decodable == 1)
        #expect((try? Self.dcDecode(baseline).get()) == nil)
        #expect((try? Self.dcDecode(arithmetic).get()) == nil)
        // Cut inside the first DC scan, or with a marker where its data should be: given up, not guessed.
        let scanStart = try #require(progressive.indices.first { progressive[$0] == 0xFF && progressive[$0 + 1] == 0xDA })
        #expect((try? Self.dcDecode(progressive.prefix(scanStart + 20)).get()) == nil)
        var damaged = progressive
        damaged.replaceSubrange((scanStart + 16)..<(scanStart + 18), with: [0xFF, 0xD9])
        #expect((try? Self.dcDecode(damaged).get()) == nil)
        // With every bit asked for, the DC refinement scans must be read too: they are, past the AC scans
        // before them (4:4:4)...
        let full = try Self.cjpeg(ppm, ["-progressive", "-sample", "1x1"])
        #expect(Self.largestDifference(try Self.dcDecode(full, missingBits: 0).get(),
                                       try #require(Self.libjpegDecode(full, missingBits: 0))) == 0)
        // ...but not past AC scans libjpeg would use (4:2:0 chroma, decoded 2 × 2 at this scale).
        #expect((try? Self.dcDecode(progressive, missingBits: 0).get()) == nil)
        #expect((try? Self.dcDecode(progressive, missingBits: 1).get()) != nil)
    }

    @Test func damagedFilesNeverCrashItAndWhatItReadsLibjpegReadsAlike() throws {
        let original = try Self.cjpeg(Self.picture(width: 120, height: 90, seed: 11), ["-progressive", "-sample", "2x2", "-restart", "2B"])
        var rng = SplitMix64(seed: 2_026)
        var agreed = 0
        for _ in 0..<400 {
            var data = original
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let at = Int.random(in: 2..<data.count, using: &rng)
                data[at] = UInt8.random(in: 0...255, using: &rng)
            }
            if Bool.random(using: &rng) { data = data.prefix(Int.random(in: 2...data.count, using: &rng)) }
            // Only sizes libjpeg agrees on can be compared (a damaged frame header may change them).
            guard Self.info(data).width > 0, Self.info(data).height > 0, Self.info(data).width < 4_000 else { continue }
            let dc = try? Self.dcDecode(data).get()
            if let dc, let reference = Self.libjpegDecode(data) {
                #expect(Self.largestDifference(dc, reference) == 0)
                agreed += 1
            }
        }
        #expect(agreed > 0)
    }

    @Test func aHuffmanTableWithMoreCodesThanItsLengthsHoldIsRefusedBeforeItIsBuilt() throws {
        // Three 1-bit codes (found by the codecs fuzzer: the table was filled before it was checked).
        var data = try Self.cjpeg(Self.picture(width: 64, height: 64, seed: 9), ["-progressive"])
        let table = try #require(data.indices.first { data[$0] == 0xFF && data[$0 + 1] == 0xC4 && data[$0 + 4] >> 4 == 0 })
        let counts = (table + 5)..<(table + 21)
        let total = data[counts].reduce(0) { $0 + Int($1) }
        var bogus = [UInt8](repeating: 0, count: 16)
        bogus[0] = 3
        bogus[15] = UInt8(total - 3)
        data.replaceSubrange(counts, with: bogus)
        #expect((try? Self.dcDecode(data).get()) == nil)
        #expect(Self.libjpegDecode(data) == nil)
    }

    @Test func theDecoderTakesThisPathAndKeepsTwoBytesABlock() throws {
        let data = try Self.cjpeg(Self.picture(width: 640, height: 480, seed: 5), ["-progressive"])
        let info = Self.info(data)
        #expect(info.dc_bytes * 64 == info.coefficient_bytes)
        let decoder = CodecImageDecoder()
        let thumbnail = try decoder.thumbnail(from: data, size: ThumbnailSize(width: 80, height: 60, mode: .fill))
        // The working memory counted is the DC path's: far below libjpeg's coefficient buffers.
        #expect(thumbnail.workingBytes < Int(info.coefficient_bytes) / 4)
        let smooth = try CodecImageDecoder(options: DecodingOptions(usesSmoothUpsampling: true))
            .thumbnail(from: data, size: ThumbnailSize(width: 80, height: 60, mode: .fill))
        #expect(smooth.workingBytes > Int(info.coefficient_bytes))
        #expect(Self.largestDifference(thumbnail.image.pixels, smooth.image.pixels) <= 2)
    }
}
#endif
