#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation

/// Why a command-line value was refused.
///
/// Both commands (`parallax-demo` and `parallax-gallery`) read their numbers
/// and sizes through the rules in ``CommandLineValues``, from swift-argument-
/// parser's `transform:` closures. The parser then reports a refusal as
///
///     Error: The value 'nan' is invalid for '--scroll <scroll>': not a finite number; expected ….
///
/// so ``description`` is the part after the colon: what is wrong with the
/// value and the range the option takes. Keeping the wording here, in one
/// place, is what makes it the same in both commands.
package struct CommandLineValueError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The phrase the parser appends after the option and the value.
    package var description: String

    package init(_ description: String) { self.description = description }

    /// A value that is not a number at all (`abc`).
    static func notANumber(_ expected: String) -> CommandLineValueError { .init("not a number; expected \(expected).") }
    /// `nan`, `inf`, or a literal too large to represent.
    static func notFinite(_ expected: String) -> CommandLineValueError { .init("not a finite number; expected \(expected).") }
    /// A number where a whole number is needed (`1.5`, `nan`).
    static func notWhole(_ expected: String) -> CommandLineValueError { .init("not a whole number; expected \(expected).") }
    /// A number of the right kind outside the option's range (`-1`, `1e308`).
    static func outOfRange(_ expected: String) -> CommandLineValueError { .init("out of range; expected \(expected).") }
}

/// A decimal option: a finite number within a closed range.
package struct NumberRule: Sendable, Hashable {
    /// The values the option accepts.
    package var range: ClosedRange<Double>
    /// What the number counts (“points”), or `nil` for a plain factor.
    package var unit: String?

    package init(_ range: ClosedRange<Double>, unit: String? = nil) {
        self.range = range
        self.unit = unit
    }

    /// The range as the help text and the error messages write it: `-10000000…10000000`.
    package var rangeText: String { "\(CommandLineValues.text(range.lowerBound))…\(CommandLineValues.text(range.upperBound))" }

    /// What the option takes, as the error messages say it.
    package var expected: String { "a finite number\(unit.map { " of \($0)" } ?? "") in \(rangeText)" }

    /// The value of `text`, or why it is refused.
    ///
    /// Accepts what `Double(_:)` reads (`12`, `-3.5`, `1e3`); refuses
    /// text that is not a number, `nan`, infinities (and literals too large
    /// to represent, which read as infinities), and finite numbers outside
    /// ``range``.
    package func parse(_ text: String) throws(CommandLineValueError) -> Double {
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)) else { throw .notANumber(expected) }
        guard value.isFinite else { throw .notFinite(expected) }
        guard range.contains(value) else { throw .outOfRange(expected) }
        return value
    }
}

/// A whole-number option (a count, a seed) within a closed range.
package struct WholeNumberRule<Value: FixedWidthInteger & Sendable>: Sendable, Hashable {
    /// The values the option accepts.
    package var range: ClosedRange<Value>

    package init(_ range: ClosedRange<Value>) { self.range = range }

    /// The range as the help text and the error messages write it: `1…3600`.
    package var rangeText: String { "\(range.lowerBound)…\(range.upperBound)" }

    /// What the option takes, as the error messages say it.
    package var expected: String { "a whole number in \(rangeText)" }

    /// The value of `text`, or why it is refused.
    ///
    /// A whole number outside ``range`` — including one too large for
    /// `Value`, or a negative one for an unsigned option — is “out of
    /// range”, never a parse failure, so `--seed -1` says what is wrong.
    package func parse(_ text: String) throws(CommandLineValueError) -> Value {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let value = Value(trimmed) {
            guard range.contains(value) else { throw .outOfRange(expected) }
            return value
        }
        // Not representable as `Value`: a whole number beyond its bounds
        // (`-1` for UInt64, `1e308`) is out of range; anything else is not a
        // whole number.
        guard let number = Double(trimmed) else { throw .notWhole(expected) }
        guard number.isFinite, number.rounded(.towardZero) == number else { throw .notWhole(expected) }
        if let value = Value(exactly: number) {
            guard range.contains(value) else { throw .outOfRange(expected) }
            return value
        }
        throw .outOfRange(expected)
    }
}

/// A two-dimensional size written `WIDTHxHEIGHT` (`390x844`), each side
/// within a closed range.
package struct SizeRule: Sendable, Hashable {
    /// The values each side accepts.
    package var sides: ClosedRange<Double>
    /// Whether the sides must be whole numbers (pixels).
    package var isWhole: Bool
    /// What the sides count: “points” or “pixels”.
    package var unit: String
    /// A valid value to show in the message.
    package var example: String

    package init(sides: ClosedRange<Double>, isWhole: Bool, unit: String, example: String) {
        self.sides = sides
        self.isWhole = isWhole
        self.unit = unit
        self.example = example
    }

    /// The range of each side as the help text and the messages write it: `1…100000`.
    package var rangeText: String { "\(CommandLineValues.text(sides.lowerBound))…\(CommandLineValues.text(sides.upperBound))" }

    /// What the option takes, as the error messages say it.
    package var expected: String {
        "WIDTHxHEIGHT, each side a \(isWhole ? "whole" : "finite") number of \(unit) in \(rangeText), e.g. \(example)"
    }

    /// The size `text` describes, or why it is refused.
    package func parse(_ text: String) throws(CommandLineValueError) -> CGSize {
        let parts = text.trimmingCharacters(in: .whitespaces).lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw CommandLineValueError("not a size; expected \(expected).") }
        var values: [Double] = []
        for part in parts {
            guard let value = Double(part) else { throw CommandLineValueError("not a size; expected \(expected).") }
            guard value.isFinite else { throw .notFinite(expected) }
            if isWhole, value.rounded(.towardZero) != value { throw .notWhole(expected) }
            values.append(value)
        }
        guard values.allSatisfy(sides.contains) else { throw .outOfRange(expected) }
        return CGSize(width: values[0], height: values[1])
    }
}

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

    /// What an output path is: a file the command writes, or a folder it
    /// writes files into (created, with any missing parents, if needed).
    package enum OutputKind: Sendable {
        case file, folder
    }

    /// Why `path`, given to `option`, cannot be written, or `nil` when it
    /// can: checked before any work starts, so a long render never ends in
    /// a failed write.
    ///
    /// A file needs an existing, writable folder and must not itself be a
    /// folder. A folder is made on demand, so it must not be an existing
    /// file, and the nearest part of its path that exists must be a
    /// writable folder.
    package static func outputProblem(_ path: String, option: String, kind: OutputKind,
                                     fileManager: FileManager = .default) -> String? {
        func refuse(_ reason: String) -> String { "\(option) '\(path)' cannot be written: \(reason)." }
        guard !path.isEmpty else { return "\(option) must not be empty." }
        let url = URL(fileURLWithPath: path).standardizedFileURL
        var isFolder: ObjCBool = false
        let exists = fileManager.fileExists(atPath: url.path, isDirectory: &isFolder)
        switch kind {
        case .file:
            if exists, isFolder.boolValue { return refuse("it is a folder, not a file") }
            let parent = url.deletingLastPathComponent()
            var parentIsFolder: ObjCBool = false
            guard fileManager.fileExists(atPath: parent.path, isDirectory: &parentIsFolder) else {
                return refuse("there is no folder '\(parent.path)'")
            }
            guard parentIsFolder.boolValue else { return refuse("'\(parent.path)' is not a folder") }
            if exists {
                guard fileManager.isWritableFile(atPath: url.path) else { return refuse("the file is not writable") }
            } else {
                guard fileManager.isWritableFile(atPath: parent.path) else {
                    return refuse("the folder '\(parent.path)' is not writable")
                }
            }
            return nil
        case .folder:
            if exists {
                guard isFolder.boolValue else { return refuse("it is a file, not a folder") }
                guard fileManager.isWritableFile(atPath: url.path) else { return refuse("the folder is not writable") }
                return nil
            }
            var ancestor = url.deletingLastPathComponent()
            while true {
                var ancestorIsFolder: ObjCBool = false
                if fileManager.fileExists(atPath: ancestor.path, isDirectory: &ancestorIsFolder) {
                    guard ancestorIsFolder.boolValue else { return refuse("'\(ancestor.path)' is not a folder") }
                    guard fileManager.isWritableFile(atPath: ancestor.path) else {
                        return refuse("the folder '\(ancestor.path)' is not writable")
                    }
                    return nil
                }
                let up = ancestor.deletingLastPathComponent()
                if up.path == ancestor.path { return refuse("no part of the path exists") }
                ancestor = up
            }
        }
    }
}
