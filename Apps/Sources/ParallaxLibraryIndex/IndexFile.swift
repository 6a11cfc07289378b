import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The index file on disk: where it lives, the lock that serialises
/// opening it across processes, and moving an unusable one aside.
enum IndexFile {
    /// The file for the library at `root` in `directory`:
    /// `library-<16 hex digits>.sqlite`, the digits a 64-bit FNV-1a hash of
    /// the root's real path (symbolic links resolved), so every spelling of
    /// one folder shares one index, and the name is the same on every run.
    static func url(forLibraryAt root: URL, in directory: URL) -> URL {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in realPath(of: root).utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return directory.appendingPathComponent("library-\(String(repeating: "0", count: 16 - hex.count))\(hex).sqlite")
    }

    /// The real path of `root`: symbolic links, `.` and `..` resolved;
    /// its standardised path when it cannot be resolved (it does not exist).
    static func realPath(of root: URL) -> String {
        guard let resolved = realpath(root.path, nil) else { return root.standardizedFileURL.path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The files SQLite keeps beside a database, which go wherever it goes.
    static let companions = ["-wal", "-shm", "-journal"]

    /// Moves the database at `path` and its companions aside (`.unusable`
    /// added to each name, replacing an older one) where they can be looked
    /// at but are never read again; deletes them if they cannot be moved.
    ///
    /// Renamed, not deleted, for another reason too: a gallery that still
    /// has the old file open goes on writing to it there, never to the new
    /// one, until it notices the replacement. (Closing that connection is
    /// safe too: SQLite sees the file has moved, and then neither
    /// checkpoints nor deletes the `-wal` and `-shm` by name, which are now
    /// the new file's.)
    static func moveAside(_ path: String) throws(LibraryIndexError) {
        let aside = path + ".unusable"
        for suffix in [""] + companions {
            let from = path + suffix, to = aside + suffix
            unlink(to)
            if rename(from, to) != 0, errno != ENOENT, unlink(from) != 0, errno != ENOENT {
                throw .unavailable("cannot move \(from) aside or delete it: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// The device and inode of the file at `path`, or `nil` when there is none.
    static func identity(of path: String) -> FileIdentity? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return FileIdentity(device: UInt64(truncatingIfNeeded: status.st_dev), inode: UInt64(truncatingIfNeeded: status.st_ino))
    }

    /// Which file a path named: it changes when the file is replaced.
    struct FileIdentity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// An exclusive `flock` on `<path>.lock`, held while a process checks,
    /// creates or rebuilds the index, so two galleries starting at once
    /// never rebuild it twice or read it half-made. Released when the value
    /// is released.
    final class Lock {
        private let descriptor: Int32

        /// Waits for the lock (another gallery holds it only while opening).
        init(_ path: String) throws(LibraryIndexError) {
            let descriptor = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw .unavailable("cannot create \(path).lock: \(String(cString: strerror(errno)))")
            }
            while flock(descriptor, LOCK_EX) != 0 {
                guard errno == EINTR else {
                    let reason = String(cString: strerror(errno))
                    close(descriptor)
                    throw .unavailable("cannot lock \(path).lock: \(reason)")
                }
            }
            self.descriptor = descriptor
        }

        deinit { close(descriptor) }
    }
}
