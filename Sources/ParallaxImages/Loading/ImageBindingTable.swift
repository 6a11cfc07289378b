/// A target's claim on one thumbnail: which key, and which bind it was.
public struct ImageTicket: Sendable, Hashable {
    /// The thumbnail the target was bound to.
    public let key: ThumbnailKey
    /// Unique per bind: rebinding a target to the same key gets a new one.
    public let generation: UInt64
}

/// Which thumbnail each target (a cell, a view) currently wants: the
/// reuse-safety rule of the pipeline, made explicit.
///
/// Binding a target hands out a fresh ``ImageTicket``; a result may be shown
/// only if its ticket is still the target's current one. Completions can
/// arrive in any order, after any number of reuses, reloads and erases: a
/// target bound to X never shows Y, and never shows an X from before it was
/// rebound. The bindings belong to the surface's own thread (the main
/// thread, the render loop), where results are applied, so the check and
/// the display happen in one step with nothing in between.
///
/// Complexity: O(1) per operation.
public struct ImageBindingTable<Target: Hashable> {
    private var current: [Target: ImageTicket] = [:]
    private var nextGeneration: UInt64 = 0

    /// A table in which no target is bound.
    public init() {}

    /// Binds `target` to `key`, superseding whatever it was bound to.
    public mutating func bind(_ target: Target, to key: ThumbnailKey) -> ImageTicket {
        nextGeneration += 1
        let ticket = ImageTicket(key: key, generation: nextGeneration)
        current[target] = ticket
        return ticket
    }

    /// Unbinds `target` (it scrolled away): no result reaches it any more.
    public mutating func unbind(_ target: Target) {
        current[target] = nil
    }

    /// Whether a result for `ticket` may be shown on `target` now.
    public func accepts(_ ticket: ImageTicket, for target: Target) -> Bool {
        current[target] == ticket
    }

    /// The ticket `target` currently holds.
    public func ticket(for target: Target) -> ImageTicket? { current[target] }

    /// Unbinds every target (everything was erased).
    public mutating func unbindAll() { current.removeAll() }
}
