#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

/// The sections of a table-like list (sections stacked along its axis, in
/// order) that reach into the visible rectangle: where a UIKit adapter
/// looks for section headers and footers, including those of sections
/// with no visible row (an empty section's header, a long footer, a header
/// pinned over the rows of the section before).
///
/// Found by binary search over the sections' rectangles (UIKit's
/// `rect(forSection:)`, which a table answers from its cached heights), so
/// a table of thousands of sections costs a dozen look-ups, not thousands.
///
/// Complexity: O(log sections + visible sections) calls of `rect`.
public enum VisibleSections {
    /// The sections among `count` whose rectangle (`rect`, in content
    /// coordinates, stacked along `axis` in order) meets `visible`; a
    /// section with an empty rectangle never does. Empty when none does.
    public static func sections(count: Int, along axis: ScrollAxis = .vertical, in visible: CGRect,
                                rect: (Int) -> CGRect) -> Range<Int> {
        guard count > 0 else { return 0..<0 }
        let span = axis.mainSpan(of: visible)
        guard span.isFinite, span.length > 0 else { return 0..<0 }
        // The first section that ends after the visible span starts.
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if axis.mainSpan(of: rect(mid)).upperBound <= span.lowerBound { low = mid + 1 } else { high = mid }
        }
        var end = low
        while end < count, axis.mainSpan(of: rect(end)).lowerBound < span.upperBound { end += 1 }
        return low..<end
    }
}
