#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

extension DensityPinchWalk {
    /// The pass between two grids of the same items, in closed form: a
    /// band's rows hold a run of indices (``GridLayout/lineItems(meeting:)``),
    /// and both bands hold the anchor, so the runs overlap. One walk over
    /// their union computes each item's frame at both ends row by row, with
    /// no frame lookup, no division per item and nothing to merge. Returns
    /// `false`, having reported nothing, when the grids' sections differ
    /// (not the same items).
    ///
    /// - Complexity: O(items in either band + sections crossed), nothing
    ///   allocated.
    @inlinable
    func forEachItem(ofGrids source: GridLayout, _ destination: GridLayout,
                     _ body: (ItemIndex, CGRect) throws -> Void) rethrows -> Bool {
        let sourceRun = source.lineItems(meeting: sourceBand)
        let destinationRun = destination.lineItems(meeting: destinationBand)
        guard let lowest = Self.earlier(sourceRun?.first, destinationRun?.first),
              let highest = Self.later(sourceRun?.last, destinationRun?.last) else { return true }   // no item in either band
        // The same items: the sections walked have the same counts in both grids.
        guard highest.section < source.itemCounts.count, highest.section < destination.itemCounts.count else { return false }
        for section in lowest.section...highest.section where source.itemCounts[section] != destination.itemCounts[section] {
            return false
        }
        let sourceColumns = source.columnCount, destinationColumns = destination.columnCount
        for section in lowest.section...highest.section {
            let end = section == highest.section ? highest.item : source.itemCounts[section] - 1
            var item = section == lowest.section ? lowest.item : 0
            guard item <= end else { continue }
            var (sourceRow, sourceColumn) = GridLayout.cell(of: item, columns: sourceColumns,
                                                            after: source.firstColumns[section])
            var (destinationRow, destinationColumn) = GridLayout.cell(of: item, columns: destinationColumns,
                                                                      after: destination.firstColumns[section])
            while item <= end {
                let from = source.unsafeFrame(row: sourceRow, column: sourceColumn, section: section)
                let to = destination.unsafeFrame(row: destinationRow, column: destinationColumn, section: section)
                try report(ItemIndex(item: item, section: section), from: from, to: to, body)
                item += 1
                sourceColumn += 1
                if sourceColumn == sourceColumns { sourceColumn = 0; sourceRow += 1 }
                destinationColumn += 1
                if destinationColumn == destinationColumns { destinationColumn = 0; destinationRow += 1 }
            }
        }
        return true
    }

    /// The earlier of two indices, ignoring a missing one.
    @inlinable
    static func earlier(_ a: ItemIndex?, _ b: ItemIndex?) -> ItemIndex? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }

    /// The later of two indices, ignoring a missing one.
    @inlinable
    static func later(_ a: ItemIndex?, _ b: ItemIndex?) -> ItemIndex? {
        guard let a else { return b }
        guard let b else { return a }
        return max(a, b)
    }
}
