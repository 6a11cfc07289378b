import Foundation
import ParallaxCore
import ParallaxHosting
import Testing

@Suite("LayoutRoom: the container a collection view gives its layout")
struct LayoutRoomTests {
    @Test("portrait iPhone: the insets cover the bars, the layout gets the full width")
    func portrait() {
        let room = LayoutRoom(boundsSize: CGSize(width: 390, height: 844), contentInsets: EdgeInsets(top: 91, bottom: 34),
                              safeArea: EdgeInsets(top: 47, bottom: 34), axis: .vertical, isRightToLeft: false)
        #expect(room.containerSize == CGSize(width: 390, height: 844))
        #expect(room.crossShift == 0 && room.crossPadding == 0)
    }

    @Test("landscape with a notch: nothing under it, frames shifted past it, the content padded on both sides")
    func landscapeNotch() {
        let room = LayoutRoom(boundsSize: CGSize(width: 844, height: 390), contentInsets: EdgeInsets(top: 32, bottom: 21),
                              safeArea: EdgeInsets(top: 0, left: 47, bottom: 21, right: 47), axis: .vertical,
                              isRightToLeft: false)
        #expect(room.containerSize == CGSize(width: 750, height: 390))
        #expect(room.crossShift == 47 && room.crossPadding == 94)
        let frame = CGRect(x: 0, y: 100, width: 200, height: 200)
        #expect(room.shown(frame, along: .vertical) == CGRect(x: 47, y: 100, width: 200, height: 200))
        #expect(room.built(room.shown(frame, along: .vertical), along: .vertical) == frame)
        #expect(room.contentSize(for: CGSize(width: 750, height: 5000), along: .vertical) == CGSize(width: 844, height: 5000))
    }

    @Test("right to left: the physical right side leads, because UIKit mirrors the layout")
    func rightToLeft() {
        let room = LayoutRoom(boundsSize: CGSize(width: 844, height: 390), contentInsets: .zero,
                              safeArea: EdgeInsets(left: 0, right: 47), axis: .vertical, isRightToLeft: true)
        #expect(room.crossShift == 47)
        // Mirrored by UIKit around the content width, the frame lands clear of the right edge.
        let content = room.contentSize(for: room.containerSize, along: .vertical)
        let shown = room.shown(CGRect(x: 0, y: 0, width: 100, height: 100), along: .vertical)
        let mirroredMaxX = content.width - shown.minX
        let clearOfTheNotch: CGFloat = 844 - 47
        #expect(mirroredMaxX == clearOfTheNotch)
    }

    @Test("insets that already cover the safe area add nothing; a horizontal strip clears the home indicator")
    func coveredAndHorizontal() {
        let covered = LayoutRoom(boundsSize: CGSize(width: 844, height: 390), contentInsets: EdgeInsets(left: 47, right: 47),
                                 safeArea: EdgeInsets(left: 47, right: 47), axis: .vertical, isRightToLeft: false)
        #expect(covered.containerSize.width == 750 && covered.crossShift == 0)
        let strip = LayoutRoom(boundsSize: CGSize(width: 390, height: 300), contentInsets: .zero,
                               safeArea: EdgeInsets(top: 0, bottom: 34), axis: .horizontal, isRightToLeft: false)
        #expect(strip.containerSize == CGSize(width: 390, height: 266))
        #expect(strip.crossShift == 0 && strip.crossPadding == 34)
    }

    @Test("NaN, negative and oversized insets never give a negative or non-finite container")
    func badInput() {
        var rng = SplitMix64(seed: 12)
        let odd: [CGFloat] = [.nan, .infinity, -50, 0, 10, 5000]
        for _ in 0..<500 {
            func pick() -> CGFloat { odd[Int.random(in: 0..<odd.count, using: &rng)] }
            let room = LayoutRoom(boundsSize: CGSize(width: pick(), height: pick()),
                                  contentInsets: EdgeInsets(top: pick(), left: pick(), bottom: pick(), right: pick()),
                                  safeArea: EdgeInsets(top: pick(), left: pick(), bottom: pick(), right: pick()),
                                  axis: Bool.random(using: &rng) ? .vertical : .horizontal, isRightToLeft: Bool.random(using: &rng))
            #expect(room.containerSize.width.isFinite && room.containerSize.height.isFinite)
            #expect(room.containerSize.width >= 0 && room.containerSize.height >= 0)
            #expect(room.crossShift.isFinite && room.crossShift >= 0 && room.crossPadding >= room.crossShift)
        }
    }
}
