import ArgumentParser
import Foundation
import ParallaxDemo

/// Prints the visible items of a layout at a scroll position, with their
/// frames and parallax offsets: for tuning an effect without a device.
@main
struct ParallaxDemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parallax-demo",
        abstract: "Show the visible items of a ParallaxKit layout with their frames and parallax offsets."
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case table, json, svg }

    @Option(help: "The layout: \(DemoScene.Layout.allCases.map(\.rawValue).joined(separator: ", ")).")
    var layout: DemoScene.Layout = .grid

    @Option(help: "The viewport size in points, WIDTHxHEIGHT.")
    var viewport: String = "390x844"

    @Option(help: "The number of items.")
    var items: Int = 1000

    @Option(help: "The vertical content offset (scroll position) in points.")
    var offset: Double = 0

    @Option(help: "The effect: \(DemoScene.Effect.allCases.map(\.rawValue).joined(separator: ", ")).")
    var effect: DemoScene.Effect = .depth

    @Option(help: "The depth amount in points (default: grid 10 pt, list 10 % of the cell).")
    var maxOffset: Double?

    @Option(help: "Multiplies every parallax offset.")
    var intensity: Double = 1

    @Flag(help: "Turn every parallax offset off, as the Reduce Motion setting does.")
    var reduceMotion = false

    @Option(help: "Output format: table, json, or svg (a picture of the viewport).")
    var format: Format = .table

    func run() throws {
        let parts = viewport.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Double(parts[0]), let height = Double(parts[1]),
              width.isFinite, height.isFinite, width > 0, height > 0 else {
            throw ValidationError("--viewport must be WIDTHxHEIGHT with positive numbers, e.g. 390x844")
        }
        let scene = DemoScene(layout: layout, viewportSize: CGSize(width: width, height: height),
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
        case .json: print(report.json())
        case .svg: print(report.svg())
        }
    }
}

extension DemoScene.Layout: ExpressibleByArgument {}
extension DemoScene.Effect: ExpressibleByArgument {}
