import Foundation
import ParallaxCore
import ParallaxHosting
import Testing

/// Whether two rectangles agree to within `tolerance` on every edge.
private func close(_ a: CGRect?, _ b: CGRect?, _ tolerance: CGFloat = 1e-9) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    return abs(a.minX - b.minX) <= tolerance && abs(a.minY - b.minY) <= tolerance
        && abs(a.width - b.width) <= tolerance && abs(a.height - b.height) <= tolerance
}

@Suite("ZoomSourceFrames: a zoom starts from the tile's content frame and lines up with its crop")
struct ZoomSourceFramesTests {
    // A 100 × 100 tile whose picture is 120 tall (10 pt of overscan each way) and a 2 : 1 photo.
    let tile = CGRect(x: 0, y: 0, width: 100, height: 100)
    let content = CGRect(x: 0, y: -10, width: 100, height: 120)

    @Test("a depth tile: the picture covers the content frame, and the tile sits at its part of the fitted photo")
    func exactFrames() {
        let frames = ZoomSourceFrames(tileFrame: tile, contentFrame: content, aspectRatio: 2)
        #expect(frames.contentFrame == content && frames.tileFrame == tile && frames.aspectRatio == 2)
        #expect(frames.pictureFrame == CGRect(x: -70, y: -10, width: 240, height: 120))
        #expect(frames.visibleFrame == tile)
        #expect(close(frames.contentUnitRect, CGRect(x: 70.0 / 240, y: 0, width: 100.0 / 240, height: 1)))
        #expect(close(frames.tileUnitRect, CGRect(x: 70.0 / 240, y: 10.0 / 120, width: 100.0 / 240, height: 100.0 / 120)))
        // The photo at 480 × 240: the tile's 100 × 100 is a 200 × 200 square, never squashed.
        #expect(close(frames.alignmentRect(inPhoto: CGRect(x: 0, y: 0, width: 480, height: 240)),
                      CGRect(x: 140, y: 20, width: 200, height: 200)))
        // Fitted in a 480-point square: the photo is letterboxed 120 pt down.
        #expect(close(frames.alignmentRect(fittingPhotoIn: CGRect(x: 0, y: 0, width: 480, height: 480)),
                      CGRect(x: 140, y: 140, width: 200, height: 200)))
        let container = CGRect(x: 0, y: 0, width: 390, height: 844)
        #expect(frames.transition(fittingIn: container)
                == PhotoZoomTransition(contentFrame: content, tileClip: tile, aspectRatio: 2, container: container))
    }

    @Test("an unknown or unusable aspect ratio is the content frame's own: the thumbnail is the whole photo")
    func unknownAspect() {
        for aspect: CGFloat? in [nil, .nan, .infinity, 0, -1] {
            let frames = ZoomSourceFrames(tileFrame: tile, contentFrame: content, aspectRatio: aspect)
            #expect(frames.aspectRatio == 100.0 / 120)
            #expect(frames.pictureFrame == content)
            #expect(frames.contentUnitRect == CGRect(x: 0, y: 0, width: 1, height: 1))
        }
    }

    @Test("nothing to align with: a tile its picture does not meet, an empty picture, an empty photo")
    func degenerate() {
        let apart = ZoomSourceFrames(tileFrame: CGRect(x: 500, y: 500, width: 10, height: 10), contentFrame: content,
                                     aspectRatio: 2)
        #expect(apart.visibleFrame == nil)
        #expect(apart.alignmentRect(inPhoto: CGRect(x: 0, y: 0, width: 480, height: 240)) == nil)
        let empty = ZoomSourceFrames(tileFrame: tile, contentFrame: .zero, aspectRatio: 2)
        #expect(empty.contentUnitRect == nil && empty.alignmentRect(inPhoto: tile) == nil)
        let frames = ZoomSourceFrames(tileFrame: tile, contentFrame: content, aspectRatio: 2)
        #expect(frames.alignmentRect(inPhoto: CGRect(x: 10, y: 10, width: 0, height: 50)) == nil)
        #expect(ZoomSourceFrames.unitRect(of: tile, in: CGRect(x: 0, y: 0, width: CGFloat.nan, height: 1)) == nil)
    }

    @Test("over random tiles: the alignment rectangle has the tile's shape, lies in the photo, and is where the transition's photo has the tile")
    func randomInvariants() {
        var generator = SplitMix64(seed: 41)
        for _ in 0..<500 {
            let w = CGFloat.random(in: 40...400, using: &generator), h = CGFloat.random(in: 40...400, using: &generator)
            let tile = CGRect(x: .random(in: -200...1200, using: &generator), y: .random(in: -200...900, using: &generator),
                              width: w, height: h)
            // The overscan covers the tile whatever the parallax offset (as a placement's does).
            let overscan = CGFloat.random(in: 0...60, using: &generator)
            let shift = CGFloat.random(in: -overscan...overscan, using: &generator)
            let content = CGRect(x: tile.minX, y: tile.minY - overscan + shift, width: w, height: h + 2 * overscan)
            let aspect = CGFloat.random(in: 0.25...4, using: &generator)
            let frames = ZoomSourceFrames(tileFrame: tile, contentFrame: content, aspectRatio: aspect)
            let bounds = CGRect(x: 0, y: 0, width: .random(in: 200...1400, using: &generator),
                                height: .random(in: 200...1400, using: &generator))
            let photo = PhotoZoomTransition.fittedFrame(aspectRatio: aspect, in: bounds)
            guard let alignment = frames.alignmentRect(inPhoto: photo) else {
                Issue.record("no alignment rectangle for a tile its picture covers")
                continue
            }
            #expect(abs(alignment.width / alignment.height - w / h) < 1e-9 * (w / h))
            #expect(alignment.minX >= photo.minX - 1e-6 && alignment.maxX <= photo.maxX + 1e-6)
            #expect(alignment.minY >= photo.minY - 1e-6 && alignment.maxY <= photo.maxY + 1e-6)
            #expect(close(frames.alignmentRect(fittingPhotoIn: bounds), alignment))
            // The zoom's own mapping (photo fitted ↔ photo on the tile) takes the alignment rectangle to the tile.
            let zoom = frames.transition(fittingIn: bounds)
            let unit = ZoomSourceFrames.unitRect(of: alignment, in: zoom.destinationFrame)
            #expect(close(unit.map { ZoomSourceFrames.rect(unit: $0, in: zoom.sourcePictureFrame) }, tile, 1e-6))
            // The thumbnail's crop, placed in the photo, covers the tile's part of it.
            if let crop = frames.contentUnitRect, let tileUnit = frames.tileUnitRect {
                #expect(tileUnit.minX >= crop.minX - 1e-9 && tileUnit.maxX <= crop.maxX + 1e-9)
                #expect(tileUnit.minY >= crop.minY - 1e-9 && tileUnit.maxY <= crop.maxY + 1e-9)
            }
        }
    }

    @Test("a source view's frames are its tile bounds and content frame")
    @MainActor
    func viewFrames() {
        let view = FakeZoomTile(size: CGSize(width: 100, height: 100), overscan: 10)
        #expect(view.zoomFrames(aspectRatio: 2) == ZoomSourceFrames(tileFrame: tile, contentFrame: content, aspectRatio: 2))
    }
}
