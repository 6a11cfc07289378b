import Foundation

/// The reading direction of the surface the content is shown on.
///
/// For horizontal scrolling in a right-to-left language the *leading* edge
/// of a scroll view is its right edge: the first item sits on the right and
/// layered backgrounds start at their right end.
public enum LayoutDirection: String, Sendable, Hashable, CaseIterable, Codable {
    /// Left to right: the leading edge is on the left (English, say).
    case leftToRight
    /// Right to left: the leading edge is on the right (Arabic, Hebrew).
    case rightToLeft
}
