#if canImport(UIKit)
import Foundation
import ParallaxHosting
import ParallaxImages

/// Where the gallery's photos come from: the photos bundled with the app,
/// served through a simulated server (random latency per photo, as in
/// RolfHendriks' UICollectionView-Demo) and loaded by the pipeline with
/// ImageIO's thumbnail path. Thumbnails are kept on disk in the app's
/// Caches folder, so a second launch shows them without decoding. When the
/// folder holds a manifest with previews (`photos.json`, as
/// `parallax-gallery manifest` writes it, as a photo server would send it),
/// every photo shows its preview until it arrives.
@MainActor
final class PhotoStore {
    let server: SimulatedImageServer
    let loader: ImageLoader
    let requests: ImageRequester<ObjectIdentifier>
    private(set) var photos: [ImageID] = []
    private(set) var problem: String?
    private let folder: URL
    /// Width ÷ height of the photos whose header was read.
    private var aspectRatios: [ImageID: CGFloat] = [:]

    init(photoFolder: URL?, latency: ClosedRange<Duration> = .zero ... .seconds(2)) {
        let folder = photoFolder ?? URL(fileURLWithPath: "/nonexistent")
        self.folder = folder
        server = SimulatedImageServer(backing: FolderImageSource(directory: folder),
                                      behavior: .init(latency: latency, seed: 3))
        // The memory cache's default limits: 15 % of the device's memory, at most 768 MB (Nuke's rule).
        // ParallaxImageView hands the loader to MemoryWarnings, which empties that cache on a memory
        // warning and keeps a tenth of it while the app is in the background.
        loader = ImageLoader(source: server, decoder: ImageIODecoder(), diskCache: Self.thumbnailCache())
        requests = ImageRequester(loader: loader, source: server)
    }

    /// The thumbnail cache in Caches/Thumbnails (the system may empty it when
    /// space runs low, which only costs decodes); `nil` if it cannot be made.
    static func thumbnailCache() -> DiskImageCache? {
        guard let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first else { return nil }
        return try? DiskImageCache(directory: caches.appendingPathComponent("Thumbnails", isDirectory: true))
    }

    /// Lists the photos; on failure the gallery shows `problem` instead.
    func loadPhotoList() async {
        do throws(ImageSourceError) {
            photos = try await server.imageIDs()
            problem = photos.isEmpty ? "No photos in the app's Photos folder." : nil
            // The previews a server would list with its photos: shown from the first frame.
            if let json = try? Data(contentsOf: folder.appendingPathComponent("photos.json")),
               let manifest = try? ImageManifest(json: json) {
                loader.previews.insert(contentsOf: manifest.previewHashes.map { (id: $0.key, hash: $0.value) })
            }
        } catch {
            photos = []
            problem = error.description
        }
    }

    /// The photo's width ÷ height, upright, from its header: the first
    /// kilobytes of the file, read once (the simulated server reads them
    /// without its latency). `nil` if it cannot be read.
    func aspectRatio(of id: ImageID) async -> CGFloat? {
        if let known = aspectRatios[id] { return known }
        guard let header = try? await server.header(for: id), header.width > 0, header.height > 0 else { return nil }
        let ratio = CGFloat(header.width) / CGFloat(header.height)
        aspectRatios[id] = ratio
        return ratio
    }

    /// The photo's width ÷ height if its header was read already.
    func knownAspectRatio(of id: ImageID) -> CGFloat? { aspectRatios[id] }

    /// RolfHendriks' UICollectionView-Demo's "reload": the server forgets what it sent, so every photo
    /// downloads again; decoded thumbnails are dropped.
    func reloadAll() async {
        await loader.reloadAll()                // also resets the server (a resettable source)
        requests.reset()                        // after: requests made meanwhile go too
    }

    /// RolfHendriks' UICollectionView-Demo's "erase": as if the app were freshly installed.
    func eraseAll() async {
        await loader.eraseAll()                 // also erases the server's downloads
        requests.reset()
    }
}
#endif
