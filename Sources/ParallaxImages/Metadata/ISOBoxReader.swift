/// One box of an ISO base media file (HEIF, AVIF): its type and where its
/// header and content lie, as file offsets. `end` may lie beyond the bytes
/// in hand: a box header says how long the box is before its content is
/// read.
struct ISOBox {
    /// The box type's four characters as a big-endian integer (`fourCC("meta")`).
    var type: Int
    /// The offset of the box's first header byte.
    var start: Int
    /// The offset of its content, after the size, type, any 64-bit size and
    /// any `uuid` user type.
    var contentStart: Int
    /// The offset just past the box: `Int.max` for a top-level box of size 0,
    /// which runs to the end of the file.
    var end: Int
}

/// Walks the boxes side by side in one container (a file's top level, a
/// `meta` box, an `iprp` box), header by header, never reading a box's
/// content: skipping a 40 MB `mdat` costs one header.
///
/// Each step is O(1). A hostile file can make the walk long only by
/// holding many boxes, so callers cap the steps they take (``limit``).
struct ISOBoxReader {
    /// What the next step found.
    enum Step {
        /// The next box.
        case box(ISOBox)
        /// The container has no more boxes.
        case end
        /// The next box header lies beyond the bytes in hand.
        case needsMoreBytes
        /// The container is malformed; the text says how.
        case malformed(String)
    }

    private let view: ByteView
    private var offset: Int
    private let containerEnd: Int
    private var steps = 0
    /// The most boxes one container may hold before the walk gives up.
    let limit: Int

    /// A walk over the boxes in file offsets `start..<end` of `view`
    /// (`end` is `Int.max` for a file's top level, whose length is unknown).
    init(_ view: ByteView, from start: Int, to end: Int, limit: Int = 1024) {
        self.view = view
        self.offset = start
        self.containerEnd = end
        self.limit = limit
    }

    /// The next box, or why there is none.
    mutating func next() -> Step {
        guard offset < containerEnd else { return .end }
        if containerEnd == Int.max, offset >= view.end { return .needsMoreBytes }
        steps += 1
        guard steps <= limit else { return .malformed("more than \(limit) boxes in one container") }
        guard let size32 = view.u32(offset), let type = view.u32(offset + 4) else {
            return offset + 8 > containerEnd ? .malformed("a box header runs past its container")
                                             : .needsMoreBytes
        }
        var headerSize = 8
        let end: Int
        switch size32 {
        case 0:
            end = containerEnd                                    // to the end of the container (the file)
        case 1:
            guard let size64 = view.u64(offset + 8) else {
                return view.contains(offset + 8, count: 8) ? .malformed("a box of more than 2⁶³ bytes") : .needsMoreBytes
            }
            headerSize = 16
            guard size64 >= 16, size64 <= Int.max - offset else { return .malformed("a 64-bit box size of \(size64)") }
            end = offset + size64
        default:
            guard size32 >= 8 else { return .malformed("a box size of \(size32)") }
            end = offset + size32
        }
        if type == fourCC("uuid") { headerSize += 16 }
        guard end >= offset + headerSize else { return .malformed("a box shorter than its header") }
        guard end <= containerEnd else { return .malformed("a box runs past its container") }
        let box = ISOBox(type: type, start: offset, contentStart: offset + headerSize, end: end)
        offset = end
        return .box(box)
    }
}
