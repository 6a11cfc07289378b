import Foundation

/// The photos of a folder tree on this device (local photos): every JPEG,
/// PNG, HEIF, AVIF and WebP file in the folder and its subfolders, at any
/// depth. Everything is stored locally, so surfaces show the "cached"
/// placeholder while these decode.
///
/// **A library, not a folder.** ``scan(readingFileStatus:inBackground:waitingAfterFirstBatchFor:)`` walks the tree
/// as a person keeps it (`2024/06-trip/IMG_0001.jpg`,
/// `2025/DCIM/100APPLE/IMG_4411.HEIC`) and hands out the photos in batches
/// as it finds them, the first after a few hundred, so a first screen can
/// be drawn long before a 100,000-photo library is listed; ``imageIDs()``
/// is the same walk, whole. Hidden files and folders (a leading `.`) are
/// skipped; links are followed once and never out of the folder; videos
/// and other files are counted, not listed; a folder that cannot be read
/// is reported by its path while the rest is listed (``FolderScan``).
///
/// **IDs are relative paths.** A photo's ID is its path relative to
/// ``directory``, components joined with `/`. A Linux file name is bytes,
/// not text: a component that is not UTF-8 (a Latin-1 `café.jpg` from an
/// old camera or archive) is listed too, each byte that is not part of
/// valid UTF-8 written `%HH` and `%` itself `%25` (`caf%E9.jpg`,
/// ``imageID(forFileName:)``); the source maps such an ID back to the
/// exact bytes to open the file. ``displayName(of:)`` is the name to show.
/// An ID is only ever resolved inside ``directory``: `..`, `.`, empty
/// components, absolute paths and NUL name no file, and a link that leads
/// out of the folder is not opened.
///
/// Odd files cost nothing and say what they are: a read checks the file
/// before taking it: a folder, a named pipe, a device or a link to nothing
/// is refused by its type (a pipe is never opened, so it cannot block), a
/// file over ``maximumFileSize`` by its size, and a file that is not a
/// picture by its first bytes, so a gigabyte of zeros named `big.jpg` costs
/// 16 bytes of reading, not a gigabyte of memory.
public struct FolderImageSource: ImageSource {
    /// The folder read, with its subfolders.
    public let directory: URL
    /// The largest file read, in bytes (256 MiB by default: a 100-megapixel
    /// PNG fits; the decoders refuse larger pictures anyway).
    public let maximumFileSize: Int
    /// File name extensions taken as photos (lower case; any case matches):
    /// those ``ImageFormat`` knows.
    public static let extensions: Set<String> = ["jpg", "jpeg", "jpe", "png", "heic", "heif", "hif", "avif", "webp"]
    /// How deep a scan goes: folders more than this many levels below
    /// ``directory`` are not read, and reported
    /// (``FolderScan/Problem/Kind/tooDeep(limit:)``).
    public static let maximumDepth = 64
    /// The most photos a scan lists: it stops there, and reports it
    /// (``FolderScan/Problem/Kind/tooManyPhotos(limit:)``).
    public static let maximumPhotoCount = 2_000_000

    /// The photos in `directory` and its subfolders, none larger than
    /// `maximumFileSize` bytes.
    public init(directory: URL, maximumFileSize: Int = 256 << 20) {
        self.directory = directory
        self.maximumFileSize = max(maximumFileSize, 1)
    }

    /// Every photo in the tree, in tree order: folder by folder, names
    /// compared by their bytes, so `2023/…` comes before `2024/…` and a
    /// folder's photos stay together. The whole ``scan(readingFileStatus:inBackground:waitingAfterFirstBatchFor:)``,
    /// without the files' status; folders that cannot be read are left out
    /// (a scan reports them).
    /// - Throws: ``ImageSourceError/unavailable(_:)`` with a clear message
    ///   when the folder does not exist or cannot be read;
    ///   ``ImageSourceError/cancelled`` when the task is cancelled first.
    public func imageIDs() async throws(ImageSourceError) -> [ImageID] {
        var ids: [ImageID] = []
        var finished: FolderScan.Report?
        for await event in scan(readingFileStatus: false) {
            switch event {
            case .photos(let photos): ids.append(contentsOf: photos.lazy.map(\.id))
            case .finished(let report): finished = report
            case .failed(let error): throw error
            }
        }
        guard let finished else { throw .cancelled }
        // In tree order already, unless links to folders added photos at the end.
        if !finished.isInTreeOrder { ids.sort(by: FolderImageID.precedes) }
        return ids
    }

    // MARK: IDs

    /// The ID of a file named `bytes` in ``directory`` itself: the name
    /// when it is UTF-8 without `%` (every ordinary name), else the name
    /// with `%` written `%25` and each byte that is not part of a valid
    /// UTF-8 sequence written `%HH` (two upper-case hex digits). A file in
    /// a subfolder is the IDs of its path's names joined with `/`. Reversed
    /// exactly by ``fileName(of:)``.
    public static func imageID(forFileName bytes: [UInt8]) -> ImageID {
        ImageID(FolderImageID.component(bytes))
    }

    /// The exact bytes of the path, relative to ``directory``, of the file
    /// `id` stands for (components separated by `/`; see
    /// ``imageID(forFileName:)``), or `nil` when `id` names no file in the
    /// folder: empty, absolute, with an empty, `.` or `..` component, with
    /// NUL, or with an escape ``imageID(forFileName:)`` would not write.
    public static func fileName(of id: ImageID) -> [UInt8]? {
        FolderImageID.components(of: id).map { Array($0.joined(separator: [UInt8(ascii: "/")])) }
    }

    /// The name to show for `id`: its file name (the path's last
    /// component), each byte that is not UTF-8 shown as U+FFFD (�). Lossy,
    /// for titles only; `id` opens the file.
    public static func displayName(of id: ImageID) -> String {
        let last = id.rawValue.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? id.rawValue
        guard last.contains("%") else { return last }
        return FolderImageID.name(spelled: ArraySlice(last.utf8)).map { String(decoding: $0, as: UTF8.self) } ?? last
    }

    /// The path of picture `id` under ``directory`` as written (links not
    /// yet resolved), NUL-terminated, or `nil` if it names no file here.
    func path(of id: ImageID) -> [CChar]? {
        guard let components = FolderImageID.components(of: id) else { return nil }
        var path = Array(directory.path.utf8)
        if path.last != UInt8(ascii: "/") { path.append(UInt8(ascii: "/")) }
        path += components.joined(separator: [UInt8(ascii: "/")])
        return PhotoTreeWalk.cPath(path)
    }

    /// The real path of the regular file `path` names (links resolved),
    /// checked to lie inside `root`'s real path (``PathConfinement``).
    static func confined(_ path: [CChar], root: String, id: ImageID) -> Result<[CChar], ImageSourceError> {
        var confinement = PathConfinement(realRoot: realRoot(of: root))
        return confinement.confine(path, id: id)
    }

    /// The real path of the folder `root` (`nil` when it has none): resolved
    /// once for a batch of photos (``PathConfinement``), where each
    /// resolution costs a `readlink` a component.
    static func realRoot(of root: String) -> [UInt8]? {
        PhotoTreeWalk.realPath(Array(root.utf8))
    }

    /// `read` of the file photo `id` names, confined to the folder
    /// (``confined(_:root:id:)``), on the pipeline's file threads rather
    /// than Swift's cooperative pool (the reads block); its failure, or a
    /// missing or refused file, is thrown. The one road every read of a
    /// photo's file takes.
    func readFile<Value: Sendable>(
        of id: ImageID, _ read: @escaping @Sendable (_ realPath: [CChar]) -> Result<Value, ImageSourceError>
    ) async throws(ImageSourceError) -> Value {
        guard let path = path(of: id) else { throw .notFound(id) }
        let root = directory.path
        let result = await BlockingWorkQueue.fileIO.run { Self.confined(path, root: root, id: id).flatMap(read) }
        switch result {
        case .success(let value): return value
        case .failure(let error): throw error
        }
    }

    /// The bytes of picture `id`.
    /// - Throws: ``ImageSourceError/notFound(_:)`` when there is no such
    ///   file; ``ImageSourceError/unreadable(_:_:)`` saying what the file is
    ///   when it is not a picture this source reads.
    public func data(for id: ImageID) async throws(ImageSourceError) -> Data {
        let limit = maximumFileSize
        return try await readFile(of: id) { Self.readPicture(at: $0, id: id, limit: limit) }
    }

    /// The thumbnail embedded in picture `id`'s Exif data, from the file's
    /// first ``EmbeddedThumbnail/readLength`` bytes (JPEG files), or a HEIF
    /// file whole, for its thumbnail item (a few megabytes from a phone,
    /// read again for the photo: the page cache serves the second read).
    public func embeddedThumbnail(for id: ImageID) async -> EmbeddedThumbnail? {
        let fileExtension = FileNameExtension.of(id.rawValue).lowercased()
        if ["heic", "heif", "hif"].contains(fileExtension) {
            let limit = maximumFileSize
            return try? await readFile(of: id) { Self.readPicture(at: $0, id: id, limit: limit).map(EmbeddedThumbnail.init(wholeFile:)) }
        }
        guard fileExtension.hasPrefix("jp") else { return nil }
        return try? await readFile(of: id) { path in
            guard FileKind(cPath: path) == .regular else { return .failure(.notFound(id)) }
            let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            guard descriptor >= 0 else { return .failure(.unreadable(id, "cannot be opened")) }
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
            defer { close(descriptor) }
            guard let bytes = try? handle.read(upToCount: EmbeddedThumbnail.readLength) else { return .failure(.unreadable(id, "cannot be read")) }
            return .success(EmbeddedThumbnail(jpeg: bytes))
        }
    }

    /// Always `true`: every picture is a file on this device.
    public func isStoredLocally(_ id: ImageID) async -> Bool { true }

    /// The header of picture `id` (format, size as shown, orientation),
    /// read from the file's first bytes only (`headerReadEnds`: 16 KB,
    /// then more, up to 1 MB, only if the frame header lies further in,
    /// behind large metadata).
    /// - Throws: ``ImageSourceError/notFound(_:)``, or
    ///   ``ImageSourceError/unreadable(_:_:)`` saying why the header cannot
    ///   be read.
    public func header(for id: ImageID) async throws(ImageSourceError) -> ImageHeader {
        try await readFile(of: id) { Self.readHeader(at: $0, id: id) }
    }

    /// How far into a file a header read goes, step by step, until the
    /// frame header is found: 16 KB first (the sample photos' frame headers
    /// lie within 200 bytes when there is no Exif, and within 20 KB for
    /// most that have it), then up to 1 MB (an Exif block with a large
    /// embedded thumbnail, a HEIF `meta` box). Reading 64 KB first cost a
    /// launch over 100,000 photos 6 GB of copies for bytes never looked at.
    static let headerReadEnds = [16 << 10, 64 << 10, 256 << 10, 1 << 20]

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
        var previousEnd = 0
        for end in headerReadEnds {
            let step = end - previousEnd
            previousEnd = end
            guard let more = try? handle.read(upToCount: step) else { return .failure(.unreadable(id, "cannot be read")) }
            if bytes.isEmpty { bytes = more } else { bytes.append(more) }
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
    /// edit, a replacement or a `touch` changes it. A `stat` and the
    /// path's resolution (`nil` for a link out of the folder), on the
    /// pipeline's file threads. ``ListedPhoto/fingerprint`` is the same text.
    public func fingerprint(for id: ImageID) async -> String? {
        guard let path = path(of: id) else { return nil }
        let root = directory.path
        return await BlockingWorkQueue.fileIO.run {
            guard case .success(let real) = Self.confined(path, root: root, id: id) else { return nil }
            return Self.fingerprint(ofFileAt: real)
        }
    }

    /// The files of `ids` as they are now (size, modification time, inode),
    /// in order; `nil` for a photo whose file is gone, is not a regular
    /// file, or is a link out of the folder. One `stat` each, in one job on
    /// the pipeline's file threads.
    public func files(of ids: [ImageID]) async -> [ListedPhoto?] {
        let paths = ids.map { path(of: $0) }
        let root = directory.path
        return await BlockingWorkQueue.fileIO.run {
            var confinement = PathConfinement(realRoot: Self.realRoot(of: root))
            return zip(ids, paths).map { id, path -> ListedPhoto? in
                guard let path, case .success(let real) = confinement.confine(path, id: id) else { return nil }
                var status = stat()
                guard stat(real, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
                return ListedPhoto(id: id, status: status)
            }
        }
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
