import ParallaxImages

/// What a directory walk learns of a file without opening it: its size,
/// modification time and inode. Two stamps that are equal mean the file is
/// the one whose metadata the index holds; any difference (an edit, a
/// replacement saved through a rename, a copy over it) means it must be
/// read again.
package struct FileStamp: Sendable, Hashable {
    /// The file's size in bytes.
    package var size: Int64
    /// Its modification time: nanoseconds since 1970-01-01 00:00 UTC.
    package var modificationNanoseconds: Int64
    /// Its inode number (stored in the index as the same 64 bits, signed).
    package var inode: UInt64

    /// A stamp as a walk reads it from `stat`.
    package init(size: Int64, modificationNanoseconds: Int64, inode: UInt64) {
        self.size = size
        self.modificationNanoseconds = modificationNanoseconds
        self.inode = inode
    }

    /// The modification time in seconds since 1970: the photo's place in the
    /// date order until its capture date is read, and its date when it has
    /// none. Computed exactly as the index's `ORDER BY` computes it, so the
    /// two orders agree.
    package var modificationSeconds: Double { Double(modificationNanoseconds) / 1_000_000_000 }
}

/// One photo a walk found: its ID (the path below the library root) and its
/// stamp.
package struct ListedFile: Sendable, Hashable {
    /// The path relative to the library root, such as `2024/06-trip/IMG_1.jpg`.
    package var id: ImageID
    /// What `stat` said of it.
    package var stamp: FileStamp

    /// A listed file.
    package init(id: ImageID, stamp: FileStamp) {
        self.id = id
        self.stamp = stamp
    }
}
