import Foundation
import ParallaxCore
import ParallaxHosting
import ParallaxImages
import ParallaxLayout

/// A tile of ``FakeZoomGrid``: the photo it shows and where it draws it,
/// as a reused cell's parallax image view would say.
@MainActor
final class FakeZoomTile: ZoomSourceView {
    var zoomImageID: ImageID?
    var zoomTileBounds: CGRect
    var zoomContentFrame: CGRect

    init(size: CGSize, overscan: CGFloat) {
        zoomTileBounds = CGRect(origin: .zero, size: size)
        zoomContentFrame = CGRect(x: 0, y: -overscan, width: size.width, height: size.height + 2 * overscan)
    }
}

/// A vertical grid as a collection view presents it to a zoom: square
/// items in `columns` columns across the width (128 points for three), a viewport with bars, and tiles only for the
/// items that intersect the bounds, reused from a pool as it scrolls (so a
/// tile that showed one photo may show another after a scroll).
@MainActor
final class FakeZoomGrid: ZoomSourceHost {
    let columns: Int
    let side: CGFloat
    let spacing: CGFloat
    var photos: [ImageID]
    var viewport: ScrollViewport
    /// The tiles by the item they show now.
    private(set) var tiles: [ItemIndex: FakeZoomTile] = [:]
    private var pool: [FakeZoomTile] = []
    /// Every offset the grid was scrolled to through ``zoomScroll(to:)``.
    private(set) var scrolls: [CGPoint] = []

    init(count: Int, columns: Int = 3, spacing: CGFloat = 3,
         size: CGSize = CGSize(width: 390, height: 844), insets: ParallaxCore.EdgeInsets = .init(top: 100, left: 0, bottom: 34, right: 0),
         offset: CGFloat = -100) {
        self.columns = columns
        side = (size.width - spacing * CGFloat(columns - 1)) / CGFloat(columns)
        self.spacing = spacing
        photos = (0..<count).map { ImageID("photo-\($0).jpg") }
        viewport = ScrollViewport(size: size, contentOffset: CGPoint(x: 0, y: offset), insets: insets)
        layOut()
    }

    var zoomAxis: ScrollAxis { .vertical }
    var zoomViewport: ScrollViewport { viewport }
    var zoomContentSize: CGSize {
        let rows = (photos.count + columns - 1) / columns
        return CGSize(width: viewport.size.width, height: CGFloat(rows) * (side + spacing))
    }

    func zoomLayoutFrame(at index: ItemIndex) -> CGRect? {
        guard index.section == 0, photos.indices.contains(index.item) else { return nil }
        let row = index.item / columns, column = index.item % columns
        return CGRect(x: CGFloat(column) * (side + spacing), y: CGFloat(row) * (side + spacing), width: side, height: side)
    }

    func zoomSource(at index: ItemIndex) -> (view: FakeZoomTile, frame: CGRect)? {
        guard let tile = tiles[index], let frame = zoomLayoutFrame(at: index) else { return nil }
        return (tile, frame)
    }

    func zoomScroll(to offset: CGPoint) {
        scrolls.append(offset)
        scroll(to: offset.y)
    }

    /// Scrolls as a finger would (not recorded in ``scrolls``).
    func scroll(to y: CGFloat) {
        viewport.contentOffset.y = y
        layOut()
    }

    /// Gives every item intersecting the bounds a tile (reusing those of
    /// items that left) and takes the others' back, as a collection view's
    /// layout pass does.
    func layOut() {
        let bounds = viewport.visibleRect
        let visible = Set(photos.indices.map { ItemIndex(item: $0) }.filter { zoomLayoutFrame(at: $0)!.intersects(bounds) })
        for (index, tile) in tiles where !visible.contains(index) {
            tiles[index] = nil
            tile.zoomImageID = nil
            pool.append(tile)
        }
        for index in visible.sorted() where tiles[index] == nil {
            let tile = pool.popLast() ?? FakeZoomTile(size: CGSize(width: side, height: side), overscan: 10)
            tile.zoomImageID = photos[index.item]
            tiles[index] = tile
        }
    }
}
