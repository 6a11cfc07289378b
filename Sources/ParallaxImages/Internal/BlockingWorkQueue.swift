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
/// The decoding queue has a thread per core at a lower scheduling priority
/// (nice 10 on Linux, the utility quality of service on Apple platforms):
/// a render loop at normal priority takes a core back whenever it has a
/// frame to draw. The loader keeps background decodes to one fewer than
/// the cores, so only work for what is on screen ever uses them all.
final class BlockingWorkQueue: @unchecked Sendable {
    /// Thumbnail decoding: one thread per core, at low priority.
    static let decoding = BlockingWorkQueue(
        name: "ParallaxImages.decode", threadCount: ProcessInfo.processInfo.activeProcessorCount, lowersPriority: true)
    /// Blocking file reads and writes: two threads at normal priority (a
    /// read of a photo from the page cache takes about a millisecond).
    static let fileIO = BlockingWorkQueue(name: "ParallaxImages.io", threadCount: 2, lowersPriority: false)

    /// How many threads run the work.
    let threadCount: Int
    private let name: String
    private let lowersPriority: Bool
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

    init(name: String, threadCount: Int, lowersPriority: Bool) {
        self.name = name
        self.threadCount = max(threadCount, 1)
        self.lowersPriority = lowersPriority
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
            for index in 0..<threadCount { startThread(index) }
        }
        if urgent { urgentLane.append(work) } else { backgroundLane.append(work) }
        condition.signal()
        condition.unlock()
    }

    private func startThread(_ index: Int) {
        let thread = Thread { [self] in
            if lowersPriority { Self.lowerCurrentThreadPriority() }
            while true { next()() }
        }
        thread.name = "\(name).\(index)"
        thread.qualityOfService = lowersPriority ? .utility : .userInitiated
        thread.start()
    }

    /// Waits for the next piece of work and takes it off the queue.
    private func next() -> @Sendable () -> Void {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let work = urgentLane.removeFirst() ?? backgroundLane.removeFirst() { return work }
            condition.wait()
        }
    }

    /// Nice 10 for this thread alone: under Linux's threads the nice value
    /// belongs to each thread, and `setpriority(PRIO_PROCESS, 0, …)` sets
    /// the caller's (man 2 setpriority). Elsewhere the thread's quality of
    /// service, set before it started, does the same.
    private static func lowerCurrentThreadPriority() {
        #if canImport(Glibc)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        #endif
    }
}
