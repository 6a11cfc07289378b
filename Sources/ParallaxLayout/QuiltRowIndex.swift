/// The items of a quilt section grouped by the row their top edge is in,
/// so the items in a band of rows are found without a search.
///
/// Rows above the packer's first open block are *sealed*: no later item
/// can start there. Sealed rows live in a compressed sparse row table
/// (`rowStarts`, `rowItems`) that only ever grows at its end; rows still
/// open keep their items in per-row buckets. Appending items therefore
/// never re-indexes the ones already placed, and sealing a row costs only
/// its own items.
@usableFromInline
struct QuiltRowIndex: Sendable {
    @usableFromInline init() {}

    /// Items starting in sealed row `r` are `rowItems[rowStarts[r] ..< rowStarts[r + 1]]`.
    @usableFromInline var rowStarts: [Int32] = [0]
    @usableFromInline var rowItems: [Int32] = []
    /// Items of open row `sealedRows + i` are `buckets[bucketBase + i]`.
    @usableFromInline var buckets: [[Int32]] = []
    @usableFromInline var bucketBase = 0

    @usableFromInline var sealedRows: Int { rowStarts.count - 1 }

    mutating func add(item: Int, row: Int) {
        let slot = bucketBase + row - sealedRows
        if buckets.count <= slot { buckets.append(contentsOf: repeatElement([], count: slot + 1 - buckets.count)) }
        buckets[slot].append(Int32(item))
    }

    /// Seals every row before `row`.
    mutating func seal(below row: Int) {
        guard row > sealedRows else { return }
        for _ in sealedRows..<row {
            if bucketBase < buckets.count {
                rowItems.append(contentsOf: buckets[bucketBase])
                buckets[bucketBase] = []
                bucketBase += 1
            }
            rowStarts.append(Int32(rowItems.count))
        }
        if bucketBase >= buckets.count {
            buckets.removeAll(keepingCapacity: true)
            bucketBase = 0
        } else if bucketBase > 1024, bucketBase * 2 > buckets.count {
            buckets.removeFirst(bucketBase)
            bucketBase = 0
        }
    }

    /// Calls `body` with every item whose top row is in `rows`.
    @inlinable
    func forEachItem(startingIn rows: ClosedRange<Int>, _ body: (Int) throws -> Void) rethrows {
        let sealedEnd = min(rows.upperBound, sealedRows - 1)
        if rows.lowerBound <= sealedEnd {
            for index in Int(rowStarts[rows.lowerBound])..<Int(rowStarts[sealedEnd + 1]) {
                try body(Int(rowItems[index]))
            }
        }
        if rows.upperBound >= sealedRows {
            let first = bucketBase + max(rows.lowerBound, sealedRows) - sealedRows
            let last = min(bucketBase + rows.upperBound - sealedRows, buckets.count - 1)
            if first <= last {
                for slot in first...last {
                    for item in buckets[slot] { try body(Int(item)) }
                }
            }
        }
    }
}
