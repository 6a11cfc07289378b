import Foundation

extension FolderImageSource {
    /// When photo `id` was taken: the date its metadata records
    /// (``CaptureDateReader``), or else the file's modification time.
    ///
    /// Costs what a header costs: one read of the first 64 KB
    /// (`captureDateFirstRead`), and for a HEIF or WebP photo whose Exif
    /// data follows the picture one or two reads of just that range
    /// (`pread`), never the whole file.
    /// - Throws: ``ImageSourceError/notFound(_:)``, or
    ///   ``ImageSourceError/unreadable(_:_:)`` for a file that is not a photo.
    public func captureDate(for id: ImageID) async throws(ImageSourceError) -> CaptureDate {
        try await readFile(of: id) { Self.readCaptureDate(at: $0, id: id) }
    }

    /// The header and the capture date of photo `id` from one opening of
    /// its file: the first bytes serve both (`headerReadEnds`; more only
    /// if the header or the date lies further in), which halves the reads of asking
    /// ``header(for:)`` and ``captureDate(for:)`` one after the other. A
    /// WebP's orientation comes from its `EXIF` chunk even when that lies
    /// beyond the first bytes (the date reader reads it anyway), where
    /// ``header(for:)`` says `.up`.
    /// - Throws: as ``header(for:)`` does.
    public func headerAndCaptureDate(for id: ImageID) async throws(ImageSourceError) -> (header: ImageHeader, date: CaptureDate?) {
        let both = try await readFile(of: id) { Self.readHeaderAndCaptureDate(at: $0, id: id) }
        return (both.header, both.date)
    }

    /// 64: a folder reads that many photos' headers and dates in one job on
    /// its file threads (``headersAndCaptureDates(for:)``).
    public var headerBatchSize: Int { 64 }

    /// ``headerAndCaptureDate(for:)`` for each of `ids`, in order, read one
    /// after another in a single job on the file threads: the cost of a
    /// library's 100,000 reads is the reads, not 100,000 hops between
    /// threads.
    public func headersAndCaptureDates(for ids: [ImageID]) async -> [Result<(header: ImageHeader, date: CaptureDate?), ImageSourceError>] {
        await readHeadersAndCaptureDates(of: ids).map { read in read.map { (header: $0.header, date: Optional($0.date)) } }
    }

    /// What one opening of a photo's file gave: its header, its capture
    /// date, and the file as it was when read (``ListedPhoto``: size,
    /// modification time, inode, from `fstat` on the open file).
    public struct HeaderRead: Sendable, Hashable {
        /// The photo's header.
        public var header: ImageHeader
        /// When it was taken, or the file's modification time.
        public var date: CaptureDate
        /// The file the header and date were read from.
        public var file: ListedPhoto
    }

    /// ``headersAndCaptureDates(for:)`` with the file each was read from:
    /// for an index that files what it reads under the exact file it came
    /// from (a photo edited after the read is then read again), with no
    /// table of file stamps of its own. No read more than
    /// ``headersAndCaptureDates(for:)``'s.
    public func readHeadersAndCaptureDates(of ids: [ImageID]) async -> [Result<HeaderRead, ImageSourceError>] {
        let paths = ids.map { path(of: $0) }
        let root = directory.path
        return await BlockingWorkQueue.fileIO.run {
            var confinement = PathConfinement(realRoot: Self.realRoot(of: root))
            return zip(ids, paths).map { id, path -> Result<HeaderRead, ImageSourceError> in
                guard let path else { return .failure(.notFound(id)) }
                return confinement.confine(path, id: id).flatMap { Self.readHeaderAndCaptureDate(at: $0, id: id) }
            }
        }
    }

    static func readHeaderAndCaptureDate(at path: [CChar], id: ImageID) -> Result<HeaderRead, ImageSourceError> {
        withRegularFile(at: path, id: id) { descriptor, status in
            let size = Int(status.st_size)
            // As the header alone is read (``headerReadEnds``): the first bytes, then more while the frame
            // header lies further in.
            var bytes = Data()
            var header: ImageHeader?
            for end in headerReadEnds where header == nil {
                guard let more = readBytes(descriptor, at: bytes.count, count: min(end, size) - bytes.count) else {
                    return .failure(.unreadable(id, "cannot be read"))
                }
                if bytes.isEmpty { bytes = more } else { bytes.append(more) }
                do throws(ImageDecodingError) {
                    header = try ImageHeader.read(from: bytes)
                } catch {
                    return .failure(.unreadable(id, "has no readable header: \(error)"))
                }
                if header == nil, bytes.count >= size { return .failure(.unreadable(id, "ends before its frame header (\(bytes.count) bytes)")) }
            }
            guard var header else { return .failure(.unreadable(id, "has no frame header in its first megabyte")) }
            let (date, orientation) = captureDate(descriptor, format: header.format, firstBytes: bytes, fileSize: size)
            // A WebP's EXIF chunk, after its image data, is read for the date: its orientation completes the header.
            if header.format == .webp, let orientation { header.orientation = orientation }
            return .success(HeaderRead(header: header, date: date ?? modificationDate(status), file: ListedPhoto(id: id, status: status)))
        }
    }

    /// Runs `body` with the open regular file at `path` and its status, or
    /// says what the path is instead: missing, not a regular file (a pipe
    /// is never opened, so it cannot block), or unreadable. The file is
    /// closed after `body`.
    private static func withRegularFile<Value>(
        at path: [CChar], id: ImageID, _ body: (Int32, stat) -> Result<Value, ImageSourceError>
    ) -> Result<Value, ImageSourceError> {
        let kind = FileKind(cPath: path)
        guard kind == .regular else {
            return .failure(kind == .missing ? .notFound(id) : .unreadable(id, "is \(kind), not a photo"))
        }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(.unreadable(id, "cannot be opened")) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            return .failure(.unreadable(id, "is no longer a regular file"))
        }
        return body(descriptor, status)
    }

    /// The file's modification time, the date of a photo whose metadata has none.
    private static func modificationDate(_ status: stat) -> CaptureDate {
        #if canImport(Darwin)
        let time = status.st_mtimespec
        #else
        let time = status.st_mtim
        #endif
        return CaptureDate(date: Date(timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9),
                           hasUTCOffset: true, source: .fileModified)
    }

    /// The bytes read first for a date: a JPEG's or PNG's metadata and a
    /// HEIF's `meta` box fit, as for the header.
    static let captureDateFirstRead = 64 << 10

    static func readCaptureDate(at path: [CChar], id: ImageID) -> Result<CaptureDate, ImageSourceError> {
        withRegularFile(at: path, id: id) { descriptor, status in
            let modified = modificationDate(status)
            let size = Int(status.st_size)
            guard let first = readBytes(descriptor, at: 0, count: min(size, captureDateFirstRead)) else {
                return .failure(.unreadable(id, "cannot be read"))
            }
            guard let format = ImageFormat(sniffing: first) else { return .failure(.unreadable(id, "is not a photo this source reads")) }
            return .success(captureDate(descriptor, format: format, firstBytes: first, fileSize: size).date ?? modified)
        }
    }

    /// The date in the metadata of the open file `descriptor` of `fileSize`
    /// bytes, given its first bytes: each range the reader asks for is
    /// read with `pread`, at most ``CaptureDateReader/maximumReads`` times.
    /// Also the EXIF orientation in the Exif data read, if any.
    static func captureDate(_ descriptor: Int32, format: ImageFormat, firstBytes: Data,
                            fileSize: Int) -> (date: CaptureDate?, orientation: ImageOrientation?) {
        var reader = CaptureDateReader(format: format, firstBytes: firstBytes, fileLength: fileSize)
        for _ in 0...CaptureDateReader.maximumReads {
            switch reader.read() {
            case .found(let date): return (date, reader.exifOrientation)
            case .notFound: return (nil, reader.exifOrientation)
            case .needsBytes(let range):
                let start = min(range.lowerBound, fileSize), end = min(range.upperBound, fileSize)
                guard let bytes = readBytes(descriptor, at: start, count: end - start) else { return (nil, nil) }
                reader.add(bytes, at: range.lowerBound)
            }
        }
        return (nil, nil)
    }

    /// `count` bytes from `offset` (fewer at the end of the file), or `nil` on an error.
    private static func readBytes(_ descriptor: Int32, at offset: Int, count: Int) -> Data? {
        guard count > 0 else { return Data() }
        var data = Data(count: count)
        let filled = data.withUnsafeMutableBytes { buffer -> Int in
            var filled = 0
            while filled < count {
                let n = pread(descriptor, buffer.baseAddress! + filled, count - filled, off_t(offset + filled))
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { return n < 0 ? -1 : filled }
                filled += n
            }
            return filled
        }
        guard filled >= 0 else { return nil }
        if filled < count { data.removeSubrange(filled...) }
        return data
    }
}
