import ArgumentParser
import Foundation
import ParallaxCommandLine
import ParallaxGallery

/// `parallax-gallery session`: what a person scrolling the gallery sees,
/// over the sessions of a ``SessionMatrix``, as a report for BENCHMARKS.md
/// (``SessionReport``).
struct Session: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "What the user sees while scrolling: blank tiles, time to a full screen and hitches, at the display's pace.")

    static let layoutList = ChoiceListRule<GalleryLayout>()
    static let latencyList = ChoiceListRule<LatencyPreset>()
    static let launchList = ChoiceListRule<SessionMatrix.Launch>()
    static let defaultLatencies: [LatencyPreset] = [.none, .seed]
    static let defaultLaunches: [SessionMatrix.Launch] = [.disk, .http]

    @OptionGroup var options: SharedOptions

    @Option(parsing: .unconditional,
            help: "How many photos (the set repeated under distinct names), \(CommandLineValues.photoCount.rangeText) (default: 3000).",
            transform: { try CommandLineValues.photoCount.parse($0) })
    var count: Int = 3000

    @Flag(help: "Show the library's own photos as listed (a real library tree, in the order taken) instead of the set repeated to --count.")
    var asListed = false

    @Option(help: """
        Layouts to run, comma-separated, from \(Session.layoutList.choicesText) \
        (default: \(Session.layoutList.text(GalleryLayout.allCases))).
        """,
            transform: { try Session.layoutList.parse($0) })
    var layouts: [GalleryLayout] = GalleryLayout.allCases

    @Option(help: """
        Latencies to run, comma-separated, from \(Session.latencyList.choicesText) \
        (default: \(Session.latencyList.text(Session.defaultLatencies))).
        """,
            transform: { try Session.latencyList.parse($0) })
    var latencies: [LatencyPreset] = Session.defaultLatencies

    @Flag(help: "Skip the first-come-first-served baseline.")
    var noBaseline = false

    @Option(help: """
        Launches to measure with the thumbnail disk cache, comma-separated: \
        \(SessionMatrix.Launch.allCases.map { "\($0.rawValue) (\($0.summary))" }.joined(separator: ", ")) \
        (default: \(Session.launchList.text(Session.defaultLaunches))).
        """,
            transform: { try Session.launchList.parse($0) })
    var launches: [SessionMatrix.Launch] = Session.defaultLaunches

    @OptionGroup var report: ReportOutput

    @Option(help: "An SVG file to draw each session's resident memory over time into (replaced; its folder must exist); the report shows it under this path.")
    var plot: String?

    /// Reads the targets the report judges by (scripts/benchreport/targets.json)
    /// before any work: a missing or broken file stops the command before a
    /// run of minutes, not after it.
    func validate() throws {
        _ = try BenchmarkTargets.load()
        if let plot { try OutputCheck.requireWritable(plot, option: "--plot", kind: .file) }
    }

    @MainActor
    func run() async throws {
        let matrix = SessionMatrix(layouts: layouts, latencies: latencies, includesBaseline: !noBaseline,
                                   launches: Set(launches), photos: asListed ? 0 : count, size: options.size)
        let library = try await options.source.library()
        let figures = try await matrix.run(over: library, from: options.source)
        var markdown = SessionReport.markdown(figures, photoSet: asListed ? .listed(library.description) : .repeated)
        if let plot {
            let chart = RSSPlot(series: figures.map { RSSPlot.Series(name: $0.scenario.name, samples: $0.residentOverTime) })
            try OutputFile.write(Data(chart.svg(height: 260 + 16 * chart.legendRows()).utf8), to: plot)
            print("wrote \(plot)")
            markdown += "\n\n![Resident memory over each session](\(plot))"
        }
        try report.write(markdown)
    }
}
