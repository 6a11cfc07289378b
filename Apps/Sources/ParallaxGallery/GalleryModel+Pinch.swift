#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore
import ParallaxHosting
import ParallaxLayout

/// Pinch to change density (Ctrl + wheel, a touchpad or touch-screen pinch,
/// the [ and ] keys): 1 column (the list) to 8. The pinch itself is the
/// toolkit's `ColumnPinch`, held by ``FrameSource``; the model begins it
/// on the layout shown and, when it rests, shows the layout it chose.
extension GalleryModel {
    /// Whether a pinch is being followed or settling.
    package var isPinching: Bool { frames.isPinching }

    /// The column count shown at rest (block columns in the quilt).
    package var columnCount: Int { GalleryLayouts.columnCount(of: layout) }

    /// How far an arrow key scrolls: about one row of photos.
    package var rowStep: CGFloat { GalleryLayouts.rowStep(in: layout) }

    /// The fingers (or the pointer, for Ctrl + wheel) came down at `point`
    /// (window coordinates): the photo there stays there while the column
    /// count follows the pinch. Stops a fling and a switch.
    package func beginPinch(at point: CGPoint) {
        guard !photos.isEmpty else { return }
        scroll.jump(to: scroll.position)
        // A pinch that begins while the last one settles: that one comes to rest at once, where it
        // was heading, and the new one starts from there.
        if let settled = frames.finishMotion() { rest(settled.pinch, at: settled.offset) }
        // Grid and list pinch into each other (the list is the grid's one-column end); quilt and
        // waterfall change their own column count.
        let family: GalleryLayout = settings.layout == .list ? .grid : settings.layout
        // The shapes the resting layout shows: sizes that arrive meanwhile wait for the pinch to rest.
        let shapes = laidOutShapes
        // It begins on the layout shown, which an earlier pinch may have aligned.
        let shown = layout.base, shownCount = columnCount, shownSize = viewportSize, shownItems = photos.count
        // Every count's layout has the same sections (months), seen as one run of positions.
        let sections = sectionCounts, titled = sectionsAreTitled
        var columnPinch = ColumnPinch(columns: shownCount, range: family.pinchColumns) {
            n, size, counts throws(LayoutError) in
            if n == shownCount, size == shownSize, counts == [shownItems] { return shown }
            return try GalleryLayouts.layout(family, columns: n, sections: counts == [shownItems] ? sections : counts,
                                             titled: titled, size: size, shapes: shapes)
        }
        // Photos keep the picture they show while the one for the new size loads: no placeholder
        // flashes each time the pinch passes half way to another count.
        pictures.resizeBehavior = .keepsImage
        if columnPinch.begin(viewport: viewport, focus: point, containerSize: viewportSize, itemCounts: [photos.count]) {
            frames.beginPinch(columnPinch)
        }
        planner.pinchBegan()
    }

    /// The pinch's scale since it began (above 1: fewer, larger photos) and
    /// where the fingers are now.
    package func pinch(scale: CGFloat, at point: CGPoint?) {
        frames.updatePinch { $0.change(scale: scale, focus: point) }
    }

    /// The fingers lifted at `now`, the scale changing by `velocity` per second.
    package func endPinch(velocity: CGFloat = 0, now: TimeInterval) {
        frames.updatePinch { $0.end(scaleVelocity: velocity, at: now) }
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

    /// Shows the layout `columnPinch` came to rest on at `offset`: the grid
    /// of its count with the photo that was under the fingers still in the
    /// column under them (for the grid, the list at one column).
    func rest(_ columnPinch: ColumnPinch, at offset: CGPoint) {
        let columns = columnPinch.columns
        settings.columns = columns
        if settings.layout == .grid || settings.layout == .list { settings.layout = columns == 1 ? .list : .grid }
        // The shapes the pinch showed, so the rest matches its last frame; sizes that arrived during
        // it are applied on the next frame, keeping the place.
        let rested = try? columnPinch.restingLayout(containerSize: viewportSize, itemCounts: [photos.count])
        show(makeLayout(size: viewportSize, shapes: laidOutShapes, pinched: rested), at: offset.y)
        // The pictures at the new size replace the stretched ones as they arrive (keepsImage, set
        // when the pinch began): no placeholder flashes.
    }
}
