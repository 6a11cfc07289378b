import Foundation
import ParallaxCore
import ParallaxHosting
import ParallaxLayout
import Testing
@testable import ParallaxGallery

/// The frame's motion: at rest, mid-switch or mid-pinch, one at a time.
@Suite("FrameSource: rest, switch and pinch behind one enum")
struct FrameSourceTests {
    static let size = CGSize(width: 400, height: 300)

    static func grid(columns: Int, count: Int = 200) throws -> AnyItemLayout {
        try AnyItemLayout(GridLayout(configuration: GridConfiguration(preferredItemSize: CGSize(width: 1, height: 1),
                                                                     margins: .zero, spacing: .zero,
                                                                     columns: .fixed(columns)),
                                     itemCount: count, containerSize: size))
    }

    @Test func atRestItListsTheLayoutsItemsInTheViewport() throws {
        let layout = try Self.grid(columns: 4)                  // 100-point squares
        let source = FrameSource()
        var frame = ShownFrame()
        source.frame(at: 0, layout: layout, scrollOffset: 250, viewportSize: Self.size, into: &frame)
        #expect(frame.offset == CGPoint(x: 0, y: 250))
        // Rows 2…5 (y 200 ..< 600) meet 250 ..< 550.
        #expect(frame.items.map(\.item) == Array(8..<24))
        #expect(frame.destinationSizes.isEmpty && frame.pinch == nil)
        // The next frame reuses the storage and starts empty.
        source.frame(at: 0, layout: layout, scrollOffset: 0, viewportSize: Self.size, into: &frame)
        #expect(frame.items.map(\.item) == Array(0..<12))
    }

    @Test func aSwitchRunsItsDurationAndAsksForPicturesAtTheirFinalSize() throws {
        let from = try Self.grid(columns: 4), to = try Self.grid(columns: 2)
        var source = FrameSource()
        let transition = LayoutTransition(from: from, at: ScrollViewport(size: Self.size), to: to)
        source.beginSwitch(transition, at: 10)
        #expect(source.isSwitching && !source.isResting)
        var frame = ShownFrame()
        #expect(source.advance(to: 10 + FrameSource.switchDuration / 2) == nil)
        source.frame(at: 10 + FrameSource.switchDuration / 2, layout: to, scrollOffset: 0, viewportSize: Self.size, into: &frame)
        // Every item is asked for at its size in the grid it is going to: 200 × 200.
        #expect(!frame.items.isEmpty)
        #expect(frame.items.allSatisfy { frame.destinationSizes[$0.item] == CGSize(width: 200, height: 200) })
        // Half way (smoothstep at ½ is ½), item 1 is half way between 100 and 200 points wide.
        let one = try #require(frame.items.first { $0.item == 1 })
        #expect(abs(one.frame.width - 150) < 1e-9)
        #expect(source.advance(to: 10 + FrameSource.switchDuration + 1e-9) == nil)
        #expect(source.isResting)
    }

    @Test func aPinchIsFollowedWhileTheFingersAreDownAndRestsOnlyWhenItsSettleEnds() throws {
        let shown = try Self.grid(columns: 4)
        var pinch = ColumnPinch(columns: 4, range: 1...8) { n, _, counts throws(LayoutError) in
            try GridLayout(configuration: GridConfiguration(preferredItemSize: CGSize(width: 1, height: 1), margins: .zero,
                                                            spacing: .zero, columns: .fixed(n)),
                           itemCount: counts.first ?? 0, containerSize: Self.size)
        }
        let began = pinch.begin(viewport: ScrollViewport(size: Self.size), focus: CGPoint(x: 200, y: 150),
                                containerSize: Self.size, itemCounts: [200])
        #expect(began)
        var source = FrameSource()
        source.beginPinch(pinch)
        source.updatePinch { $0.change(scale: 1.6, focus: nil) }
        // Fingers down: however much time passes, the pinch is followed, never rested.
        for time in stride(from: 0.0, through: 5, by: 0.5) {
            #expect(source.advance(to: time) == nil)
            #expect(source.isPinching)
        }
        var frame = ShownFrame()
        source.frame(at: 5, layout: shown, scrollOffset: 0, viewportSize: Self.size, into: &frame)
        #expect(frame.pinch != nil && !frame.items.isEmpty)
        // Released: it settles, then rests once, with the offset its last frame showed.
        source.updatePinch { $0.end(scaleVelocity: 0, at: 5) }
        var rested: (pinch: ColumnPinch, offset: CGPoint)?
        var time = 5.0
        while rested == nil, time < 60 {
            time += 1.0 / 60
            rested = source.advance(to: time)
        }
        let rest = try #require(rested)
        #expect(source.isResting && !rest.pinch.isActive)
        #expect((1...3).contains(rest.pinch.columns), "spread to 1.6× four columns rests on fewer")
    }
}
