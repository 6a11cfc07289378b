import Foundation

/// The JPEG and PNG files of a folder on this device (local photos), in
/// name order. Everything is stored locally, so surfaces show the "cached"
/// placeholder while these decode.
///
/// Odd files cost nothing and say what they are: the list holds regular
/// files (and links to them) only, and a read checks the file before
/// taking it: a folder, a named pipe, a device or a link to nothing is
/// refused by its type (a pipe is never opened, so it cannot block), a file
/// over ``maximumFileSize`` by its size, and a file that is not a JPEG or
/// PNG by its first bytes, so a gigabyte of zeros named `big.jpg` costs
/// 16 bytes of reading, not a gigabyte of memory.
public struct FolderImageSource: ImageSource {
    /// The folder read.
    public let directory: URL
    /// The largest file read, in bytes (256 MiB by default: a 100-megapixel
    /// PNG fits; the decoders refuse larger pictures anyway).
    public let maximumFileSize: Int
    /// File name extensions taken as pictures (lower case).
    public static let extensions: Set<String> = ["jpg", "jpeg", "png"]

    /// The pictures in `directory`, none larger than `maximumFileSize` bytes.
    public init(directory: URL, maximumFileSize: Int = 256 << 20) {
        self.directory = directory
        self.maximumFileSize = max(maximumFileSize, 1)
    }

    /// - Throws: ``ImageSourceError/unavailable(_:)`` with a clear message
    ///   when the folder does not exist or cannot be read.
    public func imageIDs() async throws(ImageSourceError) -> [ImageID] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .unavailable("there is no photo folder at \(directory.path)")
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw .unavailable("the photo folder \(directory.path) cannot be read: \(error.localizedDescription)")
        }
        let directory = self.directory
        let pictures = names.filter { name in
            guard !name.hasPrefix("."), Self.extensions.contains(URL(fileURLWithPath: name).pathExtension.lowercased()) else {
                return false
            }
            return FileKind(path: directory.appendingPathComponent(name).path).isRegularFile
        }
        return pictures.sorted().map { ImageID($0) }
    }

    /// The bytes of picture `id`.
    /// - Throws: ``ImageSourceError/notFound(_:)`` when there is no such
    ///   file; ``ImageSourceError/unreadable(_:_:)`` saying what the file is
    ///   when it is not a picture this source reads.
    public func data(for id: ImageID) async throws(ImageSourceError) -> Data {
        guard !id.rawValue.contains("/"), id.rawValue != "..", id.rawValue != ".", !id.rawValue.isEmpty else {
            throw .notFound(id)
        }
        let path = directory.appendingPathComponent(id.rawValue).path
        let limit = maximumFileSize
        // Blocking reads, so on the pipeline's file threads rather than Swift's cooperative pool.
        let read = await BlockingWorkQueue.fileIO.run { Self.readPicture(at: path, id: id, limit: limit) }
        switch read {
        case .success(let data): return data
        case .failure(let error): throw error
        }
    }

    /// Always `true`: every picture is a file on this device.
    public func isStoredLocally(_ id: ImageID) async -> Bool { true }

    /// The header of picture `id` (format, size as shown, orientation),
    /// read from the file's first bytes only: 64 KB, then more (up to 1 MB)
    /// only if the frame header lies further in, behind large metadata.
    /// - Throws: ``ImageSourceError/notFound(_:)``, or
    ///   ``ImageSourceError/unreadable(_:_:)`` saying why the header cannot
    ///   be read.
    public func header(for id: ImageID) async throws(ImageSourceError) -> ImageHeader {
        guard !id.rawValue.contains("/"), id.rawValue != "..", id.rawValue != ".", !id.rawValue.isEmpty else {
            throw .notFound(id)
        }
        let path = directory.appendingPathComponent(id.rawValue).path
        let read = await BlockingWorkQueue.fileIO.run { Self.readHeader(at: path, id: id) }
        switch read {
        case .success(let header): return header
        case .failure(let error): throw error
        }
    }

    static func readHeader(at path: String, id: ImageID) -> Result<ImageHeader, ImageSourceError> {
        guard FileKind(path: path) == .regular else {
            let kind = FileKind(path: path)
            return .failure(kind == .missing ? .notFound(id) : .unreadable(id, "is \(kind), not a photo"))
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { return .failure(.unreadable(id, "cannot be opened")) }
        defer { try? handle.close() }
        var bytes = Data()
        for step in [64 << 10, 192 << 10, 768 << 10] {
            guard let more = try? handle.read(upToCount: step) else { return .failure(.unreadable(id, "cannot be read")) }
            bytes.append(more)
            do throws(ImageDecodingError) {
                if let header = try ImageHeader.read(from: bytes) { return .success(header) }
            } catch {
                return .failure(.unreadable(id, "has no readable header: \(error)"))
            }
            if more.count < step { return .failure(.unreadable(id, "ends before its frame header (\(bytes.count) bytes)")) }
        }
        return .failure(.unreadable(id, "has no frame header in its first megabyte"))
    }

    /// The file's size, modification time (to the nanosecond) and inode: an
    /// edit, a replacement or a `touch` changes it. One `stat`, on the
    /// pipeline's file threads.
    public func fingerprint(for id: ImageID) async -> String? {
        guard !id.rawValue.contains("/"), id.rawValue != "..", id.rawValue != ".", !id.rawValue.isEmpty else { return nil }
        let path = directory.appendingPathComponent(id.rawValue).path
        return await BlockingWorkQueue.fileIO.run { Self.fingerprint(ofFileAt: path) }
    }

    static func fingerprint(ofFileAt path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        #if canImport(Darwin)
        let time = status.st_mtimespec
        #else
        let time = status.st_mtim
        #endif
        return "file \(status.st_size) \(time.tv_sec).\(time.tv_nsec) \(status.st_ino)"
    }

    /// Reads the picture at `path`, checking its type, size and first bytes
    /// before reading the rest.
    static func readPicture(at path: String, id: ImageID, limit: Int) -> Result<Data, ImageSourceError> {
        let kind = FileKind(path: path)
        switch kind {
        case .missing: return .failure(.notFound(id))
        case .regular: break
        default: return .failure(.unreadable(id, "is \(kind), not a photo"))
        }
        // O_NONBLOCK: should the file have become a pipe since, opening it still returns at once.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(.unreadable(id, "cannot be opened: \(String(cString: strerror(errno)))")) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            return .failure(.unreadable(id, "is no longer a regular file"))
        }
        let size = Int(status.st_size)
        guard size <= limit else {
            return .failure(.unreadable(id, "is \(HTTPAttemptFailure.bytes(Int64(size))), over the \(HTTPAttemptFailure.bytes(Int64(limit))) limit for one photo (maximumFileSize)"))
        }
        guard size > 0 else { return .failure(.unreadable(id, "is empty")) }
        /// Reads into `buffer` from `offset` until its end or the end of the file; returns where it stopped.
        func fill(_ buffer: UnsafeMutableRawBufferPointer, from offset: Int) -> Int {
            var offset = offset
            while offset < buffer.count {
                let count = read(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                offset += count
            }
            return offset
        }
        // The header first, into 16 bytes: a file that is not a picture is refused before anything
        // the size of the file is allocated.
        var header = [UInt8](repeating: 0, count: min(16, size))
        let headerCount = header.withUnsafeMutableBytes { fill($0, from: 0) }
        guard ImageFormat(sniffing: Data(header.prefix(headerCount))) != nil else {
            let head = header.prefix(min(headerCount, 4)).map { String(format: "%02X", $0) }.joined(separator: " ")
            return .failure(.unreadable(id, "is not a JPEG or PNG (it starts with \(head))"))
        }
        var data = Data(count: size)
        let filled = data.withUnsafeMutableBytes { buffer -> Int in
            buffer.copyBytes(from: header.prefix(headerCount))
            return fill(buffer, from: headerCount)
        }
        guard filled == size else { return .failure(.unreadable(id, "was cut short while it was read (\(filled) of \(size) bytes)")) }
        return .success(data)
    }
}

/// What a path names, told apart without opening it (so a named pipe
/// cannot block and a device cannot be read from).
enum FileKind: CustomStringConvertible {
    case missing, regular, directory, pipe, device, socket, danglingLink, other
    /// A symbolic link, when asked not to follow links.
    case link

    /// What `path` names; with `following` false, a link is `.link` rather
    /// than what it points to.
    init(path: String, following: Bool = true) {
        var status = stat()
        if !following {
            guard lstat(path, &status) == 0 else {
                self = .missing
                return
            }
            if status.st_mode & S_IFMT == S_IFLNK {
                self = .link
                return
            }
        }
        if stat(path, &status) != 0 {
            var link = stat()
            self = lstat(path, &link) == 0 && (link.st_mode & S_IFMT) == S_IFLNK ? .danglingLink : .missing
            return
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFIFO: self = .pipe
        case S_IFCHR, S_IFBLK: self = .device
        case S_IFSOCK: self = .socket
        default: self = .other
        }
    }

    var isRegularFile: Bool { self == .regular }

    var description: String {
        switch self {
        case .missing: return "missing"
        case .regular: return "a file"
        case .directory: return "a folder"
        case .pipe: return "a named pipe (FIFO)"
        case .device: return "a device"
        case .socket: return "a socket"
        case .danglingLink: return "a link to a file that does not exist"
        case .link: return "a symbolic link"
        case .other: return "not a regular file"
        }
    }
}
