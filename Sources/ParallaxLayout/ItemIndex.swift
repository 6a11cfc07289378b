/// The position of an item: its section and its index within the section.
///
/// A plain value (two integers, no heap storage), ordered section first.
/// The UIKit adapter converts it to and from `IndexPath`.
@frozen
public struct ItemIndex: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The section, counted from 0.
    public var section: Int
    /// The item's position within its section, counted from 0.
    public var item: Int

    /// The item at position `item` of `section` (section 0, the only one of
    /// most layouts, by default). Neither is checked: a layout answers `nil`
    /// for an index it does not have.
    @inlinable public init(item: Int, section: Int = 0) {
        self.item = item
        self.section = section
    }

    /// Whether `lhs` comes before `rhs`: by section, then by item.
    /// Whether both name the same item of the same section. (Written out,
    /// not synthesized, so that per-frame loops in other modules inline it.)
    @inlinable public static func == (lhs: ItemIndex, rhs: ItemIndex) -> Bool {
        lhs.item == rhs.item && lhs.section == rhs.section
    }

    @inlinable public static func < (lhs: ItemIndex, rhs: ItemIndex) -> Bool {
        lhs.section != rhs.section ? lhs.section < rhs.section : lhs.item < rhs.item
    }

    /// The index as `[section, item]`, the way `IndexPath` prints.
    public var description: String { "[\(section), \(item)]" }
}
