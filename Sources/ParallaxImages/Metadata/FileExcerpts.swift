import Foundation

/// Pieces of one file at their offsets: its first bytes and the ranges
/// read later because the metadata lies further on. The metadata readers
/// look bytes up by file offset and say which range they miss.
struct FileExcerpts: Sendable {
    struct Piece: Sendable {
        var offset: Int
        var bytes: Data
    }

    private(set) var pieces: [Piece]
    /// The file's length, once known: given, or a range asked for came back short.
    private(set) var knownLength: Int?
    /// The range last asked for, to tell a short read (the end of the file).
    var request: Range<Int>?

    init(firstBytes: Data, fileLength: Int?) {
        pieces = [Piece(offset: 0, bytes: firstBytes)]
        knownLength = fileLength
    }

    mutating func add(_ bytes: Data, at offset: Int) {
        pieces.append(Piece(offset: offset, bytes: bytes))
        if let request, request.lowerBound == offset, bytes.count < request.count {
            knownLength = min(knownLength ?? .max, offset + bytes.count)
        }
        request = nil
    }

    /// Calls `body` with views of every piece, valid during the call.
    func withViews<R>(_ body: (ExcerptViews) -> R) -> R {
        open(pieces[...], [], body)
    }

    private func open<R>(_ rest: ArraySlice<Piece>, _ views: [ByteView], _ body: (ExcerptViews) -> R) -> R {
        guard let piece = rest.first else { return body(ExcerptViews(views: views, knownLength: knownLength)) }
        return piece.bytes.withUnsafeBytes { raw in
            open(rest.dropFirst(), views + [ByteView(raw.bindMemory(to: UInt8.self), base: piece.offset)], body)
        }
    }
}

/// The views of a ``FileExcerpts``' pieces, to look bytes up by file offset.
struct ExcerptViews {
    let views: [ByteView]
    /// The file's length, when known.
    let knownLength: Int?

    /// The first bytes of the file.
    var first: ByteView { views[0] }

    /// A view holding all of `range`, if a piece does.
    func view(covering range: Range<Int>) -> ByteView? {
        views.first { $0.contains(range.lowerBound, count: range.count) }
    }

}

/// A record in a chain of records whose headers give their lengths: JPEG
/// segments, PNG chunks, RIFF chunks, top-level ISO boxes.
struct ChainRecord {
    /// The marker or four-character code.
    var type: Int
    /// The file offset of the record's data.
    var dataStart: Int
    /// The file offset just past the record (data, padding, CRC).
    var end: Int
    /// The file offset just past the data.
    var dataEnd: Int
}

/// How a walk along a chain of records ended.
enum ChainWalkEnd {
    /// The chain ended, or the visitor stopped it.
    case finished
    /// The next record header lies in bytes not in hand.
    case needsBytes(Range<Int>)
    /// A header is malformed.
    case malformed
}

extension ExcerptViews {
    /// How many bytes to ask for when a record header lies beyond the
    /// bytes in hand: the header and, likely, the small record after it.
    static let readAhead = 64 << 10

    /// Visits the records of a chain from `start`, reading each header with
    /// `header` (which returns `nil` for a malformed one) until `end`, the
    /// visitor returns `false`, or `limit` records.
    ///
    /// Complexity: O(records), each header read once; a record's data is
    /// never read here.
    func walk(from start: Int, to end: Int, headerSize: Int, limit: Int,
              header: (ByteView, Int) -> ChainRecord?, visit: (ChainRecord) -> Bool) -> ChainWalkEnd {
        var offset = start
        for _ in 0..<limit {
            guard offset < end else { return .finished }
            guard let view = view(covering: offset..<(offset + headerSize)) else {
                if let knownLength, offset + headerSize > knownLength { return .finished }
                return .needsBytes(offset..<(offset + Self.readAhead))
            }
            guard let record = header(view, offset), record.end > offset else { return .malformed }
            guard visit(record) else { return .finished }
            offset = record.end
        }
        return .finished
    }

}
