import Foundation
import Testing
@testable import ParallaxImages

@Suite("Image bindings")
struct ImageBindingTableTests {
    @Test func onlyTheCurrentTicketIsAccepted() throws {
        var bindings = ImageBindingTable<Int>()
        let first = bindings.bind(7, to: Numbered.key(1))
        let second = bindings.bind(7, to: Numbered.key(2))
        #expect(!bindings.accepts(first, for: 7) && bindings.accepts(second, for: 7))
        let again = bindings.bind(7, to: Numbered.key(2))                  // same key, new bind
        #expect(!bindings.accepts(second, for: 7) && bindings.accepts(again, for: 7))
        #expect(!bindings.accepts(again, for: 8))
        bindings.unbind(7)
        #expect(!bindings.accepts(again, for: 7) && bindings.ticket(for: 7) == nil)
    }
}
