#if canImport(Glibc)
import Foundation
import Testing
@testable import ParallaxLibraryIndex

/// The index's own thread: every job on one thread, at its nice value,
/// in the order enqueued.
@Suite("Background thread executor")
struct BackgroundThreadExecutorTests {
    /// What a job saw: its number, its thread and the thread's nice value.
    struct Sighting: Sendable, Equatable {
        var number: Int
        var thread: UInt
        var nice: Int32
    }

    @Test func tasksPreferringItRunOneAfterAnotherInOrderOnOneThreadAtItsNiceValue() async {
        let executor = BackgroundThreadExecutor(name: "BackgroundThreadExecutorTests", nice: 7)
        let seen = SightingLog()
        // More jobs than the queue keeps before dropping the ones run (256), so that path runs too.
        await withTaskGroup(of: Void.self) { group in
            for number in 0..<1_000 {
                group.addTask(executorPreference: executor) {
                    seen.append(Sighting(number: number, thread: UInt(pthread_self()),
                                         nice: Self.currentNiceValue()))
                }
            }
        }
        let sightings = seen.all
        #expect(sightings.map(\.number) == Array(0..<1_000))
        #expect(Set(sightings.map(\.thread)).count == 1)
        #expect(Set(sightings.map(\.nice)) == [7])
    }

    @Test func aTaskThatAwaitsResumesOnTheSameThread() async {
        let executor = BackgroundThreadExecutor(name: "BackgroundThreadExecutorTests.resume", nice: 3)
        let threads = await Task(executorPreference: executor) { () -> [UInt] in
            var threads: [UInt] = []
            for _ in 0..<5 {
                threads.append(UInt(pthread_self()))
                await Task.yield()
            }
            return threads
        }.value
        #expect(threads.count == 5 && Set(threads).count == 1)
    }

    /// The calling thread's nice value (Linux gives each thread its own: man 2 setpriority).
    static func currentNiceValue() -> Int32 {
        getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
    }

    final class SightingLog: @unchecked Sendable {
        private let lock = NSLock()
        private var sightings: [Sighting] = []
        var all: [Sighting] { lock.withLock { sightings } }
        func append(_ sighting: Sighting) { lock.withLock { sightings.append(sighting) } }
    }
}
#endif
