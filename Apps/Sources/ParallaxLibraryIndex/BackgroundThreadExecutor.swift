#if canImport(Glibc)
import Foundation

/// An executor of one thread of its own, at a lower priority than the
/// frame loop's: what a library's listing does beside the frames (reading
/// the index, reconciling it with the walk, writing back what was read)
/// runs here, so that it never takes a core from a frame on a 2-core
/// machine.
///
/// The cooperative pool's threads run at the frame loop's own priority. On
/// them, an index's 30,000 records read while the first screen filled
/// made its frames two to three times as long as their work: the threads
/// shared both cores. At nice 10, a tenth of a normal thread's weight under
/// Linux's scheduler (the decodes' background threads' value), the render
/// thread takes its core back at once, while the listing still gets what
/// the frames and the screen's decodes leave, most of a core once the
/// screen is full.
///
/// It is both kinds of executor: ``LibraryIndex`` runs on it as its serial
/// executor, and a task given it as its executor preference (SE-0417) runs
/// its nonisolated code here too. Jobs run one at a time, in the order
/// they were enqueued.
///
/// Linux only: task executors need iOS 18 and macOS 15, and there the
/// utility quality of service does what nice does here.
package final class BackgroundThreadExecutor: SerialExecutor, TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    /// Jobs waiting, from `next` on.
    private var jobs: [UnownedJob] = []
    private var next = 0

    /// The executor of a thread named `name`, started at once and running
    /// for the life of the process at `nice`.
    package init(name: String, nice: Int32 = 10) {
        let thread = Thread { [self] in
            // Under Linux's threads the nice value belongs to each thread: this one's alone (man 2 setpriority).
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice)
            while true {
                take().runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
            }
        }
        thread.name = name
        thread.start()
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    package func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Waits for the next job and takes it off the queue. O(1) amortised:
    /// the jobs run are dropped from the front in bulk.
    private func take() -> UnownedJob {
        condition.lock()
        defer { condition.unlock() }
        while next == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            next = 0
            condition.wait()
        }
        if next >= 256, next * 2 >= jobs.count {
            jobs.removeFirst(next)
            next = 0
        }
        next += 1
        return jobs[next - 1]
    }

    /// The executor of library indexes and their listings: one thread for
    /// the process.
    package static let libraryWork = BackgroundThreadExecutor(name: "ParallaxLibraryIndex.work")
}
#endif
