import Foundation
import Testing
@testable import ParallaxGallery

/// The memory chart puts each sample where its time and size say, on a
/// scale of round MiB, and escapes what it prints.
@Suite("Resident memory chart")
struct RSSPlotTests {
    static let mib = 1_048_576

    @Test func samplesLandWhereTheirTimeAndSizeSay() {
        // 720 × 220, margins 56 left, 12 right, 12 top, 28 + 16 below: 652 × 164 of plot.
        let plot = RSSPlot(series: [.init(name: "resident", samples: [.init(seconds: 0, bytes: 0), .init(seconds: 5, bytes: 150 * Self.mib),
                                                                      .init(seconds: 10, bytes: 300 * Self.mib)])],
                           marks: [5], guides: [.init(bytes: 448 * Self.mib, label: "peak goal")])
        let svg = plot.svg()
        // The largest figure is the 448 MiB guide: 128 MiB steps up to 512.
        #expect(svg.contains(">512 MiB</text>") && !svg.contains(">640 MiB</text>"))
        // y = 12 + 164 − bytes / 512 MiB × 164; x = 56 + seconds / 10 × 652.
        #expect(svg.contains("points=\"56.0,176.0 382.0,128.0 708.0,79.9\""))
        #expect(svg.contains("x1=\"382.0\" y1=\"12.0\" x2=\"382.0\" y2=\"176.0\""))    // the mark at 5 s
        #expect(svg.contains("y1=\"32.5\""))                                                // the guide at 448 MiB
        #expect(svg.contains(">10 s</text>"))
    }

    /// Names as long as the session benchmark's take one column, a row
    /// each (they ran into each other in three); short ones share rows three
    /// at a time. Past six series the colours come again, dashed.
    @Test func theLegendGivesEachNameRoomAndEachSeriesItsOwnStroke() {
        let long = "grid, HTTP server (loopback), second launch (from the disk cache), ParallaxKit"
        let samples = [RSSPlot.Sample(seconds: 0, bytes: 0), .init(seconds: 1, bytes: Self.mib)]
        let sessions = RSSPlot(series: (0..<24).map { .init(name: "\(long) \($0)", samples: samples) })
        #expect(sessions.legendColumns(width: 720) == 1 && sessions.legendRows() == 24)
        let svg = sessions.svg(height: 260 + 16 * sessions.legendRows())
        // One column: every name starts at the same x, 16 pixels below the one before.
        #expect(svg.components(separatedBy: "<text x=\"78.0\" y=").count - 1 == 24)
        #expect(svg.contains("stroke=\"#1f77b4\" stroke-width=\"1.5\""))                      // the first: plain
        #expect(svg.contains("stroke=\"#1f77b4\" stroke-dasharray=\"6,3\" stroke-width=\"1.5\""))   // the seventh: dashed
        let short = RSSPlot(series: (0..<7).map { .init(name: "run \($0)", samples: samples) })
        #expect(short.legendColumns(width: 720) == 3 && short.legendRows() == 3)
    }

    @Test func namesAreEscapedAndEmptySeriesDrawNoLine() {
        let svg = RSSPlot(series: [.init(name: "a < b & \"c\"", samples: [])]).svg()
        #expect(svg.contains("a &lt; b &amp; &quot;c&quot;"))
        #expect(!svg.contains("<polyline"))
        #expect(svg.hasPrefix("<svg") && svg.hasSuffix("</svg>\n"))
    }
}
