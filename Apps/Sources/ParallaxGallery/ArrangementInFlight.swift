import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An arrangement of the timeline being made on a thread of its own
/// (``PhotoTimeline/ArrangementJob``), while the frames go on showing the
/// last one: a frame takes it once it is made (``take()``, O(1)), never
/// waits for it.
///
/// The thread runs at a lower priority than the frames (nice 5, as the
/// loader's decodes of visible tiles): on two cores busy with decodes and a
/// walk, an arrangement at normal priority took its core from the frames as
/// often as it gave them time. Made with it: each photo's position
/// (``PhotoTimeline/Arrangement/positions(count:)``), for the photos the job covers.
final class ArrangementInFlight: @unchecked Sendable {
    /// The order and grouping it is made in.
    let sort: PhotoSort, grouping: PhotoGrouping
    /// The made arrangement, its positions, and how long they took to make.
    typealias Made = (arrangement: PhotoTimeline.Arrangement, positions: [Int32], seconds: Double)

    private let lock = NSLock()
    private var made: Made?
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Starts making `job`'s arrangement. The job is the thread's alone, so
    /// its snapshot of the timeline (100,000 IDs at 100,000 photos, each
    /// released) is let go there, not in a frame.
    init(_ job: consuming PhotoTimeline.ArrangementJob) {
        sort = job.sort
        grouping = job.grouping
        let thread = Thread { [self, job] in
            Self.lowerCurrentThreadPriority()
            let clock = ContinuousClock(), began = clock.now
            let arrangement = job.make()
            let positions = arrangement.positions(count: job.count)
            let took = clock.now - began
            let seconds = Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18
            let waiters = lock.withLock {
                made = (arrangement, positions, seconds)
                defer { waiting = [] }
                return waiting
            }
            for waiter in waiters { waiter.resume() }
        }
        thread.name = "arrangement"
        thread.qualityOfService = .userInitiated         // Apple platforms; Linux's nice is set by the thread
        thread.start()
    }

    /// The arrangement, once made.
    func take() -> Made? {
        lock.withLock { made }
    }

    /// Returns once the arrangement is made (tests, and whoever must not go on without it).
    func finished() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isMade = lock.withLock {
                if made == nil { waiting.append(continuation) }
                return made != nil
            }
            if isMade { continuation.resume() }
        }
    }

    /// Nice 5 for this thread alone: under Linux's threads the nice value
    /// belongs to each thread (man 2 setpriority). Elsewhere the quality of
    /// service set before the thread started does the same.
    private static func lowerCurrentThreadPriority() {
        #if canImport(Glibc)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 5)
        #endif
    }
}
