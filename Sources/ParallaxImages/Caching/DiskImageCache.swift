import Foundation

// One file: the cache's index and its file protocol (write then rename, checksum, ledger, read-only and
// full-disk behaviour) are one concept, and why a reader never sees a torn entry shows only read together.

/// Downsampled thumbnails on disk, so a photo is decoded once per size and
/// not again on the next launch: keyed by picture, pixel size and content
/// mode, limited in total size with the least recently used evicted first.
///
/// **Never stale.** Each entry also records the picture's fingerprint
/// (``ImageSource/fingerprint(for:)``: a file's size and modification
/// time, an HTTP `ETag`), and a lookup serves it only when the picture's
/// current fingerprint matches: an edited photo is decoded again, and its
/// new thumbnail replaces the old one in the same file. Where the current
/// fingerprint costs a request (an HTTP `HEAD`), ``latestImage(for:)``
/// gives the entry with the version it was made from, for a loader that
/// shows it first and checks after.
///
/// **Never torn.** Every entry is written to a temporary file and then
/// renamed over the old one (one atomic `rename(2)`), so a reader sees the
/// old entry or the new one, whole; each carries its key and a 64-bit
/// checksum of key and payload, so a truncated or corrupt file is detected
/// on read, deleted, and never served. A folder that cannot be written (a
/// full disk, a read-only folder) only means entries are not kept: a folder
/// that cannot be written when it is opened is used read-only
/// (``isReadOnly``: its entries are served, nothing is written), and a
/// write that fails part-way leaves no partial file, and no ledger that
/// disagrees with the folder (a ledger that cannot be written is removed,
/// so the next writer recounts it from the files).
///
/// **Only regular files are entries.** Anything else under an entry's name
/// (a folder, a link, a pipe) is never read, never counted, and is removed
/// when the entry is next read or written.
///
/// Pixels are stored as ``ThumbnailEntryFormat/default`` (JPEG for opaque
/// thumbnails) unless the cache is opened with another format.
///
/// **Shared by processes.** The folder itself is the index: a lookup reads
/// the entry's file, whichever process wrote it. The size limit holds for
/// the folder as a whole, however many processes write to it: the total is
/// kept in a ledger file that every writer updates under an exclusive
/// `flock` of the folder's lock file, and a writer that takes the total
/// over the limit evicts, least recently used first, to 90 % of it (a
/// read hit stamps the entry's modification time, which is its last use).
/// Opening a folder over the limit evicts too, and recounts the ledger
/// from the files, so a process killed mid-write leaves no lasting error.
///
/// **Threads.** Everything that touches the disk (reading, checking,
/// writing, the locked commit and eviction, erasing, counting) runs on the
/// pipeline's file I/O threads, never on the caller's executor: another
/// process holding the folder's lock stalls one I/O thread, not Swift's
/// cooperative pool. The only state in memory is the erase count, behind a
/// lock, which a commit checks while holding the folder's lock, so an erase
/// is never followed by a write prepared before it.
///
/// File format (little-endian): magic `PKT1`, format version (1 byte, 2),
/// content mode (1 byte), payload encoding (1 byte: 0 raw premultiplied
/// RGBA, 1 JPEG), 1 reserved byte, width, height, key length and payload
/// length (4 bytes each), checksum (8 bytes), key bytes (UTF-8: the key and
/// the picture's fingerprint), then the payload.
public final class DiskImageCache: Sendable {
    /// Why a disk cache could not be opened.
    public enum CacheError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The folder cannot be used: it is a file, it cannot be created, or its
        /// lock file cannot be made. The text says which, and where.
        case unusableDirectory(String)
        /// A sentence saying why the disk cache cannot be used.
        public var description: String {
            switch self { case .unusableDirectory(let reason): return "the disk cache cannot be used: \(reason)" }
        }
    }

    private static let magic: [UInt8] = Array("PKT1".utf8)
    private static let version: UInt8 = 2
    private static let headerSize = 32
    private static let entryExtension = "pkthumb"
    private static let temporaryPrefix = ".tmp-"
    private static let lockName = ".lock"
    private static let ledgerName = ".size"
    /// Temporary files older than this are left over from a killed process.
    private static let abandonedAfter: TimeInterval = 60

    /// The folder the entries live in.
    public let directory: URL
    /// The most bytes the entries may take together.
    public let sizeLimit: Int
    /// How pixels are stored.
    public let format: ThumbnailEntryFormat
    private let erasures = Locked(0)

    /// How many times ``removeAll()`` has run in this process: a store
    /// prepared under an earlier generation is dropped.
    public var generation: Int { erasures.withLock { $0 } }

    /// Whether the folder could not be written when the cache was opened (a
    /// read-only mount, a folder without write permission): its entries are
    /// still served, but nothing is stored, stamped or evicted. A surface
    /// says so once, since the thumbnails it makes will not be kept.
    public let isReadOnly: Bool
    private let writer: FileWriter
    /// The recount of the folder (and eviction down to the limit) that
    /// opening it starts on an I/O thread; every write and count waits for
    /// it, reads do not.
    private let opening: Task<Void, Never>?

    /// Opens (creating if needed) a cache in `directory` of at most
    /// `sizeLimit` bytes (default 150 MB, Nuke's), evicting down to the
    /// limit if the folder holds more.
    ///
    /// The caller's thread only checks the folder and makes its lock file;
    /// the recount of the entries and the eviction run on an I/O thread
    /// (a stat per entry: thousands of them took a launch's first 20 ms),
    /// and writes and counts wait for them. Reads are served at once.
    /// - Throws: ``CacheError/unusableDirectory(_:)`` if the folder cannot
    ///   be created, is a file, or its lock file cannot be made.
    public convenience init(directory: URL, sizeLimit: Int = 150 * 1_048_576, format: ThumbnailEntryFormat = .default) throws(CacheError) {
        try self.init(directory: directory, sizeLimit: sizeLimit, format: format, writer: .system)
    }

    /// The cache with its files written by `writer` (the tests' full disk).
    init(directory: URL, sizeLimit: Int = 150 * 1_048_576, format: ThumbnailEntryFormat = .default,
         writer: FileWriter) throws(CacheError) {
        self.directory = directory
        self.sizeLimit = max(sizeLimit, 0)
        self.format = format
        self.writer = writer
        let fileManager = FileManager()
        var isDirectory: ObjCBool = false
        if fileManager.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw .unusableDirectory("\(directory.path) is a file") }
        } else {
            do {
                try fileManager.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw .unusableDirectory("cannot create \(directory.path): \(error.localizedDescription)")
            }
        }
        isReadOnly = !Self.canCreateFiles(in: directory)
        // Read-only, there is nothing to recount into (the ledger cannot be written) and nothing to evict.
        guard !isReadOnly else {
            opening = nil
            return
        }
        let lockPath = directory.appendingPathComponent(Self.lockName).path
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .unusableDirectory("cannot lock \(lockPath): \(String(cString: strerror(errno)))")
        }
        close(descriptor)
        let folder = Folder(directory: directory, limit: self.sizeLimit, writer: writer)
        // In the urgent lane: the background lane may be busy for seconds (a library's header reads), and
        // every store waits for this (a first launch's thumbnails piled up in memory behind it: 400 MiB).
        opening = Task {
            await BlockingWorkQueue.fileIO.run(urgent: true) { _ = folder.withLock { folder.recount(evicting: true) } }
        }
    }

    private var folder: Folder { Folder(directory: directory, limit: sizeLimit, writer: writer) }

    /// Whether a file can be created in `directory` now: tried, not guessed
    /// from permission bits, which say nothing of read-only mounts or of
    /// what root may do.
    private static func canCreateFiles(in directory: URL) -> Bool {
        let probe = directory.appendingPathComponent(temporaryPrefix + "probe-" + UUID().uuidString).path
        let descriptor = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        unlink(probe)
        return true
    }

    /// The cached thumbnail for `key` of the picture whose fingerprint is
    /// now `fingerprint`, or `nil` if there is none, it was made from
    /// another version of the picture, or the entry fails its checks (it is
    /// then deleted).
    public func image(for key: ThumbnailKey, fingerprint: String = "") async -> PixelImage? {
        await read(key, version: fingerprint)?.image
    }

    /// The cached thumbnail for `key` whatever version of the picture it was
    /// made from, with that version's fingerprint, or `nil` if there is none
    /// or the entry fails its checks (it is then deleted). For a picture
    /// whose current version costs a request to learn (an HTTP `HEAD`): the
    /// caller shows this at once and checks the version after
    /// (``ImageLoader/KeptThumbnailCheck``).
    public func latestImage(for key: ThumbnailKey) async -> (image: PixelImage, fingerprint: String)? {
        await read(key, version: nil)
    }

    /// Reads `key`'s entry, made from the picture version `version` (any
    /// version: `nil`), stamping its last use.
    private func read(_ key: ThumbnailKey, version: String?) async -> (image: PixelImage, fingerprint: String)? {
        let folder = self.folder, erasures = self.erasures
        let name = Self.fileName(for: key)
        let started = generation
        return await BlockingWorkQueue.fileIO.run { () -> (image: PixelImage, fingerprint: String)? in
            // An erase that starts while this reads (a reload) must not be answered with what it erased.
            guard erasures.withLock({ $0 }) == started else { return nil }
            let path = folder.path(of: name)
            guard FileKind(path: path, following: false) == .regular else {
                // Something other than an entry under its name (a folder, a link): removed, so the
                // next store can write the entry again.
                if FileKind(path: path, following: false) != .missing { _ = folder.withLock { folder.removeOddity(name) } }
                return nil
            }
            guard let data = FileManager.default.contents(atPath: path) else { return nil }
            let entry = Self.decode(data, expecting: key, fingerprint: version)
            if case .otherVersion = entry { return nil }         // left for the new version's store to replace
            guard case .image(let image, let fingerprint) = entry else {
                // Bad on disk: remove it, unless a writer replaced it meanwhile.
                _ = folder.withLock { if folder.size(of: name) == data.count { folder.remove(name) } }
                return nil
            }
            guard erasures.withLock({ $0 }) == started else { return nil }
            folder.stamp(name)                                   // its last use, for every process's eviction
            return (image, fingerprint)
        }
    }

    /// Stores `image` for `key` of the picture version `fingerprint`
    /// (atomically, replacing any older entry), then evicts the least
    /// recently used entries if the folder went over the size limit. Failures to
    /// write are ignored: a cache that cannot store still answers
    /// correctly. With `generation`, the store happens only if
    /// ``removeAll()`` has not run since that generation was read (a late
    /// write must not refill an erased cache).
    public func store(_ image: PixelImage, for key: ThumbnailKey, fingerprint: String = "", generation expected: Int? = nil) async {
        await opening?.value
        let started = expected ?? generation
        guard started == generation, !isReadOnly else { return }
        let folder = self.folder, name = Self.fileName(for: key), erasures = self.erasures, format = self.format
        await BlockingWorkQueue.fileIO.run {
            let data = Self.encode(image, key: key, fingerprint: fingerprint, format: format)
            guard data.count <= folder.limit else { return }
            let temporary = folder.directory.appendingPathComponent(Self.temporaryPrefix + UUID().uuidString)
            guard (try? folder.writer.write(data, temporary)) != nil else {
                // A full disk: whatever was written of it goes. The ledger was not touched.
                unlink(temporary.path)
                return
            }
            Folder.stamp(path: temporary.path)                   // its first use
            // The erase count is checked under the folder's lock: an erase that
            // bumped it first deletes after this commit, or this commit sees it.
            let committed = folder.withLock { erasures.withLock { $0 } == started && folder.commit(temporary, as: name) }
            if committed != true { try? FileManager().removeItem(at: temporary) }
        }
    }

    /// Removes every entry (those other processes wrote included).
    public func removeAll() async {
        erasures.withLock { $0 += 1 }
        await opening?.value
        let folder = self.folder
        await BlockingWorkQueue.fileIO.run {
            _ = folder.withLock {
                for entry in folder.entries() { folder.remove(entry.name, adjustingLedger: false) }
                folder.writeLedger(0)
            }
        }
    }

    /// The bytes the entries take (counted from the folder).
    public var byteCount: Int {
        get async {
            await opening?.value
            let folder = self.folder
            return await BlockingWorkQueue.fileIO.run { folder.entries().reduce(0) { $0 + $1.size } }
        }
    }

    /// The number of entries (counted from the folder).
    public var count: Int {
        get async {
            await opening?.value
            let folder = self.folder
            return await BlockingWorkQueue.fileIO.run { folder.entries().count }
        }
    }

    /// The file an entry for `key` lives in: a hash of the key, so any
    /// identifier is a safe file name. The key itself is stored inside and
    /// checked, so a hash collision can never serve the wrong picture.
    static func fileName(for key: ThumbnailKey) -> String {
        // Without the fingerprint: every version of a picture's thumbnail goes to one file, replaced in place.
        String(format: "%016llx", fnv1a64(Array(keyText(key).utf8))) + "." + entryExtension
    }

    // MARK: Entries

    static func encode(_ image: PixelImage, key: ThumbnailKey, fingerprint: String = "",
                       format: ThumbnailEntryFormat = .default) -> Data {
        let keyBytes = Array(keyText(key, fingerprint: fingerprint).utf8)
        let (encoding, payload) = format.encode(image)
        var data = Data(capacity: headerSize + keyBytes.count + payload.count)
        data.append(contentsOf: magic)
        data.append(version)
        data.append(key.size.mode == .fill ? 0 : 1)
        data.append(contentsOf: [encoding.rawValue, 0])
        for value in [image.width, image.height, keyBytes.count, payload.count] {
            withUnsafeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian) { data.append(contentsOf: $0) }
        }
        let checksum = fnv1a64(keyBytes, payload)
        withUnsafeBytes(of: checksum.littleEndian) { data.append(contentsOf: $0) }
        data.append(contentsOf: keyBytes)
        data.append(contentsOf: payload)
        return data
    }

    /// What an entry file holds, read against the key and fingerprint wanted.
    enum Entry {
        /// The thumbnail, and the fingerprint of the version it was made from.
        case image(PixelImage, fingerprint: String)
        /// A whole, valid entry for the key, made from another version of the picture.
        case otherVersion
        /// Torn, truncated, corrupt, or not an entry for this key.
        case invalid
    }

    /// Reads an entry for `key` made from the picture version `fingerprint`
    /// (any version: `nil`; an entry stored without one has `""`).
    static func decode(_ data: Data, expecting key: ThumbnailKey, fingerprint: String? = "") -> Entry {
        let bytes = [UInt8](data)
        guard bytes.count >= headerSize, Array(bytes[0..<4]) == magic, bytes[4] == version,
              let encoding = ThumbnailEntryFormat.Encoding(rawValue: bytes[6]) else { return .invalid }
        func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        let width = u32(8), height = u32(12), keyLength = u32(16), payloadLength = u32(20)
        var checksum: UInt64 = 0
        for i in 0..<8 { checksum |= UInt64(bytes[24 + i]) << (8 * UInt64(i)) }
        // Sizes come from the file: check them without trusting them (no overflow, no allocation).
        guard bytes.count == headerSize + keyLength + payloadLength, width > 0, height > 0,
              width <= ThumbnailSize.maximumSide, height <= ThumbnailSize.maximumSide,
              encoding != .raw || payloadLength == width * height * 4,
              key.size.mode == .fit || (width == key.size.width && height == key.size.height) else { return .invalid }
        let keyBytes = Array(bytes[headerSize..<(headerSize + keyLength)])
        let payload = Array(bytes[(headerSize + keyLength)...])
        guard fnv1a64(keyBytes, payload) == checksum else { return .invalid }
        let prefix = Array((keyText(key) + "\u{0}").utf8)
        guard keyBytes.starts(with: prefix) else { return .invalid }
        let stored = Array(keyBytes[prefix.count...])
        if let fingerprint, stored != Array(fingerprint.utf8) { return .otherVersion }
        guard let image = ThumbnailEntryFormat.decode(payload, encoding: encoding, width: width, height: height) else {
            return .invalid
        }
        return .image(image, fingerprint: String(decoding: stored, as: UTF8.self))
    }

    /// The key as stored (with the picture's fingerprint when given).
    private static func keyText(_ key: ThumbnailKey, fingerprint: String? = nil) -> String {
        let text = "\(key.id.rawValue)\u{0}\(key.size.width)x\(key.size.height)\u{0}\(key.size.mode.rawValue)"
        return fingerprint.map { text + "\u{0}" + $0 } ?? text
    }

    /// The folder's files and its lock, for one operation at a time. Every
    /// change to entry files and to the ledger happens under the lock.
    struct Folder: Sendable {
        let directory: URL
        let limit: Int
        var writer: FileWriter = .system
        /// `directory`'s path, ending in a slash: names are appended to it
        /// as strings (appending to the `URL` took a tenth of a read's CPU).
        private let prefix: String

        init(directory: URL, limit: Int, writer: FileWriter = .system) {
            self.directory = directory
            self.limit = limit
            self.writer = writer
            let path = directory.path
            prefix = path.hasSuffix("/") ? path : path + "/"
        }

        /// The path of `name` in the folder.
        func path(of name: String) -> String { prefix + name }

        /// Runs `body` holding the folder's exclusive lock (shared with every
        /// process using the folder); `nil` if the lock cannot be taken.
        func withLock<T>(_ body: () -> T) -> T? {
            let descriptor = open(path(of: DiskImageCache.lockName), O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            while flock(descriptor, LOCK_EX) != 0 {
                guard errno == EINTR else { return nil }
            }
            defer { flock(descriptor, LOCK_UN) }
            return body()
        }

        /// Every entry file (regular files only), with its size and last use.
        func entries() -> [(name: String, size: Int, lastUse: Double)] {
            files().compactMap { file in
                guard file.name.hasSuffix("." + DiskImageCache.entryExtension), file.status.st_mode & S_IFMT == S_IFREG else {
                    return nil
                }
                return (file.name, Int(file.status.st_size), Self.modificationTime(file.status))
            }
        }

        /// Every name in the folder (but `.` and `..`) with its `lstat`, in
        /// one `readdir` pass and one `fstatat` a name relative to the open
        /// folder: no path is built per name (the recount at every open had
        /// built two `URL`s and made two `lstat`s per entry, 10 % of the CPU
        /// of a second launch until its first screen).
        func files() -> [(name: String, status: stat)] {
            let descriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else { return [] }
            guard let stream = fdopendir(descriptor) else {
                close(descriptor)
                return []
            }
            defer { closedir(stream) }                        // closes the descriptor too
            let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
            var found: [(name: String, status: stat)] = []
            while let entry = readdir(stream) {
                let name = UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: CChar.self)
                if name[0] == CChar(UInt8(ascii: ".")), name[1] == 0 || (name[1] == CChar(UInt8(ascii: ".")) && name[2] == 0) {
                    continue
                }
                var status = stat()
                guard fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
                found.append((String(cString: name), status))
            }
            return found
        }

        /// The size of the entry file `name`; `nil` when there is none (or
        /// something that is not a regular file is there).
        func size(of name: String) -> Int? {
            var status = stat()
            guard lstat(path(of: name), &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
                return nil
            }
            return Int(status.st_size)
        }

        /// Removes what is under the entry name `name` when it is not a
        /// regular file (a folder with whatever it holds, a link, a pipe):
        /// never counted, it is not on the ledger. Under the lock.
        func removeOddity(_ name: String) {
            let path = path(of: name)
            switch FileKind(path: path, following: false) {
            case .missing, .regular: return
            case .directory: try? FileManager().removeItem(atPath: path)
            default: unlink(path)
            }
        }

        /// Marks `name` as used now.
        func stamp(_ name: String) { Self.stamp(path: path(of: name)) }

        /// The last stamp this process gave, so uses within one clock tick
        /// (file times come from a coarse clock) still come out in order.
        private static let lastStamp = Locked(0.0)

        /// Sets the modification (last use) time of `path` to now, or just after
        /// the previous stamp.
        static func stamp(path: String) {
            let now = lastStamp.withLock { last -> Double in
                last = max(Date().timeIntervalSince1970, last + 0.000_001)
                return last
            }
            let seconds = floor(now)
            let time = timeval(tv_sec: Int(seconds), tv_usec: suseconds_t((now - seconds) * 1_000_000))
            let times = [time, time]                             // last access, last modification
            _ = times.withUnsafeBufferPointer { utimes(path, $0.baseAddress) }
        }

        static func modificationTime(_ status: stat) -> Double {
            #if canImport(Darwin)
            return Double(status.st_mtimespec.tv_sec) + Double(status.st_mtimespec.tv_nsec) / 1e9
            #else
            return Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9
            #endif
        }

        /// The ledger's total, or a recount if it is missing or unreadable. Under the lock.
        func ledger() -> Int {
            let url = directory.appendingPathComponent(DiskImageCache.ledgerName)
            if let text = try? String(contentsOf: url, encoding: .utf8), let total = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                return max(total, 0)
            }
            return recount(evicting: false)
        }

        /// Writes the ledger (a temporary file renamed over it). When that
        /// fails (a full disk), the ledger is removed instead, so that no
        /// stale total outlives the failure: the next reader recounts it from
        /// the files.
        func writeLedger(_ total: Int) {
            let ledger = directory.appendingPathComponent(DiskImageCache.ledgerName)
            let temporary = directory.appendingPathComponent(DiskImageCache.temporaryPrefix + "ledger-" + UUID().uuidString)
            if (try? writer.write(Data(String(max(total, 0)).utf8), temporary)) != nil, rename(temporary.path, ledger.path) == 0 {
                return
            }
            unlink(temporary.path)
            unlink(ledger.path)
        }

        /// Counts the entries again, clearing abandoned temporary files, and
        /// (if `evicting`) evicts down to the limit. Under the lock.
        @discardableResult
        func recount(evicting: Bool) -> Int {
            let now = Date().timeIntervalSince1970
            var total = 0
            for file in files() {
                if file.name.hasPrefix(DiskImageCache.temporaryPrefix) {
                    if now - Self.modificationTime(file.status) > DiskImageCache.abandonedAfter {
                        unlink(path(of: file.name))
                    }
                } else if file.name.hasSuffix("." + DiskImageCache.entryExtension) {
                    if file.status.st_mode & S_IFMT == S_IFREG {
                        total += Int(file.status.st_size)
                    } else {
                        removeOddity(file.name)
                    }
                }
            }
            if evicting, total > limit { total = evict(to: limit) }
            writeLedger(total)
            return total
        }

        /// Removes the least recently used entries until at most `target`
        /// bytes remain; returns what remains. Under the lock.
        func evict(to target: Int) -> Int {
            var all = entries()
            var total = all.reduce(0) { $0 + $1.size }
            all.sort { $0.lastUse < $1.lastUse }
            for entry in all where total > target {
                unlink(path(of: entry.name))
                total -= entry.size
            }
            return total
        }

        /// Moves the temporary file `written` into place as `name` and
        /// updates the ledger, evicting to 90 % of the limit if it went over
        /// (so the next writes do not each pay for a scan). Under the lock.
        func commit(_ written: URL, as name: String) -> Bool {
            var status = stat()
            guard stat(written.path, &status) == 0 else { return false }
            let size = Int(status.st_size), old = self.size(of: name) ?? 0
            // A folder (or link, or pipe) squatting on the entry's name would refuse the rename forever.
            removeOddity(name)
            // Read before the rename: a missing ledger is recounted from the files, which must not
            // already include this entry (it would count twice).
            let before = ledger()
            // rename(2) replaces an old entry atomically: a reader sees the old file or the new one.
            guard rename(written.path, path(of: name)) == 0 else { return false }
            var total = before + size - old
            if total > limit { total = evict(to: limit / 10 * 9) }
            writeLedger(total)
            return true
        }

        /// Deletes the entry `name`, taking its bytes off the ledger. Under the lock.
        func remove(_ name: String, adjustingLedger: Bool = true) {
            let size = self.size(of: name) ?? 0
            guard unlink(path(of: name)) == 0, adjustingLedger else { return }
            writeLedger(ledger() - size)
        }
    }
}

/// How the disk cache writes a file: the system's `Data.write(to:)`, or in
/// tests a disk that fills part-way through.
struct FileWriter: Sendable {
    var write: @Sendable (Data, URL) throws -> Void

    /// Writes with `Data.write(to:)` (not atomic: the cache renames itself).
    static let system = FileWriter { data, url in try data.write(to: url) }
}
