/// The items of a quilt section grouped by the row their top edge is in,
/// so the items in a band of rows are found without a search.
///
/// Rows above the packer's first open block are *sealed*: no later item
/// can start there. Sealed rows live in a compressed sparse row table
/// (`rowStarts`, `rowItems`) that only ever grows at its end; the few
/// rows still open keep their items in a short `pending` list. Appending
/// items therefore never re-indexes the ones already placed.
struct QuiltRowIndex: Sendable {
    /// Items starting in sealed row `r` are `rowItems[rowStarts[r] ..< rowStarts[r + 1]]`.
    private(set) var rowStarts: [Int32] = [0]
    private(set) var rowItems: [Int32] = []
    /// Items in rows not yet sealed, in placement order.
    private(set) var pending: [(row: Int32, item: Int32)] = []

    var sealedRows: Int { rowStarts.count - 1 }

    mutating func add(item: Int, row: Int) {
        pending.append((Int32(row), Int32(item)))
    }

    /// Seals every row before `row`.
    mutating func seal(below row: Int) {
        guard row > sealedRows else { return }
        for sealing in sealedRows..<row {
            for entry in pending where Int(entry.row) == sealing { rowItems.append(entry.item) }
            rowStarts.append(Int32(rowItems.count))
        }
        pending.removeAll { Int($0.row) < row }
    }

    /// Calls `body` with every item whose top row is in `rows`.
    @inline(__always)
    func forEachItem(startingIn rows: ClosedRange<Int>, _ body: (Int) throws -> Void) rethrows {
        let sealedEnd = min(rows.upperBound, sealedRows - 1)
        if rows.lowerBound <= sealedEnd {
            for index in Int(rowStarts[rows.lowerBound])..<Int(rowStarts[sealedEnd + 1]) {
                try body(Int(rowItems[index]))
            }
        }
        if rows.upperBound >= sealedRows {
            for entry in pending where rows.contains(Int(entry.row)) { try body(Int(entry.item)) }
        }
    }
}
