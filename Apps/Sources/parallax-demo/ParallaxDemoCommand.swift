import ArgumentParser
import Foundation
import ParallaxCommandLine
import ParallaxDemo

/// Prints the visible items of a layout at a scroll position, with their
/// frames and parallax offsets: for tuning an effect without a device.
///
/// Every number is read and range-checked once, by the rules in
/// ``CommandLineValues`` (shared with `parallax-gallery`), before any work:
/// a bad value is one sentence naming the option, the value and the range,
/// and exit status 64. Numeric options accept values that start with a dash
/// (`--offset -200`).
@main
struct ParallaxDemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parallax-demo",
        abstract: "Show the visible items of a ParallaxKit layout with their frames and parallax offsets."
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case table, json, svg }

    @Option(help: "The layout: \(DemoScene.Layout.allCases.map(\.rawValue).joined(separator: ", ")).")
    var layout: DemoScene.Layout = .grid

    @Option(parsing: .unconditional,
            help: "The viewport size in points, WIDTHxHEIGHT, each side \(CommandLineValues.viewport.rangeText) (default: 390x844).",
            transform: { try CommandLineValues.viewport.parse($0) })
    var viewport: CGSize = CGSize(width: 390, height: 844)

    @Option(parsing: .unconditional,
            help: """
                The number of items, \(CommandLineValues.items.rangeText) (default: 1000). At most \
                \(DemoScene.defaultMaximumListedItems) visible items are listed; the rest are counted.
                """,
            transform: { try CommandLineValues.items.parse($0) })
    var items: Int = 1000

    @Option(parsing: .unconditional,
            help: "The vertical content offset (scroll position) in points, \(CommandLineValues.scrollOffset.rangeText) (default: 0).",
            transform: { try CommandLineValues.scrollOffset.parse($0) })
    var offset: Double = 0

    @Option(help: "The effect: \(DemoScene.Effect.allCases.map(\.rawValue).joined(separator: ", ")).")
    var effect: DemoScene.Effect = .depth

    @Option(parsing: .unconditional,
            help: """
                The depth amount in points, \(CommandLineValues.maxOffset.rangeText) \
                (default: grid 10 pt, list 10 % of the cell).
                """,
            transform: { try CommandLineValues.maxOffset.parse($0) })
    var maxOffset: Double? = nil

    @Option(parsing: .unconditional,
            help: "Multiplies every parallax offset, \(CommandLineValues.intensity.rangeText) (0 turns parallax off; default: 1).",
            transform: { try CommandLineValues.intensity.parse($0) })
    var intensity: Double = 1

    @Flag(help: "Turn every parallax offset off, as the Reduce Motion setting does.")
    var reduceMotion = false

    @Option(help: "Output format: table, json, or svg (a picture of the viewport).")
    var format: Format = .table

    func run() throws {
        let scene = DemoScene(layout: layout, viewportSize: viewport,
                              itemCount: items, contentOffset: CGFloat(offset), effect: effect,
                              maxOffset: maxOffset.map { CGFloat($0) }, intensity: CGFloat(intensity),
                              reduceMotion: reduceMotion)
        let report: FrameReport
        do {
            report = try scene.report()
        } catch {
            throw ValidationError("\(error)")
        }
        switch format {
        case .table: print(report.table())
        // A report that cannot be written as JSON is an error (exit status 1), never an empty document.
        case .json: print(try report.json())
        case .svg: print(report.svg())
        }
    }
}

extension DemoScene.Layout: ExpressibleByArgument {}
extension DemoScene.Effect: ExpressibleByArgument {}
