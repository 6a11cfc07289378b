import Foundation
import ParallaxCore
import ParallaxHosting
import Testing

@Suite("PictureZoom: a detail view's zoom and pan, and the region to decode sharp")
struct PictureZoomTests {
    let bounds = CGRect(x: 0, y: 0, width: 1280, height: 800)

    static func close(_ a: CGRect, _ b: CGRect) -> Bool {
        abs(a.minX - b.minX) < 1e-6 && abs(a.minY - b.minY) < 1e-6 && abs(a.width - b.width) < 1e-6 && abs(a.height - b.height) < 1e-6
    }

    @Test("fitted at first; 1:1 for a 12 MP photo is 3.78× the fit; zooming about a point keeps that point still")
    func exactZoom() {
        var zoom = PictureZoom(pictureSize: CGSize(width: 4032, height: 3024), bounds: bounds)
        #expect(zoom.isFitted && Self.close(zoom.frame, CGRect(x: 106.666_666_666_7, y: 0, width: 1066.666_666_666_7, height: 800)))
        #expect(abs(zoom.oneToOneScale - 3.78) < 1e-9 && abs(zoom.maximumScale - 7.56) < 1e-9)
        #expect(zoom.sharpRegion() == nil)
        let point = CGPoint(x: 300, y: 200)
        let before = zoom.frame
        let photoPoint = CGPoint(x: (point.x - before.minX) / before.width, y: (point.y - before.minY) / before.height)
        zoom.zoom(to: 2, about: point)
        let after = zoom.frame
        #expect(abs(after.minX + photoPoint.x * after.width - point.x) < 1e-9)
        #expect(abs(after.minY + photoPoint.y * after.height - point.y) < 1e-9)
        #expect(zoom.scale == 2 && !zoom.isFitted)
        // Clamped at both ends.
        zoom.zoom(to: 100, about: point)
        #expect(zoom.scale == zoom.maximumScale)
        zoom.zoom(to: 0.1, about: point)
        #expect(zoom.scale == 1 && Self.close(zoom.frame, before))
    }

    @Test("over random zooms and pans the photo never leaves a margin it could cover, and is centred where it cannot")
    func noMargins() {
        var generator = SplitMix64(seed: 1)
        for _ in 0..<200 {
            let size = CGSize(width: .random(in: 100...12_000, using: &generator), height: .random(in: 100...9_000, using: &generator))
            var zoom = PictureZoom(pictureSize: size, bounds: bounds, screenScale: [1, 2].randomElement(using: &generator)!)
            for _ in 0..<20 {
                if Bool.random(using: &generator) {
                    zoom.zoom(by: .random(in: 0.5...2.5, using: &generator),
                              about: CGPoint(x: .random(in: 0...1280, using: &generator), y: .random(in: 0...800, using: &generator)))
                } else {
                    zoom.pan(by: CGSize(width: .random(in: -900...900, using: &generator), height: .random(in: -900...900, using: &generator)))
                }
                let frame = zoom.frame
                #expect(zoom.scale >= 1 && zoom.scale <= zoom.maximumScale + 1e-9)
                if frame.width > bounds.width + 1e-6 {
                    #expect(frame.minX <= 1e-6 && frame.maxX >= bounds.maxX - 1e-6)
                } else {
                    #expect(abs(frame.midX - bounds.midX) < 1e-6)
                }
                if frame.height > bounds.height + 1e-6 {
                    #expect(frame.minY <= 1e-6 && frame.maxY >= bounds.maxY - 1e-6)
                } else {
                    #expect(abs(frame.midY - bounds.midY) < 1e-6)
                }
                // The region to decode covers what shows, at the screen's density capped at the photo's pixels.
                if let region = zoom.sharpRegion() {
                    #expect(zoom.isSharp(with: region.rect, pixelWidth: region.pixelWidth))
                    #expect(CGFloat(region.pixelWidth) <= region.rect.width * size.width + 1)
                    #expect(!zoom.isSharp(with: region.rect, pixelWidth: region.pixelWidth / 2 - 1) || region.pixelWidth < 4)
                }
            }
        }
    }

    @Test("at 1:1 the sharp region is the photo's own pixels around the screen; a region elsewhere is not sharp")
    func regionAtOneToOne() throws {
        var zoom = PictureZoom(pictureSize: CGSize(width: 4000, height: 2500), bounds: bounds)
        zoom.zoom(to: zoom.oneToOneScale, about: CGPoint(x: 640, y: 400))
        #expect(abs(zoom.screenPixelsPerPhotoPixel - 1) < 1e-9)
        let region = try #require(zoom.sharpRegion(margin: 0))
        #expect(abs(region.rect.width * 4000 - 1280) < 1e-6 && abs(region.rect.height * 2500 - 800) < 1e-6)
        #expect(region.pixelWidth == 1280 && region.pixelHeight == 800)
        #expect(!zoom.isSharp(with: CGRect(x: 0, y: 0, width: 0.1, height: 0.1), pixelWidth: 400))
        // Twice past 1:1: still the photo's own pixels, not more.
        zoom.zoom(to: zoom.maximumScale, about: CGPoint(x: 640, y: 400))
        let closer = try #require(zoom.sharpRegion(margin: 0))
        #expect(closer.pixelWidth == 640 && closer.pixelHeight == 400)
        zoom.resize(to: CGRect(x: 0, y: 0, width: 640, height: 400))
        #expect(zoom.scale <= zoom.maximumScale)
    }
}
