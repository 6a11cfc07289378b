import Foundation

/// The chunks of a PNG that hold its dates, gathered during a walk over
/// its chunks: `eXIf`, the text chunks ``PNGTextChunks`` reads, and `tIME`.
struct PNGMetadataChunks {
    /// The `eXIf` chunk's data.
    var exif: Range<Int>?
    /// Text chunks that hold metadata, or may (`content` is `nil` when the
    /// keyword was beyond the bytes in hand).
    var texts: [(type: Int, range: Range<Int>, content: PNGTextChunks.Content?)] = []
    /// The `tIME` chunk's date.
    var modified: CaptureDate?
    /// Whether the walk reached the image data (`IDAT`).
    var reachedImageData = false
    /// Whether the walk stops at the image data (before it) or walks past it (after it).
    let stopsAtImageData: Bool

    init(stopsAtImageData: Bool = true) {
        self.stopsAtImageData = stopsAtImageData
    }

    /// A PNG chunk's header: length, type; the data, then a 4-byte CRC.
    static func header(_ view: ByteView, _ at: Int) -> ChainRecord? {
        guard let length = view.u32(at), length <= 0x7FFF_FFFF, let type = view.u32(at + 4) else { return nil }
        return ChainRecord(type: type, dataStart: at + 8, end: at + 12 + length, dataEnd: at + 8 + length)
    }

    /// Notes `record` if it holds metadata; `false` to stop the walk.
    mutating func collect(_ record: ChainRecord, views: ExcerptViews) -> Bool {
        let range = record.dataStart..<record.dataEnd
        switch record.type {
        case fourCC("IDAT"):
            reachedImageData = true
            return !stopsAtImageData
        case fourCC("IEND"):
            return false
        case fourCC("eXIf"):
            exif = exif ?? range
        case fourCC("tEXt"), fourCC("zTXt"), fourCC("iTXt"):
            guard texts.count < 16 else { break }
            let head = record.dataStart..<min(record.dataEnd, record.dataStart + 80)
            if let view = views.view(covering: head)?.slice(head) {
                if let content = PNGTextChunks.content(type: record.type, head: view) { texts.append((record.type, range, content)) }
            } else {
                texts.append((record.type, range, nil))           // told apart once read
            }
        case fourCC("tIME"):
            if let view = views.view(covering: record.dataStart..<(record.dataStart + 7)) {
                modified = Self.time(view, at: record.dataStart)
            }
        default:
            break
        }
        return true
    }

    /// PNG `tIME`: year (2 bytes), month, day, hour, minute, second, in UTC.
    static func time(_ view: ByteView, at: Int) -> CaptureDate? {
        guard let year = view.u16(at), let month = view.u8(at + 2), let day = view.u8(at + 3), let hour = view.u8(at + 4),
              let minute = view.u8(at + 5), let second = view.u8(at + 6),
              let seconds = CaptureDate.instant(year, month, day, hour, minute, second) else { return nil }
        return CaptureDate(date: Date(timeIntervalSince1970: seconds), hasUTCOffset: true, source: .pngModified)
    }

    /// Where, in `tail` (the last bytes of a PNG of `fileLength` bytes), a
    /// chain of chunks starts that runs to `IEND` at the very end of the
    /// file: the first place where a chunk type PNG writers put late (or
    /// `IDAT`) is found and the chunks from there end exactly there.
    ///
    /// Chunks cannot be walked backwards; a false start inside compressed
    /// data would need its bytes to spell a chunk type and a chain of
    /// lengths that ends at the file's last byte, which is never seen.
    /// Complexity: O(tail), and at most 64 chunks per candidate.
    static func chainStart(in tail: ByteView, fileLength: Int) -> Int? {
        let types = [fourCC("IDAT"), fourCC("eXIf"), fourCC("tEXt"), fourCC("zTXt"), fourCC("iTXt"), fourCC("tIME")]
        var at = tail.base + 4
        while at + 8 <= tail.end {
            defer { at += 1 }
            guard let byte = tail.u8(at), byte == 0x49 || byte == 0x65 || byte == 0x74 || byte == 0x7A || byte == 0x69,
                  let type = tail.u32(at), types.contains(type) else { continue }
            var chunk = at - 4
            for _ in 0..<64 {
                guard let length = tail.u32(chunk), length <= 0x7FFF_FFFF, let type = tail.u32(chunk + 4) else { break }
                let next = chunk + 12 + length
                if type == fourCC("IEND") {
                    if next == fileLength { return at - 4 }
                    break
                }
                guard next < fileLength else { break }
                chunk = next
            }
        }
        return nil
    }
}
