import Foundation
import Testing
@testable import ParallaxCommandLine

/// The rules both commands read their numbers, sizes and output paths
/// through: values, refusals and their exact wording.
@Suite("Command-line values")
struct CommandLineValuesTests {
    /// The message a rule gives for `text`, or `nil` when it accepts it.
    func refusal<Value>(_ parse: (String) throws(CommandLineValueError) -> Value, _ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error.description
        }
    }

    let offsetRange = "a finite number of points in -1000000000000…1000000000000"

    @Test func scrollOffsetAcceptsFiniteNumbersInRange() throws {
        let rule = CommandLineValues.scrollOffset
        #expect(try rule.parse("-200") == -200)
        #expect(try rule.parse("1e7") == 10_000_000)
        #expect(try rule.parse("-10000000") == -10_000_000)
        #expect(try rule.parse("19500000") == 19_500_000)          // inside a 100,000-item list
        #expect(try rule.parse("-1e12") == -1e12)
        #expect(try rule.parse("0.25") == 0.25)
        #expect(refusal(rule.parse, "nan") == "not a finite number; expected \(offsetRange).")
        #expect(refusal(rule.parse, "inf") == "not a finite number; expected \(offsetRange).")
        #expect(refusal(rule.parse, "-infinity") == "not a finite number; expected \(offsetRange).")
        #expect(refusal(rule.parse, "1e308") == "out of range; expected \(offsetRange).")
        #expect(refusal(rule.parse, "1000000000000.5") == "out of range; expected \(offsetRange).")
        #expect(refusal(rule.parse, "abc") == "not a number; expected \(offsetRange).")
        #expect(refusal(rule.parse, "") == "not a number; expected \(offsetRange).")
    }

    @Test func flingIntensityAndMaxOffsetRanges() throws {
        let fling = CommandLineValues.flingVelocity
        #expect(try fling.parse("-2400") == -2400)
        #expect(refusal(fling.parse, "inf")
                    == "not a finite number; expected a finite number of points per second in -10000000…10000000.")
        #expect(refusal(fling.parse, "1e308")
                    == "out of range; expected a finite number of points per second in -10000000…10000000.")

        let intensity = CommandLineValues.intensity
        #expect(try intensity.parse("0") == 0)
        #expect(try intensity.parse("10") == 10)
        #expect(refusal(intensity.parse, "-1") == "out of range; expected a finite number in 0…10.")
        #expect(refusal(intensity.parse, "1e308") == "out of range; expected a finite number in 0…10.")
        #expect(refusal(intensity.parse, "inf") == "not a finite number; expected a finite number in 0…10.")
        #expect(refusal(intensity.parse, "nan") == "not a finite number; expected a finite number in 0…10.")

        let maxOffset = CommandLineValues.maxOffset
        #expect(try maxOffset.parse("30") == 30)
        #expect(refusal(maxOffset.parse, "-50") == "out of range; expected a finite number of points in 0…10000.")
        #expect(refusal(maxOffset.parse, "1e308") == "out of range; expected a finite number of points in 0…10000.")
        #expect(refusal(maxOffset.parse, "nan") == "not a finite number; expected a finite number of points in 0…10000.")

        #expect(refusal(CommandLineValues.failureRate.parse, "1.5") == "out of range; expected a finite number in 0…1.")
    }

    @Test func wholeNumbersSayOutOfRangeForNegativeAndHugeValues() throws {
        let frames = CommandLineValues.frames
        #expect(try frames.parse("1") == 1)
        #expect(try frames.parse("3600") == 3600)
        #expect(refusal(frames.parse, "-1") == "out of range; expected a whole number in 1…3600.")
        #expect(refusal(frames.parse, "0") == "out of range; expected a whole number in 1…3600.")
        #expect(refusal(frames.parse, "3601") == "out of range; expected a whole number in 1…3600.")
        #expect(refusal(frames.parse, "1e308") == "out of range; expected a whole number in 1…3600.")
        #expect(refusal(frames.parse, "nan") == "not a whole number; expected a whole number in 1…3600.")
        #expect(refusal(frames.parse, "inf") == "not a whole number; expected a whole number in 1…3600.")
        #expect(refusal(frames.parse, "1.5") == "not a whole number; expected a whole number in 1…3600.")

        let seed = CommandLineValues.seed
        #expect(try seed.parse("0") == 0)
        #expect(try seed.parse("18446744073709551615") == UInt64.max)
        let seedRange = "a whole number in 0…18446744073709551615"
        #expect(refusal(seed.parse, "-1") == "out of range; expected \(seedRange).")
        #expect(refusal(seed.parse, "18446744073709551616") == "out of range; expected \(seedRange).")
        #expect(refusal(seed.parse, "nan") == "not a whole number; expected \(seedRange).")

        let items = CommandLineValues.items
        #expect(try items.parse("0") == 0)
        #expect(try items.parse("10000000") == 10_000_000)
        #expect(refusal(items.parse, "9223372036854775807") == "out of range; expected a whole number in 0…10000000.")
        #expect(refusal(items.parse, "-1") == "out of range; expected a whole number in 0…10000000.")
        #expect(refusal(CommandLineValues.photoCount.parse, "0") == "out of range; expected a whole number in 1…1000000.")
    }

    @Test func sizesAreWidthByHeightWithBothSidesInRange() throws {
        let viewport = CommandLineValues.viewport
        #expect(try viewport.parse("390x844") == CGSize(width: 390, height: 844))
        #expect(try viewport.parse("100000X0.5e1") == CGSize(width: 100_000, height: 5))
        let points = "WIDTHxHEIGHT, each side a finite number of points in 1…100000, e.g. 390x844"
        #expect(refusal(viewport.parse, "1e308x1e308") == "out of range; expected \(points).")
        #expect(refusal(viewport.parse, "0x844") == "out of range; expected \(points).")
        #expect(refusal(viewport.parse, "390xnan") == "not a finite number; expected \(points).")
        #expect(refusal(viewport.parse, "390") == "not a size; expected \(points).")
        #expect(refusal(viewport.parse, "390x844x2") == "not a size; expected \(points).")

        let pixels = CommandLineValues.pixelSize
        #expect(try pixels.parse("1280x800") == CGSize(width: 1280, height: 800))
        let whole = "WIDTHxHEIGHT, each side a whole number of pixels in 64…8192, e.g. 1280x800"
        #expect(refusal(pixels.parse, "0x0") == "out of range; expected \(whole).")
        #expect(refusal(pixels.parse, "64.5x100") == "not a whole number; expected \(whole).")
    }

    @Test func helpTextRangesComeFromTheRules() {
        #expect(CommandLineValues.scrollOffset.rangeText == "-1000000000000…1000000000000")
        #expect(CommandLineValues.intensity.rangeText == "0…10")
        #expect(CommandLineValues.maxOffset.rangeText == "0…10000")
        #expect(CommandLineValues.failureRate.rangeText == "0…1")
        #expect(CommandLineValues.viewport.rangeText == "1…100000")
        #expect(CommandLineValues.frames.rangeText == "1…3600")
    }

    @Test func outputPathsAreCheckedBeforeAnyWork() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("values-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let file = scratch.appendingPathComponent("existing.png")
        try Data("x".utf8).write(to: file)

        #expect(CommandLineValues.outputProblem("/nonexistent/dir/x.png", option: "--out", kind: .file)
                    == "--out '/nonexistent/dir/x.png' cannot be written: there is no folder '/nonexistent/dir'.")
        #expect(CommandLineValues.outputProblem(scratch.path, option: "--out", kind: .file)
                    == "--out '\(scratch.path)' cannot be written: it is a folder, not a file.")
        #expect(CommandLineValues.outputProblem(file.path + "/x.png", option: "--out", kind: .file)
                    == "--out '\(file.path)/x.png' cannot be written: '\(file.path)' is not a folder.")
        #expect(CommandLineValues.outputProblem(file.path, option: "--out", kind: .folder)
                    == "--out '\(file.path)' cannot be written: it is a file, not a folder.")
        #expect(CommandLineValues.outputProblem(file.path + "/frames", option: "--out", kind: .folder)
                    == "--out '\(file.path)/frames' cannot be written: '\(file.path)' is not a folder.")
        #expect(CommandLineValues.outputProblem("", option: "--out", kind: .file) == "--out must not be empty.")
        // Writable: a new file in an existing folder, an existing file, a folder made (with its parents) on demand.
        #expect(CommandLineValues.outputProblem(scratch.appendingPathComponent("new.png").path, option: "--out", kind: .file) == nil)
        #expect(CommandLineValues.outputProblem(file.path, option: "--out", kind: .file) == nil)
        #expect(CommandLineValues.outputProblem(scratch.appendingPathComponent("a/b/c").path, option: "--out", kind: .folder) == nil)
        #expect(CommandLineValues.outputProblem(scratch.path, option: "--out", kind: .folder) == nil)
    }
}
