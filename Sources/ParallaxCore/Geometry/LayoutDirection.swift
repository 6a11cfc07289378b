import Foundation

/// The reading direction of the surface the content is shown on.
///
/// For horizontal scrolling in a right-to-left language the *leading* edge
/// of a scroll view is its right edge: the first item sits on the right and
/// layered backgrounds start at their right end.
public enum LayoutDirection: String, Sendable, Hashable, CaseIterable, Codable {
    case leftToRight
    case rightToLeft
}
