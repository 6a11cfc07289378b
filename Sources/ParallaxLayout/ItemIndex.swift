/// The position of an item: its section and its index within the section.
///
/// A plain value (two integers, no heap storage), ordered section first.
/// The UIKit adapter converts it to and from `IndexPath`.
@frozen
public struct ItemIndex: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public var section: Int
    public var item: Int

    @inlinable public init(item: Int, section: Int = 0) {
        self.item = item
        self.section = section
    }

    @inlinable public static func < (lhs: ItemIndex, rhs: ItemIndex) -> Bool {
        lhs.section != rhs.section ? lhs.section < rhs.section : lhs.item < rhs.item
    }

    public var description: String { "[\(section), \(item)]" }
}
