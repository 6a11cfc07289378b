import ParallaxCore
import Testing
@testable import ParallaxImages

@Suite("Indexed priority queue")
struct IndexedPriorityQueueTests {
    @Test func popsInRankOrderAndFindsEveryElementByIdentifier() {
        var queue = IndexedPriorityQueue<String, Int, Character>()
        for (id, rank) in [("c", 3), ("a", 9), ("e", 1), ("b", 5), ("d", 7)] { queue.insert(id.first!, id: id, rank: rank) }
        #expect(queue.count == 5 && queue.first?.id == "a" && queue.rank(of: "b") == 5)
        queue.updateRank(of: "e", to: 10)
        let removed = queue.remove("d"), again = queue.remove("d"), stranger = queue.updateRank(of: "z", to: 1)
        #expect(removed == "d" && again == nil && !queue.contains("d") && !stranger)
        var order: [String] = []
        while let next = queue.popFirst() { order.append(next.id) }
        #expect(order == ["e", "a", "b", "c"] && queue.isEmpty)
    }

    @Test func matchesASortedListOverRandomOperations() {
        // The heap against a list searched in full for its greatest element; ranks are unique, so
        // the order is exact. After every step the heap's property and its position table must hold.
        var rng = SplitMix64(seed: 9)
        var queue = IndexedPriorityQueue<Int, Int, Int>()
        var model: [Int: Int] = [:]                                      // identifier → rank
        var nextRank = 0
        func freshRank() -> Int {
            nextRank += 1
            return Int(rng.next() % 1_000_000) * 10_000 + nextRank       // unique
        }
        for step in 0..<20_000 {
            let id = Int(rng.next() % 300)
            switch rng.next() % 4 {
            case 0:
                guard model[id] == nil else { continue }
                let rank = freshRank()
                queue.insert(id * 2, id: id, rank: rank)
                model[id] = rank
            case 1:
                let removed = queue.remove(id)
                #expect(removed == model.removeValue(forKey: id).map { _ in id * 2 }, "step \(step)")
            case 2:
                let rank = freshRank()
                let updated = queue.updateRank(of: id, to: rank)
                #expect(updated == (model[id] != nil))
                if model[id] != nil { model[id] = rank }
            default:
                let expected = model.max { $0.value < $1.value }
                let popped = queue.popFirst()
                #expect(popped?.id == expected?.key && popped?.rank == expected?.value, "step \(step)")
                if let expected { model[expected.key] = nil }
            }
            #expect(queue.count == model.count)
            let elements = queue.unorderedElements
            for index in elements.indices.dropFirst() {
                #expect(elements[index].rank <= elements[(index - 1) / 2].rank, "step \(step)")
            }
            for element in elements { #expect(queue.rank(of: element.id) == model[element.id]) }
        }
    }
}
