/// Why a command-line value was refused.
///
/// Both commands (`parallax-demo` and `parallax-gallery`) read their numbers,
/// sizes and lists of choices through the rules in ``CommandLineValues`` and
/// ``ChoiceListRule``, from swift-argument-parser's `transform:` closures.
/// The parser then reports a refusal as
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
