import Foundation
import Testing
@testable import ParallaxDemo

@Suite("Demo picture")
struct DemoPictureTests {
    @Test func svgDrawsEveryItemAndItsContent() throws {
        let report = try DemoScene(layout: .list, itemCount: 30, contentOffset: 300).report()
        let svg = report.svg(scale: 1)
        #expect(svg.hasPrefix("<svg") && svg.hasSuffix("</svg>"))
        #expect(svg.components(separatedBy: "<clipPath").count - 1 == report.items.count)
        // The first visible item's content rectangle, at its parallax position in viewport coordinates.
        let row = report.items[0]
        let y = row.frame.y - 300 + row.contentFrame.y
        #expect(svg.contains(String(format: "y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"", y, row.contentFrame.width,
                                    row.contentFrame.height)))
    }
}
