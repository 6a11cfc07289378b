/// The few EXIF fields a gallery needs from a TIFF structure (the body of a
/// JPEG's Exif APP1 segment, a PNG's `eXIf` chunk, a WebP's `EXIF` chunk, a
/// HEIF Exif item): the orientation and the capture-date texts.
///
/// Reads IFD0 and the Exif IFD it points to (tag 0x8769), nothing else.
/// Every offset is checked against the bytes, an IFD is never read twice
/// (a loop of IFD pointers ends), and at most ``entryLimit`` entries are
/// read from an IFD: the work is bounded whatever the bytes claim.
struct TIFFMetadata {
    /// The three EXIF text fields of one date: the "YYYY:MM:DD HH:MM:SS"
    /// text, its UTC offset ("+02:00") and its fraction of a second ("25").
    struct DateFields {
        var text: String?
        var offset: String?
        var subseconds: String?
    }

    /// The most entries read from one IFD (real ones hold a few dozen).
    static let entryLimit = 512

    /// IFD0's orientation tag (0x0112), if any.
    var orientation: ImageOrientation?
    /// DateTimeOriginal (0x9003), OffsetTimeOriginal (0x9011), SubSecTimeOriginal (0x9291).
    var original = DateFields()
    /// DateTimeDigitized (0x9004), OffsetTimeDigitized (0x9012), SubSecTimeDigitized (0x9292).
    var digitized = DateFields()
    /// IFD0's DateTime (0x0132), OffsetTime (0x9010), SubSecTime (0x9290): the file's last change.
    var modified = DateFields()
    /// IFD0's Make (0x010F) and Model (0x0110); the Exif IFD's LensMake
    /// (0xA433) and LensModel (0xA434).
    var camera = CameraDescription()

    /// The fields of the TIFF structure in file offsets `range` of `view`,
    /// or `nil` if it does not start with a TIFF header.
    init?(_ view: ByteView, range: Range<Int>) {
        guard let tiff = view.slice(range), let order = tiff.u16(range.lowerBound) else { return nil }
        let little: Bool
        switch order {
        case 0x4949: little = true
        case 0x4D4D: little = false
        default: return nil
        }
        let start = range.lowerBound
        guard tiff.u16(start + 2, littleEndian: little) == 42, let ifd0 = tiff.u32(start + 4, littleEndian: little) else { return nil }
        var visited: Set<Int> = []
        var exifIFD: Int?
        Self.read(tiff, ifd: ifd0, start: start, little: little, visited: &visited) { tag, entry in
            switch tag {
            case 0x0112: if let value = tiff.u16(entry + 8, littleEndian: little) { orientation = ImageOrientation(rawValue: value) }
            case 0x8769: exifIFD = tiff.u32(entry + 8, littleEndian: little)
            case 0x0132: modified.text = Self.ascii(tiff, entry: entry, start: start, little: little)
            case 0x010F: camera.make = Self.ascii(tiff, entry: entry, start: start, little: little).flatMap(Self.trimmed)
            case 0x0110: camera.model = Self.ascii(tiff, entry: entry, start: start, little: little).flatMap(Self.trimmed)
            default: break
            }
        }
        if let exifIFD {
            Self.read(tiff, ifd: exifIFD, start: start, little: little, visited: &visited) { tag, entry in
                let text = { Self.ascii(tiff, entry: entry, start: start, little: little) }
                switch tag {
                case 0x9003: original.text = text()
                case 0x9004: digitized.text = text()
                case 0x9010: modified.offset = text()
                case 0x9011: original.offset = text()
                case 0x9012: digitized.offset = text()
                case 0x9290: modified.subseconds = text()
                case 0x9291: original.subseconds = text()
                case 0x9292: digitized.subseconds = text()
                case 0xA433: camera.lensMake = text().flatMap(Self.trimmed)
                case 0xA434: camera.lensModel = text().flatMap(Self.trimmed)
                default: break
                }
            }
        }
    }

    /// Calls `body` with each entry's tag and file offset in the IFD at
    /// `ifd` (relative to the TIFF header at `start`), once per IFD.
    private static func read(_ tiff: ByteView, ifd: Int, start: Int, little: Bool, visited: inout Set<Int>,
                      _ body: (_ tag: Int, _ entry: Int) -> Void) {
        guard ifd >= 8, visited.insert(ifd).inserted, ifd <= tiff.end - start,
              let count = tiff.u16(start + ifd, littleEndian: little) else { return }
        for index in 0..<min(count, Self.entryLimit) {
            let entry = start + ifd + 2 + index * 12
            guard let tag = tiff.u16(entry, littleEndian: little), tiff.contains(entry, count: 12) else { return }
            body(tag, entry)
        }
    }

    /// `text` without surrounding spaces (cameras pad Make and Model), or `nil` when nothing is left.
    private static func trimmed(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The text of an ASCII entry (type 2; type 7, undefined, as some
    /// writers store offsets), up to its first null, or `nil`. Values of
    /// four bytes or fewer sit in the entry itself; longer ones at an offset.
    private static func ascii(_ tiff: ByteView, entry: Int, start: Int, little: Bool) -> String? {
        guard let type = tiff.u16(entry + 2, littleEndian: little), type == 2 || type == 7,
              let count = tiff.u32(entry + 4, littleEndian: little), count > 0, count <= 64 else { return nil }
        let at: Int
        if count <= 4 {
            at = entry + 8
        } else {
            guard let offset = tiff.u32(entry + 8, littleEndian: little) else { return nil }
            at = start + offset
        }
        guard let value = tiff.slice(at..<(at + count)) else { return nil }
        let end = value.bytes.firstIndex(of: 0) ?? value.bytes.count
        return String(decoding: value.bytes[..<end], as: UTF8.self)
    }
}
