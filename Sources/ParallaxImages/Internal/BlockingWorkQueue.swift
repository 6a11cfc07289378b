import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A few dedicated threads for work that blocks (decoding, file reads), so
/// it never occupies Swift's cooperative thread pool, whose threads (one
/// per core) every actor and task in the process shares.
///
/// This is what Nuke does with its own operation queues. The queues are
/// process-wide, like Dispatch's global queues: loaders share them, and
/// their threads start on first use and live as long as the process.
/// Work runs in two lanes, each first in, first out: urgent work (what is
/// on screen) always starts before any waiting background work, so a disk
/// cache read for a visible tile never queues behind prefetching. Callers
/// that need finer priorities (the loader) hand out their own slots and
/// never submit more work than there are threads.
///
/// The decoding queue keeps the lanes on threads of their own, both below
/// the render loop's priority so it takes a core back whenever it has a
/// frame to draw: background work (prefetching) at nice 10 (the utility
/// quality of service on Apple platforms), urgent work (what is on screen)
/// at nice 5 (user-initiated), so a visible tile never waits behind
/// prefetching, nor on a thread a busy machine all but starves (a nice-10
/// thread gets about a tenth of a core against each busy normal-priority
/// one; a nice-5 thread a third). The loader keeps background decodes to one fewer
/// than the cores, so only work for what is on screen ever uses them all.
final class BlockingWorkQueue: @unchecked Sendable {
    /// Thumbnail decoding: per core, one thread for urgent work at normal
    /// priority and one for background work at low priority.
    static let decoding = BlockingWorkQueue(
        name: "ParallaxImages.decode", threadCount: ProcessInfo.processInfo.activeProcessorCount,
        lowersBackgroundPriority: true)
    /// Blocking file reads and writes: two threads per lane, below the
    /// render loop like the decoding queue's. A read of a photo from the
    /// page cache takes about a millisecond, but the lanes also carry CPU
    /// work: a disk-cache hit decodes its thumbnail, and a library's
    /// background header and date reads parse metadata (inflating a PNG's
    /// text chunks) for seconds on end. At normal priority that work took
    /// the render loop's core in turns (a launch over 100,000 photos:
    /// about 100 ms/s of late frames while the dates were read).
    static let fileIO = BlockingWorkQueue(name: "ParallaxImages.io", threadCount: 2, lowersBackgroundPriority: true)

    /// How many pieces of work run at once in each lane.
    let threadCount: Int
    private let name: String
    /// Whether background work has threads of its own at low priority.
    let lowersBackgroundPriority: Bool
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var urgentLane = Lane()
    private var backgroundLane = Lane()
    private var started = false

    /// A first-in-first-out list of work. Taken work is released at once
    /// (its slot is overwritten), and the array is compacted once most of
    /// it has been taken, so a long-lived queue holds no finished closures.
    private struct Lane {
        private var items: [(@Sendable () -> Void)?] = []
        private var head = 0

        var isEmpty: Bool { head == items.count }

        mutating func append(_ work: @escaping @Sendable () -> Void) { items.append(work) }

        mutating func removeFirst() -> (@Sendable () -> Void)? {
            guard head < items.count else { return nil }
            let work = items[head]
            items[head] = nil
            head += 1
            if head == items.count {
                items.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64, head * 2 >= items.count {
                items.removeFirst(head)
                head = 0
            }
            return work
        }
    }

    /// A queue running up to `threadCount` pieces of work at once; with
    /// `lowersBackgroundPriority`, background work runs on as many threads
    /// again, at low priority, apart from urgent work.
    init(name: String, threadCount: Int, lowersBackgroundPriority: Bool) {
        self.name = name
        self.threadCount = max(threadCount, 1)
        self.lowersBackgroundPriority = lowersBackgroundPriority
    }

    /// Runs `body` on one of the queue's threads and returns its result.
    /// `urgent` work starts before any background work still waiting; by
    /// default, work is urgent when the calling task runs at user-initiated
    /// priority or above, which is how the loader starts (and escalates)
    /// work for what is on screen.
    func run<Result: Sendable>(urgent: Bool? = nil, _ body: @escaping @Sendable () -> Result) async -> Result {
        let urgent = urgent ?? (Task.currentPriority >= .userInitiated)
        return await withCheckedContinuation { (continuation: CheckedContinuation<Result, Never>) in
            enqueue(urgent: urgent) { continuation.resume(returning: body()) }
        }
    }

    private func enqueue(urgent: Bool, _ work: @escaping @Sendable () -> Void) {
        condition.lock()
        if !started {
            started = true
            if lowersBackgroundPriority {
                for index in 0..<threadCount {
                    startThread("\(name).\(index)", serving: .urgent)
                    startThread("\(name).background.\(index)", serving: .background)
                }
            } else {
                for index in 0..<threadCount { startThread("\(name).\(index)", serving: .both) }
            }
        }
        if urgent { urgentLane.append(work) } else { backgroundLane.append(work) }
        // Threads of both kinds may wait on the condition: every one is woken to look for its lane's work.
        condition.broadcast()
        condition.unlock()
    }

    /// Which lanes a thread takes work from.
    private enum Service {
        case urgent, background, both
    }

    private func startThread(_ name: String, serving service: Service) {
        let thread = Thread { [self] in
            switch service {
            case .urgent: Self.lowerCurrentThreadPriority(to: Self.urgentNiceValue)
            case .background: Self.lowerCurrentThreadPriority(to: Self.backgroundNiceValue)
            case .both: break
            }
            while true { next(for: service)() }
        }
        thread.name = name
        thread.qualityOfService = service == .background ? .utility : .userInitiated
        thread.start()
    }

    /// Waits for the next piece of work of `service`'s lanes and takes it
    /// off the queue (urgent first).
    private func next(for service: Service) -> @Sendable () -> Void {
        condition.lock()
        defer { condition.unlock() }
        while true {
            let work: (@Sendable () -> Void)?
            switch service {
            case .urgent: work = urgentLane.removeFirst()
            case .background: work = backgroundLane.removeFirst()
            case .both: work = urgentLane.removeFirst() ?? backgroundLane.removeFirst()
            }
            if let work { return work }
            condition.wait()
        }
    }

    /// The nice value of the decoding queue's urgent threads: a third of a
    /// normal thread's weight under Linux's scheduler, so a render loop at
    /// normal priority still takes its core back at once (at nice 0 the
    /// session benchmark's hitches grew from about 6 to about 30 ms/s), yet
    /// three times the share of a background thread against other busy
    /// processes.
    static let urgentNiceValue: Int32 = 5
    /// The nice value of background threads: about a tenth of a normal
    /// thread's weight.
    static let backgroundNiceValue: Int32 = 10

    /// `nice` for this thread alone: under Linux's threads the nice value
    /// belongs to each thread, and `setpriority(PRIO_PROCESS, 0, …)` sets
    /// the caller's (man 2 setpriority). Elsewhere the thread's quality of
    /// service, set before it started, does the same.
    static func lowerCurrentThreadPriority(to nice: Int32) {
        #if canImport(Glibc)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice)
        #endif
    }
}
