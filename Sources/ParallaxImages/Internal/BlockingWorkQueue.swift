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
/// Ordering is first in, first out; callers that need priorities (the
/// loader) hand out their own slots and never submit more work than there
/// are threads.
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
    private var pending: [@Sendable () -> Void] = []
    private var head = 0
    private var started = false

    init(name: String, threadCount: Int, lowersPriority: Bool) {
        self.name = name
        self.threadCount = max(threadCount, 1)
        self.lowersPriority = lowersPriority
    }

    /// Runs `body` on one of the queue's threads and returns its result.
    func run<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { (continuation: CheckedContinuation<Result, Never>) in
            enqueue { continuation.resume(returning: body()) }
        }
    }

    private func enqueue(_ work: @escaping @Sendable () -> Void) {
        condition.lock()
        if !started {
            started = true
            for index in 0..<threadCount { startThread(index) }
        }
        pending.append(work)
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
        while head == pending.count { condition.wait() }
        let work = pending[head]
        head += 1
        if head == pending.count {
            pending.removeAll(keepingCapacity: true)
            head = 0
        }
        return work
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
