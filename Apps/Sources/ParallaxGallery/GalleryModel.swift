#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore
import ParallaxHosting
import ParallaxImages
import ParallaxLayout

/// What one visible cell shows.
package struct CellContent: Sendable {
    /// What shows while the picture loads: the illustration while it
    /// downloads, black while a stored one decodes (RolfHendriks' UICollectionView-Demo).
    package typealias Placeholder = ImagePlaceholder

    package var item: Int
    package var id: ImageID
    /// The cell's frame on screen.
    package var frame: CGRect
    /// Where the picture goes, in the cell's coordinates (parallax applied).
    package var contentFrame: CGRect
    package var image: PixelImage?
    package var imageKey: ThumbnailKey?
    /// The picture the cell asked for this frame: its photo at the size it
    /// has (or is heading for); `nil` while its shape is unknown.
    package var wantedKey: ThumbnailKey?
    /// How far the picture has faded in, 0…1.
    package var opacity: Double
    package var placeholder: Placeholder
    package var failure: String?
    package var isPressed: Bool
}

/// The gallery's state and behaviour, without any drawing: which photos,
/// which layout, where the scroll is, what every visible cell shows. The
/// render loop owns it, on the main actor; pictures reach cells through
/// ``ImageRequester`` (the same requests the UIKit image view uses), so a
/// recycled cell never shows another cell's photo.
///
/// Everything here is the toolkit's: layouts, place keeping, transitions,
/// snapping, scroll physics, parallax and the image pipeline. The model
/// only wires them together.
@MainActor
package final class GalleryModel {
    /// How pictures are scheduled.
    package enum Loading: Sendable, Hashable {
        /// Loading follows the viewport: the visible tiles, the landing
        /// zone of a fling, then the ranges ahead and behind (ParallaxKit).
        case followsViewport(LoadingRanges)
        /// Visible tiles only, served in the order they were asked for:
        /// the baseline the session benchmark measures against.
        case arrivalOrder

        /// ParallaxKit's default ranges.
        package static let standard = Loading.followsViewport(LoadingRanges())
    }

    /// The duration of the grid ↔ list switch and of image cross-fades.
    package static let transitionDuration: TimeInterval = 0.35
    package static let fadeDuration: TimeInterval = 0.25

    package private(set) var settings: GallerySettings
    package private(set) var viewportSize: CGSize
    package private(set) var photos: [ImageID] = []
    /// The layout shown at rest (``GalleryLayouts``).
    package private(set) var layout: AnyItemLayout
    /// What is known of the photos' shapes, which quilt and waterfall place
    /// photos by; read in the background as the list arrives.
    package private(set) var shapes = PhotoShapes(count: 0)
    package private(set) var scroll: ScrollSimulation
    package let loader: ImageLoader
    package let server: SimulatedImageServer
    package let library: PhotoLibrary
    /// What the last ``update(now:)`` decided is on screen.
    package private(set) var cells: [CellContent] = []
    /// A message to show (a source that failed, an empty folder).
    package private(set) var status: String?

    private var transition: (LayoutTransition<AnyItemLayout, AnyItemLayout>, start: TimeInterval)?
    /// Pinch to change density (Ctrl + wheel, a touchpad or touch-screen
    /// pinch, the [ and ] keys): 1 column (the list) to 8.
    private var pinch: ColumnPinch?
    /// The lower column count of the pinch pair whose photos the loader was
    /// last asked to get ready (``planPinchLoading(_:nearer:placer:)``).
    private var plannedPinchPair: Int?
    /// Reads the photos' headers (``HeaderProbe``) for ``shapes``.
    private var probe: HeaderProbe?
    /// Where the probe's answers wait for the next frame, which takes them all.
    private var shapeInbox: ShapeInbox?
    /// Photo positions by id, to file the probe's answers.
    private var itemsByID: [ImageID: Int] = [:]
    /// Photos whose header could not be read: their tiles keep the
    /// placeholder shape for good.
    private var unreadableShapes: Set<Int> = []
    /// Sizes arrived that the layout does not show yet.
    private var shapesChanged = false
    /// One of them is a visible tile's, which waits for it: re-lay out on the next frame.
    private var visibleShapeArrived = false
    /// The items the last frame showed.
    private var shownItems: Set<Int> = []
    /// The shapes the resting layout was built with.
    private var laidOutShapes = PhotoShapes(count: 0)
    /// Counts the resting layouts built, so a loading plan knows its frames are stale.
    private var layoutGeneration = 0
    private var lastShapeLayout: TimeInterval = -.infinity
    /// How often a layout that places photos by shape is rebuilt while their
    /// sizes stream in: often enough to look immediate, rarely enough that
    /// a large library's rebuilds stay off most frames.
    package static let shapeRelayoutInterval: TimeInterval = 0.2
    /// The first visible item the probe was last told to read first.
    private var prioritizedTop: Int?
    /// RolfHendriks' UICollectionView-Demo shows a photo's placeholder again when it loads at a new size (rotation, layout switch).
    private let requests: ImageRequester<Int>
    /// What each visible cell's request last displayed.
    private var pictures: [Int: Picture] = [:]
    /// Cells with a request, displayed or not yet.
    private var boundItems: Set<Int> = []
    private var lastUpdate: TimeInterval?
    private var pressedItem: Int?
    private var listGeneration = 0

    /// How pictures are scheduled.
    package let loading: Loading
    /// The viewport's loading plans (``Loading/followsViewport(_:)``), shared
    /// with every other surface through `ParallaxHosting`.
    package let viewportLoading: ViewportLoading?
    /// What the thumbnails of the last plan depended on besides the layout.
    private var plannedKeys: PlannedKeys?

    /// The memory cache's byte limit.
    package static let memoryCacheLimit = 256 * 1_048_576

    /// The loader's configuration for `loading`: downloads that are not
    /// urgent are limited to 16 at once (the simulated server, like an
    /// HTTP/2 server, is bound by latency, not bandwidth).
    package static func loaderConfiguration(for loading: Loading) -> ImageLoader.Configuration {
        ImageLoader.Configuration(maximumConcurrentDownloads: 16,
                                  ordering: loading == .arrivalOrder ? .arrival : .priority)
    }

    /// - Parameter diskCache: Where thumbnails are kept between launches
    ///   (``GalleryCache``); `nil` keeps them in memory only.
    package init(library: PhotoLibrary, settings: GallerySettings, viewportSize: CGSize,
                loading: Loading = .standard, loaderConfiguration: ImageLoader.Configuration? = nil,
                diskCache: DiskImageCache? = nil) {
        self.loading = loading
        self.settings = settings
        self.library = library
        self.viewportSize = viewportSize
        self.server = SimulatedImageServer(
            backing: library.source,
            behavior: .init(latency: settings.latency.range, failureRate: settings.failureRate, seed: settings.seed))
        self.loader = ImageLoader(source: server, decoder: PlatformImageDecoder(),
                                  memoryCache: MemoryImageCache(limits: .init(costLimit: Self.memoryCacheLimit)),
                                  diskCache: diskCache,
                                  configuration: loaderConfiguration ?? Self.loaderConfiguration(for: loading))
        self.requests = ImageRequester(loader: loader, source: server, fadeDuration: Self.fadeDuration,
                                      resizeBehavior: .showsPlaceholder)
        if case .followsViewport(let ranges) = loading {
            viewportLoading = ViewportLoading(loader: loader, ranges: ranges)
        } else {
            viewportLoading = nil
        }
        self.layout = Self.fallbackLayout
        self.scroll = ScrollSimulation(bounds: 0...0, viewportExtent: viewportSize.height)
    }

    /// Fetches the photo list (again, after an erase).
    package func loadPhotoList() async {
        listGeneration += 1
        let generation = listGeneration
        let listed: [ImageID]
        let message: String?
        do {
            listed = try await server.imageIDs()
            message = listed.isEmpty ? "No photos to show." : nil
        } catch {
            listed = []
            message = "The photos could not be listed: \(error)"
        }
        guard generation == listGeneration else { return }       // a later request (another erase) won
        photos = listed
        status = message
        if let notice = library.refusalNotice {
            FileHandle.standardError.write(Data("parallax-gallery: \(notice)\n".utf8))
        }
        forgetShapes()
        if library.headersComeCheap || settings.layout.usesPhotoShapes { startProbingShapes() }
        relayout(keepingPlace: false)
    }

    // MARK: Photo shapes

    /// Forgets every shape (a new photo list) and the probe reading them.
    private func forgetShapes() {
        probe = nil
        shapeInbox = nil
        shapes = PhotoShapes(count: photos.count)
        unreadableShapes = []
        shapesChanged = false
        visibleShapeArrived = false
        prioritizedTop = nil
        itemsByID = [:]
    }

    /// Starts reading every photo's header in the background (the visible
    /// ones first, see ``update(now:)``); sizes that arrive re-lay out quilt
    /// and waterfall, keeping the photo at the top in place. A folder's
    /// headers are read as soon as the list arrives; a server's once a
    /// layout that needs them is shown (each is a request).
    private func startProbingShapes() {
        guard probe == nil, !photos.isEmpty else { return }
        // Ids are unique in every source here; a repeated one takes the first position's shape.
        var itemsByID: [ImageID: Int] = [:]
        itemsByID.reserveCapacity(photos.count)
        for item in photos.indices.reversed() { itemsByID[photos[item]] = item }   // the first position is written last
        self.itemsByID = itemsByID
        let probe = HeaderProbe(source: server)
        self.probe = probe
        let ids = photos
        Task { await probe.probe(ids) }
        // Collected off the main actor and taken all at once by the next frame (``takeShapes()``): a
        // manifest's thousands of sizes arrive together, and the main actor, busy drawing, would take
        // them one hop at a time. The stream, not the probe: once the model lets go of the probe (a
        // new list) the probe finishes its stream and this task ends.
        let inbox = ShapeInbox()
        shapeInbox = inbox
        let updates = probe.updates
        Task.detached {
            for await batch in updates { inbox.append(batch) }
        }
    }

    /// Files every answer the probe has published since the last frame.
    private func takeShapes() {
        guard let shapeInbox else { return }
        for update in shapeInbox.takeAll() { receive(update) }
    }

    private func receive(_ update: HeaderProbe.Update) {
        guard let item = itemsByID[update.id] else { return }
        switch update.result {
        case .success(let header):
            guard shapes.record(width: header.width, height: header.height, at: item) else { return }
            shapesChanged = true
            if shownItems.contains(item) { visibleShapeArrived = true }
        case .failure:
            unreadableShapes.insert(item)
            if shownItems.contains(item) { visibleShapeArrived = true }   // it may load now, at the placeholder shape
        }
    }

    /// Photos whose header could not be read (their tiles keep the placeholder shape).
    package var unreadableShapeCount: Int { unreadableShapes.count }

    /// Whether every photo's header has been read or has failed.
    package var allShapesRead: Bool { shapes.knownCount + unreadableShapes.count >= photos.count }

    /// Whether `item`'s tile is about to change shape: the layout places
    /// photos by shape and was built before `item`'s header was read (or the
    /// header is still being read). Its picture is not asked for until the
    /// layout has the size, so it is decoded once, at its real size.
    private func awaitsShape(_ item: Int) -> Bool {
        settings.layout.usesPhotoShapes && probe != nil && laidOutShapes.size(of: item) == nil
            && !unreadableShapes.contains(item)
    }

    /// Waits (up to `timeout`) until every header has been read, then shows
    /// the layout with every size: for tests and headless rendering.
    package func settleShapes(timeout: Duration = .seconds(120)) async {
        let clock = ContinuousClock(), deadline = clock.now + timeout
        while probe != nil, !allShapesRead, clock.now < deadline {
            try? await Task.sleep(for: .milliseconds(2))
            takeShapes()
        }
        applyShapes(now: nil)
    }

    /// Re-lays out a layout that places photos by shape when sizes have
    /// arrived: on the next frame when a visible tile was waiting for its
    /// size, else at most every ``shapeRelayoutInterval`` (`now == nil`: at
    /// once). Not during a switch or a pinch: those rest on the next frame
    /// after. The photo at the top keeps its place, even mid-fling.
    private func applyShapes(now: TimeInterval?) {
        guard shapesChanged, settings.layout.usesPhotoShapes, transition == nil, !isPinching else { return }
        if let now {
            guard now - lastShapeLayout >= Self.shapeRelayoutInterval || allShapesRead || visibleShapeArrived else { return }
            lastShapeLayout = now
        }
        shapesChanged = false
        visibleShapeArrived = false
        relayout(keepingPlace: true)
    }

    /// Tells the probe to read the visible photos' headers first, when the
    /// top of the screen has moved to other photos.
    private func prioritizeShapes(visible items: [(Int, CGRect)]) {
        guard settings.layout.usesPhotoShapes, !allShapesRead, let probe,
              let top = items.lazy.map(\.0).min(), top != prioritizedTop else { return }
        prioritizedTop = top
        let ids = items.map(\.0).sorted().compactMap { $0 < photos.count && shapes.size(of: $0) == nil ? photos[$0] : nil }
        guard !ids.isEmpty else { return }
        Task { await probe.prioritize(ids) }
    }

    // MARK: Layout

    /// The layout of the current settings and photos for `size`, with
    /// `shapes` (by default every shape known), remembered as the shapes the
    /// layout shows (``awaitsShape(_:)``); or, at the end of a pinch, the
    /// layout it `pinched` into, built from those shapes.
    private func makeLayout(size: CGSize, shapes: PhotoShapes? = nil, pinched: (any ItemLayout)? = nil) -> AnyItemLayout {
        let shapes = shapes ?? self.shapes
        laidOutShapes = shapes
        layoutGeneration &+= 1
        if let pinched { return AnyItemLayout(pinched) }
        // The configurations are valid by construction and the window's size is checked on resize;
        // the fallback only guards against a future edit.
        return (try? AnyItemLayout(GalleryLayouts.layout(settings.layout, columns: settings.columns, count: photos.count,
                                                         size: size, shapes: shapes)))
            ?? Self.fallbackLayout
    }

    /// An empty list: what shows before the photo list arrives.
    private static let fallbackLayout = AnyItemLayout(try! GridLayout(configuration: .list, itemCount: 0, containerSize: .zero))

    private var viewport: ScrollViewport {
        ScrollViewport(size: viewportSize, contentOffset: CGPoint(x: 0, y: scroll.position))
    }

    private func relayout(keepingPlace: Bool) {
        let old = layout, oldViewport = viewport
        layout = makeLayout(size: viewportSize)
        let range = ScrollViewport(size: viewportSize).offsetRange(contentExtent: layout.contentExtent, along: .vertical)
        guard keepingPlace else {
            scroll.updateBounds(range, viewportExtent: viewportSize.height)
            scroll.jump(to: range.clamp(scroll.position))
            return
        }
        // A fling or a drag goes on from the kept place: the content under it moved, the motion did not.
        let offset = PlaceKeeping.contentOffset(from: old, at: oldViewport, to: layout, in: ScrollViewport(size: viewportSize)).y
        scroll.shift(by: offset - scroll.position)
        scroll.updateBounds(range, viewportExtent: viewportSize.height)
    }

    /// The window was resized (the desktop's rotation): the photo at the top stays.
    package func resize(to size: CGSize) {
        guard size.width > 0, size.height > 0, size != viewportSize else { return }
        let old = layout, oldViewport = viewport
        viewportSize = size
        pinch = nil
        layout = makeLayout(size: size)
        let newViewport = ScrollViewport(size: size)
        let offset = PlaceKeeping.contentOffset(from: old, at: oldViewport, to: layout, in: newViewport).y
        scroll.updateBounds(newViewport.offsetRange(contentExtent: layout.contentExtent, along: .vertical), viewportExtent: size.height)
        scroll.jump(to: offset)
        transition = nil
    }

    /// Switches grid ↔ list (from quilt or waterfall, to the grid) with an
    /// animation that keeps the photo at the top where it is, even mid-scroll.
    package func toggleLayout(now: TimeInterval) {
        switchLayout(to: settings.layout.toggled, now: now)
    }

    /// Switches to `mode` with the animation of ``toggleLayout(now:)``;
    /// nothing happens while a pinch is active or when `mode` is shown.
    package func switchLayout(to mode: GalleryLayout, now: TimeInterval) {
        guard pinch?.isActive != true, mode != settings.layout else { return }
        requests.resizeBehavior = .showsPlaceholder             // RolfHendriks' switch shows the placeholder again
        let old = layout
        let started = ScrollViewport(size: viewportSize, contentOffset: CGPoint(x: 0, y: scroll.position))
        // The list is the grid's one-column end: leaving it for the grid goes back to the flexible grid.
        if settings.layout == .list || mode == .list, settings.columns == 1 { settings.columns = nil }
        settings.layout = mode
        if mode.usesPhotoShapes { startProbingShapes() }
        shapesChanged = false                                   // the new layout has every size known so far
        layout = makeLayout(size: viewportSize)
        let animation = LayoutTransition(from: old, at: started, to: layout)
        transition = (animation, now)
        let range = ScrollViewport(size: viewportSize).offsetRange(contentExtent: layout.contentExtent, along: .vertical)
        scroll.updateBounds(range, viewportExtent: viewportSize.height)
        scroll.jump(to: animation.destinationOffset.y)
    }

    // MARK: Pinch to change density

    /// Whether a pinch is being followed or settling.
    package var isPinching: Bool { pinch?.isActive == true }

    /// The column count shown at rest (block columns in the quilt).
    package var columnCount: Int { GalleryLayouts.columnCount(of: layout) }

    /// How far an arrow key scrolls: about one row of photos.
    package var rowStep: CGFloat { GalleryLayouts.rowStep(in: layout) }

    /// The fingers (or the pointer, for Ctrl + wheel) came down at `point`
    /// (window coordinates): the photo there stays there while the column
    /// count follows the pinch. Stops a fling.
    package func beginPinch(at point: CGPoint) {
        guard !photos.isEmpty else { return }
        transition = nil
        scroll.jump(to: scroll.position)
        // A pinch that begins while the last one settles: that one comes to rest at once, where it
        // was heading, and the new one starts from there.
        if var settling = pinch, settling.isActive, let offset = settling.finishSettling() {
            rest(settling, at: offset)
        }
        // Grid and list pinch into each other (the list is the grid's one-column end); quilt and
        // waterfall change their own column count.
        let family: GalleryLayout = settings.layout == .list ? .grid : settings.layout
        // The shapes the resting layout shows: sizes that arrive meanwhile wait for the pinch to rest.
        let shapes = laidOutShapes
        // It begins on the layout shown, which an earlier pinch may have aligned.
        let shown = layout.base, shownCount = columnCount, shownSize = viewportSize, shownItems = photos.count
        var columnPinch = ColumnPinch(columns: shownCount, range: family.pinchColumns) {
            n, size, counts throws(LayoutError) in
            if n == shownCount, size == shownSize, counts == [shownItems] { return shown }
            return try GalleryLayouts.layout(family, columns: n, count: counts.first ?? 0, size: size, shapes: shapes)
        }
        // Photos keep the picture they show while the one for the new size loads: no placeholder
        // flashes each time the pinch passes half way to another count.
        requests.resizeBehavior = .keepsImage
        let began = columnPinch.begin(viewport: viewport, focus: point, containerSize: viewportSize, itemCounts: [photos.count])
        pinch = began ? columnPinch : nil
        plannedPinchPair = nil
    }

    /// The pinch's scale since it began (above 1: fewer, larger photos) and
    /// where the fingers are now.
    package func pinch(scale: CGFloat, at point: CGPoint?) {
        pinch?.change(scale: scale, focus: point)
    }

    /// The fingers lifted at `now`, the scale changing by `velocity` per second.
    package func endPinch(velocity: CGFloat = 0, now: TimeInterval) {
        pinch?.end(scaleVelocity: velocity, at: now)
    }

    /// One step to `columns + step` (the [ and ] keys), animated like a
    /// pinch released there, around the centre of the window.
    package func stepColumns(by step: Int, now: TimeInterval) {
        guard !isPinching, !photos.isEmpty else { return }
        let current = columnCount
        let range = (settings.layout == .list ? GalleryLayout.grid : settings.layout).pinchColumns
        let target = min(max(current + step, range.lowerBound), range.upperBound)
        guard target != current else { return }
        beginPinch(at: CGPoint(x: viewportSize.width / 2, y: viewportSize.height / 2))
        // A photo's width is about the width divided by the count: the scale that reaches `target`.
        pinch(scale: CGFloat(current) / CGFloat(target), at: nil)
        endPinch(now: now)
    }

    /// Moves a settling pinch to `now`; once it has come to rest, the grid
    /// of the count it chose takes over where it left the photos.
    private func advancePinch(now: TimeInterval) {
        guard var columnPinch = pinch, columnPinch.isActive else { return }
        let offset = columnPinch.contentOffset
        if !columnPinch.advance(to: now), let offset { rest(columnPinch, at: offset) }
        pinch = columnPinch
    }

    /// Shows the layout `columnPinch` came to rest on at `offset`: the grid
    /// of its count with the photo that was under the fingers still in the
    /// column under them (for the grid, the list at one column).
    private func rest(_ columnPinch: ColumnPinch, at offset: CGPoint) {
        let columns = columnPinch.columns
        settings.columns = columns
        if settings.layout == .grid || settings.layout == .list { settings.layout = columns == 1 ? .list : .grid }
        // The shapes the pinch showed, so the rest matches its last frame; sizes that arrived during
        // it are applied on the next frame, keeping the place.
        let rested = try? columnPinch.restingLayout(containerSize: viewportSize, itemCounts: [photos.count])
        layout = makeLayout(size: viewportSize, shapes: laidOutShapes, pinched: rested)
        let range = ScrollViewport(size: viewportSize).offsetRange(contentExtent: layout.contentExtent, along: .vertical)
        scroll.updateBounds(range, viewportExtent: viewportSize.height)
        scroll.jump(to: range.clamp(offset.y))
        // The pictures at the new size replace the stretched ones as they arrive (keepsImage, set
        // when the pinch began): no placeholder flashes.
    }

    // MARK: Settings

    package func cycleEffect() { settings.effect = settings.effect.next }
    package func setEffect(_ effect: GalleryEffect) { settings.effect = effect }
    package func changeIntensity(by delta: CGFloat) { settings.intensity = min(max(settings.intensity + delta, 0), 3) }
    package func toggleReduceMotion() { settings.reduceMotion.toggle() }
    package func toggleSnapping() { settings.snapping.toggle() }

    package func cycleLatency() async {
        settings.latency = settings.latency.next
        await applyServerBehavior()
    }

    package func cycleFailureRate() async {
        let rates = [0.0, 0.1, 0.3]
        settings.failureRate = rates[((rates.firstIndex(of: settings.failureRate) ?? 0) + 1) % rates.count]
        await applyServerBehavior()
    }

    private func applyServerBehavior() async {
        await server.setBehavior(.init(latency: settings.latency.range, failureRate: settings.failureRate, seed: settings.seed))
    }

    /// Forgets every download (safe mid-fling): every picture loads again.
    package func reloadAll() async {
        await loader.reloadAll()
        forgetCells()
    }

    /// Erases everything and fetches the list again (safe mid-fling).
    package func eraseAll() async {
        await loader.eraseAll()
        forgetCells()
        await loadPhotoList()
    }

    private func forgetCells() {
        requests.reset()
        viewportLoading?.invalidate()
        pictures.removeAll()
        boundItems.removeAll()
    }

    /// Tries a failed picture again.
    package func retry(item: Int) {
        requests.cancel(item)
        pictures[item] = nil
    }

    // MARK: Scrolling

    package func scroll(by delta: CGFloat) {
        scroll.jump(to: scroll.position + delta)
    }

    package func beginDrag() { scroll.beginDrag() }
    package func drag(by delta: CGFloat) { scroll.drag(by: delta) }

    package func endDrag(velocity: CGFloat) {
        scroll.endDrag(velocity: velocity, snap: snapRule(velocity: velocity))
    }

    package func fling(velocity: CGFloat) {
        scroll.fling(velocity: velocity, snap: snapRule(velocity: velocity))
    }

    /// Glides to `offset` (Home, End).
    package func glide(to offset: CGFloat) {
        scroll.decelerate(to: offset)
    }

    /// Glides `distance` further than where the scroll is heading (arrows,
    /// Page Up/Down): presses in quick succession add up, as in a browser,
    /// instead of each starting again from wherever the last glide has got to.
    package func glide(by distance: CGFloat) {
        scroll.decelerate(to: (scroll.target ?? scroll.position) + distance)
    }

    private func snapRule(velocity: CGFloat) -> (CGFloat) -> CGFloat {
        guard settings.snapping else { return { $0 } }
        let layout = self.layout, viewport = ScrollViewport(size: viewportSize)
        return { proposed in
            ScrollSnapping.restingOffset(proposed: CGPoint(x: 0, y: proposed), velocity: CGPoint(x: 0, y: velocity),
                                         in: layout, viewport: viewport).y
        }
    }

    /// The item under a point on screen, if any.
    package func item(at point: CGPoint) -> Int? {
        cells.first { $0.frame.contains(point) }?.item
    }

    package func press(at point: CGPoint?) { pressedItem = point.flatMap(item(at:)) }

    // MARK: Frame

    /// Advances time to `now`, applies arrived images, decides every
    /// visible cell's content and starts the loads it needs.
    package func update(now: TimeInterval) {
        update(now: now, arrivalTime: now)
    }

    private func update(now: TimeInterval, arrivalTime: TimeInterval) {
        let elapsed = lastUpdate.map { now - $0 } ?? 0
        lastUpdate = now
        if elapsed > 0 { scroll.advance(by: CGFloat(min(elapsed, 0.25))) }
        applyArrivals(now: arrivalTime)
        takeShapes()
        applyShapes(now: now)

        var progress: CGFloat = 1
        if let (_, start) = transition {
            let t = min(max((now - start) / Self.transitionDuration, 0), 1)
            progress = CGFloat(t * t * (3 - 2 * t))            // smoothstep
            if t >= 1 { transition = nil }
        }
        let offset: CGPoint
        var items: [(Int, CGRect)] = []
        var destinationSizes: [Int: CGSize] = [:]
        var pinchShown: (pinch: DensityPinch<AnyItemLayout>, nearer: AnyItemLayout?)?
        advancePinch(now: now)
        if let columnPinch = pinch, columnPinch.isActive, let pinchOffset = columnPinch.contentOffset {
            offset = pinchOffset
            // Pictures at their size when the pinch began, stretched meanwhile: the ones on screen are
            // decoded already, and a new size per count would leave tiles blank while it decodes.
            let live = columnPinch.active
            let nearer = live.flatMap { $0.builtLayout(columns: $0.initialColumns) }
            let anchor = live?.anchor
            var anchorItem: (Int, CGRect)?
            columnPinch.forEachItem { index, frame in
                destinationSizes[index.item] = nearer?.frame(of: index)?.size
                // The photo under the fingers is drawn last: the ones that rewrap slide past underneath.
                if index == anchor { anchorItem = (index.item, frame) } else { items.append((index.item, frame)) }
            }
            if let anchorItem { items.append(anchorItem) }
            if let live { pinchShown = (live, nearer) }
        } else if let (animation, _) = transition {
            offset = animation.contentOffset(at: progress)
            animation.forEachItem(at: progress) { index, frame in
                items.append((index.item, frame))
                // Pictures are made once, at the size they will have when the switch ends, and stretched
                // meanwhile: interpolated sizes would ask for a new decode every frame.
                destinationSizes[index.item] = animation.destination.frame(of: index)?.size
            }
        } else {
            offset = CGPoint(x: 0, y: scroll.position)
            layout.forEachItem(in: CGRect(origin: offset, size: viewportSize)) { index, frame in items.append((index.item, frame)) }
        }
        let visibleRect = CGRect(origin: offset, size: viewportSize)
        prioritizeShapes(visible: items)
        let scroller = ParallaxScroller(effect: settings.effect.parallax(for: settings.layout),
                                        intensity: settings.intensity, isReduceMotionEnabled: settings.reduceMotion)
        let placer = scroller.placer(for: visibleRect)
        planLoading(visibleRect: visibleRect, placer: placer)
        if let pinchShown { planPinchLoading(pinchShown.pinch, nearer: pinchShown.nearer, placer: placer) }
        var visible = Set<Int>()
        var next: [CellContent] = []
        next.reserveCapacity(items.count)
        for (item, frame) in items where item < photos.count {
            visible.insert(item)
            let placement = placer.placement(forItemFrame: frame)
            let id = photos[item]
            let screenFrame = frame.offsetBy(dx: -offset.x, dy: -offset.y)
            var keySize = placement.contentSize
            if let size = destinationSizes[item] {
                keySize = placer.placement(forItemFrame: CGRect(origin: frame.origin, size: size)).contentSize
            }
            let key = awaitsShape(item) ? nil : thumbnailKey(for: id, contentSize: keySize)
            if let key { ensureLoad(item: item, key: key, priority: viewportLoading?.priority(for: ItemIndex(item: item)) ?? .visible) }
            var content = CellContent(item: item, id: id, frame: screenFrame, contentFrame: placement.contentFrame,
                                      image: nil, imageKey: nil, wantedKey: key, opacity: 0, placeholder: .cached,
                                      failure: nil, isPressed: pressedItem == item)
            switch pictures[item] {
            case .placeholder(let placeholder)?:
                content.placeholder = placeholder
            case .image(let key, let image, let fade, let arrival, let underneath)?:
                content.placeholder = underneath
                content.image = image
                content.imageKey = key
                content.opacity = fade > 0 ? min(max((now - (arrival ?? now)) / fade, 0), 1) : 1
            case .failure(let message)?:
                content.failure = message
            case nil:
                break
            }
            next.append(content)
        }
        cells = next
        shownItems = visible
        // Cells that scrolled away let go of their request (the loader's policy decides whether the download goes on).
        for item in boundItems.union(pictures.keys) where !visible.contains(item) {
            requests.cancel(item)
            boundItems.remove(item)
            pictures[item] = nil
        }
    }

    /// Loads under way for visible cells.
    package var pendingLoads: Int { requests.pendingCount }

    /// Pictures held for cells (only visible ones: the memory cache keeps the rest).
    package var heldPictureCount: Int {
        pictures.values.reduce(0) { count, picture in
            if case .image = picture { return count + 1 }
            return count
        }
    }

    /// Updates at `now` until every visible cell has its picture or its
    /// failure (or `timeout` passes): deterministic frames for headless
    /// rendering and tests.
    ///
    /// With `completingFades` (the default) pictures that arrive are shown
    /// as if they had arrived a cross-fade ago, fully faded in; without it
    /// they arrive at `now`, at the start of their fade.
    package func settle(at now: TimeInterval, completingFades: Bool = true, timeout: Duration = .seconds(120)) async {
        let clock = ContinuousClock(), deadline = clock.now + timeout
        let arrival = completingFades ? now - Self.fadeDuration : now
        update(now: now, arrivalTime: arrival)
        while pendingLoads > 0, clock.now < deadline {
            try? await Task.sleep(for: .milliseconds(2))
            update(now: now, arrivalTime: arrival)
        }
    }

    /// The first visible item (the one place keeping keeps), or `nil`.
    package var topItem: Int? {
        PlaceKeeping.anchor(in: layout, viewport: viewport)?.index.item
    }

    /// Scrolls straight to `offset` (clamped), with no animation.
    package func jump(to offset: CGFloat) { scroll.jump(to: offset) }

    /// Whether anything is moving (for an idle render loop).
    package var isAnimating: Bool {
        !scroll.isAtRest || transition != nil || isPinching || requests.pendingCount > 0
            || pictures.values.contains { if case .image(_, _, _, nil, _) = $0 { return true } else { return false } }
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

    /// Asks for `key` in cell `item`, unless that is what the cell already
    /// asked for (loading, shown or failed).
    private func ensureLoad(item: Int, key: ThumbnailKey, priority: LoadPriority) {
        guard requests.key(for: item) != key else { return }
        // The same photo at another size (after a pinch): the requester keeps it shown until the new
        // size arrives, when it is kept (``ImageRequester/resizeBehavior``), and the new one replaces
        // it at once, with no fade from a placeholder that was never shown.
        var shown: ImageID?
        if case .image(let shownKey, _, _, _, _)? = pictures[item], shownKey.id == key.id { shown = key.id }
        if shown == nil || requests.resizeBehavior == .showsPlaceholder { pictures[item] = nil }
        boundItems.insert(item)
        requests.load(key, into: item, replacing: shown, priority: priority) { [weak self] display in
            guard let self else { return }
            var display = display
            if case .image(let image, _) = display, case .image(let previous, _, _, _, _)? = self.pictures[item],
               previous.id == key.id {
                display = .image(image, fadeDuration: 0)
            }
            self.pictures[item] = Picture(display, key: key, replacing: self.pictures[item])
        }
    }

    /// Stamps pictures that arrived since the last frame with the time
    /// their cross-fade starts.
    private func applyArrivals(now: TimeInterval) {
        for (item, picture) in pictures {
            if case .image(let key, let image, let fade, nil, let underneath) = picture {
                pictures[item] = .image(key: key, image: image, fadeDuration: fade, arrival: now, over: underneath)
            }
        }
    }

    /// Plans the viewport's ranges (``LoadingRanges``) and hands the plan
    /// to the loader, when the viewport has moved into other items or the
    /// motion changed (``ViewportLoading``): not every frame.
    private func planLoading(visibleRect: CGRect, placer: ParallaxScroller.Placer) {
        guard let viewportLoading else { return }
        // Mid-transition the frames are interpolated: keep the plan made for where the switch ends.
        guard transition == nil, !isPinching else { return }
        let keys = PlannedKeys(itemCount: photos.count, layoutGeneration: layoutGeneration,
                               unreadableShapes: unreadableShapes.count, effect: settings.effect,
                               intensity: settings.intensity, reduceMotion: settings.reduceMotion, scale: settings.scale)
        if keys != plannedKeys {
            plannedKeys = keys
            viewportLoading.invalidate()
        }
        let photos = self.photos
        viewportLoading.update(layout: layout, visibleRect: visibleRect, motion: scroll.motion) { index, frame in
            guard index.item < photos.count, !awaitsShape(index.item) else { return nil }
            return thumbnailKey(for: photos[index.item], contentSize: placer.placement(forItemFrame: frame).contentSize)
        }
    }

    /// Hands the loader, once per pair of column counts a pinch shows, the
    /// photos of both ends of the pair (the items on screen at either
    /// count), at the size the pinch shows them in (their size when it
    /// began): photos that rows rewrapping bring into view are then ready
    /// before they arrive, instead of blank while they decode. The plan
    /// made for the resting layout is made again when the pinch rests.
    private func planPinchLoading(_ live: DensityPinch<AnyItemLayout>, nearer: AnyItemLayout?,
                                  placer: ParallaxScroller.Placer) {
        guard let viewportLoading, plannedPinchPair != live.columns else { return }
        plannedPinchPair = live.columns
        viewportLoading.invalidate()
        var plan = LoadPlan(), planned = Set<Int>()
        for end: CGFloat in [0, 1] {
            live.forEachItem(at: end) { index, frame in
                guard index.item < photos.count, !awaitsShape(index.item), planned.insert(index.item).inserted else { return }
                let size = nearer?.frame(of: index)?.size ?? frame.size
                let shown = placer.placement(forItemFrame: CGRect(origin: frame.origin, size: size)).contentSize
                if let key = thumbnailKey(for: photos[index.item], contentSize: shown) { plan.append(key, priority: .visible) }
            }
        }
        let loader = self.loader
        Task { await loader.follow(plan) }
    }

    /// What the planned thumbnails' keys depend on besides the layout's frames.
    private struct PlannedKeys: Equatable {
        var itemCount: Int
        /// A new resting layout (another kind, column count or shapes) has other frames.
        var layoutGeneration: Int
        /// Headers that failed let their photos load at the placeholder shape.
        var unreadableShapes: Int
        var effect: GalleryEffect
        var intensity: CGFloat
        var reduceMotion: Bool
        var scale: CGFloat
    }
}

/// What one cell's request last displayed (see ``ImageDisplay``).
private enum Picture {
    case placeholder(ImagePlaceholder)
    /// `arrival` is when its cross-fade started (`nil` until the next
    /// frame); it fades in over the placeholder the cell showed before.
    case image(key: ThumbnailKey, image: PixelImage, fadeDuration: TimeInterval, arrival: TimeInterval?,
               over: ImagePlaceholder)
    case failure(String)

    init(_ display: ImageDisplay, key: ThumbnailKey, replacing previous: Picture?) {
        switch display {
        case .placeholder(let placeholder):
            self = .placeholder(placeholder)
        case .image(let image, let fade):
            var underneath = ImagePlaceholder.uncached
            if case .placeholder(let shown)? = previous { underneath = shown }
            self = .image(key: key, image: image, fadeDuration: fade, arrival: nil, over: underneath)
        case .failure(let message):
            self = .failure(message)
        }
    }
}

/// The header probe's answers, collected by a task off the main actor and
/// taken all at once by the frame loop (``GalleryModel``).
private final class ShapeInbox: @unchecked Sendable {
    private let lock = NSLock()
    private var updates: [HeaderProbe.Update] = []

    func append(_ batch: [HeaderProbe.Update]) {
        lock.lock()
        updates.append(contentsOf: batch)
        lock.unlock()
    }

    /// Every answer collected so far, oldest first; the inbox is left empty.
    func takeAll() -> [HeaderProbe.Update] {
        lock.lock()
        defer { lock.unlock() }
        let taken = updates
        updates = []
        return taken
    }
}
