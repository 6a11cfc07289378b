#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation

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
