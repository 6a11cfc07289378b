import Testing
import ParallaxCommandLine

/// A comma-separated list of named choices: the names come from the type,
/// in the help text and in the refusal.
@Suite("Choice lists")
struct ChoiceListRuleTests {
    enum Shape: String, CaseIterable, Sendable { case grid, list, quilt }

    let rule = ChoiceListRule<Shape>()

    @Test func readsTheNamesInTheirOrder() throws {
        #expect(try rule.parse("quilt,grid") == [.quilt, .grid])
        #expect(try rule.parse("list") == [.list])
        #expect(try rule.parse("grid,grid") == [.grid, .grid])
        #expect(try rule.parse("grid,,list,") == [.grid, .list])
        #expect(try rule.parse("").isEmpty)
    }

    @Test func refusesTheFirstUnknownNameListingEveryChoice() {
        #expect(rule.choicesText == "grid, list, quilt")
        #expect(rule.text(Shape.allCases) == "grid,list,quilt")
        for (text, name) in [("grid,sparkle", "sparkle"), ("Grid", "Grid"), ("grid, list", " list"), ("x,y", "x")] {
            do {
                _ = try rule.parse(text)
                Issue.record("\(text) was accepted")
            } catch {
                #expect(error.description == "'\(name)' is not a choice; expected names from grid, list, quilt, separated by commas.")
            }
        }
    }
}
