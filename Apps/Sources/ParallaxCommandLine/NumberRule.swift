import Foundation

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
