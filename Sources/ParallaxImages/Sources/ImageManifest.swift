import Foundation

/// A photo list that carries each photo's size: what a server offers so
/// that a layout can give every tile its photo's shape before a single
/// picture is fetched, instead of one header request per photo.
///
/// The manifest is JSON: an object with an `images` array, or the array
/// alone. Each element is a picture's name, or an object with its `name`
/// and, when the server knows them, its size:
///
/// ```json
/// { "images": [
///     { "name": "beach.jpg", "width": 4032, "height": 3024 },
///     { "name": "portrait.jpg", "width": 3024, "height": 4032, "orientation": 6,
///       "thumbhash": "k0oGLQaSVsN0BVhn2oq2Z5SQUQcZ" },
///     "unmeasured.png"
/// ] }
/// ```
///
/// `width` and `height` are the size the picture shows at, after its EXIF
/// orientation, which is what a layout wants and what photo services list.
/// `orientation` (EXIF 1–8, 1 when absent) and `format` (`"jpeg"` or
/// `"png"`, or their media types; else taken from the name's extension) are
/// optional, and so is `thumbhash`: the picture's ``ThumbHash`` in base64, as
/// Immich serves it, which a surface shows until the picture arrives (one
/// that is not a hash is ignored). Other keys are ignored, so a manifest
/// can carry whatever else its server needs.
///
/// A manifest is read leniently, as a folder listing is: an element with
/// no usable name is skipped, a name listed twice counts once (the first),
/// and an entry whose size is missing or unusable (not a whole number from
/// 1 to 2³¹ − 1, an orientation outside 1–8, an unknown format) is kept
/// without a header, so its shape is read from the picture itself later.
/// Only JSON that is not a manifest at all is an error.
///
/// Complexity: O(manifest bytes) to parse.
public struct ImageManifest: Sendable, Hashable {
    /// One picture the manifest lists.
    public struct Entry: Sendable, Hashable {
        /// The picture's name.
        public var id: ImageID
        /// Its header as the manifest states it, or `nil` when the manifest
        /// gives no usable size.
        public var header: ImageHeader?
        /// Its preview, when the manifest gives one.
        public var previewHash: ThumbHash?

        /// An entry as given.
        public init(id: ImageID, header: ImageHeader?, previewHash: ThumbHash? = nil) {
            self.id = id
            self.header = header
            self.previewHash = previewHash
        }
    }

    /// The pictures, in the manifest's order, each once.
    public var entries: [Entry]

    /// A manifest of `entries`, as given.
    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// The names, in order.
    public var imageIDs: [ImageID] { entries.map(\.id) }

    /// The previews the manifest gives, by name.
    public var previewHashes: [ImageID: ThumbHash] {
        var previews: [ImageID: ThumbHash] = [:]
        for entry in entries {
            if let preview = entry.previewHash { previews[entry.id] = preview }
        }
        return previews
    }

    /// The headers the manifest states, by name.
    public var headers: [ImageID: ImageHeader] {
        var headers: [ImageID: ImageHeader] = [:]
        for entry in entries {
            if let header = entry.header { headers[entry.id] = header }
        }
        return headers
    }

    /// The manifest of every picture `source` lists, each with the header
    /// ``ImageSource/header(for:)`` reads (a folder's first kilobytes, an
    /// HTTP range), at most four at once, through a ``HeaderProbe``; a
    /// picture whose header cannot be read is listed without a size. With
    /// `makingPreviews`, each picture is also fetched and decoded small for
    /// its ``ThumbHash`` (a picture that cannot be is listed without one),
    /// as many at once as there are cores, on the pipeline's decoding threads.
    ///
    /// - Throws: what ``ImageSource/imageIDs()`` throws.
    /// - Complexity: one header read per picture; with previews, one fetch
    ///   and one reduced decode per picture too.
    public static func reading(_ source: any ImageSource, makingPreviews: Bool = false) async throws(ImageSourceError) -> ImageManifest {
        let ids = try await source.imageIDs()
        let probe = HeaderProbe(source: source)
        await probe.probe(ids)
        await probe.waitUntilIdle()
        var entries: [Entry] = [], seen: Set<ImageID> = []
        entries.reserveCapacity(ids.count)
        for id in ids where seen.insert(id).inserted {
            entries.append(Entry(id: id, header: await probe.header(for: id)))
        }
        if makingPreviews {
            let previews = await Self.previews(of: entries.map(\.id), from: source)
            for index in entries.indices { entries[index].previewHash = previews[entries[index].id] }
        }
        return ImageManifest(entries: entries)
    }

    /// The hashes of `ids`' pictures, `width` at a time.
    private static func previews(of ids: [ImageID], from source: any ImageSource,
                                 width: Int = ProcessInfo.processInfo.activeProcessorCount) async -> [ImageID: ThumbHash] {
        await withTaskGroup(of: (ImageID, ThumbHash?).self) { group in
            var previews: [ImageID: ThumbHash] = [:], next = 0
            func addNext() {
                guard next < ids.count else { return }
                let id = ids[next]
                next += 1
                group.addTask {
                    guard let data = try? await source.data(for: id) else { return (id, nil) }
                    let hash = await BlockingWorkQueue.decoding.run { try? ThumbHash(photo: data) }
                    return (id, hash)
                }
            }
            for _ in 0..<max(width, 1) { addNext() }
            while let (id, hash) = await group.next() {
                if let hash { previews[id] = hash }
                addNext()
            }
            return previews
        }
    }

    /// The manifest as JSON, in the form ``init(json:)`` reads: an object
    /// with an `images` list, each entry's name with, when known, its shown
    /// `width` and `height`, its `format`, its `orientation` when it is
    /// not 1 and its `thumbhash` when known. What a server writes once for a
    /// folder of photos.
    public func json() -> Data {
        struct Written: Encodable {
            var name: String
            var width: Int?
            var height: Int?
            var format: String?
            var orientation: Int?
            var thumbhash: String?
        }
        struct Document: Encodable { var images: [Written] }
        let images = entries.map { entry in
            Written(name: entry.id.rawValue, width: entry.header?.width, height: entry.header?.height,
                    format: entry.header?.format.rawValue,
                    orientation: entry.header.flatMap { $0.orientation == .up ? nil : $0.orientation.rawValue },
                    thumbhash: entry.previewHash?.base64)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding strings and optional integers cannot fail.
        return (try? encoder.encode(Document(images: images))) ?? Data("{\"images\":[]}".utf8)
    }

    /// The largest side a manifest may state, in pixels: PNG's own limit.
    public static let maximumSide = Int(Int32.max)

    /// Why bytes are not a manifest.
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong, as a phrase ("is not valid JSON").
        public var reason: String

        /// "the manifest " and the reason.
        public var description: String { "the manifest \(reason)" }
    }

    /// The manifest in `json`.
    ///
    /// nginx's `autoindex_format json` listing reads as a manifest too: its
    /// elements carry a `type`, and only those of type `"file"` with a photo
    /// extension (``FolderImageSource/extensions``) are taken, so
    /// sub-folders and other files never become tiles.
    /// - Throws: ``ParseError`` when the bytes are not JSON, or JSON that
    ///   is neither an array nor an object with an `images` array.
    /// - Complexity: O(bytes), in one pass, keeping only the entries.
    public init(json: Data) throws(ParseError) {
        var entries: [Entry] = [], seen: Set<ImageID> = []
        try Self.forEachEntry(inJSON: json) { entry in
            if seen.insert(entry.id).inserted { entries.append(entry) }
        }
        self.entries = entries
    }

    /// Calls `body` with each usable entry of the manifest in `json`, in
    /// order, repeats included, as it is read: what ``init(json:)`` and an
    /// HTTP index build on without holding a second copy. `skipped`, when
    /// given, hears of the entries of nginx's listing that are not photos:
    /// each folder (`isFolder`) and each other file, by name.
    static func forEachEntry(inJSON json: Data, skipped: ((_ name: String, _ isFolder: Bool) -> Void)? = nil,
                             _ body: (Entry) -> Void) throws(ParseError) {
        do {
            try ManifestJSONReader.forEachElement(in: json) { element in
                guard !element.name.isEmpty else { return }
                if let type = element.type {
                    guard type == "file", FileNameExtension.isPhoto(element.name) else {
                        if type == "file" || type == "directory" { skipped?(element.name, type == "directory") }
                        return
                    }
                }
                body(Entry(id: ImageID(element.name), header: header(of: element),
                           previewHash: element.thumbhash.flatMap { ThumbHash(base64: $0) }))
            }
        } catch {
            throw ParseError(reason: error.reason)
        }
    }

    /// Whether `bytes` look like a manifest rather than a text list or an
    /// HTML listing: their first character other than white space (after
    /// a byte-order mark) opens a JSON object or array.
    static func looksLikeJSON(_ bytes: Data) -> Bool {
        var rest = bytes[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        guard let first = rest.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return false }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    /// The header an entry states: its shown size turned back into the
    /// stored size its orientation implies; `nil` when any of it is
    /// missing or unusable.
    private static func header(of element: ManifestJSONReader.Element) -> ImageHeader? {
        guard let width = whole(element.width, in: 1...maximumSide),
              let height = whole(element.height, in: 1...maximumSide) else { return nil }
        var orientation = ImageOrientation.up
        if element.hasOrientation {
            guard let number = whole(element.orientation, in: 1...8),
                  let stated = ImageOrientation(rawValue: number) else { return nil }
            orientation = stated
        }
        let format: ImageFormat
        if element.hasFormat {
            guard let text = element.format, let stated = ImageFormat(manifestName: text) else { return nil }
            format = stated
        } else {
            guard let guessed = ImageFormat(fileExtension: FileNameExtension.of(element.name)) else {
                return nil
            }
            format = guessed
        }
        let swaps = orientation.swapsWidthAndHeight
        return ImageHeader(format: format, storedWidth: swaps ? height : width,
                           storedHeight: swaps ? width : height, orientation: orientation)
    }

    /// The whole number `value` when it lies in `range`, else `nil` (never
    /// a trap: 1e300, 2.5, a string or `true` are all `nil`).
    private static func whole(_ value: Double?, in range: ClosedRange<Int>) -> Int? {
        guard let value, value.isFinite, value == value.rounded(), value >= Double(range.lowerBound),
              value <= Double(range.upperBound) else { return nil }
        return Int(value)
    }
}

extension ImageFormat {
    /// The format a manifest names, by name or media type, in any case:
    /// `"jpeg"`/`"jpg"`/`"image/jpeg"`, `"png"`, `"heic"`/`"heif"`,
    /// `"avif"`, `"webp"` (with or without `image/`).
    init?(manifestName: String) {
        var name = manifestName.lowercased()
        if name.hasPrefix("image/") { name.removeFirst("image/".count) }
        self.init(fileExtension: name)
    }

    /// The format a file name's extension suggests (`jpg`, `jpeg`, `png`,
    /// `heic`, `heif`, `hif`, `avif`, `webp`).
    init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "jpg", "jpeg", "jpe": self = .jpeg
        case "png": self = .png
        case "heic", "heif", "hif": self = .heif
        case "avif": self = .avif
        case "webp": self = .webp
        default: return nil
        }
    }
}
