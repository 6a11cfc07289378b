import Foundation

/// Joins PNG frames of one size into an animated PNG (APNG), which every
/// current browser plays: the README's animation is rendered by the gallery
/// itself and written with this.
package enum AnimatedPNG {
    /// An APNG showing `frames` (PNG files of the same size, as
    /// `PixelImage.pngData()` writes them) for `delay` seconds each, looping.
    /// `nil` if a frame is not a PNG.
    package static func make(frames: [Data], delay: Double) -> Data? {
        guard let first = frames.first, let header = chunks(of: first)?.first(where: { $0.type == "IHDR" }) else { return nil }
        var output = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        append(chunk: "IHDR", header.data, to: &output)
        append(chunk: "acTL", be32(UInt32(frames.count)) + be32(0), to: &output)
        let width = header.data.prefix(4), height = header.data.dropFirst(4).prefix(4)
        let delayNumerator = UInt16(max(1, min(65_535, (delay * 1000).rounded())))
        var sequence: UInt32 = 0
        for (index, frame) in frames.enumerated() {
            guard let parts = chunks(of: frame) else { return nil }
            var control = be32(sequence) + Data(width) + Data(height) + be32(0) + be32(0)
            control += be16(delayNumerator) + be16(1000) + Data([0, 0])     // dispose none, blend source
            append(chunk: "fcTL", control, to: &output)
            sequence += 1
            for part in parts where part.type == "IDAT" {
                if index == 0 {
                    append(chunk: "IDAT", part.data, to: &output)
                } else {
                    append(chunk: "fdAT", be32(sequence) + part.data, to: &output)
                    sequence += 1
                }
            }
        }
        append(chunk: "IEND", Data(), to: &output)
        return output
    }

    private static func chunks(of png: Data) -> [(type: String, data: Data)]? {
        let bytes = [UInt8](png)
        guard bytes.count > 8 else { return nil }
        var result: [(String, Data)] = []
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard offset + 12 + length <= bytes.count else { return nil }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            result.append((type, Data(bytes[(offset + 8)..<(offset + 8 + length)])))
            offset += 12 + length
        }
        return result
    }

    private static func append(chunk type: String, _ data: Data, to output: inout Data) {
        output += be32(UInt32(data.count))
        let typed = Data(type.utf8) + data
        output += typed
        output += be32(crc32(typed))
    }

    private static func be32(_ value: UInt32) -> Data { Data([UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]) }
    private static func be16(_ value: UInt16) -> Data { Data([UInt8(value >> 8), UInt8(value & 0xFF)]) }

    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    /// PNG's CRC-32.
    static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }
}
