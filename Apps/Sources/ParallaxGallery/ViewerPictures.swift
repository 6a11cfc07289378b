#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Dispatch
import Foundation
import ParallaxImages

/// The pictures of the detail view: each photo shown or next to it, read
/// once and decoded at the window's size, and the part of the photo shown
/// when zoomed in, decoded sharp.
///
/// The photo on screen comes first, on a queue of its own; its neighbours
/// are read and decoded ahead on another, so paging shows them at once.
/// Only the photo shown and its two neighbours are kept (each its encoded
/// bytes and one window-size picture: about 10 MB for a 12-megapixel
/// JPEG); everything else is let go of as soon as paging moves on. One
/// region is decoded at a time and the latest asked for wins, so a fast
/// zoom never queues stale decodes. Decodes run on their own threads,
/// never on Swift's cooperative pool, and reserve their memory in the
/// decoders' shared budget like every other decode.
@MainActor
final class ViewerPictures {
    /// What is known of one photo.
    struct Entry {
        /// The photo's encoded bytes, once read.
        var data: Data?
        /// The whole photo fitted in the window's pixels.
        var screen: DecodedThumbnail?
        /// Why the photo cannot be shown, if it cannot.
        var failure: String?
        /// The camera and lens its metadata names.
        var camera: CameraDescription?
        /// When it was taken, as its metadata says.
        var captureDate: CaptureDate?
        /// Bumped when the entry is dropped and made again: late results of the old one are ignored.
        var generation: Int
    }

    /// A decoded part of the photo shown, and where it lies in the photo (fractions of its width and height).
    struct Region {
        var id: ImageID
        var rect: CGRect
        var image: PixelImage
        /// Its serial number, for the canvas to tell one region's texture from another's.
        var serial: Int
    }

    private let source: any ImageSource
    private let decoder: any ImageDecoding
    /// The window's size in pixels: the whole photo is decoded to fit it.
    private(set) var screenSize: ThumbnailSize
    private(set) var entries: [ImageID: Entry] = [:]
    /// The sharp part of the photo shown, if one has been decoded.
    private(set) var region: Region?
    /// The region being decoded, and the one asked for after it (the latest wins).
    private var regionInFlight: (id: ImageID, rect: CGRect, pixelWidth: Int, pixelHeight: Int)?
    private var regionWanted: (id: ImageID, rect: CGRect, pixelWidth: Int, pixelHeight: Int)?
    private var regionSerial = 0
    /// Photos a region decode failed for, while they are kept.
    private(set) var regionsUnavailable: Set<ImageID> = []
    private var generation = 0
    /// The generations of the entries kept, readable from the decode queues: a decode queued for a photo
    /// paged past (a held arrow key queues one per photo) is skipped when its turn comes.
    private let live = LiveGenerations()
    /// Loads and decodes under way, and those waiting for none to be.
    private var inFlight = 0
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []
    /// Called when something arrives (a render loop wakes; tests count).
    var onArrival: (@MainActor () -> Void)?

    private static let currentQueue = DispatchQueue(label: "parallaxkit.viewer.current", qos: .userInitiated)
    private static let aheadQueue = DispatchQueue(label: "parallaxkit.viewer.ahead", qos: .utility)

    init(source: any ImageSource, decoder: any ImageDecoding, screenSize: ThumbnailSize) {
        self.source = source
        self.decoder = decoder
        self.screenSize = screenSize
    }

    /// The window-size picture of `id`, if decoded.
    func screenPicture(of id: ImageID) -> DecodedThumbnail? { entries[id]?.screen }

    /// Keeps `shown` and `neighbours` (reading and decoding what is not yet
    /// there) and lets every other photo go. The neighbours are read once
    /// `shown` is decoded: on two cores their decodes would slow the one the
    /// person is waiting for, and the frames of its transition.
    func show(_ shown: ImageID, neighbours: [ImageID]) {
        let kept = Set([shown] + neighbours)
        for (id, entry) in entries where !kept.contains(id) {
            live.remove(entry.generation)
            entries[id] = nil
        }
        if let region, !kept.contains(region.id) { self.region = nil }
        regionsUnavailable.formIntersection(kept)
        self.shown = shown
        pendingNeighbours = neighbours
        load(shown, urgent: true)
        loadNeighboursOnceShown()
    }

    /// The photo shown, and the neighbours waiting for its picture.
    private var shown: ImageID?
    private var pendingNeighbours: [ImageID] = []

    private func loadNeighboursOnceShown() {
        guard let shown, entries[shown]?.screen != nil || entries[shown]?.failure != nil else { return }
        let neighbours = pendingNeighbours
        pendingNeighbours = []
        for id in neighbours { load(id, urgent: false) }
    }

    /// The window changed size: pictures are decoded again at the new size.
    func resize(to size: ThumbnailSize) {
        guard size != screenSize else { return }
        screenSize = size
        for id in Array(entries.keys) {
            guard var entry = entries[id], let data = entry.data else { continue }
            entry.screen = nil
            entries[id] = entry
            decodeScreen(id, data: data, generation: entry.generation, urgent: true)
        }
    }

    private func load(_ id: ImageID, urgent: Bool) {
        guard entries[id] == nil else { return }
        generation += 1
        let generation = self.generation
        entries[id] = Entry(generation: generation)
        live.insert(generation)
        begin()
        Task { @MainActor [source] in
            defer { self.end() }
            do {
                let data = try await source.data(for: id)
                guard self.entries[id]?.generation == generation else { return }
                self.entries[id]?.data = data
                if let format = ImageFormat(sniffing: data) {
                    var reader = CaptureDateReader(format: format, firstBytes: data, fileLength: data.count)
                    if case .found(let date) = reader.read() { self.entries[id]?.captureDate = date }
                    self.entries[id]?.camera = reader.camera
                }
                self.decodeScreen(id, data: data, generation: generation, urgent: urgent)
            } catch {
                guard self.entries[id]?.generation == generation else { return }
                self.entries[id]?.failure = "\(error)"
                self.loadNeighboursOnceShown()
                self.onArrival?()
            }
        }
    }

    private func decodeScreen(_ id: ImageID, data: Data, generation: Int, urgent: Bool) {
        let size = screenSize, decoder = self.decoder, live = self.live
        begin()
        Task { @MainActor in
            defer { self.end() }
            let result = await Self.run(on: urgent ? Self.currentQueue : Self.aheadQueue) { () -> Result<DecodedThumbnail, ImageDecodingError>? in
                guard live.contains(generation) else { return nil }
                return Self.result { () throws(ImageDecodingError) in try decoder.thumbnail(from: data, size: size) }
            }
            guard let result, self.entries[id]?.generation == generation, size == self.screenSize else { return }
            switch result {
            case .success(let decoded): self.entries[id]?.screen = decoded
            case .failure(let error): self.entries[id]?.failure = error.description
            }
            self.loadNeighboursOnceShown()
            self.onArrival?()
        }
    }

    /// Asks for `rect` of photo `id` (fractions of its width and height) at
    /// `pixelWidth × pixelHeight`: decoded once the region being decoded,
    /// if any, is done, unless another is asked for first.
    func requestRegion(of id: ImageID, rect: CGRect, pixelWidth: Int, pixelHeight: Int) {
        // A photo whose regions cannot be decoded (a progressive JPEG too large for the memory budget at that
        // scale) keeps its window-size picture; it is not tried again every frame.
        guard !regionsUnavailable.contains(id) else { return }
        let wanted = (id: id, rect: rect, pixelWidth: pixelWidth, pixelHeight: pixelHeight)
        if let inFlight = regionInFlight, inFlight == wanted { regionWanted = nil; return }
        regionWanted = wanted
        startWantedRegion()
    }

    /// Whether a region is being decoded or waits to be.
    var isDecodingRegion: Bool { regionInFlight != nil || regionWanted != nil }

    private func startWantedRegion() {
        guard regionInFlight == nil, let wanted = regionWanted, let data = entries[wanted.id]?.data else { return }
        regionWanted = nil
        regionInFlight = wanted
        guard let region = try? ImageRegion(x: wanted.rect.minX, y: wanted.rect.minY, width: wanted.rect.width,
                                            height: wanted.rect.height, pixelWidth: wanted.pixelWidth,
                                            pixelHeight: wanted.pixelHeight) else {
            regionInFlight = nil
            return
        }
        let decoder = self.decoder
        begin()
        Task { @MainActor in
            defer { self.end() }
            let result = await Self.run(on: Self.currentQueue) {
                Self.result { () throws(ImageDecodingError) in try decoder.image(from: data, region: region) }
            }
            self.regionInFlight = nil
            switch result {
            case .success(let decoded) where self.entries[wanted.id] != nil:
                self.regionSerial += 1
                self.region = Region(id: wanted.id, rect: wanted.rect, image: decoded.image, serial: self.regionSerial)
                self.onArrival?()
            case .failure:
                self.regionsUnavailable.insert(wanted.id)
                if self.regionWanted?.id == wanted.id { self.regionWanted = nil }
            default:
                break
            }
            // A region that cannot be decoded (over the memory budget) leaves the window-size picture shown.
            self.startWantedRegion()
        }
    }

    /// Forgets the sharp region (the photo was zoomed out or paged away from).
    func dropRegion() {
        region = nil
        regionWanted = nil
    }

    /// Lets everything go (the viewer closed).
    func removeAll() {
        for entry in entries.values { live.remove(entry.generation) }
        entries.removeAll()
        regionsUnavailable.removeAll()
        shown = nil
        pendingNeighbours = []
        region = nil
        regionWanted = nil
    }

    /// Returns when no read or decode is under way.
    func waitUntilIdle() async {
        guard inFlight > 0 else { return }
        await withCheckedContinuation { idleWaiters.append($0) }
    }

    private func begin() { inFlight += 1 }

    private func end() {
        inFlight -= 1
        guard inFlight == 0 else { return }
        let waiters = idleWaiters
        idleWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }

    /// `decode`'s picture or error.
    private nonisolated static func result(_ decode: () throws(ImageDecodingError) -> DecodedThumbnail)
        -> Result<DecodedThumbnail, ImageDecodingError> {
        do {
            return .success(try decode())
        } catch {
            return .failure(error)
        }
    }

    /// Runs `work` (a blocking decode) on `queue`, off the cooperative pool.
    private nonisolated static func run<T: Sendable>(on queue: DispatchQueue, _ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: work()) }
        }
    }
}

/// The generations of ``ViewerPictures``' entries that are still kept, shared with its decode queues.
private final class LiveGenerations: @unchecked Sendable {
    // Guarded by `lock`: the main actor inserts and removes, the decode queues read.
    private var generations: Set<Int> = []
    private let lock = NSLock()

    func insert(_ generation: Int) { lock.withLock { _ = generations.insert(generation) } }
    func remove(_ generation: Int) { lock.withLock { _ = generations.remove(generation) } }
    func contains(_ generation: Int) -> Bool { lock.withLock { generations.contains(generation) } }
}
