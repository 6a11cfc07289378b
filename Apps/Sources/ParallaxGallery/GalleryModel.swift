#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore
import ParallaxHosting
import ParallaxImages
import ParallaxLayout

/// The gallery's state and behaviour, without any drawing: which photos,
/// which layout, where the scroll is, what every visible cell shows. The
/// render loop owns it, on the main actor.
///
/// Everything here is the toolkit's: layouts, place keeping, transitions,
/// snapping, scroll physics, parallax and the image pipeline. The model
/// owns the photo list, the resting layout and the scroll, and composes
/// one small owner per other concern:
/// - ``ShapeTracker``: the photos' shapes, read in the background;
/// - ``FrameSource``: whether the frame is at rest, mid-switch or mid-pinch,
///   and the items it shows;
/// - ``LoadingPlanner``: what the loader gets ready, and how urgently;
/// - ``CellPictures``: what each visible cell shows, through
///   ``ImageRequester``, so a recycled cell never shows another's photo.
///
/// A frame (``update(now:)``) flows one way: scroll physics → the frame's
/// items → parallax → the loads they need → the cells to draw.
@MainActor
package final class GalleryModel {
    /// How pictures are scheduled.
    package typealias Loading = LoadingPlanner.Loading

    /// The duration of the grid ↔ list switch.
    package static let transitionDuration = FrameSource.switchDuration
    /// The cross-fade of a picture that had to load (RolfHendriks' UICollectionView-Demo).
    package static let fadeDuration: TimeInterval = 0.25
    /// How often a layout that places photos by shape is rebuilt while
    /// their sizes stream in.
    package static let shapeRelayoutInterval = ShapeTracker.relayoutInterval

    package internal(set) var settings: GallerySettings
    package private(set) var viewportSize: CGSize
    /// The photos in the order shown (``arrangement``): `photos[item]`.
    package var photos: ArrangedPhotos { ArrangedPhotos(order: arrangement.order, ids: timeline.ids) }
    /// The layout shown at rest (``GalleryLayouts``).
    package private(set) var layout: AnyItemLayout
    package internal(set) var scroll: ScrollSimulation
    package let loader: ImageLoader
    package let server: SimulatedImageServer
    package let library: PhotoLibrary
    /// What the last ``update(now:)`` decided is on screen.
    package private(set) var cells: [CellContent] = []
    /// A message to show (a source that failed, an empty folder).
    package internal(set) var status: String?

    private(set) lazy var shapeTracker = ShapeTracker(photoNumber: { [unowned self] id in self.timeline.number(of: id) },
                                                      photoID: { [unowned self] number in self.timeline.id(ofNumber: number) })
    let listing = PhotoListing()
    /// Where the listing shown stands (``applyListing(now:)``).
    var listingProgress = ListingProgress()
    /// What the listing said when it finished (files not shown, problems), once it has.
    package internal(set) var listingSummary: FolderScan.Report?
    /// Photos were removed or their dates changed: arrange again at the next chance.
    var needsRearrange = false
    /// When dates last re-sorted the photos.
    var lastRearrange: TimeInterval?
    /// When the previews the loader made were last handed to the library's index.
    var lastPreviewFiling: TimeInterval?
    /// The last hand-over of previews to the index writer, which the next
    /// one (and the save before quitting) waits for: each reads its files'
    /// stamps first, so one started later could otherwise end sooner.
    var previewFiling: Task<Void, Never>?
    /// Every photo, numbered as it arrived, with when it was taken.
    var timeline = PhotoTimeline()
    /// The order and sections shown: the photo number at each position.
    package internal(set) var arrangement = PhotoTimeline.Arrangement(order: [], sections: [])
    /// The next arrangement, being made beside the frames (``rearrangeInBackground()``).
    var arrangingInFlight: ArrangementInFlight?
    /// How long the last arrangement made beside the frames took (``arrangementInterval``).
    var lastArrangementSeconds: TimeInterval = 0
    /// Timelines of more photos than this are arranged beside the frames while a listing or its dates
    /// stream in (``rearrangeInBackground()``); smaller ones at once, within the frame.
    package var backgroundArrangementMinimum = defaultBackgroundArrangementMinimum
    /// 8,192 photos: arranged in about 2 ms on a 2-core machine.
    package nonisolated static let defaultBackgroundArrangementMinimum = 8192
    /// The position of each photo number (the inverse of the arrangement).
    var positions: [Int32] = []
    var frames = FrameSource()
    let planner: LoadingPlanner
    let pictures: CellPictures

    /// The shapes the resting layout was built with.
    var laidOutShapes = PhotoShapes(count: 0)
    /// Counts the resting layouts built, so a loading plan knows its frames are stale.
    private var layoutGeneration = 0
    /// The items the last frame showed.
    private var shownItems: Set<Int> = []
    /// The photo numbers of those items.
    private var shownPhotos: Set<Int> = []
    /// The last frame's items, kept for their storage.
    private var shown = ShownFrame()
    private var lastUpdate: TimeInterval?
    private var pressedItem: Int?

    /// How pictures are scheduled.
    package var loading: Loading { planner.loading }

    /// The memory cache's byte limit.
    package static let memoryCacheLimit = 256 * 1_048_576

    /// The loader's configuration for `loading`: downloads that are not
    /// urgent are limited to 16 at once, 32 in all (the simulated server,
    /// like an HTTP/2 server, is bound by latency, not bandwidth).
    ///
    /// Photos on this device with no simulated latency (`local`) are read
    /// 4 at a time, 8 in all, instead: a read takes milliseconds, there is
    /// no latency to hide, and each read holds a whole photo (10 MB and
    /// more) until a decode takes it, so a few keep memory flat however
    /// large the library and however fast the fling.
    package static func loaderConfiguration(for loading: Loading, local: Bool = false) -> ImageLoader.Configuration {
        ImageLoader.Configuration(maximumConcurrentDownloads: local ? 4 : 16, maximumConcurrentUrgentDownloads: local ? 8 : 32,
                                  ordering: loading == .arrivalOrder ? .arrival : .priority)
    }

    /// - Parameter diskCache: Where thumbnails are kept between launches
    ///   (``GalleryCache``); `nil` keeps them in memory only.
    package init(library: PhotoLibrary, settings: GallerySettings, viewportSize: CGSize,
                loading: Loading = .standard, loaderConfiguration: ImageLoader.Configuration? = nil,
                diskCache: DiskImageCache? = nil) {
        self.settings = settings
        self.library = library
        self.viewportSize = viewportSize
        self.server = SimulatedImageServer(
            backing: library.source,
            behavior: .init(latency: settings.latency.range, failureRate: settings.failureRate, seed: settings.seed))
        self.loader = ImageLoader(source: server, decoder: PlatformImageDecoder(),
                                  memoryCache: MemoryImageCache(limits: .init(costLimit: Self.memoryCacheLimit)),
                                  diskCache: diskCache,
                                  configuration: loaderConfiguration ?? Self.loaderConfiguration(
                                    for: loading, local: library.readsHeadersLocally && settings.latency == .none))
        self.pictures = CellPictures(loader: loader, source: server, fadeDuration: Self.fadeDuration)
        self.planner = LoadingPlanner(loader: loader, loading: loading)
        self.layout = Self.fallbackLayout
        self.scroll = ScrollSimulation(bounds: 0...0, viewportExtent: viewportSize.height)
    }

    // MARK: Photo shapes

    /// Starts reading a folder's headers and dates once the first screen is
    /// full: on two cores every read before then is taken from the decodes
    /// the person is waiting for (at 100,000 photos the first screen came
    /// 4 s later with the reads running from the start). Dates then
    /// re-sort the photos with the one at the top kept in place.
    func startBackgroundReads() {
        guard !shapeTracker.isReading, library.headersComeCheap, timeline.shownCount > 0,
              !cells.isEmpty, unsharpCellCount == 0 else { return }
        shapeTracker.startReading(from: server)
    }

    /// What is known of the photos' shapes, which quilt and waterfall place
    /// photos by; read in the background as the list arrives.
    package var shapes: PhotoShapes { shapeTracker.shapes }

    /// Photos whose header could not be read (their tiles keep the placeholder shape).
    package var unreadableShapeCount: Int { shapeTracker.unreadable.count }

    /// Whether every photo's header has been read or has failed.
    package var allShapesRead: Bool { shapeTracker.allRead }

    /// Whether `item`'s tile is about to change shape: the layout places
    /// photos by shape and was built before `item`'s header was read (or the
    /// header is still being read). Its picture is not asked for until the
    /// layout has the size, so it is decoded once, at its real size.
    func awaitsShape(_ item: Int) -> Bool {
        settings.layout.usesPhotoShapes && shapeTracker.isReading && laidOutShapes.size(of: item) == nil
            && !shapeTracker.unreadable.contains(photoNumber(at: item))
    }

    /// Re-lays out a layout that places photos by shape when sizes have
    /// arrived and the tracker says it is time (`now == nil`: at once). Not
    /// during a switch or a pinch: those rest on the next frame after. The
    /// photo at the top keeps its place, even mid-fling.
    func applyShapes(now: TimeInterval?) {
        guard settings.layout.usesPhotoShapes, frames.isResting, shapeTracker.takeRelayout(now: now) else { return }
        relayout(keepingPlace: true)
    }

    // MARK: Layout

    /// The layout of the current settings and photos for `size`, with
    /// `shapes` (by default every shape known), remembered as the shapes the
    /// layout shows (``awaitsShape(_:)``); or, at the end of a pinch, the
    /// layout it `pinched` into, built from those shapes.
    func makeLayout(size: CGSize, shapes: PhotoShapes? = nil, pinched: (any ItemLayout)? = nil) -> AnyItemLayout {
        // Grid and list place photos without their shapes: no copy of 100,000 sizes for them.
        let shapes = shapes ?? (settings.layout.usesPhotoShapes ? shapeTracker.shapes.arranged(by: arrangement.order)
                                                                 : PhotoShapes(count: arrangement.order.count))
        laidOutShapes = shapes
        layoutGeneration &+= 1
        if let pinched { return AnyItemLayout(pinched) }
        // The configurations are valid by construction and the window's size is checked on resize;
        // the fallback only guards against a future edit.
        return (try? AnyItemLayout(GalleryLayouts.layout(settings.layout, columns: settings.columns, sections: sectionCounts,
                                                         titled: sectionsAreTitled, size: size, shapes: shapes)))
            ?? Self.fallbackLayout
    }

    /// An empty list: what shows before the photo list arrives.
    private static let fallbackLayout = AnyItemLayout(try! GridLayout(configuration: .list, itemCount: 0, containerSize: .zero))

    var viewport: ScrollViewport {
        ScrollViewport(size: viewportSize, contentOffset: CGPoint(x: 0, y: scroll.position))
    }

    /// Shows `layout` at rest, its scroll range updated and the scroll at
    /// `offset` (clamped).
    func show(_ layout: AnyItemLayout, at offset: CGFloat) {
        self.layout = layout
        let range = ScrollViewport(size: viewportSize).offsetRange(contentExtent: layout.contentExtent, along: .vertical)
        scroll.updateBounds(range, viewportExtent: viewportSize.height)
        scroll.jump(to: range.clamp(offset))
    }

    /// Rebuilds the resting layout from the current arrangement and shapes.
    /// With `keepingPlace`, the photo at the top stays where it is on
    /// screen, even if the arrangement moved it elsewhere in the list
    /// (`anchor`, taken before the arrangement changed: by default the
    /// photo at the top now).
    func relayout(keepingPlace: Bool, anchor: (photo: Int, distance: CGFloat)? = nil) {
        let anchor = anchor ?? topAnchor
        layout = makeLayout(size: viewportSize)
        let range = ScrollViewport(size: viewportSize).offsetRange(contentExtent: layout.contentExtent, along: .vertical)
        guard keepingPlace else {
            scroll.updateBounds(range, viewportExtent: viewportSize.height)
            scroll.jump(to: range.clamp(scroll.position))
            return
        }
        // At the very top, untouched (a launch, the list still streaming in), the top of the list is the
        // place kept: newer photos found later go above and show, rather than push the view down to the
        // photo that happened to be found first.
        if scroll.isAtRest, scroll.position <= scroll.bounds.lowerBound + 0.5 {
            scroll.updateBounds(range, viewportExtent: viewportSize.height)
            scroll.jump(to: range.lowerBound)
            return
        }
        // A fling or a drag goes on from the kept place: the content under it moved, the motion did not.
        let restored = anchor.map { PlaceKeeping.Anchor(index: ItemIndex(item: position(ofPhoto: $0.photo)), distance: $0.distance) }
        let offset = PlaceKeeping.contentOffset(restoring: restored, in: layout, viewport: viewport).y
        scroll.shift(by: offset - scroll.position)
        scroll.updateBounds(range, viewportExtent: viewportSize.height)
    }

    /// The window was resized (the desktop's rotation): the photo at the top stays.
    package func resize(to size: CGSize) {
        guard size.width > 0, size.height > 0, size != viewportSize else { return }
        let old = layout, oldViewport = viewport
        viewportSize = size
        frames.stop()
        layout = makeLayout(size: size)
        let newViewport = ScrollViewport(size: size)
        let offset = PlaceKeeping.contentOffset(from: old, at: oldViewport, to: layout, in: newViewport).y
        scroll.updateBounds(newViewport.offsetRange(contentExtent: layout.contentExtent, along: .vertical), viewportExtent: size.height)
        scroll.jump(to: offset)
    }

    /// Switches grid ↔ list (from quilt or waterfall, to the grid) with an
    /// animation that keeps the photo at the top where it is, even mid-scroll.
    package func toggleLayout(now: TimeInterval) {
        switchLayout(to: settings.layout.toggled, now: now)
    }

    /// Switches to `mode` with the animation of ``toggleLayout(now:)``;
    /// nothing happens while a pinch is active or when `mode` is shown.
    package func switchLayout(to mode: GalleryLayout, now: TimeInterval) {
        guard !frames.isPinching, mode != settings.layout else { return }
        pictures.resizeBehavior = .showsPlaceholder             // RolfHendriks' switch shows the placeholder again
        let old = layout, started = viewport
        // The list is the grid's one-column end: leaving it for the grid goes back to the flexible grid.
        if settings.layout == .list || mode == .list, settings.columns == 1 { settings.columns = nil }
        settings.layout = mode
        if mode.usesPhotoShapes { shapeTracker.startReading(from: server) }
        shapeTracker.noteLaidOut()                              // the new layout has every size known so far
        layout = makeLayout(size: viewportSize)
        let animation = LayoutTransition(from: old, at: started, to: layout)
        frames.beginSwitch(animation, at: now)
        let range = ScrollViewport(size: viewportSize).offsetRange(contentExtent: layout.contentExtent, along: .vertical)
        scroll.updateBounds(range, viewportExtent: viewportSize.height)
        scroll.jump(to: animation.destinationOffset.y)
    }

    /// The first visible item (the one place keeping keeps), or `nil`.
    package var topItem: Int? {
        PlaceKeeping.anchor(in: layout, viewport: viewport)?.index.item
    }

    // MARK: Frame

    /// Advances time to `now`, applies arrived images, decides every
    /// visible cell's content and starts the loads it needs.
    package func update(now: TimeInterval) {
        update(now: now, arrivalTime: now)
    }

    /// ``update(now:)``, with pictures that arrived since the last frame
    /// starting their cross-fade at `arrivalTime`.
    func update(now: TimeInterval, arrivalTime: TimeInterval) {
        let elapsed = lastUpdate.map { now - $0 } ?? 0
        lastUpdate = now
        if elapsed > 0 { scroll.advance(by: CGFloat(min(elapsed, 0.25))) }
        pictures.stampArrivals(at: arrivalTime)
        takeArrangement()
        applyListing(now: now)
        startBackgroundReads()
        shapeTracker.takeArrivals(shown: shownPhotos)
        applyDates(now: now)
        applyShapes(now: now)
        filePreviews(now: now)
        if let rested = frames.advance(to: now) { rest(rested.pinch, at: rested.offset) }

        frames.frame(at: now, layout: layout, scrollOffset: scroll.position, viewportSize: viewportSize, into: &shown)
        let visibleRect = CGRect(origin: shown.offset, size: viewportSize)
        // What is on screen is read first: its shapes (quilt, waterfall) and its dates.
        if shapeTracker.isReading {
            let order = arrangement.order
            shapeTracker.prioritize(visibleItems: shown.items) { Int(order[$0]) }
        }
        let placer = ParallaxScroller(effect: settings.effect.parallax(for: settings.layout), intensity: settings.intensity,
                                      isReduceMotionEnabled: settings.reduceMotion).placer(for: visibleRect)
        planLoading(visibleRect: visibleRect, placer: placer)
        fillCells(from: shown, placer: placer, now: now)
        shownItems.removeAll(keepingCapacity: true)
        shownPhotos.removeAll(keepingCapacity: true)
        for cell in cells {
            shownItems.insert(cell.item)
            shownPhotos.insert(photoNumber(at: cell.item))
        }
        pictures.release(keeping: shownItems)
    }

    /// Each shown item's cell: its frame on screen, its parallax, and the
    /// picture it asks for (which is requested here, at its planned
    /// priority) and shows.
    ///
    /// ``cells`` keeps its storage from frame to frame.
    private func fillCells(from frame: ShownFrame, placer: ParallaxScroller.Placer, now: TimeInterval) {
        cells.removeAll(keepingCapacity: true)
        let photos = self.photos
        for (item, itemFrame) in frame.items where item < photos.count {
            let placement = placer.placement(forItemFrame: itemFrame)
            let id = photos[item]
            var keySize = placement.contentSize
            if let size = frame.destinationSizes[item] {
                keySize = placer.placement(forItemFrame: CGRect(origin: itemFrame.origin, size: size)).contentSize
            }
            let key = awaitsShape(item) ? nil : thumbnailKey(for: id, contentSize: keySize)
            if let key { pictures.request(key, for: item, priority: planner.priority(for: item)) }
            var content = CellContent(item: item, id: id, frame: itemFrame.offsetBy(dx: -frame.offset.x, dy: -frame.offset.y),
                                      contentFrame: placement.contentFrame, image: nil, imageKey: nil, wantedKey: key,
                                      opacity: 0, placeholder: .cached, failure: nil, isPressed: pressedItem == item)
            pictures.fill(&content, now: now)
            // A tile waiting for its photo's shape asks for no picture yet, but shows the preview if one is known.
            if key == nil, let preview = loader.previews.image(for: id) { content.placeholder = .preview(preview) }
            cells.append(content)
        }
    }

    /// Plans the loads beyond the screen: the viewport's ranges at rest,
    /// both ends of a pinch's pair of counts during a pinch, nothing
    /// mid-switch (its frames are interpolated: the plan made for where it
    /// ends holds).
    private func planLoading(visibleRect: CGRect, placer: ParallaxScroller.Placer) {
        let photos = self.photos
        let thumbnail = { (item: Int, frame: CGRect) -> ThumbnailKey? in
            guard item < photos.count, !self.awaitsShape(item) else { return nil }
            return self.thumbnailKey(for: photos[item], contentSize: placer.placement(forItemFrame: frame).contentSize)
        }
        if let pinch = shown.pinch {
            planner.planPinch(pinch.live, nearer: pinch.nearer, thumbnail: thumbnail)
        } else if frames.isResting {
            let inputs = LoadingPlanner.Inputs(itemCount: photos.count, layoutGeneration: layoutGeneration,
                                               unreadableShapes: shapeTracker.unreadable.count, effect: settings.effect,
                                               intensity: settings.intensity, reduceMotion: settings.reduceMotion,
                                               scale: settings.scale)
            planner.planViewport(layout: layout, visibleRect: visibleRect, motion: scroll.motion, inputs: inputs,
                                 provisional: isOrderProvisional, thumbnail: thumbnail)
        }
    }

    /// Whether the order shown is still provisional: photos sorted by date
    /// while a folder's dates are being read (each read may move a photo).
    var isOrderProvisional: Bool {
        settings.sort != .name && library.headersComeCheap && shapeTracker.isReading && !shapeTracker.allRead
    }

    /// The thumbnail for a tile whose picture is `contentSize` points. A
    /// tile longer than a thumbnail may be (`ThumbnailSize.maximumSide`: a
    /// panorama at 1 : 64 in a one-column waterfall) gets the largest
    /// thumbnail of its shape, drawn stretched, rather than none.
    private func thumbnailKey(for id: ImageID, contentSize: CGSize) -> ThumbnailKey? {
        var points = contentSize
        let longest = max(points.width, points.height) * settings.scale
        let limit = CGFloat(ThumbnailSize.maximumSide - 1)           // a pixel short: rounding must not take it over
        if longest.isFinite, longest > limit {
            points = CGSize(width: points.width * limit / longest, height: points.height * limit / longest)
        }
        guard let size = try? ThumbnailSize(points: points, scale: settings.scale) else { return nil }
        return ThumbnailKey(id: id, size: size)
    }

    /// Loads under way for visible cells.
    package var pendingLoads: Int { pictures.pendingCount }

    /// Pictures held for cells (only visible ones: the memory cache keeps the rest).
    package var heldPictureCount: Int { pictures.heldImageCount }

    /// Whether the photos are moving: a scroll, a switch or a pinch under way.
    package var isMoving: Bool { !scroll.isAtRest || !frames.isResting }

    /// Whether anything is moving (for an idle render loop).
    package var isAnimating: Bool {
        !scroll.isAtRest || !frames.isResting || pictures.pendingCount > 0 || pictures.hasUndrawnArrivals
    }

    /// The item under a point on screen, if any.
    package func item(at point: CGPoint) -> Int? {
        cells.first { $0.frame.contains(point) }?.item
    }

    package func press(at point: CGPoint?) { pressedItem = point.flatMap(item(at:)) }
}
