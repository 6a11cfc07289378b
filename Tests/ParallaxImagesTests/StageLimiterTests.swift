import ParallaxCore
import Testing
@testable import ParallaxImages

/// The slot limiter alone: a value, driven synchronously, its waiters
/// plain job numbers.
@Suite("Stage limiter")
struct StageLimiterTests {
    typealias Limiter = StageLimiter<UInt64>

    /// Releases `grant`, then hands out every slot that frees, returning the jobs served in order.
    private func release(_ grant: SlotGrant, from limiter: inout Limiter) -> [UInt64] {
        limiter.release(grant)
        return drain(&limiter)
    }

    private func drain(_ limiter: inout Limiter) -> [UInt64] {
        var served: [UInt64] = []
        while let next = limiter.nextGrant() { served.append(next.waiter) }
        return served
    }

    /// Serves every waiter one slot at a time (each job finishing before the next starts).
    private func serveOneByOne(_ limiter: inout Limiter, holding grant: SlotGrant) -> [UInt64] {
        var order: [UInt64] = []
        var held = grant
        while true {
            limiter.release(held)
            guard let next = limiter.nextGrant() else { return order }
            order.append(next.waiter)
            held = next.grant
        }
    }

    @Test func theMostUrgentWaiterIsServedFirst() {
        var limiter = Limiter(limit: 1, backgroundLimit: 1, ordering: .priority)
        let holder = limiter.acquireNow(priority: .visible)
        #expect(holder == .urgent)
        let waiting: [(UInt64, LoadPriority)] = [
            (1, .outside), (2, LoadPriority(.ahead, distance: 400)), (3, .visible),
            (4, LoadPriority(.ahead, distance: 100)), (5, LoadPriority(.behind)), (6, LoadPriority(.landing)),
        ]
        for (job, priority) in waiting {
            let grant = limiter.acquireNow(priority: priority)
            #expect(grant == nil)
            limiter.enqueue(job, job: job, priority: priority)
        }
        #expect(limiter.waitingCount == 6)
        #expect(serveOneByOne(&limiter, holding: .urgent) == [3, 6, 4, 2, 5, 1])
        #expect(limiter.waitingCount == 0 && limiter.running == 0)
    }

    @Test func equalPrioritiesAreServedOldestJobFirst() {
        // Oldest by the job's identifier (when the work started), not by when it reached this stage:
        // a job that downloaded slowly still decodes before younger work of the same priority.
        var limiter = Limiter(limit: 1, backgroundLimit: 1, ordering: .priority)
        _ = limiter.acquireNow(priority: .prefetch)
        for job: UInt64 in [7, 3, 9, 1, 5] { limiter.enqueue(job, job: job, priority: .prefetch) }
        #expect(serveOneByOne(&limiter, holding: .background) == [1, 3, 5, 7, 9])
    }

    @Test func cancelledWaitersLeaveTheLineAndAreNeverServed() {
        var limiter = Limiter(limit: 1, backgroundLimit: 1, ordering: .priority)
        _ = limiter.acquireNow(priority: .visible)
        for job: UInt64 in 1...5 { limiter.enqueue(job, job: job, priority: LoadPriority(.ahead, distance: Double(job))) }
        let first = limiter.remove(1), fourth = limiter.remove(4)
        let again = limiter.remove(4), stranger = limiter.remove(42)
        #expect(first == 1 && fourth == 4)
        #expect(again == nil && stranger == nil)                         // gone already; never waited
        #expect(!limiter.isWaiting(1) && limiter.isWaiting(2) && limiter.waitingCount == 3)
        #expect(serveOneByOne(&limiter, holding: .urgent) == [2, 3, 5])
    }

    @Test func aChangeOfPriorityReordersTheLine() {
        var limiter = Limiter(limit: 1, backgroundLimit: 1, ordering: .priority)
        _ = limiter.acquireNow(priority: .visible)
        for job: UInt64 in 1...4 { limiter.enqueue(job, job: job, priority: LoadPriority(.ahead, distance: Double(job) * 100)) }
        // 4 comes nearer than everyone, 1 moves behind: none of them becomes urgent.
        let nearer = limiter.reprioritize(4, to: LoadPriority(.ahead, distance: 10))
        let behind = limiter.reprioritize(1, to: LoadPriority(.behind))
        let stranger = limiter.reprioritize(9, to: .visible)              // not waiting: nothing to do
        #expect(!nearer && !behind && !stranger)
        #expect(serveOneByOne(&limiter, holding: .urgent) == [4, 2, 3, 1])
    }

    @Test func workThatBecomesUrgentTakesASlotKeptForUrgentWork() {
        // Two slots, one for background work, held by background work: prefetches wait.
        var limiter = Limiter(limit: 2, backgroundLimit: 1, ordering: .priority)
        let holder = limiter.acquireNow(priority: .prefetch)
        #expect(holder == .background)
        for job: UInt64 in 1...3 {
            let grant = limiter.acquireNow(priority: .prefetch)
            #expect(grant == nil)
            limiter.enqueue(job, job: job, priority: .prefetch)
        }
        #expect(drain(&limiter).isEmpty)                                 // the free slot is kept for urgent work
        // 3 is now on screen: it may take the urgent slot at once.
        let promoted = limiter.reprioritize(3, to: .visible)
        #expect(promoted)
        let next = limiter.nextGrant()
        #expect(next?.waiter == 3 && next?.grant == .urgent)
        #expect(limiter.running == 2 && limiter.backgroundRunning == 1)
        // An urgent newcomer passes the waiting prefetches, but only when a slot is free.
        let newcomer = limiter.acquireNow(priority: .visible)
        #expect(newcomer == nil)
        limiter.enqueue(8, job: 8, priority: .visible)
        // The background slot frees: the urgent waiter takes it, as an urgent slot...
        #expect(release(.background, from: &limiter) == [8])
        #expect(limiter.running == 2 && limiter.backgroundRunning == 0)
        // ...and the prefetches take the background slot, one at a time, as urgent work ends.
        #expect(release(.urgent, from: &limiter) == [1])
        #expect(release(.urgent, from: &limiter).isEmpty)
        #expect(release(.background, from: &limiter) == [2])
        #expect(limiter.waitingCount == 0)
    }

    @Test func anUrgentNewcomerPassesTheLineOthersJoinIt() {
        var limiter = Limiter(limit: 3, backgroundLimit: 1, ordering: .priority)
        let holder = limiter.acquireNow(priority: .prefetch)
        #expect(holder == .background)
        limiter.enqueue(1, job: 1, priority: .prefetch)
        let ahead = limiter.acquireNow(priority: LoadPriority(.ahead, distance: 0))
        let visible = limiter.acquireNow(priority: .visible)
        #expect(ahead == nil && visible == .urgent)
    }

    @Test func arrivalOrderingIsFirstComeFirstServedWhateverThePriority() {
        var limiter = Limiter(limit: 1, backgroundLimit: 1, ordering: .arrival)
        let holder = limiter.acquireNow(priority: .outside)
        #expect(holder == .urgent)                                       // one plain limit: every grant alike
        limiter.enqueue(1, job: 1, priority: .outside)
        limiter.enqueue(2, job: 2, priority: .prefetch)
        limiter.enqueue(3, job: 3, priority: .visible)
        let promoted = limiter.reprioritize(1, to: .visible)
        #expect(!promoted)
        #expect(serveOneByOne(&limiter, holding: .urgent) == [1, 2, 3])
    }

    @Test func matchesARescanningOracleOverRandomOperations() {
        // The limiter against the scheduler it replaced: on every grant, scan all waiters for the most
        // urgent (then oldest) one that may run. Both see the same operations; they must agree on every
        // answer, every waiter served (and with which kind of slot), and every count.
        for (seed, ordering) in [(UInt64(1), ImageLoader.Ordering.priority), (2, .priority), (3, .priority), (4, .arrival)] {
            var rng = SplitMix64(seed: seed)
            let limit = Int(rng.next() % 4) + 1
            let backgroundLimit = Int(rng.next() % UInt64(limit)) + 1
            var limiter = Limiter(limit: limit, backgroundLimit: backgroundLimit, ordering: ordering)
            var oracle = RescanningLimiter(limit: limit, backgroundLimit: backgroundLimit, ordering: ordering)
            var held: [SlotGrant] = []
            var nextJob: UInt64 = 0
            var used: Set<UInt64> = []
            func randomPriority() -> LoadPriority {
                // Few distinct values, so that ties (served oldest first) are common.
                LoadPriority(LoadPriority.Range.allCases[Int(rng.next() % 5)], distance: Double(rng.next() % 3) * 50)
            }
            for step in 0..<4_000 {
                switch rng.next() % 10 {
                case 0..<4:                                              // work reaches the stage
                    // Identifiers mostly grow, but a job that started long ago may reach the stage
                    // only now, after younger ones (a slow download before its decode).
                    nextJob += 1
                    var job = nextJob * 4
                    if rng.next() % 4 == 0 {
                        let older = (rng.next() % nextJob) * 4 + 1 + rng.next() % 3
                        if !used.contains(older) { job = older }
                    }
                    used.insert(job)
                    let priority = randomPriority()
                    let grant = limiter.acquireNow(priority: priority)
                    #expect(grant == oracle.acquireNow(priority: priority), "step \(step)")
                    if let grant {
                        held.append(grant)
                    } else {
                        limiter.enqueue(job, job: job, priority: priority)
                        oracle.enqueue(job, priority: priority)
                    }
                case 4..<7:                                              // work leaves the stage
                    guard !held.isEmpty else { continue }
                    let grant = held.remove(at: Int(rng.next() % UInt64(held.count)))
                    limiter.release(grant)
                    oracle.release(grant)
                case 7:                                                  // a job is cancelled
                    guard let job = oracle.randomJob(&rng) else { continue }
                    let removed = limiter.remove(job)
                    #expect(removed == job)
                    oracle.remove(job)
                default:                                                 // a plan changes a priority
                    guard let job = oracle.randomJob(&rng) else { continue }
                    let priority = randomPriority()
                    limiter.reprioritize(job, to: priority)
                    oracle.reprioritize(job, to: priority)
                }
                // Hand out whatever may run now (the loader does after every release and promotion).
                while true {
                    let expected = oracle.nextGrant()
                    let actual = limiter.nextGrant()
                    #expect(actual?.waiter == expected?.job && actual?.grant == expected?.grant, "step \(step)")
                    guard let actual else { break }
                    held.append(actual.grant)
                }
                #expect(limiter.running == oracle.running && limiter.backgroundRunning == oracle.backgroundRunning)
                #expect(limiter.waitingCount == oracle.waiting.count, "step \(step)")
                #expect(limiter.running <= limit && limiter.backgroundRunning <= backgroundLimit)
            }
        }
    }
}

/// The scheduler the limiter replaced, kept as the oracle: waiters in a
/// list, and every grant a scan of all of them. O(n) per grant.
private struct RescanningLimiter {
    let limit: Int
    let backgroundLimit: Int
    let ordering: ImageLoader.Ordering
    var running = 0
    var backgroundRunning = 0
    var waiting: [(job: UInt64, priority: LoadPriority)] = []

    init(limit: Int, backgroundLimit: Int, ordering: ImageLoader.Ordering) {
        self.limit = limit
        self.backgroundLimit = backgroundLimit
        self.ordering = ordering
    }

    func isUrgent(_ priority: LoadPriority) -> Bool { ordering == .arrival || priority.isUrgent }

    func grant(urgent: Bool) -> SlotGrant? {
        guard running < limit else { return nil }
        if urgent { return .urgent }
        return backgroundRunning < backgroundLimit ? .background : nil
    }

    mutating func take(_ grant: SlotGrant) {
        running += 1
        if grant == .background { backgroundRunning += 1 }
    }

    mutating func acquireNow(priority: LoadPriority) -> SlotGrant? {
        guard waiting.isEmpty || isUrgent(priority), let ready = grant(urgent: isUrgent(priority)) else { return nil }
        take(ready)
        return ready
    }

    mutating func enqueue(_ job: UInt64, priority: LoadPriority) { waiting.append((job, priority)) }

    mutating func release(_ grant: SlotGrant) {
        running -= 1
        if grant == .background { backgroundRunning -= 1 }
    }

    mutating func remove(_ job: UInt64) { waiting.removeAll { $0.job == job } }

    mutating func reprioritize(_ job: UInt64, to priority: LoadPriority) {
        if let index = waiting.firstIndex(where: { $0.job == job }) { waiting[index].priority = priority }
    }

    func randomJob(_ rng: inout SplitMix64) -> UInt64? {
        waiting.isEmpty ? nil : waiting[Int(rng.next() % UInt64(waiting.count))].job
    }

    mutating func nextGrant() -> (job: UInt64, grant: SlotGrant)? {
        var best: (index: Int, grant: SlotGrant)?
        for (index, waiter) in waiting.enumerated() {
            guard let grant = grant(urgent: isUrgent(waiter.priority)) else { continue }
            if let current = best {
                let other = waiting[current.index]
                let better = ordering == .priority
                    ? waiter.priority > other.priority || (waiter.priority == other.priority && waiter.job < other.job)
                    : waiter.job < other.job
                if !better { continue }
            }
            best = (index, grant)
        }
        guard let best else { return nil }
        take(best.grant)
        return (waiting.remove(at: best.index).job, best.grant)
    }
}
