/// A binary max-heap whose elements can be found by identifier: the most
/// urgent element comes first, and any element can leave or change its
/// rank in place.
///
/// The loader's slot queues need more than a plain priority queue: work
/// waiting for a slot leaves the queue when it is cancelled, and moves up
/// or down when a plan changes its priority. A position table (identifier
/// → index in the heap's array), kept up to date by every swap, finds an
/// element in O(1), so each of those is one sift rather than a rebuild.
///
/// Elements of equal rank come out in no particular order: give each a
/// unique rank (the loader ranks by priority, then arrival) when ties must
/// be broken.
///
/// | operation | complexity |
/// | --- | --- |
/// | `first`, `count`, `contains(_:)`, `rank(of:)` | O(1) |
/// | `insert(_:id:rank:)`, `popFirst()`, `remove(_:)`, `updateRank(of:to:)` | O(log n) |
struct IndexedPriorityQueue<ID: Hashable, Rank: Comparable, Value> {
    /// One element: its identifier, its rank (greater comes first) and its value.
    typealias Element = (id: ID, rank: Rank, value: Value)

    /// The heap: every element ranks no higher than its parent (at `(i - 1) / 2`).
    private var heap: [Element] = []
    /// Where each element sits in `heap`.
    private var positions: [ID: Int] = [:]

    /// An empty queue.
    init() {}

    /// The number of elements.
    var count: Int { heap.count }

    /// Whether the queue holds no element.
    var isEmpty: Bool { heap.isEmpty }

    /// The element of greatest rank, if any.
    var first: Element? { heap.first }

    /// Whether an element with identifier `id` is queued.
    func contains(_ id: ID) -> Bool { positions[id] != nil }

    /// The rank of the element with identifier `id`, if it is queued.
    func rank(of id: ID) -> Rank? { positions[id].map { heap[$0].rank } }

    /// Adds `value` under `id` (which must not be queued yet) at `rank`.
    mutating func insert(_ value: Value, id: ID, rank: Rank) {
        precondition(positions[id] == nil, "\(id) is queued already")
        heap.append((id, rank, value))
        positions[id] = heap.count - 1
        siftUp(heap.count - 1)
    }

    /// Removes and returns the element of greatest rank.
    mutating func popFirst() -> Element? {
        guard !heap.isEmpty else { return nil }
        return removeElement(at: 0)
    }

    /// Removes the element with identifier `id`, returning its value, or
    /// `nil` if it was not queued.
    mutating func remove(_ id: ID) -> Value? {
        guard let index = positions[id] else { return nil }
        return removeElement(at: index).value
    }

    /// Gives the element with identifier `id` a new rank and moves it to
    /// its place. Returns `false` (and does nothing) if it is not queued.
    @discardableResult
    mutating func updateRank(of id: ID, to rank: Rank) -> Bool {
        guard let index = positions[id] else { return false }
        let old = heap[index].rank
        heap[index].rank = rank
        if rank > old { siftUp(index) } else if rank < old { siftDown(index) }
        return true
    }

    /// The elements in heap order (not rank order), for tests and diagnostics.
    var unorderedElements: [Element] { heap }

    // MARK: Heap upkeep

    private mutating func removeElement(at index: Int) -> Element {
        let last = heap.count - 1
        if index != last { swapAt(index, last) }
        let removed = heap.removeLast()
        positions[removed.id] = nil
        if index < heap.count {
            // The element moved into the hole may belong above or below it.
            siftUp(index)
            siftDown(index)
        }
        return removed
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].rank > heap[parent].rank else { return }
            swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1, right = left + 1
            var largest = parent
            if left < heap.count, heap[left].rank > heap[largest].rank { largest = left }
            if right < heap.count, heap[right].rank > heap[largest].rank { largest = right }
            guard largest != parent else { return }
            swapAt(parent, largest)
            parent = largest
        }
    }

    private mutating func swapAt(_ i: Int, _ j: Int) {
        heap.swapAt(i, j)
        positions[heap[i].id] = i
        positions[heap[j].id] = j
    }
}
