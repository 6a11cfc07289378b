import Foundation

/// Resident memory over a session as a small SVG line chart, for the
/// benchmark reports: one line per series, a dotted vertical mark at named
/// moments (the end of each cycle) and a dashed horizontal guide for a goal.
///
/// The chart is plain text made the same way from the same samples (no
/// time stamps, fixed palette), so a rerun only changes it where the
/// figures changed. O(samples) to draw.
package struct RSSPlot: Sendable {
    /// Resident memory at a moment of the session.
    package struct Sample: Sendable, Hashable {
        package var seconds: Double
        package var bytes: Int

        package init(seconds: Double, bytes: Int) {
            self.seconds = seconds
            self.bytes = bytes
        }
    }

    /// One line of the chart.
    package struct Series: Sendable {
        package var name: String
        package var samples: [Sample]

        package init(name: String, samples: [Sample]) {
            self.name = name
            self.samples = samples
        }
    }

    /// A horizontal line at `bytes`, labelled.
    package struct Guide: Sendable {
        package var bytes: Int
        package var label: String

        package init(bytes: Int, label: String) {
            self.bytes = bytes
            self.label = label
        }
    }

    package var series: [Series]
    /// Moments to mark, in seconds.
    package var marks: [Double] = []
    package var guides: [Guide] = []

    package init(series: [Series], marks: [Double] = [], guides: [Guide] = []) {
        self.series = series
        self.marks = marks
        self.guides = guides
    }

    static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]
    /// After the palette's six colours, the next six series repeat them
    /// dashed, and so on, so a chart of 24 sessions still tells each apart.
    static let dashes = ["", "6,3", "2,2", "8,3,2,3"]
    static let mebibyte = 1_048_576.0

    /// The chart, `width` × `height` pixels: time across from 0 to the
    /// last sample, memory up from 0 to a round number of MiB above the
    /// largest sample or guide.
    package func svg(width: Int = 720, height: Int = 220) -> String {
        let columns = legendColumns(width: width)
        let left = 56.0, right = 12.0, top = 12.0, bottom = 28.0 + 16.0 * Double(legendRows(width: width))
        let plotWidth = Double(width) - left - right, plotHeight = Double(height) - top - bottom
        let seconds = max(series.flatMap(\.samples).map(\.seconds).max() ?? 1, 1)
        let largest = Double(max(series.flatMap(\.samples).map(\.bytes).max() ?? 0, guides.map(\.bytes).max() ?? 0)) / Self.mebibyte
        let step = [32.0, 64, 128, 256, 512, 1024, 2048].first { largest / $0 <= 6 } ?? 4096
        let ceiling = max((largest / step).rounded(.up), 1) * step
        func x(_ s: Double) -> Double { left + s / seconds * plotWidth }
        func y(_ bytes: Int) -> Double { top + plotHeight - Double(bytes) / Self.mebibyte / ceiling * plotHeight }
        func f(_ value: Double) -> String { String(format: "%.1f", value) }

        var lines = ["<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" font-family=\"sans-serif\" font-size=\"11\">",
                     "<rect width=\"\(width)\" height=\"\(height)\" fill=\"white\"/>"]
        var tick = 0.0
        while tick <= ceiling {
            let at = f(top + plotHeight - tick / ceiling * plotHeight)
            lines.append("<line x1=\"\(f(left))\" y1=\"\(at)\" x2=\"\(f(left + plotWidth))\" y2=\"\(at)\" stroke=\"#e0e0e0\"/>")
            lines.append("<text x=\"\(f(left - 4))\" y=\"\(at)\" text-anchor=\"end\" dominant-baseline=\"middle\">\(Int(tick)) MiB</text>")
            tick += step
        }
        for mark in marks {
            lines.append("<line x1=\"\(f(x(mark)))\" y1=\"\(f(top))\" x2=\"\(f(x(mark)))\" y2=\"\(f(top + plotHeight))\" stroke=\"#b0b0b0\" stroke-dasharray=\"1,3\"/>")
        }
        for guide in guides {
            let at = f(y(guide.bytes))
            lines.append("<line x1=\"\(f(left))\" y1=\"\(at)\" x2=\"\(f(left + plotWidth))\" y2=\"\(at)\" stroke=\"#555\" stroke-dasharray=\"6,4\"/>")
            lines.append("<text x=\"\(f(left + plotWidth))\" y=\"\(f(y(guide.bytes) - 4))\" text-anchor=\"end\">\(Self.escaped(guide.label))</text>")
        }
        for (index, line) in series.enumerated() where !line.samples.isEmpty {
            let points = line.samples.map { "\(f(x($0.seconds))),\(f(y($0.bytes)))" }.joined(separator: " ")
            lines.append("<polyline fill=\"none\" \(Self.stroke(index)) stroke-width=\"1.5\" points=\"\(points)\"/>")
        }
        let axis = f(top + plotHeight)
        lines.append("<line x1=\"\(f(left))\" y1=\"\(axis)\" x2=\"\(f(left + plotWidth))\" y2=\"\(axis)\" stroke=\"black\"/>")
        lines.append("<text x=\"\(f(left))\" y=\"\(f(top + plotHeight + 14))\">0 s</text>")
        lines.append("<text x=\"\(f(left + plotWidth))\" y=\"\(f(top + plotHeight + 14))\" text-anchor=\"end\">\(Int(seconds.rounded())) s</text>")
        for (index, line) in series.enumerated() {
            let column = Double(index % columns) * plotWidth / Double(columns), row = Double(index / columns)
            let baseline = top + plotHeight + 30 + 16 * row
            lines.append("<line x1=\"\(f(left + column))\" y1=\"\(f(baseline - 4))\" x2=\"\(f(left + column + 18))\" y2=\"\(f(baseline - 4))\" \(Self.stroke(index)) stroke-width=\"2\"/>")
            lines.append("<text x=\"\(f(left + column + 22))\" y=\"\(f(baseline))\">\(Self.escaped(line.name))</text>")
        }
        lines.append("</svg>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The legend's columns in a chart `width` pixels wide: as many as the
    /// longest name leaves room for (about 6.2 pixels a character in 11-pixel
    /// sans-serif), at most three, so names never run into each other.
    func legendColumns(width: Int) -> Int {
        let plotWidth = Double(width) - 56 - 12
        let longest = Double(series.map(\.name.count).max() ?? 0)
        return max(1, min(3, Int(plotWidth / (22 + 6.2 * longest + 12))))
    }

    /// The legend's rows in a chart `width` pixels wide: 16 pixels each
    /// below the plot (a caller sizing the chart adds them).
    package func legendRows(width: Int = 720) -> Int {
        let columns = legendColumns(width: width)
        return (series.count + columns - 1) / columns
    }

    /// Series `index`'s stroke: its colour, dashed after the first six.
    private static func stroke(_ index: Int) -> String {
        let dash = dashes[(index / palette.count) % dashes.count]
        return "stroke=\"\(palette[index % palette.count])\"" + (dash.isEmpty ? "" : " stroke-dasharray=\"\(dash)\"")
    }

    /// `text` with the characters XML gives a meaning escaped.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
