#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxHosting
import ParallaxImages

/// A tile of the grid as the detail view opens from it or closes onto it:
/// the cell on screen, the picture's frame in it (parallax offset and
/// overscan included), and the thumbnail it shows.
struct ViewerTile {
    /// The cell's frame on screen.
    var frame: CGRect
    /// The picture's frame on screen: the parallax placement, larger than the cell.
    var contentFrame: CGRect
    /// The thumbnail the tile shows (a `fill` crop of the photo), if it has arrived.
    var image: PixelImage?
    var imageKey: ThumbnailKey?
}

/// What the detail view asks of the grid behind it.
@MainActor
protocol ViewerGrid: AnyObject {
    /// How many photos there are, in the grid's order.
    var photoCount: Int { get }
    /// Photo `item`'s name.
    func photoID(at item: Int) -> ImageID?
    /// Photo `item`'s tile, if it is on screen now.
    func tile(of item: Int) -> ViewerTile?
    /// Photo `item`'s upright size in pixels, if known.
    func pictureSize(of item: Int) -> CGSize?
    /// Photo `id`'s preview (a ThumbHash picture of the whole photo), if known.
    func preview(of id: ImageID) -> PixelImage?
    /// Scrolls the grid so photo `item`'s tile is on screen.
    func reveal(item: Int)
    /// When photo `item`'s file was last changed (wall-clock seconds since
    /// 1970), for a photo whose metadata holds no date.
    func fileModificationTime(of item: Int) -> Int64?
}

/// The detail view: a photo opened from its tile, zoomed and panned, paged
/// through, and closed back onto its tile.
///
/// Opening, the photo grows from its tile's *content* frame
/// (``PhotoZoomTransition``) to fit the window in 0.3 s while the grid
/// dims behind it; closing, it shrinks back onto the tile of the photo now
/// shown, which the grid has kept on screen while paging
/// (``ViewerGrid/reveal(item:)``) and which is asked for again at that
/// moment. Until the window-size picture is decoded the tile's thumbnail
/// (and the photo's preview around it) is shown: never a blank frame.
/// Zoomed in (``PictureZoom``), the part on screen is decoded sharp.
@MainActor
final class PhotoViewer {
    enum Phase: Equatable {
        /// Growing from the tile.
        case opening
        /// Shown.
        case open
        /// Waiting a frame for the grid to show the tile it closes onto.
        case seekingTile
        /// Shrinking onto the tile.
        case closing
        /// Gone.
        case closed
    }

    static let transitionDuration: TimeInterval = 0.3
    static let slideDuration: TimeInterval = 0.25
    /// The space between photos while paging, in points.
    static let pageGap: CGFloat = 24

    let grid: any ViewerGrid
    let pictures: ViewerPictures
    private(set) var phase = Phase.closed
    private(set) var item = 0
    private(set) var id = ImageID("")
    private(set) var bounds: CGRect
    let screenScale: CGFloat
    private(set) var zoom: PictureZoom
    /// The tile the transition runs from or to, and the transition.
    private(set) var tile: ViewerTile?
    private(set) var transition: PhotoZoomTransition?
    private var transitionStart: TimeInterval = 0
    /// How far open the photo is, 0 (on its tile) to 1 (in the view), eased.
    private(set) var openness: CGFloat = 0
    /// The horizontal offset of the photo shown while paging.
    private(set) var pageOffset: CGFloat = 0
    private var slide: (from: CGFloat, start: TimeInterval)?
    private var framesSeekingTile = 0
    /// How open the photo was when it began to close.
    private var closingFrom: CGFloat = 1
    /// Whether the information panel is shown.
    var showsInfo = false
    /// The panel's lines and what they were made from (``ViewerScene``).
    var infoCache: (key: InfoKey, lines: [String])?
    /// When the photo was opened, and when its window-size picture was first drawn sharp (for the benchmark).
    private(set) var openedAt: TimeInterval?

    init(grid: any ViewerGrid, pictures: ViewerPictures, bounds: CGRect, screenScale: CGFloat = 1) {
        self.grid = grid
        self.pictures = pictures
        self.bounds = bounds
        self.screenScale = screenScale
        self.zoom = PictureZoom(pictureSize: CGSize(width: 1, height: 1), bounds: bounds, screenScale: screenScale)
    }

    /// Whether the viewer is shown at all (taking input).
    var isShown: Bool { phase != .closed }

    /// The item whose tile the photo grows from or shrinks onto: the grid
    /// leaves it empty while the photo is lifted from it.
    var liftedItem: Int? { phase == .opening || phase == .closing || phase == .seekingTile ? item : nil }

    /// Whether the grid is hidden behind the fully open view (it need not be drawn).
    var coversGrid: Bool { phase == .open }

    /// Whether the photo shown is drawn from its window-size picture (during
    /// the transition too), not only from the tile's thumbnail.
    var showsWindowPicture: Bool { phase != .closed && pictures.screenPicture(of: id) != nil }

    // MARK: Opening and closing

    /// Opens photo `item` from its tile at `now`. Returns false when it has
    /// no tile on screen or no name.
    @discardableResult
    func open(item: Int, now: TimeInterval) -> Bool {
        guard phase == .closed, let id = grid.photoID(at: item), let tile = grid.tile(of: item) else { return false }
        self.item = item
        self.id = id
        self.tile = tile
        pageOffset = 0
        slide = nil
        zoom = PictureZoom(pictureSize: pictureSize(of: item, tile: tile), bounds: bounds, screenScale: screenScale)
        transition = PhotoZoomTransition(contentFrame: tile.contentFrame, tileClip: tile.frame,
                                         aspectRatio: zoom.pictureSize.width / zoom.pictureSize.height, container: bounds)
        transitionStart = now
        openness = 0
        phase = .opening
        openedAt = now
        showNeighbours()
        return true
    }

    /// Starts closing onto the tile of the photo shown (the grid is asked to
    /// bring it on screen first if it has scrolled away).
    func close(now: TimeInterval) {
        guard phase == .open || phase == .opening else { return }
        if grid.tile(of: item) == nil { grid.reveal(item: item) }
        slide = nil
        pageOffset = 0
        framesSeekingTile = 0
        phase = .seekingTile
        transitionStart = now
    }

    /// The photo's size: the decoded picture's, else the grid's, else the tile's shape.
    private func pictureSize(of item: Int, tile: ViewerTile?) -> CGSize {
        if let id = grid.photoID(at: item), let decoded = pictures.screenPicture(of: id) {
            return CGSize(width: decoded.sourceWidth, height: decoded.sourceHeight)
        }
        if let size = grid.pictureSize(of: item) { return size }
        if let tile, tile.contentFrame.width > 0, tile.contentFrame.height > 0 {
            return CGSize(width: tile.contentFrame.width * 100, height: tile.contentFrame.height * 100)
        }
        return CGSize(width: 4, height: 3)
    }

    private func showNeighbours() {
        let neighbours = [item + 1, item - 1].filter { $0 >= 0 && $0 < grid.photoCount }.compactMap(grid.photoID(at:))
        pictures.show(id, neighbours: neighbours)
    }

    // MARK: Paging

    /// Shows the photo `step` places on (arrow keys), sliding it in; the
    /// grid follows. At either end the photo stays.
    func page(by step: Int, now: TimeInterval) {
        guard phase == .open else { return }
        page(by: step, from: pageOffset, now: now)
    }

    private func page(by step: Int, from offset: CGFloat, now: TimeInterval) {
        let target = item + step
        guard step != 0, target >= 0, target < grid.photoCount, let newID = grid.photoID(at: target) else {
            slide = offset == 0 ? nil : (offset, now)
            return
        }
        item = target
        id = newID
        zoom = PictureZoom(pictureSize: pictureSize(of: target, tile: nil), bounds: bounds, screenScale: screenScale)
        pictures.dropRegion()
        showNeighbours()
        grid.reveal(item: target)
        // The new photo was `step` pages away: it slides in from there.
        slide = (offset + CGFloat(step) * (bounds.width + Self.pageGap), now)
        pageOffset = slide!.from
    }

    /// A drag by `translation` points: pans a zoomed photo, moves a fitted
    /// one sideways for paging (with resistance where there is no photo to
    /// page to).
    func drag(by translation: CGSize) {
        guard phase == .open else { return }
        adoptDecodedSize()
        if !zoom.isFitted {
            zoom.pan(by: translation)
            return
        }
        slide = nil
        let hasNeighbour = pageOffset + translation.width > 0 ? item > 0 : item + 1 < grid.photoCount
        pageOffset += hasNeighbour ? translation.width : translation.width / 3
    }

    /// The drag ended with the finger moving at `velocity` points per
    /// second: pages when it was dragged a quarter of the way or flung,
    /// else slides back.
    func endDrag(velocity: CGFloat, now: TimeInterval) {
        guard phase == .open, zoom.isFitted else { return }
        let threshold = bounds.width / 4
        let step: Int
        if pageOffset < -threshold || (velocity < -500 && pageOffset < 0) {
            step = 1
        } else if pageOffset > threshold || (velocity > 500 && pageOffset > 0) {
            step = -1
        } else {
            step = 0
        }
        page(by: step, from: pageOffset, now: now)
    }

    // MARK: Zooming

    /// Zooms by `factor` about `point`. With `closesBelowFit` (a pinch),
    /// zooming out of the fitted photo closes the view; a wheel stops at fit.
    func zoom(by factor: CGFloat, about point: CGPoint, closesBelowFit: Bool = true, now: TimeInterval) {
        guard phase == .open, slide == nil, pageOffset == 0 else { return }
        adoptDecodedSize()
        if factor < 1, zoom.isFitted {
            guard closesBelowFit else { return }
            close(now: now)
            return
        }
        zoom.zoom(by: factor, about: point)
        if zoom.isFitted { pictures.dropRegion() }
    }

    /// A double click: 1:1 about `point`, or back to the fitted photo.
    func toggleOneToOne(at point: CGPoint) {
        guard phase == .open else { return }
        adoptDecodedSize()
        if zoom.scale < zoom.oneToOneScale * 0.99 {
            zoom.zoom(to: zoom.oneToOneScale, about: point)
        } else {
            zoom.zoom(to: 1, about: point)
            pictures.dropRegion()
        }
    }

    /// Shows the whole photo fitted.
    func fit() {
        zoom.zoom(to: 1, about: CGPoint(x: bounds.midX, y: bounds.midY))
        pictures.dropRegion()
    }

    /// The window was resized.
    func resize(to newBounds: CGRect) {
        bounds = newBounds
        zoom.resize(to: newBounds)
        if let size = try? ThumbnailSize(width: Int((newBounds.width * screenScale).rounded(.up)),
                                         height: Int((newBounds.height * screenScale).rounded(.up)), mode: .fit) {
            pictures.resize(to: size)
        }
    }

    // MARK: Frame

    /// Advances the transition and the paging slide to `now`, and asks for
    /// the sharp region the zoom needs.
    func update(now: TimeInterval) {
        adoptDecodedSize()
        switch phase {
        case .closed:
            return
        case .opening:
            let t = min(max((now - transitionStart) / Self.transitionDuration, 0), 1)
            openness = Self.easeOut(CGFloat(t))
            if t >= 1 { phase = .open; transition = nil; tile = nil }
        case .open:
            openness = 1
        case .seekingTile:
            // The grid has had a frame to show the tile; without one after a few, the photo fades where it is.
            framesSeekingTile += 1
            if let tile = grid.tile(of: item) {
                beginClosing(onto: tile, now: now)
            } else if framesSeekingTile > 3 {
                beginClosing(onto: nil, now: now)
            }
        case .closing:
            // From as open as it was (a photo closed while still opening shrinks from where it is), in the
            // share of the 0.3 s that distance takes.
            let t = min(max((now - transitionStart) / (Self.transitionDuration * Double(closingFrom)), 0), 1)
            openness = closingFrom * (1 - Self.easeInOut(CGFloat(t)))
            if t >= 1 {
                phase = .closed
                transition = nil
                tile = nil
                pictures.removeAll()
            }
        }
        if let slide {
            let t = min(max((now - slide.start) / Self.slideDuration, 0), 1)
            pageOffset = slide.from * (1 - Self.easeOut(CGFloat(t)))
            if t >= 1 { self.slide = nil; pageOffset = 0 }
        }
        requestSharpRegion()
    }

    private func beginClosing(onto tile: ViewerTile?, now: TimeInterval) {
        self.tile = tile
        closingFrom = max(openness, 0.05)
        // From where the photo is now (zoomed or not) back to the tile.
        let aspect = zoom.pictureSize.width / zoom.pictureSize.height
        if let tile {
            transition = PhotoZoomTransition(contentFrame: tile.contentFrame, tileClip: tile.frame, aspectRatio: aspect,
                                             container: zoom.frame)
        } else {
            transition = nil
        }
        transitionStart = now
        phase = .closing
    }

    /// Once the window-size picture says the photo's real size, the zoom
    /// (and an opening transition) use it.
    private func adoptDecodedSize() {
        guard phase != .closed, let decoded = pictures.screenPicture(of: id) else { return }
        let size = CGSize(width: decoded.sourceWidth, height: decoded.sourceHeight)
        guard size != zoom.pictureSize else { return }
        let scale = zoom.scale
        zoom = PictureZoom(pictureSize: size, bounds: bounds, screenScale: screenScale)
        zoom.zoom(to: scale, about: CGPoint(x: bounds.midX, y: bounds.midY))
        if phase == .opening, let tile {
            transition = PhotoZoomTransition(contentFrame: tile.contentFrame, tileClip: tile.frame,
                                             aspectRatio: size.width / size.height, container: bounds)
        }
    }

    private func requestSharpRegion() {
        guard phase == .open, slide == nil else { return }
        // A tenth of the screen's size around it: a short pan needs no new decode, and the region (uploaded in
        // one frame by the software renderer) stays near a screenful.
        guard let wanted = zoom.sharpRegion(margin: 0.1) else { return }
        if let region = pictures.region, region.id == id,
           zoom.isSharp(with: region.rect, pixelWidth: region.image.width) { return }
        pictures.requestRegion(of: id, rect: wanted.rect, pixelWidth: wanted.pixelWidth, pixelHeight: wanted.pixelHeight)
    }

    /// Whether the photo shown is as sharp as the screen can show it: its
    /// window-size picture is there and, zoomed in, a region that covers
    /// the screen at its density (or none can be decoded: then the picture
    /// is as sharp as it gets).
    var isSharp: Bool {
        guard phase == .open, pictures.screenPicture(of: id) != nil else { return false }
        guard !zoom.isFitted, !pictures.regionsUnavailable.contains(id) else { return true }
        guard let region = pictures.region, region.id == id else { return false }
        return zoom.isSharp(with: region.rect, pixelWidth: region.image.width)
    }

    static func easeOut(_ t: CGFloat) -> CGFloat { 1 - pow(1 - t, 3) }
    static func easeInOut(_ t: CGFloat) -> CGFloat { t < 0.5 ? 4 * t * t * t : 1 - pow(-2 * t + 2, 3) / 2 }
}
