/// First-fit packing of rectangles of blocks into a grid of `columns`
/// block columns and unbounded rows, row-major from the first open block:
/// RFQuiltLayout's placement rule, on compact occupancy.
///
/// Each row's occupancy is a bitset (one `UInt64` word per 64 columns).
/// For up to 64 columns, finding where a `w × h` item fits in a row is a
/// handful of word operations: AND the free bits of its `h` rows, then keep
/// the positions that start `w` consecutive free bits.
///
/// Scanning from the first open block, as RFQuiltLayout does, is quadratic
/// in practice: with a mix of 1×1, 2×1, 1×2 and 2×2 items in three columns
/// the first open block lags ever further behind the end (about one row per
/// hundred items), and every placement rescans that backlog. Occupancy only
/// grows, though, so a position where a `w × h` item did not fit will never
/// fit one later. Each shape therefore resumes its scan where the last item
/// of that shape was placed: the same first-fit result, and placing `N`
/// items costs about O(N · (w + h)) plus one pass over the rows per shape.
///
/// Coordinates are logical: a *row* runs across the scroll axis, a
/// *column* along it.
struct QuiltPacker: Sendable {
    /// The number of block columns.
    let columns: Int
    /// Words of occupancy per row.
    private let words: Int
    /// Row-major occupancy bits, `words` per row; a set bit is an occupied block.
    private var occupancy: [UInt64] = []
    /// The first open block in row-major order: every block before it is occupied.
    private(set) var firstOpenRow = 0
    private(set) var firstOpenColumn = 0
    /// The number of rows that hold at least one block of an item.
    private(set) var rowCount = 0
    /// Per shape, the row-major position (`row · columns + column`) of the
    /// last placement of that shape: no earlier position can take it.
    private var resumePositions: [Int: Int] = [:]
    /// The same for shapes up to 8 × 8 blocks, without hashing.
    private var smallResumePositions = [Int](repeating: 0, count: 64)

    init(columns: Int) {
        self.columns = max(columns, 1)
        self.words = (self.columns + 63) / 64
    }

    /// Places an item `width` columns wide and `height` rows tall (both at
    /// least 1, `width` at most `columns`) at the first position, in
    /// row-major order from the first open block, where it fits. Returns
    /// its top-left block.
    mutating func place(width: Int, height: Int) -> (row: Int, column: Int) {
        let small = width <= 8 && height <= 8
        let shape = small ? (width - 1) * 8 + (height - 1) : width * 65_536 + height
        let resume = small ? smallResumePositions[shape] : resumePositions[shape, default: 0]
        let start = max(resume, firstOpenRow * columns + firstOpenColumn)
        var row = start / columns
        var column = start % columns
        while true {
            ensureRows(row + height)
            if let found = firstFit(row: row, from: column, width: width, height: height) {
                for line in row..<(row + height) { occupy(row: line, column: found, width: width) }
                rowCount = max(rowCount, row + height)
                let position = row * columns + found
                if small { smallResumePositions[shape] = position } else { resumePositions[shape] = position }
                advanceFirstOpen()
                return (row, found)
            }
            row += 1
            column = 0
        }
    }

    /// Whether the block at `row`, `column` is occupied.
    func isOccupied(row: Int, column: Int) -> Bool {
        let index = row * words + column / 64
        return index < occupancy.count && occupancy[index] & (1 << UInt64(column % 64)) != 0
    }

    // MARK: Private

    private var fullWordMask: UInt64 { columns >= 64 ? ~0 : (1 << UInt64(columns)) - 1 }

    private mutating func ensureRows(_ rows: Int) {
        let needed = rows * words
        guard occupancy.count < needed else { return }
        // Grow by at least a quarter (and 64 rows) at a time: rows are added one by one.
        let grown = max(needed, occupancy.count + max(occupancy.count / 4, 64 * words))
        occupancy.append(contentsOf: repeatElement(0, count: grown - occupancy.count))
    }

    private func firstFit(row: Int, from start: Int, width: Int, height: Int) -> Int? {
        if words == 1 {
            var free = fullWordMask
            for line in row..<(row + height) { free &= ~occupancy[line] }
            // Bit p of `starts` is set when bits p ..< p + width are all free.
            var starts = free
            var shift = 1
            while shift < width, starts != 0 {
                starts &= free >> UInt64(shift)
                shift += 1
            }
            if start > 0 { starts &= ~((1 << UInt64(start)) - 1) }
            return starts == 0 ? nil : starts.trailingZeroBitCount
        }
        var column = start
        while column + width <= columns {
            var fits = true
            for line in row..<(row + height) where !isFree(row: line, column: column, width: width) {
                fits = false
                break
            }
            if fits { return column }
            column += 1
        }
        return nil
    }

    private func isFree(row: Int, column: Int, width: Int) -> Bool {
        for c in column..<(column + width) where isOccupied(row: row, column: c) { return false }
        return true
    }

    private mutating func occupy(row: Int, column: Int, width: Int) {
        for c in column..<(column + width) {
            occupancy[row * words + c / 64] |= 1 << UInt64(c % 64)
        }
    }

    private mutating func advanceFirstOpen() {
        while true {
            ensureRows(firstOpenRow + 1)
            for word in 0..<words {
                let limit = word == words - 1 ? (columns - 1) % 64 + 1 : 64
                let mask: UInt64 = limit == 64 ? ~0 : (1 << UInt64(limit)) - 1
                let free = ~occupancy[firstOpenRow * words + word] & mask
                if free != 0 {
                    firstOpenColumn = word * 64 + free.trailingZeroBitCount
                    return
                }
            }
            firstOpenRow += 1
        }
    }
}
