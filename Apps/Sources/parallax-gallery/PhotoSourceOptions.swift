import ArgumentParser
import Foundation
import ParallaxGallery
import ParallaxImages

/// Where the photos come from, and where the window keeps their
/// thumbnails: the options every subcommand shares for its photo source,
/// and the one place their fallbacks are decided.
///
/// A folder or server that was named and cannot be used is an error naming
/// it; only an unnamed source falls back (`.cache/photos` to generated
/// pictures, the thumbnail cache to none), and says so.
struct PhotoSourceOptions: ParsableArguments {
    @Option(help: "A photo library: a folder of photos (JPEG, PNG, HEIC/HEIF, AVIF, WebP) and every folder under it (default: .cache/photos from scripts/fetch-photos.sh, else generated pictures).")
    var photos: String?

    @Flag(help: "Show generated pictures instead of photos.")
    var generated = false

    @Option(help: "Show the photos of an HTTP server instead of a folder: the URL of a folder it lists (python3 -m http.server, nginx autoindex; every folder under it is read too), of an index.txt, or of a JSON manifest with every photo's size (see the manifest subcommand).")
    var server: String?

    @Option(help: "The window only: the folder thumbnails and the library index are kept in between launches (default: $XDG_CACHE_HOME/parallax-gallery, else ~/.cache/parallax-gallery). Render and benchmarks keep none.")
    var cache: String?

    @Flag(help: "The window only: keep no thumbnails and no library index on disk.")
    var noCache = false

    func validate() throws {
        _ = try serverURL()
        if server != nil, photos != nil || generated {
            throw ValidationError("--server cannot be combined with --photos or --generated")
        }
        if noCache, cache != nil { throw ValidationError("--cache and --no-cache contradict each other") }
    }

    /// Whether the photos come from the photo folder (named or not) rather
    /// than a server or generated pictures.
    var isFolder: Bool { server == nil && !generated }

    /// The photo folder: `--photos`, else `.cache/photos` in the current folder.
    var folder: URL {
        photos.map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".cache/photos")
    }

    /// The server's URL, checked: http or https, with a host.
    func serverURL() throws -> URL? {
        guard let server else { return nil }
        guard let url = URL(string: server), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
              let host = url.host, !host.isEmpty else {
            throw ValidationError("--server must be an http:// or https:// URL with a host, not \(server)")
        }
        return url
    }

    /// The photos to show. A folder or server that was named and cannot be
    /// used (missing, unreadable, no photos) is an error naming it; only
    /// when none was named does a missing or empty `.cache/photos` fall back
    /// to generated pictures, with a message when the folder is there but
    /// unusable, so the gallery still runs.
    ///
    /// With `indexed` (the window, a measured launch), a folder's library
    /// index is kept beside the thumbnail cache (none with `--no-cache`).
    func library(indexed: Bool = false) async throws -> PhotoLibrary {
        if generated { return PhotoLibrary.synthetic(mixedShapes: true) }
        if let url = try serverURL() { return try PhotoLibrary.server(url) }
        let folder = self.folder
        let indexDirectory = indexed && !noCache ? cache.map { URL(fileURLWithPath: $0) } ?? GalleryCache.defaultDirectory() : nil
        do {
            return try await PhotoLibrary.folder(folder, indexDirectory: indexDirectory)
        } catch {
            if photos != nil { throw error }
            if FileManager.default.fileExists(atPath: folder.path) {
                CommandOutput.warn("\(error); showing generated pictures instead")
            }
            return PhotoLibrary.synthetic(mixedShapes: true)
        }
    }

    /// The thumbnail cache for a gallery a person uses (not the benchmarks):
    /// `nil` with `--no-cache`, or when the folder cannot be used, which is
    /// said once on standard error.
    func diskCache() -> DiskImageCache? {
        guard !noCache else { return nil }
        guard let directory = cache.map({ URL(fileURLWithPath: $0) }) ?? GalleryCache.defaultDirectory() else {
            CommandOutput.warn("no home folder for the thumbnail cache; thumbnails will not be kept (--cache DIR sets one)")
            return nil
        }
        switch GalleryCache.open(directory) {
        case .success(let cache):
            if cache.isReadOnly {
                CommandOutput.warn("the thumbnail cache \(directory.path) is read-only: thumbnails already there are shown, new ones are not kept")
            }
            return cache
        case .failure(let error):
            CommandOutput.warn("\(error); photos still show, but thumbnails will not be kept between launches")
            return nil
        }
    }
}
