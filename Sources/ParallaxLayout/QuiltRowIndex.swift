/// The items of a quilt section grouped by the row their top edge is in,
/// so the items in a band of rows are found without a search.
///
/// Rows above the packer's first open block are *sealed*: no later item
/// can start there. Sealed rows live in a compressed sparse row table
/// (`rowStarts`, `rowItems`) that only ever grows at its end. Rows still
/// open keep their items in singly linked lists threaded through one flat
/// array (`nextInRow`), so nothing is allocated per row. Appending items
/// therefore never re-indexes the ones already placed, and sealing a row
/// costs only its own items.
@usableFromInline
struct QuiltRowIndex: Sendable {
    @usableFromInline init() {}

    /// Items starting in sealed row `r` are `rowItems[rowStarts[r] ..< rowStarts[r + 1]]`.
    @usableFromInline var rowStarts: [Int32] = [0]
    @usableFromInline var rowItems: [Int32] = []
    /// Open row `sealedRows + i` has its first and last item at
    /// `openFirst[openBase + i]` and `openLast[openBase + i]` (−1: none).
    @usableFromInline var openFirst: [Int32] = []
    @usableFromInline var openLast: [Int32] = []
    @usableFromInline var openBase = 0
    /// Per item, the next item in the same open row (−1: none).
    @usableFromInline var nextInRow: [Int32] = []

    @usableFromInline var sealedRows: Int { rowStarts.count - 1 }

    /// Records `item` (the next item of the section, in order) as starting in `row`.
    mutating func add(item: Int, row: Int) {
        nextInRow.append(-1)
        let slot = openBase + row - sealedRows
        if openFirst.count <= slot {
            let missing = max(slot + 1 - openFirst.count, 64)      // grow in steps, not row by row
            openFirst.append(contentsOf: repeatElement(-1, count: missing))
            openLast.append(contentsOf: repeatElement(-1, count: missing))
        }
        let value = Int32(item)
        if openLast[slot] < 0 { openFirst[slot] = value } else { nextInRow[Int(openLast[slot])] = value }
        openLast[slot] = value
    }

    /// Seals every row before `row`.
    mutating func seal(below row: Int) {
        guard row > sealedRows else { return }
        for _ in sealedRows..<row {
            if openBase < openFirst.count {
                var item = openFirst[openBase]
                while item >= 0 {
                    rowItems.append(item)
                    item = nextInRow[Int(item)]
                }
                openBase += 1
            }
            rowStarts.append(Int32(rowItems.count))
        }
        if openBase >= openFirst.count {
            openFirst.removeAll(keepingCapacity: true)
            openLast.removeAll(keepingCapacity: true)
            openBase = 0
        } else if openBase > 4096, openBase * 2 > openFirst.count {
            openFirst.removeFirst(openBase)
            openLast.removeFirst(openBase)
            openBase = 0
        }
    }

    /// Calls `body` with every item whose top row is in `rows`.
    @inlinable
    func forEachItem(startingIn rows: ClosedRange<Int>, _ body: (Int) throws -> Void) rethrows {
        let sealedEnd = min(rows.upperBound, sealedRows - 1)
        if rows.lowerBound <= sealedEnd {
            let range = Int(rowStarts[rows.lowerBound])..<Int(rowStarts[sealedEnd + 1])
            try rowItems.withUnsafeBufferPointer { items in
                for index in range { try body(Int(items[index])) }
            }
        }
        if rows.upperBound >= sealedRows {
            let first = openBase + max(rows.lowerBound, sealedRows) - sealedRows
            let last = min(openBase + rows.upperBound - sealedRows, openFirst.count - 1)
            if first <= last {
                for slot in first...last {
                    var item = openFirst[slot]
                    while item >= 0 {
                        try body(Int(item))
                        item = nextInRow[Int(item)]
                    }
                }
            }
        }
    }
}
