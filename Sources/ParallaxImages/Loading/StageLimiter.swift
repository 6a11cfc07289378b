/// How a job holds a slot of a pipeline stage: as urgent work (counted
/// against the stage's whole limit only) or as background work (counted
/// against the background limit too). Work keeps the kind of slot it was
/// granted even if its priority changes while it runs.
enum SlotGrant: Sendable, Hashable {
    case urgent, background
}

/// The slots of one pipeline stage (downloads, or decodes) and the work
/// waiting for them, most urgent first.
///
/// Owns how many jobs run in the stage at once: at most `limit`, of which
/// at most `backgroundLimit` may be work that is not urgent, so that some
/// slots are always kept for what is on screen. Work that cannot start at
/// once waits in one of two ``IndexedPriorityQueue``s, urgent and
/// background, each ranked by ``LoadPriority`` and then by arrival (the
/// job's identifier, which grows with the time the job was created), so:
///
/// - granting a slot is O(log n): the next waiter is the first urgent one,
///   or, when a background slot is free and no urgent work waits, the
///   first background one (every urgent priority outranks every other, so
///   that is always the most urgent waiter that may run);
/// - a cancelled job leaves its queue in O(log n);
/// - a plan changing a waiting job's priority re-ranks it in O(log n),
///   moving it to the urgent queue if it became urgent.
///
/// Under ``ImageLoader/Ordering/arrival`` every job counts as urgent and
/// ranks by arrival alone: one plain first-come-first-served queue.
///
/// A value owned by the loader (an actor); it hands back the waiter it
/// grants or removes, and the loader resumes it. `Waiter` is whatever the
/// owner needs to wake the job (the loader's is a continuation; tests use
/// plain values).
struct StageLimiter<Waiter> {
    /// A waiter's place in line: greater is served first.
    struct Rank: Comparable {
        var priority: LoadPriority
        /// The job's identifier: lower (older) is served first among equals.
        var arrival: UInt64

        static func < (lhs: Rank, rhs: Rank) -> Bool {
            lhs.priority != rhs.priority ? lhs.priority < rhs.priority : lhs.arrival > rhs.arrival
        }
    }

    /// Jobs running in the stage at once, at most.
    let limit: Int
    /// Jobs that are not urgent running in the stage at once, at most.
    let backgroundLimit: Int
    /// In which order waiting work is served.
    let ordering: ImageLoader.Ordering
    /// Jobs holding a slot now.
    private(set) var running = 0
    /// Jobs holding a background slot now.
    private(set) var backgroundRunning = 0
    private var urgent = IndexedPriorityQueue<UInt64, Rank, Waiter>()
    private var background = IndexedPriorityQueue<UInt64, Rank, Waiter>()

    /// A stage running at most `limit` jobs at once, at most
    /// `backgroundLimit` of them not urgent, serving waiters in `ordering`.
    init(limit: Int, backgroundLimit: Int, ordering: ImageLoader.Ordering) {
        self.limit = limit
        self.backgroundLimit = backgroundLimit
        self.ordering = ordering
    }

    /// Jobs waiting for a slot.
    var waitingCount: Int { urgent.count + background.count }

    /// Whether `job` waits for a slot.
    func isWaiting(_ job: UInt64) -> Bool { urgent.contains(job) || background.contains(job) }

    /// Takes a slot for work at `priority` if it may start now: a slot of
    /// its kind is free, and (unless it is urgent) no one waits ahead of it.
    /// `nil` means the work must wait (``enqueue(_:job:priority:)``). O(1).
    mutating func acquireNow(priority: LoadPriority) -> SlotGrant? {
        let isUrgent = self.isUrgent(priority)
        guard waitingCount == 0 || isUrgent, let grant = grant(urgent: isUrgent) else { return nil }
        take(grant)
        return grant
    }

    /// Puts `job` in line at `priority`; ``nextGrant()`` or ``remove(_:)``
    /// hands `waiter` back. O(log n).
    mutating func enqueue(_ waiter: Waiter, job: UInt64, priority: LoadPriority) {
        let rank = rank(job, priority)
        if isUrgent(priority) {
            urgent.insert(waiter, id: job, rank: rank)
        } else {
            background.insert(waiter, id: job, rank: rank)
        }
    }

    /// Gives back a slot ``acquireNow(priority:)`` or ``nextGrant()``
    /// handed out. Call ``nextGrant()`` until `nil` afterwards.
    mutating func release(_ grant: SlotGrant) {
        precondition(running > 0, "a slot given back that was never taken")
        running -= 1
        if grant == .background { backgroundRunning -= 1 }
    }

    /// Takes a free slot for the most urgent waiter that may have one (the
    /// oldest among equals) and returns it with its grant; `nil` when no
    /// waiter may start. O(log n).
    mutating func nextGrant() -> (waiter: Waiter, grant: SlotGrant)? {
        guard running < limit else { return nil }
        let next: (id: UInt64, rank: Rank, value: Waiter)?
        let grant: SlotGrant
        if !urgent.isEmpty {
            next = urgent.popFirst()
            grant = .urgent
        } else if backgroundRunning < backgroundLimit {
            next = background.popFirst()
            grant = .background
        } else {
            return nil
        }
        guard let next else { return nil }
        take(grant)
        return (next.value, grant)
    }

    /// Takes `job` out of line (it was cancelled), returning its waiter, or
    /// `nil` if it was not waiting. O(log n).
    mutating func remove(_ job: UInt64) -> Waiter? {
        urgent.remove(job) ?? background.remove(job)
    }

    /// Re-ranks `job`, if it waits, at its new `priority`, moving it
    /// between the urgent and background lines if its urgency changed.
    /// Returns whether it became urgent while waiting: then a slot may be
    /// free for it, and the owner should call ``nextGrant()``. O(log n).
    @discardableResult
    mutating func reprioritize(_ job: UInt64, to priority: LoadPriority) -> Bool {
        let rank = rank(job, priority)
        if isUrgent(priority) {
            if urgent.updateRank(of: job, to: rank) { return false }
            guard let waiter = background.remove(job) else { return false }
            urgent.insert(waiter, id: job, rank: rank)
            return true
        } else {
            if background.updateRank(of: job, to: rank) { return false }
            guard let waiter = urgent.remove(job) else { return false }
            background.insert(waiter, id: job, rank: rank)
            return false
        }
    }

    // MARK: Rules

    /// Whether work at `priority` counts as urgent against the limits.
    private func isUrgent(_ priority: LoadPriority) -> Bool {
        ordering == .arrival || priority.isUrgent     // arrival: one plain limit for everything
    }

    private func rank(_ job: UInt64, _ priority: LoadPriority) -> Rank {
        Rank(priority: ordering == .priority ? priority : .outside, arrival: job)
    }

    /// What work of this urgency may take now, if anything.
    private func grant(urgent isUrgent: Bool) -> SlotGrant? {
        guard running < limit else { return nil }
        if isUrgent { return .urgent }
        return backgroundRunning < backgroundLimit ? .background : nil
    }

    private mutating func take(_ grant: SlotGrant) {
        running += 1
        if grant == .background { backgroundRunning += 1 }
    }
}
