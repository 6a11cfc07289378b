import Foundation
@testable import ParallaxCore
@testable import ParallaxLayout

/// A deliberately naive grid: places items one by one with a moving cursor,
/// counting columns by trial, the way a hand-written flow layout would. The
/// closed-form ``GridLayout`` must agree with it everywhere.
struct ReferenceGrid {
    var frames: [ItemIndex: CGRect] = [:]
    var order: [ItemIndex] = []
    var contentMain: CGFloat = 0

    /// `firstColumns[s]`: the column section `s` starts in (an aligned
    /// grid's section starts further into its first row); 0 when missing.
    init(configuration c: GridConfiguration, itemCounts: [Int], containerSize: CGSize, firstColumns: [Int] = []) {
        let vertical = c.axis == .vertical
        let width = vertical ? containerSize.width : containerSize.height        // across the scroll axis
        let sideLow = vertical ? c.margins.left : c.margins.top
        let sideHigh = vertical ? c.margins.right : c.margins.bottom
        let gapAcross = vertical ? c.spacing.width : c.spacing.height
        let gapAlong = vertical ? c.spacing.height : c.spacing.width
        let prefAcross = vertical ? c.preferredItemSize.width : c.preferredItemSize.height
        let prefAlong = vertical ? c.preferredItemSize.height : c.preferredItemSize.width
        let before = vertical ? c.margins.top : c.margins.left
        let after = vertical ? c.margins.bottom : c.margins.right
        let available = width - sideLow - sideHigh

        var columns = 1
        switch c.columns {
        case .fixed(let n): columns = n
        case .flexible:
            while CGFloat(columns + 1) * prefAcross + CGFloat(columns) * gapAcross <= available { columns += 1 }
        }
        var cellAcross = prefAcross, cellAlong = prefAlong, firstAcross = sideLow
        if c.cellSizing == .flexible {
            cellAcross = max((available - CGFloat(columns - 1) * gapAcross) / CGFloat(columns), 0)
            if c.rowHeight == .keepsAspectRatio { cellAlong = cellAcross / prefAcross * prefAlong }
        } else {
            var used = prefAcross
            for _ in 1..<max(columns, 1) { used += gapAcross + prefAcross }
            firstAcross = sideLow + (available - used) / 2
        }

        var cursor: CGFloat = 0
        var logical: [(ItemIndex, CGFloat, CGFloat)] = []
        for (section, count) in itemCounts.enumerated() {
            cursor += c.headerHeight + before
            let lead = section < firstColumns.count && count > 0 ? firstColumns[section] : 0
            var across = firstAcross + CGFloat(lead) * (cellAcross + gapAcross)
            var column = lead
            for item in 0..<count {
                if column == columns {
                    column = 0
                    across = firstAcross
                    cursor += cellAlong + gapAlong
                }
                logical.append((ItemIndex(item: item, section: section), cursor, across))
                across += cellAcross + gapAcross
                column += 1
            }
            if count > 0 { cursor += cellAlong }
            cursor += after
        }
        contentMain = cursor
        for (index, along, across) in logical {
            var mainStart = along, crossStart = across
            if c.layoutDirection == .rightToLeft {
                if vertical { crossStart = width - across - cellAcross } else { mainStart = cursor - along - cellAlong }
            }
            frames[index] = vertical
                ? CGRect(x: crossStart, y: mainStart, width: cellAcross, height: cellAlong)
                : CGRect(x: mainStart, y: crossStart, width: cellAlong, height: cellAcross)
            order.append(index)
        }
    }
}

/// Random grid configurations that exercise every option.
func randomConfiguration(using rng: inout SplitMix64) -> GridConfiguration {
    GridConfiguration(
        preferredItemSize: CGSize(width: .random(in: 20...300, using: &rng), height: .random(in: 20...300, using: &rng)),
        margins: EdgeInsets(top: .random(in: 0...30, using: &rng), left: .random(in: 0...30, using: &rng),
                            bottom: .random(in: 0...30, using: &rng), right: .random(in: 0...30, using: &rng)),
        spacing: CGSize(width: .random(in: 0...20, using: &rng), height: .random(in: 0...20, using: &rng)),
        columns: Bool.random(using: &rng) ? .flexible : .fixed(Int.random(in: 1...6, using: &rng)),
        cellSizing: Bool.random(using: &rng) ? .flexible : .fixed,
        rowHeight: Bool.random(using: &rng) ? .keepsAspectRatio : .fixed,
        headerHeight: Bool.random(using: &rng) ? 0 : .random(in: 1...60, using: &rng),
        axis: Bool.random(using: &rng) ? .vertical : .horizontal,
        layoutDirection: Int.random(in: 0..<4, using: &rng) == 0 ? .rightToLeft : .leftToRight)
}

func randomCounts(using rng: inout SplitMix64) -> [Int] {
    (0..<Int.random(in: 1...4, using: &rng)).map { _ in
        Int.random(in: 0..<5, using: &rng) == 0 ? 0 : Int.random(in: 1...60, using: &rng)
    }
}

func nearlyEqual(_ a: CGRect, _ b: CGRect, tolerance: CGFloat = 1e-6) -> Bool {
    abs(a.minX - b.minX) <= tolerance && abs(a.minY - b.minY) <= tolerance
        && abs(a.width - b.width) <= tolerance && abs(a.height - b.height) <= tolerance
}
