import Foundation

/// Builds HEIF files box by box, for header and date tests whose edge cases
/// (64-bit box sizes, ipma variants, rotations) no encoder writes on demand.
enum ISOMediaBuilder {
    static func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    static func be32(_ value: Int) -> [UInt8] { [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    static func be64(_ value: Int) -> [UInt8] { be32(value >> 32) + be32(value & 0xFFFF_FFFF) }

    static func box(_ type: String, _ payload: [UInt8], largeSize: Bool = false) -> [UInt8] {
        largeSize ? be32(1) + Array(type.utf8) + be64(16 + payload.count) + payload
                  : be32(8 + payload.count) + Array(type.utf8) + payload
    }

    static func fullBox(_ type: String, version: UInt8 = 0, flags: Int = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version, UInt8(flags >> 16 & 0xFF), UInt8(flags >> 8 & 0xFF), UInt8(flags & 0xFF)] + payload)
    }

    static func ftyp(_ brand: String = "heic") -> [UInt8] {
        box("ftyp", Array(brand.utf8) + be32(0) + Array("mif1".utf8) + Array(brand.utf8))
    }

    static func ispe(_ width: Int, _ height: Int) -> [UInt8] { fullBox("ispe", be32(width) + be32(height)) }
    static func irot(_ angle: UInt8) -> [UInt8] { box("irot", [angle]) }
    static func imir(_ mode: UInt8) -> [UInt8] { box("imir", [mode]) }

    /// An `infe` box, version 2 (16-bit item IDs), of `type`.
    static func infe(_ id: Int, _ type: String, contentType: String? = nil) -> [UInt8] {
        var payload = be16(id) + be16(0) + Array(type.utf8) + [0]          // protection index, type, empty name
        if let contentType { payload += Array(contentType.utf8) + [0] }
        return fullBox("infe", version: 2, payload)
    }

    /// `ipma` assigning `associations` (item → property indexes, 1-based), in
    /// `version` (0: 16-bit item IDs, 1: 32-bit) with `wide` (16-bit) indexes.
    static func ipma(_ associations: [(item: Int, properties: [Int])], version: UInt8 = 0, wide: Bool = false) -> [UInt8] {
        var payload = be32(associations.count)
        for (item, properties) in associations {
            payload += version == 0 ? be16(item) : be32(item)
            payload.append(UInt8(min(properties.count, 255)))
            for index in properties.prefix(255) { payload += wide ? be16(index | 0x8000) : [UInt8(index | 0x80)] }
        }
        return fullBox("ipma", version: version, flags: wide ? 1 : 0, payload)
    }

    /// `iloc` version 1 with 4-byte offsets and lengths, one extent per item.
    static func iloc(_ items: [(id: Int, method: Int, offset: Int, length: Int)]) -> [UInt8] {
        var payload: [UInt8] = [0x44, 0x00] + be16(items.count)
        for item in items {
            payload += be16(item.id) + be16(item.method) + be16(0) + be16(1) + be32(item.offset) + be32(item.length)
        }
        return fullBox("iloc", version: 1, payload)
    }

    /// A HEIF file whose primary item 1 (`hvc1`) has `properties` in that order,
    /// then `extraBoxes` in the meta box, then `trailer` after it.
    static func heif(properties: [[UInt8]], itemType: String = "hvc1", extraItems: [[UInt8]] = [], extraBoxes: [[UInt8]] = [],
                     ipmaVersion: UInt8 = 0, wide: Bool = false, pitmVersion: UInt8 = 0, largeMeta: Bool = false,
                     before: [UInt8] = [], trailer: [UInt8] = box("mdat", [1, 2, 3, 4])) -> Data {
        let pitm = pitmVersion == 0 ? fullBox("pitm", be16(1)) : fullBox("pitm", version: 1, be32(1))
        let iinf = fullBox("iinf", be16(1 + extraItems.count) + infe(1, itemType) + extraItems.flatMap { $0 })
        let iprp = box("iprp", box("ipco", properties.flatMap { $0 })
                       + ipma([(1, Array(0..<properties.count).map { $0 + 1 })], version: ipmaVersion, wide: wide))
        let handler = fullBox("hdlr", be32(0) + Array("pict".utf8) + [UInt8](repeating: 0, count: 13))
        let meta = fullBox("meta", handler + pitm + iinf + iprp + extraBoxes.flatMap { $0 })
        let metaBox = largeMeta ? box("meta", Array(meta.dropFirst(8)), largeSize: true) : meta
        return Data(ftyp() + before + metaBox + trailer)
    }
}
