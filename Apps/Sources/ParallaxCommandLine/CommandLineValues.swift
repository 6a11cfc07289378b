// ParallaxCommandLine: the command-line value rules `parallax-demo` and
// `parallax-gallery` share (numbers, sizes, lists of named choices, output
// paths), so both commands check a value the same way and word a refusal
// the same way. It knows nothing of either command's work and does not
// depend on swift-argument-parser: the commands hand its `parse` functions
// to the parser's `transform:` closures.
import Foundation

/// Every number, size and output path the two commands read, with the
/// range each accepts: the one place both `parallax-demo` and
/// `parallax-gallery` take their checks, their help text's ranges and their
/// error wording from.
///
/// The ranges are generous for any real screen, and small enough that
/// everything computed from them stays finite and quick.
package enum CommandLineValues {
    /// A content offset (scroll position) in points: `--offset`, `--scroll`.
    /// Wide enough for any content these commands can lay out (10,000,000
    /// list rows are about 2·10⁹ points tall), so an offset inside the
    /// content is never refused; ±10¹² points and beyond is absurd.
    package static let scrollOffset = NumberRule(-1_000_000_000_000...1_000_000_000_000, unit: "points")
    /// A fling velocity in points per second: `--fling`.
    package static let flingVelocity = NumberRule(-10_000_000...10_000_000, unit: "points per second")
    /// The parallax intensity multiplier: `--intensity` (0 = off, 1 = as designed).
    package static let intensity = NumberRule(0...10)
    /// A depth amount in points: `--max-offset`.
    package static let maxOffset = NumberRule(0...10_000, unit: "points")
    /// A probability: `--failure-rate`.
    package static let failureRate = NumberRule(0...1)
    /// Frames to render, up to a minute at 60 per second: `--frames`.
    package static let frames = WholeNumberRule<Int>(1...3600)
    /// A random seed: `--seed`, any 64-bit unsigned value.
    package static let seed = WholeNumberRule<UInt64>(0...UInt64.max)
    /// A number of items in the demo's layout: `--items`.
    package static let items = WholeNumberRule<Int>(0...10_000_000)
    /// A number of photos for the session benchmark: `--count`.
    package static let photoCount = WholeNumberRule<Int>(1...1_000_000)
    /// The demo's viewport in points: `--viewport`.
    package static let viewport = SizeRule(sides: 1...100_000, isWhole: false, unit: "points", example: "390x844")
    /// The gallery's window or frame size in pixels: `--size`.
    package static let pixelSize = SizeRule(sides: 64...8192, isWhole: true, unit: "pixels", example: "1280x800")

    /// Writes a bound the way people type it: `10000000`, `0.5`.
    static func text(_ value: Double) -> String {
        if value.rounded(.towardZero) == value, abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
