/// Bounds-checked reads of integers from a file's bytes: every read past
/// the end is `nil`, never a trap, so the metadata readers can be handed
/// any bytes at all.
///
/// `base` is the file offset of `bytes[0]`: a view of a range read from
/// the middle of a file takes and returns file offsets like a view of its
/// first bytes.
struct ByteView {
    /// The bytes in view.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The file offset of the first byte in view.
    let base: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>, base: Int = 0) {
        self.bytes = bytes
        self.base = base
    }

    /// The file offset just past the last byte in view.
    var end: Int { base + bytes.count }

    /// Whether file offsets `start..<start + count` are all in view.
    func contains(_ start: Int, count: Int) -> Bool {
        count >= 0 && start >= base && start - base <= bytes.count - count
    }

    /// The byte at file offset `at`.
    func u8(_ at: Int) -> Int? {
        contains(at, count: 1) ? Int(bytes[at - base]) : nil
    }

    /// The 16-bit integer at file offset `at`, big-endian unless told.
    func u16(_ at: Int, littleEndian: Bool = false) -> Int? {
        guard contains(at, count: 2) else { return nil }
        let a = Int(bytes[at - base]), b = Int(bytes[at - base + 1])
        return littleEndian ? a | b << 8 : a << 8 | b
    }

    /// The 24-bit little-endian integer at file offset `at` (WebP's sizes).
    func u24LittleEndian(_ at: Int) -> Int? {
        guard contains(at, count: 3) else { return nil }
        let i = at - base
        return Int(bytes[i]) | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2]) << 16
    }

    /// The 32-bit integer at file offset `at`, big-endian unless told.
    func u32(_ at: Int, littleEndian: Bool = false) -> Int? {
        guard contains(at, count: 4) else { return nil }
        let i = at - base
        let a = Int(bytes[i]), b = Int(bytes[i + 1]), c = Int(bytes[i + 2]), d = Int(bytes[i + 3])
        return littleEndian ? a | b << 8 | c << 16 | d << 24 : a << 24 | b << 16 | c << 8 | d
    }

    /// The 64-bit big-endian integer at file offset `at`, or `nil` when it
    /// does not fit an `Int` (no file is that large).
    func u64(_ at: Int) -> Int? {
        guard let high = u32(at), let low = u32(at + 4), high < 0x8000_0000 else { return nil }
        return high << 32 | low
    }

    /// A big-endian integer of `size` bytes (0, 1, 2, 4 or 8; 0 reads as 0),
    /// as ISO boxes declare field sizes.
    func unsigned(_ at: Int, size: Int) -> Int? {
        switch size {
        case 0: return 0
        case 1: return u8(at)
        case 2: return u16(at)
        case 4: return u32(at)
        case 8: return u64(at)
        default: return nil
        }
    }

    /// Whether the bytes at file offset `at` are `literal`.
    func matches(_ at: Int, _ literal: some Collection<UInt8>) -> Bool {
        guard contains(at, count: literal.count) else { return false }
        return bytes[(at - base)..<(at - base + literal.count)].elementsEqual(literal)
    }

    /// The view of file offsets `range`, or `nil` if it is not all in view.
    func slice(_ range: Range<Int>) -> ByteView? {
        guard contains(range.lowerBound, count: range.count) else { return nil }
        return ByteView(UnsafeBufferPointer(rebasing: bytes[(range.lowerBound - base)..<(range.upperBound - base)]),
                        base: range.lowerBound)
    }
}

/// A four-character code (`"meta"`, `"VP8X"`) as the big-endian integer
/// its bytes spell, to compare with ``ByteView/u32(_:littleEndian:)``.
func fourCC(_ text: StaticString) -> Int {
    precondition(text.utf8CodeUnitCount == 4)
    let p = text.utf8Start
    return Int(p[0]) << 24 | Int(p[1]) << 16 | Int(p[2]) << 8 | Int(p[3])
}
