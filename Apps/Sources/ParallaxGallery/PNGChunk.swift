import Foundation

/// A PNG chunk as the gallery's own PNG writers put it down (``AnimatedPNG``,
/// ``StoredPNG``): its length, type, data and CRC-32 (PNG specification, 5.3).
///
/// Complexity: O(data) per chunk.
enum PNGChunk {
    /// Appends chunk `type` holding `data` to `output`.
    static func append<Output: RangeReplaceableCollection>(_ type: String, _ data: some Collection<UInt8>,
                                                           to output: inout Output) where Output.Element == UInt8 {
        let typed = Array(type.utf8) + data
        output.append(contentsOf: bigEndian(UInt32(data.count)))
        output.append(contentsOf: typed)
        output.append(contentsOf: bigEndian(crc32(typed)))
    }

    /// `value`'s four bytes, most significant first, as PNG stores integers.
    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// PNG's CRC-32 of a chunk's type and data (specification, 5.5).
    static func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    private static let table: [UInt32] = (0..<256).map { (index: Int) -> UInt32 in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }
}
