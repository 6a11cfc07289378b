import Foundation
import Testing
@testable import ParallaxDemo

@Suite("Demo report")
struct DemoSceneTests {
    @Test func gridReportByHand() throws {
        let report = try DemoScene(layout: .grid, itemCount: 20, contentOffset: 100).report()
        #expect(report.columns == 2)
        #expect(report.items.count == 10)
        let first = try #require(report.items.first)
        #expect(first.item == 0)
        #expect(first.frame == FrameReport.Rect(CGRect(x: 8, y: 8, width: 183, height: 183)))
        // (522 − 99.5) · 10 / (422 + 91.5): RHParallaxScroller's 10-pt grid setting.
        #expect(abs(first.parallaxOffset - 422.5 * 10 / 513.5) < 1e-9)
        #expect(first.contentFrame.height == 203)
    }

    @Test func listUsesTenPercentAndWindowAndOffWork() throws {
        let list = try DemoScene(layout: .list, itemCount: 5).report()
        #expect(list.items.map(\.contentFrame.height) == Array(repeating: 195 * 1.2, count: 5))
        let window = try DemoScene(layout: .list, itemCount: 5, contentOffset: 50, effect: .window).report()
        for row in window.items { #expect(abs(row.frame.y + row.contentFrame.y - 50) < 1e-9) }
        let off = try DemoScene(layout: .list, itemCount: 5, effect: .off).report()
        #expect(off.items.allSatisfy { $0.parallaxOffset == 0 && $0.contentFrame.height == 195 })
    }

    @Test func jsonRoundTripsAndTableHasARowPerItem() throws {
        let report = try DemoScene(layout: .grid, itemCount: 7).report()
        let decoded = try JSONDecoder().decode(FrameReport.self, from: Data(try report.json().utf8))
        #expect(decoded == report)
        #expect(report.visibleCount == 7)
        #expect(report.table().split(separator: "\n").count == 2 + report.items.count)
    }

    // A scene built in code with a value JSON cannot hold: an error naming the field, never "{}".
    @Test func jsonThatCannotBeWrittenIsAnErrorNotAnEmptyDocument() throws {
        let report = try DemoScene(layout: .grid, itemCount: 3, contentOffset: .nan).report()
        #expect(throws: FrameReport.JSONError(
            description: "the report cannot be written as JSON: viewport.y is nan, which JSON cannot represent")) {
            try report.json()
        }
    }

    @Test func aHugeViewportListsAtMostTheLimitAndCountsTheRest() throws {
        let small = try DemoScene(layout: .grid, itemCount: 20, contentOffset: 100, maximumListedItems: 3).report()
        #expect(small.visibleCount == 10)
        #expect(small.items.map(\.item) == [0, 1, 2])
        #expect(small.table().hasPrefix(
            "grid, 2 columns, effect depth; viewport 390×844 at y = 100.0; content 390×1918; 10 visible, the first 3 listed\n"))
        // The largest scene the command accepts: 100,000-point sides and 10,000,000 items.
        let clock = ContinuousClock()
        let start = clock.now
        let huge = try DemoScene(layout: .grid, viewportSize: CGSize(width: 100_000, height: 100_000),
                                 itemCount: 10_000_000).report()
        #expect(clock.now - start < .seconds(5))
        #expect(huge.columns == 640)
        #expect(huge.visibleCount == 409_600)
        #expect(huge.items.count == DemoScene.defaultMaximumListedItems)
        #expect(huge.items.map(\.item) == Array(0..<10_000))
        #expect(huge.items.allSatisfy { $0.parallaxOffset.isFinite && $0.contentFrame.height.isFinite })
    }

    @Test func badInputIsAClearError() {
        #expect(throws: (any Error).self) { try DemoScene(itemCount: -1).report() }
        let empty = try? DemoScene(itemCount: 0).report()
        #expect(empty?.items.isEmpty == true)
    }
}
