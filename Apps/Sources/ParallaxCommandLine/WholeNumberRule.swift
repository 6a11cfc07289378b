import Foundation

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
