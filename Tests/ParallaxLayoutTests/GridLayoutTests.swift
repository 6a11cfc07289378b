import Foundation
import Testing
@testable import ParallaxCore
@testable import ParallaxLayout

@Suite("Grid layout")
struct GridLayoutTests {
    // RHGridCollectionView defaults: 2 columns at 320 and 414 pt, 4 at 736.
    @Test(arguments: [(320.0, 2, 148.0), (414.0, 2, 195.0), (736.0, 4, 174.0)])
    func seedDefaults(width: Double, columns: Int, cell: Double) throws {
        let grid = try GridLayout(configuration: .grid, itemCount: 10, containerSize: CGSize(width: width, height: 600))
        #expect(grid.columnCount == columns)
        #expect(grid.itemSize == CGSize(width: cell, height: cell))   // (W − 2·8 − (n−1)·8) / n, square
        #expect(grid.frame(of: ItemIndex(item: 0)) == CGRect(x: 8, y: 8, width: cell, height: cell))
        #expect(grid.frame(of: ItemIndex(item: 1))?.minX == CGFloat(8 + cell + 8))
    }

    @Test func fixedCellSizeFlexesTheMargins() throws {
        var configuration = GridConfiguration.grid
        configuration.cellSizing = .fixed
        let grid = try GridLayout(configuration: configuration, itemCount: 4, containerSize: CGSize(width: 414, height: 800))
        // xMargin = (414 − (2·148 + 8)) / 2 = 55
        #expect(grid.frame(of: ItemIndex(item: 0)) == CGRect(x: 55, y: 8, width: 148, height: 148))
        #expect(grid.frame(of: ItemIndex(item: 3)) == CGRect(x: 55 + 156, y: 8 + 156, width: 148, height: 148))
    }

    @Test func listIsOneColumnOfHalfHeightCells() throws {
        let list = try GridLayout(configuration: .list, itemCount: 100, containerSize: CGSize(width: 390, height: 844))
        #expect(list.columnCount == 1)
        #expect(list.frame(of: ItemIndex(item: 3)) == CGRect(x: 0, y: 3 * 203, width: 390, height: 195))
        #expect(list.contentSize == CGSize(width: 390, height: 100 * 195 + 99 * 8))
    }

    @Test func fixedRowHeight() throws {
        var configuration = GridConfiguration.grid
        configuration.rowHeight = .fixed
        configuration.preferredItemSize = CGSize(width: 100, height: 60)
        let grid = try GridLayout(configuration: configuration, itemCount: 7, containerSize: CGSize(width: 400, height: 800))
        // 1 + ⌊(384 − 100)/108⌋ = 3 columns of (384 − 16)/3 wide, 60 tall.
        #expect(grid.columnCount == 3)
        #expect(grid.itemSize.height == 60)
        #expect(abs(grid.itemSize.width - 368.0 / 3) < 1e-12)
    }

    @Test func sectionsAndHeaders() throws {
        var configuration = GridConfiguration.list
        configuration.headerHeight = 40
        let grid = try GridLayout(configuration: configuration, itemCounts: [2, 0, 3], containerSize: CGSize(width: 100, height: 500))
        // Section 0: header 40, rows at 40 and 40 + 58; section 1 empty: header only; section 2 after.
        #expect(grid.frame(of: ItemIndex(item: 1, section: 0)) == CGRect(x: 0, y: 98, width: 100, height: 50))
        #expect(grid.headerFrame(ofSection: 1) == CGRect(x: 0, y: 148, width: 100, height: 40))
        #expect(grid.frame(of: ItemIndex(item: 0, section: 2)) == CGRect(x: 0, y: 228, width: 100, height: 50))
        #expect(grid.frame(of: ItemIndex(item: 0, section: 1)) == nil)
        #expect(grid.frame(of: ItemIndex(item: 3, section: 2)) == nil)
        #expect(grid.frame(of: ItemIndex(item: 0, section: 7)) == nil)
        let expectedHeight: CGFloat = 228 + 3 * 50 + 2 * 8
        #expect(grid.contentSize.height == expectedHeight)
    }

    @Test func closedFormEqualsTheReferenceOnRandomConfigurations() throws {
        var rng = SplitMix64(seed: 2024)
        for _ in 0..<400 {
            let configuration = randomConfiguration(using: &rng)
            let counts = randomCounts(using: &rng)
            let size = CGSize(width: .random(in: 50...1500, using: &rng), height: .random(in: 50...1500, using: &rng))
            let grid = try GridLayout(configuration: configuration, itemCounts: counts, containerSize: size)
            let reference = ReferenceGrid(configuration: configuration, itemCounts: counts, containerSize: size)
            #expect(abs(grid.contentExtent - reference.contentMain) < 1e-6)
            for index in reference.order {
                let frame = try #require(grid.frame(of: index))
                #expect(nearlyEqual(frame, reference.frames[index]!), "\(index) in \(configuration)")
            }
        }
    }

    @Test func rectQueryEqualsALinearScan() throws {
        var rng = SplitMix64(seed: 77)
        for _ in 0..<300 {
            let configuration = randomConfiguration(using: &rng)
            let counts = randomCounts(using: &rng)
            let size = CGSize(width: .random(in: 50...1200, using: &rng), height: .random(in: 50...1200, using: &rng))
            let grid = try GridLayout(configuration: configuration, itemCounts: counts, containerSize: size)
            var all: [(ItemIndex, CGRect)] = []
            for section in 0..<counts.count {
                for item in 0..<counts[section] {
                    let index = ItemIndex(item: item, section: section)
                    all.append((index, grid.frame(of: index)!))
                }
            }
            for _ in 0..<20 {
                let content = grid.contentSize
                let rect = CGRect(x: .random(in: -100...(content.width + 100), using: &rng),
                                  y: .random(in: -100...(content.height + 100), using: &rng),
                                  width: .random(in: 0...800, using: &rng), height: .random(in: 0...800, using: &rng))
                let expected = all.filter { $0.1.isVisible(in: rect) }.map(\.0)
                let got = grid.items(in: rect)
                #expect(got.map(\.id) == expected)
                for visible in got { #expect(visible.frame == grid.frame(of: visible.id)) }
            }
        }
    }

    /// A grid aligned so an item sits in a chosen column: the item is in the
    /// column whose cells are centred nearest the position asked for; only
    /// its section changes, and that section matches the naive grid started
    /// that many cells in, for frames, rect queries, the rows a rect meets
    /// and the resting positions, on random configurations of both axes and
    /// both directions.
    @Test func anAlignedGridEqualsTheReferenceStartedFurtherIn() throws {
        var rng = SplitMix64(seed: 0xA11)
        var moved = 0
        for _ in 0..<300 {
            let configuration = randomConfiguration(using: &rng)
            let counts = randomCounts(using: &rng)
            let size = CGSize(width: .random(in: 50...1500, using: &rng), height: .random(in: 50...1500, using: &rng))
            let plain = try GridLayout(configuration: configuration, itemCounts: counts, containerSize: size)
            guard let section = counts.indices.filter({ counts[$0] > 0 }).randomElement(using: &rng) else { continue }
            let index = ItemIndex(item: Int.random(in: 0..<counts[section], using: &rng), section: section)
            let across = configuration.axis == .vertical ? size.width : size.height
            let position = CGFloat.random(in: -50...(across + 50), using: &rng)
            let grid = plain.aligning(index, across: position)

            // The column asked for: the one whose cells' centre is nearest the position.
            let frame = try #require(grid.frame(of: index))
            let span = configuration.axis.crossSpan(of: frame)
            let centre = (span.lowerBound + span.upperBound) / 2
            for other in 0..<counts[section] {
                guard let candidate = plain.frame(of: ItemIndex(item: other, section: section)) else { continue }
                let candidateSpan = configuration.axis.crossSpan(of: candidate)
                let candidateCentre = (candidateSpan.lowerBound + candidateSpan.upperBound) / 2
                #expect(abs(centre - position) <= abs(candidateCentre - position) + 1e-6,
                        "a column centred at \(candidateCentre) is nearer \(position) than \(centre)")
            }
            let lead = grid.firstColumn(ofSection: section)
            #expect((0..<grid.columnCount).contains(lead))
            if lead != 0 { moved += 1 }
            #expect(grid.aligning(index, across: position).firstColumn(ofSection: section) == lead, "idempotent")
            for other in counts.indices where other != section { #expect(grid.firstColumn(ofSection: other) == 0) }

            var leads = Array(repeating: 0, count: counts.count)
            leads[section] = lead
            let reference = ReferenceGrid(configuration: configuration, itemCounts: counts, containerSize: size,
                                          firstColumns: leads)
            #expect(abs(grid.contentExtent - reference.contentMain) < 1e-6)
            var all: [(ItemIndex, CGRect)] = []
            for index in reference.order {
                let frame = try #require(grid.frame(of: index))
                #expect(nearlyEqual(frame, reference.frames[index]!), "\(index) in \(configuration), lead \(lead)")
                all.append((index, frame))
            }
            for _ in 0..<10 {
                let content = grid.contentSize
                let rect = CGRect(x: .random(in: -100...(content.width + 100), using: &rng),
                                  y: .random(in: -100...(content.height + 100), using: &rng),
                                  width: .random(in: 0...800, using: &rng), height: .random(in: 0...800, using: &rng))
                #expect(grid.items(in: rect).map(\.id) == all.filter { $0.1.isVisible(in: rect) }.map(\.0))
                // The rows a rect meets hold every item visible in it, across the whole width.
                let band = configuration.axis.rect(main: configuration.axis.mainSpan(of: rect),
                                                   cross: Span(-10, configuration.axis.cross(content) + 20))
                let inBand = all.filter { $0.1.isVisible(in: band) }.map(\.0)
                if let run = grid.lineItems(meeting: rect), let first = inBand.first, let last = inBand.last {
                    #expect(run.first <= first && run.last >= last, "\(run) misses \(first)...\(last)")
                    #expect(grid.frame(of: run.first) != nil && grid.frame(of: run.last) != nil)
                } else {
                    #expect(inBand.isEmpty, "no rows for \(inBand.count) items")
                }
            }
            // Resting on an item shows its row first: its frame starts one spacing (or the section's
            // header and margin, for a first row) past the resting position.
            for other in [0, counts[section] - 1, index.item] {
                let at = ItemIndex(item: other, section: section)
                let rest = try #require(grid.restingPosition(showing: at))
                let rowMates = all.filter { configuration.axis.mainSpan(of: $0.1) == configuration.axis.mainSpan(of: grid.frame(of: at)!) }
                #expect(rowMates.allSatisfy { grid.restingPosition(showing: $0.0) == rest })
                if configuration.axis == .vertical {
                    let top = try #require(grid.frame(of: at)).minY
                    let firstRow = try #require(grid.frame(of: ItemIndex(item: 0, section: section))).minY == top
                    let expected = firstRow ? top - configuration.headerHeight - configuration.margins.top
                        : top - configuration.spacing.height
                    #expect(abs(rest - expected) < 1e-6, "item \(other): rests at \(rest), not \(expected)")
                }
            }
        }
        #expect(moved > 100, "most alignments move the section: \(moved)")
    }

    @Test func tenMillionItemsInClosedForm() throws {
        let grid = try GridLayout(configuration: .grid, itemCount: 10_000_000, containerSize: CGSize(width: 390, height: 844))
        let last = try #require(grid.frame(of: ItemIndex(item: 9_999_999)))
        #expect(last == CGRect(x: 199, y: 8 + 4_999_999 * 191, width: 183, height: 183))
        let expectedHeight: CGFloat = 8 + 5_000_000 * 183 + 4_999_999 * 8 + 8
        #expect(grid.contentSize.height == expectedHeight)
        let deep = CGRect(x: 0, y: last.minY - 400, width: 390, height: 844)
        let visible = grid.items(in: deep)
        #expect(visible.count == 8)   // rows ending 390, 199 and 8 pt above the last one's top, and the last
        #expect(visible.last?.id == ItemIndex(item: 9_999_999))
    }

    @Test func badConfigurationsThrowClearErrors() {
        let size = CGSize(width: 390, height: 844)
        var nanSize = GridConfiguration.grid
        nanSize.preferredItemSize.width = .nan
        let nanError = #expect(throws: LayoutError.self) { try GridLayout(configuration: nanSize, itemCount: 1, containerSize: size) }
        #expect(nanError?.description == "preferredItemSize.width must be a finite number > 0.0, got nan")
        var zero = GridConfiguration.grid
        zero.preferredItemSize = .zero
        #expect(throws: LayoutError.self) { try GridLayout(configuration: zero, itemCount: 1, containerSize: size) }
        var negative = GridConfiguration.grid
        negative.spacing.height = -1
        #expect(throws: LayoutError.invalidLength(name: "spacing.height", value: -1, minimum: 0, inclusive: true)) {
            try GridLayout(configuration: negative, itemCount: 1, containerSize: size)
        }
        var infinite = GridConfiguration.grid
        infinite.margins.top = .infinity
        #expect(throws: LayoutError.self) { try GridLayout(configuration: infinite, itemCount: 1, containerSize: size) }
        var noColumns = GridConfiguration.grid
        noColumns.columns = .fixed(0)
        #expect(throws: LayoutError.invalidCount(name: "columns", value: 0, minimum: 1)) {
            try GridLayout(configuration: noColumns, itemCount: 1, containerSize: size)
        }
        #expect(throws: LayoutError.invalidCount(name: "itemCounts[1]", value: -3, minimum: 0)) {
            try GridLayout(configuration: .grid, itemCounts: [1, -3], containerSize: size)
        }
        let message = LayoutError.invalidCount(name: "columns", value: 0, minimum: 1).description
        #expect(message == "columns must be at least 1, got 0")
    }

    @Test func degenerateContainersGiveDefinedResults() throws {
        for size in [CGSize.zero, CGSize(width: -50, height: 10), CGSize(width: CGFloat.nan, height: .infinity)] {
            let grid = try GridLayout(configuration: .grid, itemCount: 100, containerSize: size)
            #expect(grid.columnCount == 1)
            #expect(grid.items(in: CGRect(x: -1000, y: -1000, width: 5000, height: 1e6)).isEmpty)
            #expect(grid.contentSize.width == 0)
        }
        // Zero items, no sections.
        let empty = try GridLayout(configuration: .grid, itemCount: 0, containerSize: CGSize(width: 390, height: 844))
        #expect(empty.isEmpty && empty.items(in: CGRect(x: 0, y: 0, width: 390, height: 844)).isEmpty)
        #expect(empty.contentSize.height == 16)
        let none = try GridLayout(configuration: .grid, itemCounts: [], containerSize: CGSize(width: 390, height: 844))
        #expect(none.contentSize.height == 0 && none.restingPosition(nearest: 100) == nil)
        // A cell wider than the viewport, and spacing larger than the width: one column.
        var wide = GridConfiguration.grid
        wide.preferredItemSize = CGSize(width: 1000, height: 100)
        wide.spacing = CGSize(width: 5000, height: 8)
        let one = try GridLayout(configuration: wide, itemCount: 3, containerSize: CGSize(width: 390, height: 844))
        #expect(one.columnCount == 1 && one.itemSize.width == 374)
        wide.cellSizing = .fixed
        let overflowing = try GridLayout(configuration: wide, itemCount: 3, containerSize: CGSize(width: 390, height: 844))
        #expect(overflowing.frame(of: ItemIndex(item: 0))?.midX == 195)   // centred, overflowing both sides
        // A query with non-finite values sees nothing.
        let grid = try GridLayout(configuration: .grid, itemCount: 100, containerSize: CGSize(width: 390, height: 844))
        #expect(grid.items(in: CGRect(x: 0, y: CGFloat.nan, width: 390, height: 844)).isEmpty)
        #expect(grid.items(in: CGRect(x: 0, y: 0, width: CGFloat.infinity, height: 844)).isEmpty)
    }

    @Test func hugeCountsDoNotOverflow() throws {
        let huge = try GridLayout(configuration: .grid, itemCount: .max, containerSize: CGSize(width: 390, height: 844))
        #expect(huge.contentSize.height > 0)
        #expect(huge.items(in: CGRect(x: 0, y: 0, width: 390, height: 844)).count == 10)
        var manyColumns = GridConfiguration.grid
        manyColumns.columns = .fixed(.max)
        let wide = try GridLayout(configuration: manyColumns, itemCount: 5, containerSize: CGSize(width: 390, height: 844))
        #expect(wide.numberOfItems(inSection: 0) == 5)
        // Aligned so that the last item lands in the last column: the first row starts a cell in, and
        // nothing forms `item + lead` or `rows × columns`, which would not fit an Int.
        for lead in 0..<huge.columnCount {
            // Every first column, with the huge count: the first row's items and rows found without a trap.
            let grid = huge.aligning(ItemIndex(item: 0), across: CGFloat(lead) * 195 + 90)
            #expect(grid.firstColumn(ofSection: 0) == lead)
            #expect(grid.lineItems(meeting: CGRect(x: 0, y: 10, width: 390, height: 10))?.last
                        == ItemIndex(item: huge.columnCount - 1 - lead))
            #expect(grid.items(in: CGRect(x: 0, y: 0, width: 390, height: 844)).count == 10 - lead)
        }
        let last = ItemIndex(item: .max - 1)
        let aligned = huge.aligning(last, across: 380)
        #expect(aligned.firstColumn(ofSection: 0) == 1)
        let frame = try #require(aligned.frame(of: last))
        #expect(frame.maxX > 300 && aligned.contentSize.height >= huge.contentSize.height)
        #expect(aligned.restingPosition(showing: last) != nil)
        #expect(aligned.items(in: CGRect(x: 0, y: 0, width: 390, height: 844)).count == 9)
        // Positions that far down are whole multiples of 2^17 points, too coarse to find a row by; what
        // matters is that asking does not trap. (The random grids check the rows found.)
        _ = aligned.lineItems(meeting: frame)
        #expect(aligned.lineItems(meeting: CGRect(x: 0, y: 0, width: 390, height: 844))?.first == ItemIndex(item: 0))
    }

    @Test func rightToLeftPutsTheFirstColumnOnTheRight() throws {
        var configuration = GridConfiguration.grid
        configuration.layoutDirection = .rightToLeft
        let grid = try GridLayout(configuration: configuration, itemCount: 4, containerSize: CGSize(width: 390, height: 844))
        #expect(grid.frame(of: ItemIndex(item: 0)) == CGRect(x: 199, y: 8, width: 183, height: 183))
        #expect(grid.frame(of: ItemIndex(item: 1)) == CGRect(x: 8, y: 8, width: 183, height: 183))
    }
}
