#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

/// How many blocks of a ``QuiltLayout`` an item covers: `width` blocks
/// across and `height` blocks down (in screen terms, for either axis).
public struct QuiltSpan: Sendable, Hashable, Codable, CustomStringConvertible {
    /// How many blocks wide the item is (in screen terms, for either axis).
    public var width: Int
    /// How many blocks tall the item is (in screen terms, for either axis).
    public var height: Int

    /// An item `width` blocks wide and `height` blocks tall. Nothing is
    /// checked here: ``QuiltLayout`` places a span under one block either way
    /// as 1 × 1, clips one wider than the quilt to its columns, and reports
    /// both in ``QuiltLayout/diagnostics``.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// One block: RFQuiltLayout's default.
    public static let one = QuiltSpan(width: 1, height: 1)

    /// The span as `width×height`, as in `2×1`.
    public var description: String { "\(width)×\(height)" }
}

/// The settings of a ``QuiltLayout``.
public struct QuiltConfiguration: Sendable, Hashable {
    /// The size of one block; items cover whole blocks. RFQuiltLayout's
    /// default is 100 × 100 pt.
    public var blockSize: CGSize
    /// Insets applied to every item's blocks (the gap between photos).
    public var itemInsets: EdgeInsets
    /// The extent of each section's header along the scroll axis; 0 for none.
    public var headerHeight: CGFloat
    /// The extent of each section's footer along the scroll axis; 0 for none.
    public var footerHeight: CGFloat
    /// The scroll axis. A horizontal quilt fills rows of columns.
    public var axis: ScrollAxis
    /// Right-to-left mirrors the quilt (the first block column on the right,
    /// or for a horizontal quilt, the content starting on the right).
    public var layoutDirection: LayoutDirection

    /// A configuration. The defaults are RFQuiltLayout's: 100 × 100 pt
    /// blocks, no item insets, no header or footer, vertical, left to right.
    /// Nothing is checked here: ``QuiltLayout`` calls ``validate()`` when it
    /// is built.
    public init(
        blockSize: CGSize = CGSize(width: 100, height: 100),
        itemInsets: EdgeInsets = .zero,
        headerHeight: CGFloat = 0,
        footerHeight: CGFloat = 0,
        axis: ScrollAxis = .vertical,
        layoutDirection: LayoutDirection = .leftToRight
    ) {
        self.blockSize = blockSize
        self.itemInsets = itemInsets
        self.headerHeight = headerHeight
        self.footerHeight = footerHeight
        self.axis = axis
        self.layoutDirection = layoutDirection
    }

    /// Checks every value; ``QuiltLayout`` calls this when it is built.
    public func validate() throws(LayoutError) {
        try LayoutError.require(Double(blockSize.width), "blockSize.width", atLeast: 0, inclusive: false)
        try LayoutError.require(Double(blockSize.height), "blockSize.height", atLeast: 0, inclusive: false)
        try LayoutError.require(itemInsets, "itemInsets")
        try LayoutError.require(Double(headerHeight), "headerHeight")
        try LayoutError.require(Double(footerHeight), "footerHeight")
    }

    /// Hashes every setting, the values `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(size: blockSize)
        hasher.combine(itemInsets)
        hasher.combine(headerHeight)
        hasher.combine(footerHeight)
        hasher.combine(axis)
        hasher.combine(layoutDirection)
    }
}
