import Foundation
import ParallaxImages
import ParallaxLibraryIndex
#if os(Linux)
import ParallaxImagesHTTP
#endif

/// Where the gallery's pictures come from and who made them.
package struct PhotoLibrary: Sendable {
    /// The pictures, as a source the simulated server serves.
    package var source: any ImageSource
    /// One line per photo credit (licence lines of the real photos).
    package var credits: [String]
    /// What the library is, for the window title and messages.
    package var description: String
    /// Whether reading a photo's header costs only a small local read (a
    /// folder, pictures in memory), so the gallery reads every header as
    /// soon as the list arrives; over a network it waits until a layout
    /// that needs shapes is shown.
    package var readsHeadersLocally: Bool
    /// How the photos are listed, when not by the source's
    /// `imageIDs()` in one batch: a folder's walk, streaming, with each
    /// file's time; a library index's records first. Given the source the
    /// gallery reads through (the library's, behind its simulated server),
    /// and what a folder's walk waits for after its first batch, if anything.
    package var makeListing: (@Sendable (any ImageSource, FirstScreenSignal?) -> AsyncStream<ListingEvent>)?
    /// What files the shapes and dates read into the library's index, when it has one.
    package var indexWriter: LibraryIndexWriter?

    package init(source: any ImageSource, credits: [String], description: String, readsHeadersLocally: Bool = false) {
        self.source = source
        self.credits = credits
        self.description = description
        self.readsHeadersLocally = readsHeadersLocally
    }

    /// The photos of `directory` and every folder under it, listed as the
    /// tree is walked (``FolderImageSource/scan(readingFileStatus:inBackground:waitingAfterFirstBatchFor:)``: the
    /// first screen is drawn from the first batch), with the credits file
    /// `fetch-photos.sh` writes beside them if there is one.
    ///
    /// Only the first photo is looked for here (the first folder's names
    /// read), and not even that when the library's index files photos; the
    /// gallery's own listing does the rest.
    /// - Throws: ``ImageSourceError/unavailable(_:)`` when the folder is
    ///   missing, cannot be read, or holds no photo at any depth.
    /// - Parameter indexDirectory: Where the library's index is kept
    ///   (``LibraryIndex``, beside the thumbnail cache): a second launch
    ///   shows the photos from it before the tree is walked, and the shapes
    ///   and dates read are filed there. `nil`: no index.
    package static func folder(_ directory: URL, indexDirectory: URL? = nil) async throws(ImageSourceError) -> PhotoLibrary {
        let source = FolderImageSource(directory: directory)
        var index: LibraryIndex?
        if let indexDirectory {
            switch await openIndex(for: directory, in: indexDirectory) {
            case .success(let opened): index = opened
            case .failure(let error):
                FileHandle.standardError.write(Data("parallax-gallery: \(error); the library is read without an index\n".utf8))
            }
        }
        // A folder whose index files photos has had photos: its listing says whether they are still there, so
        // the first screen comes from the index without this look (85 ms for one folder of 100,000 photos,
        // whose names are all read and sorted before the first is handed out).
        let filesPhotos = (try? await index?.hasRecords()) ?? false
        if !filesPhotos || !Self.isFolder(directory) { try await requirePhoto(in: source, at: directory) }
        var credits: [String] = []
        if let text = try? String(contentsOf: directory.appendingPathComponent("CREDITS.tsv"), encoding: .utf8) {
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                if fields.count >= 4 { credits.append("\(fields[0]): \(fields[3]) (\(fields[2]))") }
            }
        }
        if let index {
            let writer = LibraryIndexWriter(index: index, folder: source)
            var library = PhotoLibrary(source: IndexRecordingSource(base: source, writer: writer), credits: credits,
                                       description: "the photos in \(directory.path)", readsHeadersLocally: true)
            library.makeListing = { _, firstScreen in
                IndexedFolderListing.events(of: source, writer: writer, firstScreen: firstScreen)
            }
            library.indexWriter = writer
            return library
        }
        var library = PhotoLibrary(source: source, credits: credits, description: "the photos in \(directory.path)",
                                   readsHeadersLocally: true)
        library.makeListing = { _, firstScreen in FolderListing.events(of: source, firstScreen: firstScreen) }
        return library
    }

    /// Walks `source` until its first photo.
    /// - Throws: ``ImageSourceError/unavailable(_:)`` when the folder is
    ///   missing, cannot be read, or holds no photo at any depth.
    private static func requirePhoto(in source: FolderImageSource, at directory: URL) async throws(ImageSourceError) {
        scanning: for await event in source.scan(readingFileStatus: false) {
            switch event {
            case .photos(let photos): if !photos.isEmpty { return }
            case .finished: break scanning
            case .failed(let error): throw error
            }
        }
        throw .unavailable("the photo folder \(directory.path) holds no photo (JPEG, PNG, HEIC, AVIF or WebP) in it or any folder under it")
    }

    /// Whether `url` names a folder (a link to one included).
    private static func isFolder(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The photos of an HTTP server, through ``HTTPImageSource``: `url`
    /// names a folder the server lists (`python3 -m http.server`, nginx's
    /// autoindex), a `.txt` index of names beside the photos, or a `.json`
    /// manifest that also gives each photo's size (``ImageManifest``, as
    /// `parallax-gallery manifest` writes it), so quilt and waterfall have
    /// every shape without a request per photo. The list
    /// itself is fetched when the gallery starts; a server that cannot be
    /// reached is shown as a message in the window.
    /// - Throws: ``ImageSourceError/unavailable(_:)`` for settings the
    ///   source refuses (none with these defaults).
    package static func server(_ url: URL) throws(ImageSourceError) -> PhotoLibrary {
        let isIndexFile = ["txt", "json"].contains(url.pathExtension.lowercased())
        let source = try HTTPImageSource(baseURL: isIndexFile ? url.deletingLastPathComponent() : url,
                                         indexPath: isIndexFile ? url.lastPathComponent : "", timeout: 15,
                                         transport: Self.httpTransport)
        return PhotoLibrary(source: source, credits: [], description: "the photos at \(url.absoluteString)")
    }

    /// What to tell the user when a server's list named files the source
    /// would not request (outside the folder, a path, a URL of its own):
    /// the count and the first few with the reason; `nil` when none (ask
    /// once the list is read).
    package var refusalNotice: String? {
        guard let http = source as? HTTPImageSource, http.refusedNameCount > 0 else { return nil }
        let examples = http.refusedNames.prefix(3).map { "\"\($0.name.prefix(60))\" (\($0.reason))" }
        let count = http.refusedNameCount
        return "the server's list named \(count == 1 ? "1 file" : "\(count) files") the gallery will not request, "
            + "since only files under \(http.baseURL.absoluteString) are fetched: \(examples.joined(separator: ", "))"
            + (count > examples.count ? ", …" : "")
    }

    /// What carries the gallery's HTTP requests: on Linux libcurl,
    /// since swift-corelibs-foundation's `URLSession` cannot stop a transfer
    /// the source gave up on (a refused 300 MB answer would still be sent in
    /// full); elsewhere Foundation's `URLSession`, which can.
    static var httpTransport: any HTTPTransport {
        #if os(Linux)
        CurlTransport.shared
        #else
        URLSessionTransport()
        #endif
    }

    /// Whether every photo's shape can be read at once, as soon as the
    /// list is in (ask once it is): the headers are a local read, or the
    /// server's manifest stated the sizes (reading them costs no request).
    package var headersComeCheap: Bool {
        readsHeadersLocally || ((source as? HTTPImageSource)?.listedSizeCount ?? 0) > 0
    }

    /// Generated pictures, when no photo folder can be used: `width` ×
    /// `height` each, or with `mixedShapes` about that many pixels in the
    /// shapes of a real camera roll (4 : 3, 3 : 2, 16 : 9, 2 : 3 and
    /// square, in turn), so quilt and waterfall have shapes to show. Each
    /// is drawn when it is first asked for (``GeneratedImageSource``).
    package static func synthetic(count: Int = 60, width: Int = 1200, height: Int = 900,
                                  mixedShapes: Bool = false) -> PhotoLibrary {
        let ratios: [Double] = [4.0 / 3.0, 3.0 / 2.0, 16.0 / 9.0, 2.0 / 3.0, 1, 3.0 / 4.0]
        let area = Double(width * height)
        let pictures = (0..<count).map { index -> GeneratedImageSource.Picture in
            guard mixedShapes else { return .init(index: index, width: width, height: height) }
            let ratio = ratios[index % ratios.count]
            return .init(index: index, width: max(Int((area * ratio).squareRoot()), 1), height: max(Int((area / ratio).squareRoot()), 1))
        }
        return PhotoLibrary(source: GeneratedImageSource(pictures: pictures), credits: ["Generated pictures"],
                            description: "\(count) generated pictures", readsHeadersLocally: true)
    }

    /// Opens the index of the library at `directory` in `indexDirectory`,
    /// off the cooperative pool: opening may wait for another gallery's
    /// check or rebuild of the same file (a file lock).
    private static func openIndex(for directory: URL, in indexDirectory: URL) async -> Result<LibraryIndex, LibraryIndexError> {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                let file = LibraryIndex.fileURL(forLibraryAt: directory, in: indexDirectory)
                do throws(LibraryIndexError) {
                    continuation.resume(returning: .success(try LibraryIndex(at: file, root: directory)))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
    }
}
