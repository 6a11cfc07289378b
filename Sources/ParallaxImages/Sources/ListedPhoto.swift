import Foundation

/// One photo a folder scan found: its ID and what the file system said
/// about the file, which a library index stores to notice later that the
/// file changed without reading it.
public struct ListedPhoto: Sendable, Hashable {
    /// The photo's path relative to the folder (see ``FolderImageSource``).
    public let id: ImageID
    /// The file's inode number. From the folder listing itself when the
    /// file's status was not read (the same number for a regular file).
    public let inode: UInt64
    /// The file's size in bytes, when the scan read the file's status.
    public let size: Int64?
    /// The file's last modification, in nanoseconds since 1970-01-01 UTC,
    /// when the scan read the file's status.
    public let modificationTime: Int64?

    /// Photo `id`'s file as `status` (from `stat` or `fstat`) describes it:
    /// the one conversion the walk and the reads share, so the two always
    /// agree to the nanosecond.
    init(id: ImageID, status: stat) {
        #if canImport(Darwin)
        let time = status.st_mtimespec
        #else
        let time = status.st_mtim
        #endif
        self.init(id: id, inode: UInt64(status.st_ino), size: Int64(status.st_size),
                  modificationTime: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }

    /// A photo named `id` with what is known of its file.
    public init(id: ImageID, inode: UInt64, size: Int64? = nil, modificationTime: Int64? = nil) {
        self.id = id
        self.inode = inode
        self.size = size
        self.modificationTime = modificationTime
    }

    /// The file's fingerprint exactly as ``FolderImageSource/fingerprint(for:)``
    /// would answer it now (size, modification time and inode), or `nil`
    /// when the scan did not read the file's status: an index can compare
    /// it without a `stat` of its own.
    public var fingerprint: String? {
        guard let size, let modificationTime else { return nil }
        let seconds = modificationTime >= 0 ? modificationTime / 1_000_000_000
            : -((-modificationTime + 999_999_999) / 1_000_000_000)
        let nanoseconds = modificationTime - seconds * 1_000_000_000
        return "file \(size) \(seconds).\(nanoseconds) \(inode)"
    }
}
