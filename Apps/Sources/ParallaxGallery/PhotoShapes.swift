#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxLayout

/// What the gallery knows of each photo's shape before its pixels: the
/// upright pixel size read from its header (``HeaderProbe``), by item.
///
/// Quilt and waterfall place photos by shape. Until a photo's size is known
/// its tile keeps a stable placeholder shape (one block in the quilt, 4 : 3
/// in the waterfall, the most common camera shape), so a tile changes shape
/// at most once, when its header arrives; a photo whose header cannot be
/// read keeps the placeholder for good.
///
/// Complexity: O(1) to record or read a size; storage is 8 bytes a photo
/// (two 32-bit sides, zero while unknown), a third of an optional
/// `CGSize`'s 24: at 100,000 photos the tracker's sizes and the copies
/// layouts are built from peaked at 7.1 MB that way, under 2.4 MB this way.
package struct PhotoShapes: Sendable, Equatable {
    /// The aspect ratio (width : height) a tile has until its photo's size is known.
    package static let placeholderAspectRatio: CGFloat = 4.0 / 3.0
    /// From this aspect ratio up a photo covers two blocks across in the
    /// quilt (3 : 2 and wider); from its inverse down, two blocks down.
    package static let wideAspectRatio: CGFloat = 1.45
    /// Every ninth photo, from the fifth on, is featured: 2 × 2 blocks,
    /// whatever its shape (RFQuiltLayout's demo mixes in large tiles).
    package static let featuredPeriod = 9
    package static let featuredPhase = 4

    /// A photo's upright size in pixels; 0 × 0 while unknown.
    private struct Sides: Sendable, Equatable {
        var width: UInt32
        var height: UInt32
        static let unknown = Sides(width: 0, height: 0)
    }

    private var sizes: [Sides]
    /// How many photos' sizes are known.
    package private(set) var knownCount = 0

    /// No size known yet for `count` photos.
    package init(count: Int) {
        sizes = Array(repeating: .unknown, count: max(count, 0))
    }

    /// The number of photos.
    package var count: Int { sizes.count }

    /// Makes room for `count` photos in all.
    package mutating func reserveCapacity(_ count: Int) {
        sizes.reserveCapacity(count)
    }

    /// Adds `count` photos of unknown size after the others.
    package mutating func append(count: Int) {
        sizes.append(contentsOf: repeatElement(.unknown, count: max(count, 0)))
    }

    /// Records the upright pixel size of photo `item`. Returns whether
    /// anything changed: an item outside the list, an unusable size or the
    /// size already known change nothing.
    @discardableResult
    package mutating func record(width: Int, height: Int, at item: Int) -> Bool {
        guard sizes.indices.contains(item), width > 0, height > 0 else { return false }
        // Sides past 2^32 - 1 pixels (no format stores one) are kept at that: only the shape's ratio, clamped
        // to 1 : 64 … 64 : 1 by every use, counts.
        let size = Sides(width: UInt32(clamping: width), height: UInt32(clamping: height))
        guard sizes[item] != size else { return false }
        if sizes[item] == .unknown { knownCount += 1 }
        sizes[item] = size
        return true
    }

    /// The shapes in another order: `order[item]` is the item here whose
    /// shape item `item` of the result has. O(n).
    package func arranged(by order: [Int32]) -> PhotoShapes {
        var result = PhotoShapes(count: order.count)
        for (item, source) in order.enumerated() {
            if let size = size(of: Int(source)) { result.record(width: Int(size.width), height: Int(size.height), at: item) }
        }
        return result
    }

    /// The upright pixel size of photo `item`, if known.
    package func size(of item: Int) -> CGSize? {
        guard sizes.indices.contains(item), case let size = sizes[item], size != .unknown else { return nil }
        return CGSize(width: CGFloat(size.width), height: CGFloat(size.height))
    }

    /// The aspect ratio (width : height) of photo `item`'s tile in the
    /// waterfall: its own, or ``placeholderAspectRatio`` until known. A
    /// header's extreme shape (1 × 2,147,483,647 pixels) is clamped into
    /// `ItemAspectRatio.range` (1 : 64 to 64 : 1), the range the waterfall
    /// itself keeps to, so the gallery and the layout agree on every tile.
    package func aspectRatio(of item: Int) -> CGFloat {
        guard let size = size(of: item) else { return Self.placeholderAspectRatio }
        return ItemAspectRatio.of(size) ?? Self.placeholderAspectRatio
    }

    /// The size a waterfall gives photo `item` (only its aspect ratio counts).
    package func waterfallSize(of item: Int) -> CGSize {
        CGSize(width: aspectRatio(of: item), height: 1)
    }

    /// The blocks photo `item` covers in a quilt of `columns` block columns:
    /// 2 × 2 when featured, 2 × 1 when wide, 1 × 2 when tall, else 1 × 1
    /// (also while its size is unknown), never wider than the quilt.
    package func quiltSpan(of item: Int, columns: Int) -> QuiltSpan {
        var span = QuiltSpan.one
        if item % Self.featuredPeriod == Self.featuredPhase {
            span = QuiltSpan(width: 2, height: 2)
        } else if let size = size(of: item) {
            let ratio = size.width / size.height
            if ratio >= Self.wideAspectRatio {
                span = QuiltSpan(width: 2, height: 1)
            } else if ratio <= 1 / Self.wideAspectRatio {
                span = QuiltSpan(width: 1, height: 2)
            }
        }
        span.width = min(span.width, max(columns, 1))
        return span
    }
}
