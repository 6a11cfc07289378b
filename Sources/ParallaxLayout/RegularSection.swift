#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation

/// The resting positions of one section made of evenly spaced lines
/// (grid rows, quilt block rows): the section's start for its first line,
/// then each later line's start minus the gap before it. Shared by the
/// layouts whose lines are regular, so snapping and place keeping agree
/// between them. All positions are logical (along the axis, from the
/// leading edge).
struct RegularSection: Sendable {
    /// Where the section starts (its header, if any).
    let sectionStart: CGFloat
    /// Where its first line starts.
    let firstLine: CGFloat
    /// The distance from one line's start to the next.
    let pitch: CGFloat
    /// The number of lines.
    let count: Int
    /// The gap shown before a line that rests at the leading edge.
    let gap: CGFloat

    /// The resting position that shows `line` first.
    func rest(line: Int) -> CGFloat {
        line == 0 ? sectionStart : firstLine + CGFloat(line) * pitch - gap
    }

    /// The resting position nearest to `position` among this section's
    /// lines and `nextSectionStart`.
    func nearest(to position: CGFloat, nextSectionStart: CGFloat) -> CGFloat {
        var best = sectionStart
        func consider(_ candidate: CGFloat) {
            if abs(candidate - position) < abs(best - position) { best = candidate }
        }
        if count > 1, pitch > 0 {
            let fractional = (position + gap - firstLine) / pitch
            let below = min(max(fractional.rounded(.down), 1), CGFloat(count - 1))
            consider(rest(line: Int(below)))
            consider(rest(line: Int(min(below + 1, CGFloat(count - 1)))))
        }
        consider(nextSectionStart)
        return best
    }
}
