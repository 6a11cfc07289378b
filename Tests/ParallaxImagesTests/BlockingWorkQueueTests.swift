import Foundation
@testable import ParallaxImages
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The decoding queue's lanes: urgent work (a visible tile) never waits on
/// a low-priority thread, however busy the background lane is.
@Suite("BlockingWorkQueue: urgent work is never behind background work")
struct BlockingWorkQueueTests {
    /// Blocks its threads until opened: background work that holds every
    /// background thread.
    final class Gate: @unchecked Sendable {
        private let condition = NSCondition()
        private var isOpen = false
        private var arrived = 0

        func wait() {
            condition.lock()
            arrived += 1
            condition.broadcast()
            while !isOpen { condition.wait() }
            condition.unlock()
        }

        /// Blocks the calling thread until `count` threads wait at the gate (a test thread, not the pool's).
        func waitForArrivals(_ count: Int) {
            condition.lock()
            while arrived < count { condition.wait() }
            condition.unlock()
        }

        func open() {
            condition.lock()
            isOpen = true
            condition.broadcast()
            condition.unlock()
        }
    }

    #if canImport(Glibc)
    /// The calling thread's nice value (Linux threads each have their own).
    static func niceValue() -> Int32 {
        errno = 0
        return getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
    }

    @Test("urgent decodes run at nice 5, background ones at nice 10")
    func lanesRunAtTheirPriorities() async {
        let queue = BlockingWorkQueue(name: "test.priorities", threadCount: 2, lowersBackgroundPriority: true)
        let base = await Task.detached { Self.niceValue() }.value
        let urgent = await queue.run(urgent: true) { Self.niceValue() }
        let background = await queue.run(urgent: false) { Self.niceValue() }
        // Absolute values (setpriority sets, it does not add). A test process started nicer than 0 may be
        // refused a lower value (unprivileged) or not (root): then only the order is certain.
        if base == 0 {
            #expect(urgent == BlockingWorkQueue.urgentNiceValue)
            #expect(background == BlockingWorkQueue.backgroundNiceValue)
        }
        #expect(urgent <= background)
    }
    #endif

    @Test("urgent work runs while background work holds every background thread")
    func urgentWorkIsNotStuckBehindBackgroundWork() async {
        let queue = BlockingWorkQueue(name: "test.lanes", threadCount: 2, lowersBackgroundPriority: true)
        let gate = Gate()
        let blocked = (0..<2).map { _ in Task { await queue.run(urgent: false) { gate.wait(); return 1 } } }
        await Task.detached { gate.waitForArrivals(2) }.value
        // Both background threads are held: the urgent work still runs, on a thread of its own.
        let answer = await queue.run(urgent: true) { 42 }
        #expect(answer == 42)
        gate.open()
        var finished = 0
        for task in blocked { finished += await task.value }
        #expect(finished == 2)
    }
}
