#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

extension GridLayout {
    /// The first and the last item of the rows that meet `rect` along the
    /// axis, whatever `rect`'s extent across it: every row counts whole.
    /// Rows are found by position, so a row whose gap just reaches `rect`
    /// may be included; never is one left out. `nil` when no row meets it
    /// (a rectangle over headers or margins only, or past the content).
    ///
    /// ``DensityPinch`` walks the items between two grids' ranges in index
    /// order, computing frames row by row instead of asking for them.
    ///
    /// Complexity: O(log sections + sections crossed).
    @inlinable
    func lineItems(meeting rect: CGRect) -> (first: ItemIndex, last: ItemIndex)? {
        guard itemMain > 0, itemCross > 0, AxisMapping.isUsable(rect) else { return nil }
        let query = mapping.spans(of: rect).main
        let total = sectionStarts[sectionStarts.count - 1]
        guard query.upperBound > 0, query.lowerBound < total else { return nil }
        let pitch = itemMain + mainGap
        var first: ItemIndex?, last: ItemIndex?
        var section = firstSection(endingAfter: query.lowerBound, in: sectionStarts)
        while section < itemCounts.count, sectionStarts[section] < query.upperBound {
            let count = itemCounts[section]
            let lead = firstColumns[section]
            let rows = Self.rows(count, columnCount, after: lead)
            let rowsStart = sectionStarts[section] + rowsOffset
            // Rows start at rowsStart + r · pitch and end itemMain later.
            if rows > 0, rowsStart < query.upperBound, rowsStart + CGFloat(rows - 1) * pitch + itemMain > query.lowerBound {
                let lastRow = CGFloat(rows - 1)
                let firstRow = Int(min(max(((query.lowerBound - rowsStart) / pitch).rounded(.down), 0), lastRow))
                let endRow = Int(min(max(((query.upperBound - rowsStart) / pitch).rounded(.down), 0), lastRow))
                // An aligned section's first row starts `lead` cells in.
                if first == nil {
                    first = ItemIndex(item: max(Self.firstItem(ofRow: firstRow, columns: columnCount, after: lead), 0),
                                      section: section)
                }
                let endStart = Self.firstItem(ofRow: endRow, columns: columnCount, after: lead)
                // The row's last item, or the section's, comparing distances that fit an `Int` (the first
                // row's start is negative, by at most a row; a later row's is within the section).
                let end = endStart < 0 ? min(columnCount - 1 - lead, count - 1)
                    : count - 1 - endStart >= columnCount - 1 ? endStart + columnCount - 1 : count - 1
                last = ItemIndex(item: end, section: section)
            }
            section += 1
        }
        guard let first, let last else { return nil }
        return (first, last)
    }
}
