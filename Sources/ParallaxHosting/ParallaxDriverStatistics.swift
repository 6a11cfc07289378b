/// What a ``ParallaxDriver`` has done: counters for a diagnostics overlay,
/// logs and tests. Not generic over the driver's host, so a surface can
/// report them without naming its host type.
public struct ParallaxDriverStatistics: Sendable, Hashable {
    /// Completed calls to ``ParallaxDriver/update(_:)`` (not counting nested ones).
    public var updates = 0
    /// Passes over the visible targets.
    public var passes = 0
    /// Placements handed out.
    public var placements = 0
    /// Calls to ``ParallaxDriver/update(_:)`` that arrived while an update was running.
    public var nestedRequests = 0

    /// All counters at zero.
    public init() {}
}
