/// What the `meta` box of a HEIF or AVIF file says about its items: which
/// item is the picture (`pitm`), what each item is (`iinf`), where its data
/// lies (`iloc`, `idat`) and which properties it has (`iprp`: `ipco`
/// holds them, `ipma` assigns them).
///
/// A phone's `meta` box is a few kilobytes at the start of the file, before
/// the coded pixels in `mdat`; reading it gives the picture's size and
/// rotation and the places of its Exif and XMP items without touching a
/// pixel.
///
/// Parsing is O(size of the `meta` box): every count is checked against the
/// bytes it claims, and no collection grows past ``itemLimit`` entries, so
/// a hostile file costs at most what it weighs.
struct HEIFMetaBox {
    /// The most items, properties or associations kept: a real file has a
    /// few dozen (a grid photo one per tile, a few hundred at most).
    static let itemLimit = 4096

    /// The primary item, the picture a viewer shows.
    var primaryItem: Int?
    /// Each item's type (`hvc1`, `av01`, `grid`, `Exif`, `mime`, …).
    var itemTypes: [Int: Int] = [:]
    /// The `mime` items whose content type is XMP's (`application/rdf+xml`).
    var xmpItems: [Int] = []
    /// The properties in `ipco`, in order: property index `i` is `properties[i - 1]`.
    var properties: [ISOBox] = []
    /// Each item's property indexes, in the order `ipma` lists them (which
    /// is the order transformative properties apply in).
    var associations: [Int: [Int]] = [:]
    /// Where each item's data lies in the file (data in the `idat` box
    /// included), when `iloc` gives it in one piece.
    var locations: [Int: Range<Int>] = [:]

    /// The outcome of looking for the `meta` box.
    enum Search {
        case found(HEIFMetaBox)
        case needsMoreBytes
        case malformed(String)
    }

    /// The `meta` box among the top-level boxes of the file that starts with
    /// `view`, parsed; `.needsMoreBytes` if the box (or the way to it) lies
    /// beyond the bytes in view.
    static func find(in view: ByteView) -> Search {
        var boxes = ISOBoxReader(view, from: 0, to: Int.max, limit: 64)
        while true {
            switch boxes.next() {
            case .box(let box) where box.type == fourCC("meta"):
                guard box.end <= view.end else { return .needsMoreBytes }
                return parse(view, meta: box)
            case .box:
                continue
            case .end:
                return .malformed("the file has no meta box")
            case .needsMoreBytes:
                return .needsMoreBytes
            case .malformed(let reason):
                return .malformed(reason)
            }
        }
    }

    /// The `meta` box `meta`, which `view` holds whole, parsed.
    static func parse(_ view: ByteView, meta: ISOBox) -> Search {
        var result = HEIFMetaBox()
        var idat: Range<Int>?
        var rawLocations: [(item: Int, method: Int, range: Range<Int>)] = []
        // A full box: version and flags first.
        var children = ISOBoxReader(view, from: meta.contentStart + 4, to: meta.end, limit: 256)
        loop: while true {
            switch children.next() {
            case .box(let box):
                let ok: Bool
                switch box.type {
                case fourCC("pitm"): ok = result.readPrimaryItem(view, box)
                case fourCC("iinf"): ok = result.readItemInfo(view, box)
                case fourCC("iprp"): ok = result.readProperties(view, box)
                case fourCC("iloc"): ok = readLocations(view, box, into: &rawLocations)
                case fourCC("idat"): idat = box.contentStart..<box.end; ok = true
                default: ok = true
                }
                if !ok { return .malformed("a malformed \(name(box.type)) box") }
            case .end: break loop
            case .needsMoreBytes, .malformed: return .malformed("a malformed box in the meta box")
            }
        }
        for location in rawLocations {
            switch location.method {
            case 0: result.locations[location.item] = location.range
            case 1:
                guard let idat, location.range.upperBound <= idat.count else { continue }
                result.locations[location.item] = (idat.lowerBound + location.range.lowerBound)..<(idat.lowerBound + location.range.upperBound)
            default: continue                                     // data in another item: not needed for metadata
            }
        }
        return .found(result)
    }

    /// A box type as its four characters, for error messages.
    static func name(_ type: Int) -> String {
        let scalars = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: type >> $0) }
        return scalars.allSatisfy({ (0x20...0x7E).contains($0) }) ? "'\(String(decoding: scalars, as: UTF8.self))'" : "0x\(String(type, radix: 16))"
    }

    private mutating func readPrimaryItem(_ view: ByteView, _ box: ISOBox) -> Bool {
        guard let view = view.slice(box.start..<box.end), let version = view.u8(box.contentStart) else { return false }
        primaryItem = view.unsigned(box.contentStart + 4, size: version == 0 ? 2 : 4)
        return primaryItem != nil
    }

    private mutating func readItemInfo(_ view: ByteView, _ box: ISOBox) -> Bool {
        guard let view = view.slice(box.start..<box.end), let version = view.u8(box.contentStart) else { return false }
        let entries = box.contentStart + 4 + (version == 0 ? 2 : 4)
        guard entries <= box.end else { return false }
        var infos = ISOBoxReader(view, from: entries, to: box.end, limit: Self.itemLimit)
        while true {
            switch infos.next() {
            case .box(let infe) where infe.type == fourCC("infe"):
                guard let infeVersion = view.u8(infe.contentStart) else { return false }
                guard infeVersion >= 2 else { continue }          // versions 0 and 1 name no item type
                let idSize = infeVersion == 2 ? 2 : 4
                let at = infe.contentStart + 4
                guard let id = view.unsigned(at, size: idSize),
                      let type = view.u32(at + idSize + 2) else { return false }
                itemTypes[id] = type
                if type == fourCC("mime"), let contentType = Self.mimeType(view, from: at + idSize + 6, to: infe.end),
                   contentType.hasPrefix("application/rdf+xml") {
                    xmpItems.append(id)
                }
            case .box: continue
            case .end: return true
            case .needsMoreBytes, .malformed: return false
            }
        }
    }

    /// The content type of a `mime` item entry: after the item name, both
    /// null-terminated strings.
    private static func mimeType(_ view: ByteView, from start: Int, to end: Int) -> String? {
        guard start < end, let name = view.slice(start..<end), let nameEnd = name.bytes.firstIndex(of: 0) else { return nil }
        let typeStart = start + nameEnd + 1
        guard let rest = view.slice(typeStart..<end) else { return nil }
        let typeEnd = rest.bytes.firstIndex(of: 0) ?? rest.bytes.count
        return String(decoding: rest.bytes[..<typeEnd], as: UTF8.self)
    }

    private mutating func readProperties(_ view: ByteView, _ box: ISOBox) -> Bool {
        var children = ISOBoxReader(view, from: box.contentStart, to: box.end, limit: 64)
        while true {
            switch children.next() {
            case .box(let child) where child.type == fourCC("ipco"):
                var boxes = ISOBoxReader(view, from: child.contentStart, to: child.end, limit: Self.itemLimit)
                collecting: while true {
                    switch boxes.next() {
                    case .box(let property): properties.append(property)
                    case .end: break collecting
                    case .needsMoreBytes, .malformed: return false
                    }
                }
            case .box(let child) where child.type == fourCC("ipma"):
                guard readAssociations(view, child) else { return false }
            case .box: continue
            case .end: return true
            case .needsMoreBytes, .malformed: return false
            }
        }
    }

    private mutating func readAssociations(_ view: ByteView, _ box: ISOBox) -> Bool {
        guard let view = view.slice(box.start..<box.end), let version = view.u8(box.contentStart),
              let flags = view.u8(box.contentStart + 3), let count = view.u32(box.contentStart + 4) else { return false }
        // Flag bit 0: two-byte property indexes.
        let wide = flags & 1 == 1
        let idSize = version < 1 ? 2 : 4, indexSize = wide ? 2 : 1
        var at = box.contentStart + 8
        var kept = associations.values.reduce(0) { $0 + $1.count }
        for _ in 0..<count {
            guard let id = view.unsigned(at, size: idSize), let n = view.u8(at + idSize) else { return false }
            at += idSize + 1
            guard at + n * indexSize <= box.end else { return false }
            var indexes: [Int] = []
            for i in 0..<n {
                guard let raw = view.unsigned(at + i * indexSize, size: indexSize) else { return false }
                indexes.append(raw & (wide ? 0x7FFF : 0x7F))          // the top bit marks an essential property
            }
            at += n * indexSize
            kept += n
            guard kept <= Self.itemLimit * 4 else { return false }
            associations[id, default: []].append(contentsOf: indexes)
        }
        return at <= box.end
    }

    private static func readLocations(_ view: ByteView, _ box: ISOBox,
                                      into locations: inout [(item: Int, method: Int, range: Range<Int>)]) -> Bool {
        guard let view = view.slice(box.start..<box.end) else { return false }
        var at = box.contentStart
        guard let version = view.u8(at), version <= 2, let sizes = view.u16(at + 4) else { return false }
        let offsetSize = sizes >> 12, lengthSize = sizes >> 8 & 0xF, baseSize = sizes >> 4 & 0xF
        let indexSize = version >= 1 ? sizes & 0xF : 0
        for size in [offsetSize, lengthSize, baseSize, indexSize] where ![0, 4, 8].contains(size) { return false }
        at += 6
        guard let count = view.unsigned(at, size: version < 2 ? 2 : 4) else { return false }
        at += version < 2 ? 2 : 4
        for _ in 0..<count {
            guard locations.count < itemLimit, let id = view.unsigned(at, size: version < 2 ? 2 : 4) else { return false }
            at += version < 2 ? 2 : 4
            var method = 0
            if version >= 1 {
                guard let field = view.u16(at) else { return false }
                method = field & 0xF
                at += 2
            }
            at += 2                                               // data reference index
            guard let base = view.unsigned(at, size: baseSize), let extents = view.u16(at + baseSize) else { return false }
            at += baseSize + 2
            var range: Range<Int>?
            // An extent of no bytes at all (every size 0) cannot be located: skip the item.
            var contiguous = offsetSize + lengthSize + indexSize > 0
            for _ in 0..<(contiguous ? extents : 0) {
                at += indexSize
                guard let offset = view.unsigned(at, size: offsetSize), let length = view.unsigned(at + offsetSize, size: lengthSize),
                      at + offsetSize + lengthSize <= box.end else { return false }
                at += offsetSize + lengthSize
                let (start, overflow) = base.addingReportingOverflow(offset)
                guard !overflow, length > 0, start <= Int.max - length else { contiguous = false; continue }
                if let current = range {
                    if current.upperBound == start { range = current.lowerBound..<(start + length) } else { contiguous = false }
                } else {
                    range = start..<(start + length)
                }
            }
            if contiguous, let range { locations.append((id, method, range)) }
        }
        return at <= box.end
    }
}
