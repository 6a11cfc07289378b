// The RFQuiltLayout baseline for the quilt benchmarks of issue 4.
//
// This file is a Swift port of the placement and rect-query algorithm of
// RFQuiltLayout (https://github.com/bryceredd/RFQuiltLayout, file
// RFQuiltLayout/RFQuiltLayout.m, Objective-C, MIT licence), rewritten here
// for measurement only. It is part of the benchmark target, is never shipped
// in the library, and is not a supported layout: it exists so the quilt
// benchmarks can compare ParallaxKit's quilt against the algorithm most apps
// used for this job.
//
// What is reproduced, and at what cost:
//
// - Occupancy lives in nested hash maps, column → (row → item), probed once
//   per tile, the way RFQuiltLayout keeps an NSMutableDictionary of
//   NSMutableDictionary keyed by NSNumber. Item origins live in a second
//   nested map, section → (item → origin).
// - Placement is the same first-fit, row-major scan: it starts on the row of
//   the "first open space" pointer, tries every free tile as an origin, and
//   checks the block's tiles one by one (column by column, then row by row)
//   against the occupancy map. A block wider than the grid is accepted only
//   at column 0, its extra tiles spilling past the last column.
// - The rect query walks every tile of every row the rect touches (whatever
//   the rect's x extent), builds one frame per occupied tile (so a 2×2 item's
//   frame is built four times, as RFQuiltLayout builds one attributes object
//   per tile) and removes duplicates with a hash set.
//
// What is left out, on purpose:
//
// - Only the vertical direction and a single section. RFQuiltLayout's
//   multi-section handling is buggy and is not reproduced: both of its fill
//   loops start *every* section at `lastIndexPathPlaced.row + 1`, not only
//   the section where placement stopped, so items at the start of later
//   sections are skipped; `fillInBlocksToIndexPath:` stops as soon as
//   `section >= path.section && row > path.row`, which can stop early in an
//   earlier section; and all sections share a single tile grid with no
//   separation between them.
// - Lazy placement up to the visible row is not used: `prepare()` places
//   everything, like RFQuiltLayout with `prelayoutEverything = YES`. The
//   lazy path to a single item (`fillInBlocksToIndexPath:`) is kept only so
//   that `frame(ofItem:)` cannot fail before `prepare()`.
// - The one-entry cache of `layoutAttributesForElementsInRect:` (it returns
//   the previous array when asked again for exactly the same rect) is not
//   reproduced, so that every query a benchmark makes does the real work.
// - Per-item insets (the delegate's `insetsForItemAtIndexPath:`) are zero.
//
// Quirks that *are* kept because they are part of the algorithm's cost or
// output: the first-open pointer is only moved at the start of a scan and
// never past the block just placed, so one hole no later block fits in
// keeps every later scan starting on that hole's row; the rect query
// computes its last row as `Int(y / h) + Int(height / h + 1)`, which can
// miss the last partially covered row; the content height is one row tall
// even when there are no items; the horizontal centring offset is computed
// in single precision (`float` in the original).

import Foundation

/// The size of a quilt item in grid tiles: `width` columns by `height` rows.
struct RFQuiltBaselineBlock: Hashable, Sendable {
    var width: Int
    var height: Int

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// What the rect query collects for one occupied tile: the item and its
/// frame, the stand-in for RFQuiltLayout's `UICollectionViewLayoutAttributes`.
///
/// Equality compares both fields, like attributes do; the hash uses the item
/// alone, which is enough to find duplicates and keeps hashing cheap.
struct RFQuiltBaselineAttributes: Hashable {
    let item: Int
    let frame: CGRect

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.item == rhs.item && lhs.frame == rhs.frame
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(item)
    }
}

/// RFQuiltLayout's algorithm, vertical and single-section, as a benchmark
/// baseline. See the comment at the top of the file for what is reproduced.
///
/// ## Why plain `[Int: [Int: Int]]`
///
/// RFQuiltLayout's occupancy map is an `NSMutableDictionary` of
/// `NSMutableDictionary`, keyed by `NSNumber`, holding `NSIndexPath`s. The
/// port keeps the shape (two hash probes per tile, an inner map created on
/// the first write to a column) but uses native Swift dictionaries of `Int`.
/// Small `NSNumber`s are tagged pointers on 64-bit Apple platforms, so the
/// original does not allocate per key either; what it pays on top is
/// message dispatch for `hash`/`isEqual:`, retains of the stored index
/// paths, and a message send per call to its helpers. Boxing the inner maps
/// in classes would add reference counting without reproducing that
/// dispatch, so it is not done. Writes go through
/// `dictionary[key, default: [:]][row] = item`, which mutates the inner map
/// in place (it is uniquely referenced), as the mutable Foundation
/// dictionaries do.
///
/// The net effect is that this port is, if anything, faster than the real
/// RFQuiltLayout: a speed-up measured against it understates the speed-up
/// against the original, never overstates it.
///
/// Not `Sendable`: it is a mutable reference type, used from one thread
/// inside a benchmark.
final class RFQuiltBaseline {
    /// A tile coordinate: `x` is the column, `y` the row. RFQuiltLayout keeps
    /// these in `CGPoint`s holding whole numbers.
    private struct Tile {
        var x: Int
        var y: Int
    }

    /// The single section all items live in.
    private static let section = 0

    let blockSizes: [RFQuiltBaselineBlock]
    let containerWidth: Double
    let blockSize: CGSize

    /// Occupancy: column → (row → item). The outer key is the column (the
    /// bounded dimension), as in the original, so the outer map stays small.
    private var itemByPosition: [Int: [Int: Int]] = [:]
    /// Item origins: section → (item → top-left tile).
    private var positionByItem: [Int: [Int: Tile]] = [:]
    /// Where the next placement scan starts: only its row is used. It is set
    /// to the first free tile a scan meets, before anything is placed.
    private var firstOpenSpace = Tile(x: 0, y: 0)
    /// The largest column and row any placed tile has reached, kept apart.
    private var furthestBlockPoint = Tile(x: 0, y: 0)
    /// The last item placed, or nil when nothing has been placed yet.
    private var lastItemPlaced: Int?

    init(
        blockSizes: [RFQuiltBaselineBlock], containerWidth: Double,
        blockSize: CGSize = CGSize(width: 100, height: 100)
    ) {
        precondition(
            blockSize.width > 0 && blockSize.height > 0,
            "RFQuiltBaseline needs a positive tile size")
        precondition(containerWidth.isFinite, "RFQuiltBaseline needs a finite container width")
        self.blockSizes = blockSizes
        self.containerWidth = containerWidth
        self.blockSize = blockSize
    }

    // MARK: - Public surface

    /// Forgets every placement and places all items again, like
    /// `invalidateLayout` followed by `prepareLayout` with
    /// `prelayoutEverything` set.
    func prepare() {
        invalidate()
        fillInBlocks(toRow: Int.max)
    }

    /// `invalidateLayout`: RFQuiltLayout forgets every placement, the
    /// first-open pointer, the furthest point and its rect cache.
    func invalidate() {
        itemByPosition = [:]
        positionByItem = [:]
        firstOpenSpace = Tile(x: 0, y: 0)
        furthestBlockPoint = Tile(x: 0, y: 0)
        lastItemPlaced = nil
    }

    /// `prepareLayout` without `prelayoutEverything` (its default): places
    /// items until the first-open pointer passes the row below the bottom of
    /// `visibleRect`, `Int(maxY / tileHeight) + 1`.
    func prepare(visibleRect: CGRect) {
        fillInBlocks(toRow: Int(Double(visibleRect.maxY) / Double(blockSize.height)) + 1)
    }

    /// The container width by the rows used, counting from row 0 up to the
    /// furthest row any tile reached (one row when nothing is placed).
    var contentSize: CGSize {
        CGSize(
            width: containerWidth,
            height: Double(furthestBlockPoint.y + 1) * Double(blockSize.height))
    }

    /// The frame of one item: its origin tile and block size scaled by the
    /// tile size, shifted right by the centring offset.
    func frame(ofItem index: Int) -> CGRect {
        precondition(blockSizes.indices.contains(index), "item \(index) out of range")
        let origin = position(ofItem: index)
        let size = blockSizes[index]
        let tileWidth = Double(blockSize.width)
        let tileHeight = Double(blockSize.height)
        // The original stores the offset in a `float`; the rounding is kept.
        let offset = Double(Float((containerWidth - Double(columnCount) * tileWidth) / 2))
        return CGRect(
            x: Double(origin.x) * tileWidth + offset,
            y: Double(origin.y) * tileHeight,
            width: Double(size.width) * tileWidth,
            height: Double(size.height) * tileHeight)
    }

    /// The items whose tiles lie in the rows `rect` touches, sorted. The
    /// sort is this port's addition; see ``layoutAttributes(in:)`` for the
    /// unsorted answer the original gives.
    func itemsInRect(_ rect: CGRect) -> [Int] {
        layoutAttributes(in: rect).map(\.item).sorted()
    }

    /// The rect query of `layoutAttributesForElementsInRect:`: every tile of
    /// every row the rect touches, a frame built for each occupied one, the
    /// duplicates removed by a set, and the set's contents returned in no
    /// particular order.
    func layoutAttributes(in rect: CGRect) -> [RFQuiltBaselineAttributes] {
        let tileHeight = Double(blockSize.height)
        // C `int` conversions truncate toward zero, as `Int(_:)` does.
        let firstRow = Int(Double(rect.origin.y) / tileHeight)
        let rowCount = Int(Double(rect.size.height) / tileHeight + 1)
        let endRow = firstRow + rowCount

        // With everything pre-laid-out this places nothing, but the original
        // makes the call on every query, so the port does too.
        fillInBlocks(toRow: Int.max)

        var attributes = Set<RFQuiltBaselineAttributes>()
        traverseTiles(fromRow: firstRow, toRow: endRow) { tile in
            if let item = item(at: tile) {
                attributes.insert(RFQuiltBaselineAttributes(item: item, frame: frame(ofItem: item)))
            }
            return true
        }
        return Array(attributes)
    }

    // MARK: - Grid

    /// The number of columns: the container width over the tile width,
    /// truncated, and 1 when that is not positive (the original falls back
    /// to 1 only for 0; a negative count would make its scan loop forever).
    /// Recomputed on every use, as `restrictedDimensionBlockSize` is.
    private var columnCount: Int {
        let count = Int(containerWidth / Double(blockSize.width))
        return count > 0 ? count : 1
    }

    private func item(at tile: Tile) -> Int? {
        itemByPosition[tile.x]?[tile.y]
    }

    private func setItem(_ item: Int, at tile: Tile) {
        itemByPosition[tile.x, default: [:]][tile.y] = item
    }

    private func setPosition(_ tile: Tile, ofItem item: Int) {
        positionByItem[Self.section, default: [:]][item] = tile
    }

    /// `positionForIndexPath:`: looks the item up, places items up to it if
    /// it has no position yet, then looks it up again, two nested probes
    /// each time as in the original.
    private func position(ofItem item: Int) -> Tile {
        if positionByItem[Self.section]?[item] == nil {
            fillInBlocks(toItem: item)
        }
        guard let tile = positionByItem[Self.section]?[item] else {
            preconditionFailure("item \(item) could not be placed")
        }
        return tile
    }

    // MARK: - Placement

    /// Places the items after the last one placed, in order, until all are
    /// placed or the first-open pointer reaches `endRow`.
    private func fillInBlocks(toRow endRow: Int) {
        var item = (lastItemPlaced ?? -1) + 1
        while item < blockSizes.count {
            if placeBlock(ofItem: item) {
                lastItemPlaced = item
            }
            if firstOpenSpace.y >= endRow {
                return
            }
            item += 1
        }
    }

    /// Places the items after the last one placed, in order, up to and
    /// including `target`.
    private func fillInBlocks(toItem target: Int) {
        var item = (lastItemPlaced ?? -1) + 1
        while item < blockSizes.count {
            if item > target {
                return
            }
            if placeBlock(ofItem: item) {
                lastItemPlaced = item
            }
            item += 1
        }
    }

    /// First fit: offers every free tile, in scan order, as the block's
    /// top-left corner, and takes the first where all the block's tiles are
    /// free and inside the grid. A block too wide for the grid is accepted
    /// at column 0 as long as its tiles inside the grid are free.
    private func placeBlock(ofItem item: Int) -> Bool {
        let size = blockSizes[item]
        let placed = !traverseOpenTiles { origin in
            let fits = traverseTiles(from: origin, size: size) { tile in
                let isFree = self.item(at: tile) == nil
                let isInGrid = tile.x < columnCount
                let isAtFirstColumn = origin.x == 0
                if isFree && isAtFirstColumn && !isInGrid {
                    // The original logs that the grid is too narrow and
                    // places the block anyway.
                    return true
                }
                return isFree && isInGrid
            }
            guard fits else { return true }  // keep scanning

            setPosition(origin, ofItem: item)
            traverseTiles(from: origin, size: size) { tile in
                setItem(item, at: tile)
                furthestBlockPoint.x = max(furthestBlockPoint.x, tile.x)
                furthestBlockPoint.y = max(furthestBlockPoint.y, tile.y)
                return true
            }
            return false  // placed: stop scanning
        }
        return placed
    }

    /// The scan of free tiles: row by row from the first-open pointer's row,
    /// column by column from 0, without end. The first free tile met moves
    /// the pointer there. Returns false as soon as `body` does (the block
    /// was placed); never returns true, since a row with nothing in it is
    /// always reached.
    @discardableResult
    private func traverseOpenTiles(_ body: (Tile) -> Bool) -> Bool {
        var everyTileTakenSoFar = true
        var row = firstOpenSpace.y
        while true {
            var column = 0
            while column < columnCount {
                let tile = Tile(x: column, y: row)
                column += 1
                if item(at: tile) != nil {
                    continue
                }
                if everyTileTakenSoFar {
                    firstOpenSpace = tile
                    everyTileTakenSoFar = false
                }
                if !body(tile) {
                    return false
                }
            }
            row += 1
        }
    }

    /// The tiles of a block whose top-left tile is `origin`, column by
    /// column and, within a column, row by row. Stops and returns false as
    /// soon as `body` does. A block with no width or height has no tiles.
    @discardableResult
    private func traverseTiles(
        from origin: Tile, size: RFQuiltBaselineBlock, _ body: (Tile) -> Bool
    ) -> Bool {
        var column = origin.x
        while column < origin.x + size.width {
            var row = origin.y
            while row < origin.y + size.height {
                if !body(Tile(x: column, y: row)) {
                    return false
                }
                row += 1
            }
            column += 1
        }
        return true
    }

    /// Every tile of rows `firstRow..<endRow`, all columns of the grid, row
    /// by row. Stops and returns false as soon as `body` does.
    @discardableResult
    private func traverseTiles(fromRow firstRow: Int, toRow endRow: Int, _ body: (Tile) -> Bool)
        -> Bool
    {
        var row = firstRow
        while row < endRow {
            var column = 0
            while column < columnCount {
                if !body(Tile(x: column, y: row)) {
                    return false
                }
                column += 1
            }
            row += 1
        }
        return true
    }
}
