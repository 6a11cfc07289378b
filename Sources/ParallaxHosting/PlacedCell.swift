#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxLayout

/// One cell a declarative grid draws: the element it shows, named by the
/// element's own identifier, where that element is in the data, and its
/// frame in the layout.
///
/// A SwiftUI `ForEach` keys its views by the identifier it is given. Keyed
/// by position, a cell's state and tasks (a loading photo, a fade) would
/// belong to whichever element moved into that position after an insert
/// or a delete; keyed by ``id``, they follow their element. The band's
/// cells (``cells(of:in:itemCount:id:)``) therefore carry the element's
/// identifier, with the index only as the way to reach the element now.
public struct PlacedCell<ID: Hashable>: Hashable, Identifiable {
    /// The element's identifier: what the cell is keyed by.
    public var id: ID
    /// Where the element is in the data now (section 0's item).
    public var index: Int
    /// The cell's frame in the layout's content coordinates.
    public var frame: CGRect

    /// A cell as given.
    public init(id: ID, index: Int, frame: CGRect) {
        self.id = id
        self.index = index
        self.frame = frame
    }

    /// The cells of section 0's items in `rect` of `layout` (content
    /// coordinates), in the layout's order, each named by `id(index)`;
    /// items at or past `itemCount` (a layout a step behind the data) are
    /// left out.
    ///
    /// Complexity: O(items in `rect`).
    public static func cells(of layout: some ItemLayout, in rect: CGRect, itemCount: Int,
                             id: (Int) -> ID) -> [PlacedCell] {
        var cells: [PlacedCell] = []
        layout.forEachItem(in: rect) { index, frame in
            guard index.section == 0, index.item < itemCount else { return }
            cells.append(PlacedCell(id: id(index.item), index: index.item, frame: frame))
        }
        return cells
    }

    /// Hashes every value `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(index)
        hasher.combine(frame.origin.x)
        hasher.combine(frame.origin.y)
        hasher.combine(frame.size.width)
        hasher.combine(frame.size.height)
    }
}

extension PlacedCell: Sendable where ID: Sendable {}
