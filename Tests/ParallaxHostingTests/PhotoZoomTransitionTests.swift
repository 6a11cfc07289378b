import Foundation
import ParallaxCore
import ParallaxHosting
import Testing

@Suite("PhotoZoomTransition: from the tile's content frame to the fitted photo")
struct PhotoZoomTransitionTests {
    let container = CGRect(x: 0, y: 0, width: 1280, height: 800)

    @Test("a depth tile: the picture starts as the overscanned content frame grown to the photo's shape, the clip as the cell")
    func depthTile() {
        // A 200 × 150 cell at (100, 300) whose picture is 20 % taller and shifted up by the parallax.
        let cell = CGRect(x: 100, y: 300, width: 200, height: 150)
        let content = CGRect(x: 100, y: 270, width: 200, height: 180)
        // A 3 : 2 photo: wider than the content frame (10 : 9), so its centre crop is the content frame.
        let zoom = PhotoZoomTransition(contentFrame: content, tileClip: cell, aspectRatio: 1.5, container: container)
        #expect(zoom.sourcePictureFrame == CGRect(x: 65, y: 270, width: 270, height: 180))
        #expect(zoom.sourceClip == cell)
        #expect(zoom.destinationFrame == CGRect(x: 40, y: 0, width: 1200, height: 800))
        let start = zoom.frames(at: 0), end = zoom.frames(at: 1)
        #expect(start.picture == zoom.sourcePictureFrame && start.clip == cell)
        #expect(end.picture == zoom.destinationFrame && end.clip == zoom.destinationFrame)
        let half = zoom.frames(at: 0.5)
        #expect(half.picture == CGRect(x: 52.5, y: 135, width: 735, height: 490))
        #expect(zoom.frames(at: -1) == start && zoom.frames(at: 7) == end && zoom.frames(at: .nan) == end)
    }

    @Test("the photo never slides inside its clip: at every step the clip's part of the picture is the same part of the photo, or grows")
    func noSliding() {
        var generator = SplitMix64(seed: 29)
        for _ in 0..<300 {
            let w = CGFloat.random(in: 40...400, using: &generator), h = CGFloat.random(in: 40...400, using: &generator)
            let cell = CGRect(x: .random(in: -100...1200, using: &generator), y: .random(in: -100...700, using: &generator),
                              width: w, height: h)
            let overscan = CGFloat.random(in: 1...1.4, using: &generator)
            let content = CGRect(x: cell.minX, y: cell.minY - .random(in: 0...(h * (overscan - 1)), using: &generator),
                                 width: w, height: h * overscan)
            let aspect = CGFloat.random(in: 0.3...3, using: &generator)
            let zoom = PhotoZoomTransition(contentFrame: content, tileClip: cell, aspectRatio: aspect, container: container)
            // The picture keeps the photo's shape and covers the content frame, centred on it.
            let picture = zoom.sourcePictureFrame
            #expect(abs(picture.width / picture.height - aspect) < 1e-9 * aspect)
            #expect(picture.minX <= content.minX + 1e-9 && picture.maxX >= content.maxX - 1e-9)
            #expect(picture.minY <= content.minY + 1e-9 && picture.maxY >= content.maxY - 1e-9)
            #expect(abs(picture.midX - content.midX) < 1e-9 && abs(picture.midY - content.midY) < 1e-9)
            #expect(min(picture.width - content.width, picture.height - content.height) < 1e-9)
            // Through the transition the clip stays inside the picture.
            for step in 0...10 {
                let frames = zoom.frames(at: CGFloat(step) / 10)
                guard !frames.clip.isEmpty else { continue }
                #expect(frames.clip.minX >= frames.picture.minX - 1e-6 && frames.clip.maxX <= frames.picture.maxX + 1e-6)
                #expect(frames.clip.minY >= frames.picture.minY - 1e-6 && frames.clip.maxY <= frames.picture.maxY + 1e-6)
                #expect(abs(frames.picture.width / frames.picture.height - aspect) < 1e-9 * aspect)
            }
        }
    }

    @Test("a tile scrolled out of its clip starts from a point at its centre; a bad aspect ratio uses the content frame's")
    func degenerate() {
        let content = CGRect(x: 10, y: 10, width: 100, height: 50)
        let zoom = PhotoZoomTransition(contentFrame: content, tileClip: CGRect(x: 500, y: 500, width: 10, height: 10),
                                       aspectRatio: .nan, container: container)
        #expect(zoom.sourceClip == CGRect(x: 60, y: 35, width: 0, height: 0))
        #expect(zoom.sourcePictureFrame == content)
        #expect(zoom.destinationFrame == CGRect(x: 0, y: 80, width: 1280, height: 640))
        #expect(PhotoZoomTransition.fittedFrame(aspectRatio: 2, in: .zero) == .zero)
        #expect(PhotoZoomTransition.fittedFrame(aspectRatio: 0.5, in: container) == CGRect(x: 440, y: 0, width: 400, height: 800))
        #expect(PhotoZoomTransition.filledFrame(aspectRatio: 0.5, covering: CGRect(x: 0, y: 0, width: 100, height: 100))
                == CGRect(x: 0, y: -50, width: 100, height: 200))
    }
}

@Suite("RevealOffset: the least scroll that shows an item")
struct RevealOffsetTests {
    @Test("visible items stay; above comes to the top, below to the bottom, both clamped to the range")
    func exactCases() {
        let range: ClosedRange<CGFloat> = 0...5000
        let item = CGRect(x: 0, y: 1000, width: 100, height: 200)
        #expect(RevealOffset.offset(revealing: item, from: 900, visibleLength: 800, range: range) == 900)
        #expect(RevealOffset.offset(revealing: item, from: 1100, visibleLength: 800, range: range) == 1000)
        #expect(RevealOffset.offset(revealing: item, from: 100, visibleLength: 800, range: range) == 400)
        #expect(RevealOffset.offset(revealing: item, from: 100, visibleLength: 800, range: range, margin: 10) == 410)
        #expect(RevealOffset.offset(revealing: item, from: 4000, visibleLength: 800, range: range, margin: 10) == 990)
        // Taller than the screen: its top.
        #expect(RevealOffset.offset(revealing: CGRect(x: 0, y: 2000, width: 10, height: 900), from: 1900,
                                    visibleLength: 800, range: range) == 2000)
        // Clamped.
        #expect(RevealOffset.offset(revealing: CGRect(x: 0, y: 6000, width: 10, height: 100), from: 0,
                                    visibleLength: 800, range: range) == 5000)
        #expect(RevealOffset.offset(revealing: item, from: .nan, visibleLength: 800, range: range).isNaN)
    }

    @Test("over random items the result shows the item whole (when it fits) and moves no more than needed")
    func randomInvariant() {
        var generator = SplitMix64(seed: 7)
        for _ in 0..<1000 {
            let length = CGFloat.random(in: 200...1000, using: &generator)
            let item = CGRect(x: 0, y: .random(in: 0...9000, using: &generator), width: 10,
                              height: .random(in: 10...(length - 1), using: &generator))
            let from = CGFloat.random(in: 0...9000, using: &generator)
            let result = RevealOffset.offset(revealing: item, from: from, visibleLength: length, range: 0...10_000)
            #expect(item.minY >= result - 1e-9 && item.maxY <= result + length + 1e-9)
            // Least movement: any offset closer to `from` would cut the item.
            if result > from { #expect(abs(item.maxY - (result + length)) < 1e-9) }
            if result < from { #expect(abs(item.minY - result) < 1e-9) }
        }
    }
}
