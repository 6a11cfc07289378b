import ParallaxImages

/// One photo as the index knows it: what the last walk listed, and what was
/// read of it since, if anything.
///
/// 88 bytes and one allocation (the ID's text, when longer than 15 UTF-8
/// bytes; a preview hash is a second), so 100,000 of them take about 9 MB
/// in one array, and as much again for their IDs.
package struct LibraryRecord: Sendable, Hashable {
    /// The path relative to the library root.
    package var id: ImageID
    /// Size, modification time and inode at the last walk.
    package var stamp: FileStamp
    /// What its header said, or `nil` until it has been read.
    package var metadata: PhotoMetadata?
    /// A small preview (such as a ThumbHash) to show until the thumbnail
    /// arrives, or `nil` until one is made.
    package var previewHash: [UInt8]?

    /// A record.
    package init(id: ImageID, stamp: FileStamp, metadata: PhotoMetadata? = nil, previewHash: [UInt8]? = nil) {
        self.id = id
        self.stamp = stamp
        self.metadata = metadata
        self.previewHash = previewHash
    }

    /// The time it sorts by: its capture date, or its file's modification
    /// time while the date is unknown (a provisional place, and the date it
    /// gets when the file has none).
    package var sortDate: Double { metadata?.captureDate?.date.timeIntervalSince1970 ?? stamp.modificationSeconds }

    /// The index's order: newest ``sortDate`` first, then by ID (UTF-8 byte
    /// order, which for IDs is `ImageID`'s own order). What
    /// ``LibraryIndex/records()`` returns, for placing arrivals among them.
    package static func precedes(_ lhs: LibraryRecord, _ rhs: LibraryRecord) -> Bool {
        let left = lhs.sortDate, right = rhs.sortDate
        if left != right { return left > right }
        return lhs.id.rawValue.utf8.lexicographicallyPrecedes(rhs.id.rawValue.utf8)
    }
}
