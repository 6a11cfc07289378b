/// An option that takes a comma-separated list of named choices
/// (`grid,list`), each the raw value of one of `Choice`'s cases.
///
/// The names come from the type (`CaseIterable`), so the help text and the
/// refusal list them from the one place they are declared and never spell
/// them again. A single choice is an `ExpressibleByArgument` enum that
/// swift-argument-parser reads and lists itself; a list, which the parser
/// has no comma-separated form for, is read through this rule's ``parse(_:)``
/// in a `transform:` closure, like the number rules.
///
/// Empty names are skipped (`grid,,list` is `grid,list`; an empty text is
/// no choice at all), and a name may repeat: the list is run as written.
package struct ChoiceListRule<Choice>: Sendable
where Choice: CaseIterable & RawRepresentable & Sendable, Choice.RawValue == String {
    package init() {}

    /// Every choice's name, in declaration order, as the help text and the
    /// refusal list them: `grid, list, quilt, waterfall`.
    package var choicesText: String { Choice.allCases.map(\.rawValue).joined(separator: ", ") }

    /// What the option takes, as the refusal says it.
    package var expected: String { "names from \(choicesText), separated by commas" }

    /// `choices` written the way the option takes them (`grid,list`): the
    /// help text's default.
    package func text(_ choices: [Choice]) -> String { choices.map(\.rawValue).joined(separator: ",") }

    /// The choices `text` names, in its order, or why it is refused: the
    /// first name that is none of `Choice`'s.
    ///
    /// - Complexity: O(*n* · *c*) for *n* names and *c* choices.
    package func parse(_ text: String) throws(CommandLineValueError) -> [Choice] {
        var choices: [Choice] = []
        for name in text.split(separator: ",") {
            guard let choice = Choice(rawValue: String(name)) else {
                throw CommandLineValueError("'\(name)' is not a choice; expected \(expected).")
            }
            choices.append(choice)
        }
        return choices
    }
}
