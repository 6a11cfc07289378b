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
///
/// **Any file name.** A Linux file name is bytes, not text: one that is not
/// UTF-8 (a Latin-1 `café.jpg` from an old camera or archive) is listed too.
/// Its ID is the name with each byte that is not part of valid UTF-8 written
/// `/xHH` (``imageID(forFileName:)``); since no file name holds `/`, such an
/// ID can never be another file's name, and the source maps it back to the
/// exact bytes to open the file. ``displayName(of:)`` is the name to show.
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
        // Read with readdir, as bytes: Foundation's listing leaves out names that are not UTF-8.
        guard let stream = opendir(directory.path) else {
            throw .unavailable("the photo folder \(directory.path) cannot be read: \(String(cString: strerror(errno)))")
        }
        defer { closedir(stream) }
        var ids: [ImageID] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            let id = Self.imageID(forFileName: name)
            guard name.first != UInt8(ascii: "."),
                  Self.extensions.contains(URL(fileURLWithPath: Self.displayName(of: id)).pathExtension.lowercased()),
                  FileKind(cPath: path(ofFileNamed: name)).isRegularFile else { continue }
            ids.append(id)
        }
        return ids.sorted()
    }

    // MARK: File names that are not UTF-8

    /// The ID of the file named `bytes`: the name itself when it is UTF-8
    /// (every ordinary name), else the name with each byte that is not part
    /// of a valid UTF-8 sequence written `/xHH` (two upper-case hex digits).
    /// A file name never holds `/`, so an ID with `/` is always one of these:
    /// unambiguous, and reversed exactly by ``fileName(of:)``.
    public static func imageID(forFileName bytes: [UInt8]) -> ImageID {
        var text = ""
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        parsing: while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                text.unicodeScalars.append(Unicode.UTF8.decode(encoded))
                offset += encoded.count
            case .error(let length):
                for byte in bytes[offset..<(offset + length)] { text += "/x" + String(format: "%02X", byte) }
                offset += length
            case .emptyInput:
                break parsing
            }
        }
        return ImageID(text)
    }

    /// The exact bytes of the file name `id` stands for (see
    /// ``imageID(forFileName:)``), or `nil` when `id` names no file in the
    /// folder: empty, `.` or `..`, a path, or an escape that
    /// ``imageID(forFileName:)`` would not have written.
    public static func fileName(of id: ImageID) -> [UInt8]? {
        let text = Array(id.rawValue.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        var index = 0
        while index < text.count {
            if text[index] == UInt8(ascii: "/") {
                guard index + 3 < text.count, text[index + 1] == UInt8(ascii: "x"),
                      let byte = UInt8(String(decoding: text[(index + 2)...(index + 3)], as: UTF8.self), radix: 16) else { return nil }
                bytes.append(byte)
                index += 4
            } else {
                bytes.append(text[index])
                index += 1
            }
        }
        guard !bytes.isEmpty, bytes != [0x2E], bytes != [0x2E, 0x2E], !bytes.contains(0),
              imageID(forFileName: bytes) == id else { return nil }
        return bytes
    }

    /// The name to show for `id`: its file name, each byte that is not
    /// UTF-8 shown as U+FFFD (�). Lossy, for titles only; `id` opens the file.
    public static func displayName(of id: ImageID) -> String {
        guard id.rawValue.contains("/") else { return id.rawValue }
        return fileName(of: id).map { String(decoding: $0, as: UTF8.self) } ?? id.rawValue
    }

    /// The path of the file named `bytes` in the folder, as bytes (NUL-terminated).
    private func path(ofFileNamed bytes: [UInt8]) -> [CChar] {
        var path = Array(directory.path.utf8)
        if path.last != UInt8(ascii: "/") { path.append(UInt8(ascii: "/")) }
        return (path + bytes + [0]).map { CChar(bitPattern: $0) }
    }

    /// The path of picture `id`, or `nil` if it names no file here.
    func path(of id: ImageID) -> [CChar]? {
        Self.fileName(of: id).map { path(ofFileNamed: $0) }
    }

    /// The bytes of picture `id`.
    /// - Throws: ``ImageSourceError/notFound(_:)`` when there is no such
    ///   file; ``ImageSourceError/unreadable(_:_:)`` saying what the file is
    ///   when it is not a picture this source reads.
    public func data(for id: ImageID) async throws(ImageSourceError) -> Data {
        guard let path = path(of: id) else { throw .notFound(id) }
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
        guard let path = path(of: id) else { throw .notFound(id) }
        let read = await BlockingWorkQueue.fileIO.run { Self.readHeader(at: path, id: id) }
        switch read {
        case .success(let header): return header
        case .failure(let error): throw error
        }
    }

    static func readHeader(at path: [CChar], id: ImageID) -> Result<ImageHeader, ImageSourceError> {
        let kind = FileKind(cPath: path)
        guard kind == .regular else {
            return .failure(kind == .missing ? .notFound(id) : .unreadable(id, "is \(kind), not a photo"))
        }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(.unreadable(id, "cannot be opened")) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
        defer { close(descriptor) }
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
        guard let path = path(of: id) else { return nil }
        return await BlockingWorkQueue.fileIO.run { Self.fingerprint(ofFileAt: path) }
    }

    static func fingerprint(ofFileAt path: [CChar]) -> String? {
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
    static func readPicture(at path: [CChar], id: ImageID, limit: Int) -> Result<Data, ImageSourceError> {
        let kind = FileKind(cPath: path)
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
            return .failure(.unreadable(id, "is \(ByteCountText.bytes(Int64(size))), over the \(ByteCountText.bytes(Int64(limit))) limit for one photo (maximumFileSize)"))
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
        self.init(cPath: Array(path.utf8CString), following: following)
    }

    /// What the NUL-terminated path `path` names (any bytes, UTF-8 or not).
    init(cPath path: [CChar], following: Bool = true) {
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
