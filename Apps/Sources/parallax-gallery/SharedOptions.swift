import ArgumentParser
import Foundation
import ParallaxCommandLine
import ParallaxGallery

/// The options every subcommand shares: where the photos come from
/// (``PhotoSourceOptions``) and how the gallery shows them.
///
/// Every number and size is read and range-checked once, by the rules in
/// `CommandLineValues` (shared with `parallax-demo`, so both commands word
/// a refusal the same way), and every named choice by its enum, before any
/// work: a bad value is one sentence naming the option, the value and what
/// it takes, and exit status 64. Numeric options accept values that start
/// with a dash, so `--seed -1` is reported as out of range rather than as a
/// missing value.
struct SharedOptions: ParsableArguments {
    @OptionGroup var source: PhotoSourceOptions

    @Option(help: "The layout.")
    var layout: GalleryLayout = .grid

    @Option(help: "The order of the photos: by the time each was taken (from its EXIF or XMP date, else its file's time), newest or oldest first, or by name.")
    var order: PhotoSort = .newestFirst

    @Option(help: "The sections photos are grouped into, each under a header.")
    var sections: PhotoGrouping = .month

    @Option(help: "The parallax effect.")
    var effect: GalleryEffect = .depth

    @Option(parsing: .unconditional,
            help: "Multiplies every parallax offset, \(CommandLineValues.intensity.rangeText) (0 turns parallax off; default: 1).",
            transform: { try CommandLineValues.intensity.parse($0) })
    var intensity: Double = 1

    @Option(help: "Latency the simulated server adds to every photo (default: none, so photos load at the speed of their disk or server; seed is RolfHendriks' 0-2 s demo).")
    var latency: LatencyPreset?

    @Option(parsing: .unconditional,
            help: "Share of downloads that fail, \(CommandLineValues.failureRate.rangeText) (default: 0).",
            transform: { try CommandLineValues.failureRate.parse($0) })
    var failureRate: Double = 0

    @Option(parsing: .unconditional,
            help: "The window or frame size in pixels, WIDTHxHEIGHT, each side \(CommandLineValues.pixelSize.rangeText) (default: 1280x800).",
            transform: { try CommandLineValues.pixelSize.parse($0) })
    var size: CGSize = CGSize(width: 1280, height: 800)

    @Option(parsing: .unconditional,
            help: "Seed of the simulated server's random draws, \(CommandLineValues.seed.rangeText) (default: 2015).",
            transform: { try CommandLineValues.seed.parse($0) })
    var seed: UInt64 = 2015

    @Flag(help: "Start with Reduce Motion on.")
    var reduceMotion = false

    /// The gallery's settings from these options; `--latency` when given,
    /// else `defaultLatency`.
    func settings(defaultLatency: LatencyPreset) -> GallerySettings {
        var settings = GallerySettings()
        settings.layout = layout
        settings.effect = effect
        settings.intensity = CGFloat(intensity)
        settings.latency = latency ?? defaultLatency
        settings.failureRate = failureRate
        settings.seed = seed
        settings.reduceMotion = reduceMotion
        settings.sort = order
        settings.grouping = sections
        return settings
    }
}
