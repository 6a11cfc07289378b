import Foundation

/// Downsampled thumbnails on disk, so a photo is decoded once per size and
/// not again on the next launch: keyed by picture, pixel size and content
/// mode, limited in total size with the least recently used evicted first.
///
/// Every entry is written to a temporary file and then renamed into place,
/// so a reader sees a whole entry or none; each carries its key and a
/// 64-bit checksum of key and pixels, so a torn, truncated or corrupt file
/// is detected on read, deleted, and never served. Temporary files left by
/// a process killed between write and rename are removed when the cache
/// opens.
///
/// The actor keeps only the index: reading, checking and writing entries
/// run on the pipeline's file I/O threads, so one slow read never holds up
/// every other lookup (an actor doing file I/O itself would serialise all
/// disk traffic behind it).
///
/// File format (little-endian): magic `PKT1`, format version (1 byte),
/// content mode (1 byte), 2 reserved bytes, width, height, key length and
/// pixel length (4 bytes each), checksum (8 bytes), key bytes (UTF-8), then
/// premultiplied RGBA pixels.
public actor DiskImageCache {
    public enum CacheError: Error, Sendable, Hashable, CustomStringConvertible {
        case unusableDirectory(String)
        public var description: String {
            switch self { case .unusableDirectory(let reason): return "the disk cache cannot be used: \(reason)" }
        }
    }

    private static let magic: [UInt8] = Array("PKT1".utf8)
    private static let version: UInt8 = 1
    private static let headerSize = 32
    private static let entryExtension = "pkthumb"
    private static let temporaryPrefix = ".tmp-"

    /// The folder the entries live in.
    public nonisolated let directory: URL
    /// The most bytes the entries may take together.
    public let sizeLimit: Int
    /// Each entry's size, when it was last used, and which write made it.
    private var entries: [String: (size: Int, lastUse: UInt64, revision: UInt64)] = [:]
    private var revisions: UInt64 = 0
    private var totalSize = 0
    private var useCounter: UInt64 = 0
    private let fileManager = FileManager()
    /// Bumped by ``removeAll()``: a store prepared before it is ignored.
    public private(set) var generation = 0

    /// Opens (creating if needed) a cache in `directory` of at most
    /// `sizeLimit` bytes (default 150 MB, Nuke's).
    /// - Throws: ``CacheError/unusableDirectory(_:)`` if the folder cannot
    ///   be created or is a file.
    public init(directory: URL, sizeLimit: Int = 150 * 1_048_576) throws(CacheError) {
        self.directory = directory
        self.sizeLimit = max(sizeLimit, 0)
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
        // Index what is there, oldest first by modification date; clear torn writes.
        let names = (try? fileManager.contentsOfDirectory(atPath: directory.path)) ?? []
        var found: [(name: String, size: Int, date: Date)] = []
        for name in names {
            let path = directory.appendingPathComponent(name).path
            if name.hasPrefix(Self.temporaryPrefix) {
                try? fileManager.removeItem(atPath: path)
                continue
            }
            guard name.hasSuffix("." + Self.entryExtension),
                  let attributes = try? fileManager.attributesOfItem(atPath: path) else { continue }
            let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
            let date = attributes[.modificationDate] as? Date ?? .distantPast
            found.append((name, size, date))
        }
        found.sort { $0.date < $1.date }
        for (position, entry) in found.enumerated() {
            entries[entry.name] = (entry.size, UInt64(position), 0)
            totalSize += entry.size
        }
        useCounter = UInt64(found.count)
    }

    /// The cached thumbnail for `key`, or `nil` if there is none or the entry
    /// fails its checks (it is then deleted).
    public func image(for key: ThumbnailKey) async -> PixelImage? {
        let name = Self.fileName(for: key)
        guard let revision = entries[name]?.revision else { return nil }
        let url = directory.appendingPathComponent(name)
        let image = await BlockingWorkQueue.fileIO.run { () -> PixelImage? in
            guard let data = try? Data(contentsOf: url) else { return nil }
            return Self.decode(data, expecting: key)
        }
        guard let image else {
            // Bad on disk: forget it, unless a store replaced it while it was read.
            if entries[name]?.revision == revision { drop(name) }
            return nil
        }
        useCounter += 1
        entries[name]?.lastUse = useCounter
        return image
    }

    /// Stores `image` for `key` (atomically), then evicts the least recently
    /// used entries beyond the size limit. Failures to write are ignored: a
    /// cache that cannot store still answers correctly. With `generation`,
    /// the store happens only if ``removeAll()`` has not run since that
    /// generation was read (a late write must not refill an erased cache).
    public func store(_ image: PixelImage, for key: ThumbnailKey, generation expected: Int? = nil) async {
        let started = generation
        if let expected, expected != started { return }
        let name = Self.fileName(for: key)
        let destination = directory.appendingPathComponent(name), directory = self.directory, limit = sizeLimit
        // The slow part (encoding and writing a temporary file) runs on the I/O threads; the rename that
        // makes it the entry runs here, in order with every other change to entry files (evictions,
        // erases), so the folder and the index never disagree.
        let written = await BlockingWorkQueue.fileIO.run { () -> (temporary: URL, size: Int)? in
            let data = Self.encode(image, key: key)
            guard data.count <= limit else { return nil }
            let temporary = directory.appendingPathComponent(Self.temporaryPrefix + UUID().uuidString)
            do {
                try data.write(to: temporary)
            } catch {
                try? FileManager().removeItem(at: temporary)
                return nil
            }
            return (temporary, data.count)
        }
        guard let written else { return }
        // Everything was removed while this was written (it must not come back), or the rename failed.
        // rename(2) replaces an old entry atomically: a reader sees the old file or the new one.
        guard generation == started, rename(written.temporary.path, destination.path) == 0 else {
            try? fileManager.removeItem(at: written.temporary)
            return
        }
        if let old = entries[name] { totalSize -= old.size }
        useCounter += 1
        revisions += 1
        entries[name] = (written.size, useCounter, revisions)
        totalSize += written.size
        evictIfNeeded()
    }

    /// Removes every entry.
    public func removeAll() {
        generation += 1
        for name in entries.keys { try? fileManager.removeItem(at: directory.appendingPathComponent(name)) }
        entries.removeAll()
        totalSize = 0
    }

    /// The bytes the entries take.
    public var byteCount: Int { totalSize }
    /// The number of entries.
    public var count: Int { entries.count }

    /// The file an entry for `key` lives in: a hash of the key, so any
    /// identifier is a safe file name. The key itself is stored inside and
    /// checked, so a hash collision can never serve the wrong picture.
    public nonisolated static func fileName(for key: ThumbnailKey) -> String {
        let text = "\(key.id.rawValue)\u{0}\(key.size.width)x\(key.size.height)\u{0}\(key.size.mode.rawValue)"
        return String(format: "%016llx", fnv1a64(Array(text.utf8))) + "." + entryExtension
    }

    // MARK: Private

    private func drop(_ name: String) {
        try? fileManager.removeItem(at: directory.appendingPathComponent(name))
        if let entry = entries.removeValue(forKey: name) { totalSize -= entry.size }
    }

    private func evictIfNeeded() {
        guard totalSize > sizeLimit else { return }
        for (name, _) in entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
            guard totalSize > sizeLimit else { break }
            drop(name)
        }
    }

    static func encode(_ image: PixelImage, key: ThumbnailKey) -> Data {
        let keyBytes = Array(keyText(key).utf8)
        var data = Data(capacity: headerSize + keyBytes.count + image.byteCount)
        data.append(contentsOf: magic)
        data.append(version)
        data.append(key.size.mode == .fill ? 0 : 1)
        data.append(contentsOf: [0, 0])
        for value in [image.width, image.height, keyBytes.count, image.byteCount] {
            withUnsafeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian) { data.append(contentsOf: $0) }
        }
        let checksum = fnv1a64(keyBytes, image.pixels)
        withUnsafeBytes(of: checksum.littleEndian) { data.append(contentsOf: $0) }
        data.append(contentsOf: keyBytes)
        data.append(contentsOf: image.pixels)
        return data
    }

    static func decode(_ data: Data, expecting key: ThumbnailKey) -> PixelImage? {
        let bytes = [UInt8](data)
        guard bytes.count >= headerSize, Array(bytes[0..<4]) == magic, bytes[4] == version else { return nil }
        func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        let width = u32(8), height = u32(12), keyLength = u32(16), pixelLength = u32(20)
        var checksum: UInt64 = 0
        for i in 0..<8 { checksum |= UInt64(bytes[24 + i]) << (8 * UInt64(i)) }
        // Sizes come from the file: check them without trusting them (no overflow, no allocation).
        guard bytes.count == headerSize + keyLength + pixelLength, width > 0, height > 0,
              width <= ThumbnailSize.maximumSide, height <= ThumbnailSize.maximumSide,
              pixelLength == width * height * 4,
              key.size.mode == .fit || (width == key.size.width && height == key.size.height) else { return nil }
        let keyBytes = Array(bytes[headerSize..<(headerSize + keyLength)])
        guard keyBytes == Array(keyText(key).utf8) else { return nil }
        let pixels = Array(bytes[(headerSize + keyLength)...])
        guard fnv1a64(keyBytes, pixels) == checksum else { return nil }
        return PixelImage(width: width, height: height, pixels: pixels)
    }

    private static func keyText(_ key: ThumbnailKey) -> String {
        "\(key.id.rawValue)\u{0}\(key.size.width)x\(key.size.height)\u{0}\(key.size.mode.rawValue)"
    }
}

/// FNV-1a, 64 bits, over the concatenation of `parts`: fast, and plenty to
/// catch torn or corrupted files (this is an integrity check, not security).
func fnv1a64(_ parts: [UInt8]...) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for part in parts {
        part.withUnsafeBufferPointer { buffer in
            for byte in buffer {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01B3
            }
        }
    }
    return hash
}
