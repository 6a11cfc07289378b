import Foundation

/// The parallax targets of a plain scroll view (conforming views anywhere
/// in its content), found by walking its subviews only when its structure
/// may have changed, not on every pass.
///
/// The adapter describes the structure cheaply (its content size and
/// number of subviews, and a count it bumps when a view was laid out at a
/// new size or entered the window); while that `Structure` value stays the
/// same, the last walk's list is reused and a pass costs O(targets).
/// ``invalidate()`` forces the next walk.
///
/// Complexity: O(1) when the structure is unchanged; one walk otherwise.
public struct TargetCache<Target, Structure: Equatable> {
    private var structure: Structure?
    private var cached: [Target] = []
    /// Walks made (for tests and a HUD).
    public private(set) var walks = 0

    /// An empty cache: the first request walks.
    public init() {}

    /// The targets for `structure`: the cached ones while it is unchanged,
    /// otherwise those `walk` finds (then cached).
    public mutating func targets(for structure: Structure, walk: () -> [Target]) -> [Target] {
        if let current = self.structure, current == structure { return cached }
        cached = walk()
        self.structure = structure
        walks += 1
        return cached
    }

    /// Forgets the list: the next request walks.
    public mutating func invalidate() {
        structure = nil
        cached.removeAll()
    }
}
