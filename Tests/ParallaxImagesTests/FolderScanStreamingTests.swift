import Dispatch
import Foundation
import ParallaxCore
import Testing
@testable import ParallaxImages

/// A scan hands out photos while it walks, the first batch long before the
/// walk ends, and stops when its consumer does. The walk is paused by a
/// hook, never raced against a clock.
@Suite("Folder scans stream", .timeLimit(.minutes(5)))
struct FolderScanStreamingTests {
    /// A folder of `count` empty photos in `folders` subfolders.
    static func library(_ count: Int, folders: Int) throws -> URL {
        let root = temporaryDirectory()
        for index in 0..<count {
            try FolderTreeTests.create(String(format: "%02d/IMG_%04d.jpg", index % folders, index), in: root)
        }
        return root
    }

    @Test func theFirstBatchHoldsAScreenfulAndArrivesBeforeTheWalkGoesOn() async throws {
        let root = try Self.library(600, folders: 3)
        let resume = DispatchSemaphore(value: 0)
        let handedOut = Locked<[Int]>([])
        var captured: AsyncStream<Int>.Continuation?
        let pauses = AsyncStream<Int> { captured = $0 }
        let paused = try #require(captured)
        let stream = FolderImageSource(directory: root).scan { walk in
            walk.hooks.afterBatch = { count in
                handedOut.withLock { $0.append(count) }
                guard count == 256 else { return }
                paused.yield(count)
                resume.wait()                                          // the walk waits here until the test has looked
            }
        }
        var iterator = stream.makeAsyncIterator()
        guard case .photos(let first) = await iterator.next() else {
            Issue.record("the first event is not a batch of photos")
            return
        }
        #expect(first.count == 256)
        #expect(first.first?.id == "00/IMG_0000.jpg")
        // The walk is held right after its first batch, with 344 photos still to find: the batch came first.
        var pausedAt = pauses.makeAsyncIterator()
        #expect(await pausedAt.next() == 256)
        #expect(handedOut.withLock { $0 } == [256])
        resume.signal()
        let (rest, report) = await Self.drain(&iterator)
        #expect(first.count + rest == 600 && report?.photoCount == 600 && report?.folderCount == 4)
        #expect(handedOut.withLock { $0 } == [256, 600])
    }

    @Test func cancellingTheConsumerStopsTheWalk() async throws {
        let root = try Self.library(400, folders: 20)
        let resume = DispatchSemaphore(value: 0)
        var captured: AsyncStream<String>.Continuation?
        let events = AsyncStream<String> { captured = $0 }
        let signals = try #require(captured)
        let report = Locked<FolderScan.Report?>(nil)
        let stream = FolderImageSource(directory: root).scan { walk in
            walk.firstBatchSize = 10
            walk.batchSize = 10
            walk.hooks.afterBatch = { count in
                if count == 10 { resume.wait() }
            }
            walk.hooks.consumerStopped = { signals.yield("stopped") }
            walk.hooks.finished = { finished in
                report.withLock { $0 = finished }
                signals.yield("finished")
            }
        }
        let consumer = Task {
            var received = 0
            for await event in stream {
                if case .photos(let batch) = event {
                    received += batch.count
                    signals.yield("batch")
                }
            }
            return received
        }
        var signalled = events.makeAsyncIterator()
        #expect(await signalled.next() == "batch")
        consumer.cancel()
        #expect(await signalled.next() == "stopped")
        resume.signal()
        #expect(await signalled.next() == "finished")
        #expect(await consumer.value == 10)
        let stopped = try #require(report.withLock { $0 })
        #expect(!stopped.isComplete)
        #expect(stopped.photoCount < 400)
        #expect(stopped.folderCount < 21)
    }

    // MARK: Waiting for the first screen

    /// Lists a scan's events to the end: the photos it handed out, and its report.
    static func drain(_ iterator: inout AsyncStream<FolderScan.Event>.Iterator) async -> (Int, FolderScan.Report?) {
        var total = 0
        var report: FolderScan.Report?
        while let event = await iterator.next() {
            switch event {
            case .photos(let batch): total += batch.count
            case .finished(let finished): report = finished
            case .failed(let error): Issue.record("\(error)")
            }
        }
        return (total, report)
    }

    @Test func aWalkWaitsAfterItsFirstBatchUntilTheFirstScreenIsFull() async throws {
        let root = try Self.library(600, folders: 3)
        let signal = FirstScreenSignal(longestWait: .seconds(3_600))
        // Three folders of 200: the first batch of 256 is found in the first two.
        let opened = Locked<[String]>([])
        var captured: AsyncStream<Void>.Continuation?
        let waits = AsyncStream<Void> { captured = $0 }
        let waiting = try #require(captured)
        // The walk thread's nice value when it starts waiting: its first batch out, it is background work.
        let nice = Locked<Int32?>(nil)
        let stream = FolderImageSource(directory: root).scan(waitingAfterFirstBatchFor: signal) { walk in
            walk.hooks.beforeOpeningFolder = { folder in opened.withLock { $0.append(folder) } }
            walk.hooks.waitingForFirstScreen = {
                #if canImport(Glibc)
                nice.withLock { $0 = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }
                #endif
                waiting.yield()
            }
        }
        var iterator = stream.makeAsyncIterator()
        guard case .photos(let first) = await iterator.next() else {
            Issue.record("the first event is not a batch of photos")
            return
        }
        #expect(first.count == 256)
        // The walk waits with its first batch handed out, the third folder not opened, until the screen is full.
        var waited = waits.makeAsyncIterator()
        #expect(await waited.next() != nil)
        #expect(opened.withLock { $0.count } == 2)
        #expect(!signal.isGiven)
        #if canImport(Glibc)
        #expect((nice.withLock { $0 } ?? 0) >= BlockingWorkQueue.backgroundNiceValue)
        #endif
        signal.screenIsFull()
        let (rest, report) = await Self.drain(&iterator)
        #expect(first.count + rest == 600 && report?.photoCount == 600)
        #expect(opened.withLock { $0.count } == 3)
    }

    @Test func aScreenAlreadyFullIsNotWaitedFor() async throws {
        let root = try Self.library(300, folders: 2)
        let signal = FirstScreenSignal(longestWait: .seconds(3_600))
        signal.screenIsFull()
        var iterator = FolderImageSource(directory: root).scan(waitingAfterFirstBatchFor: signal).makeAsyncIterator()
        let (total, report) = await Self.drain(&iterator)
        #expect(total == 300 && report?.isComplete == true)
    }

    @Test func aScreenThatNeverFillsHoldsTheWalkItsLongestWaitAtMost() async throws {
        let root = try Self.library(300, folders: 2)
        let signal = FirstScreenSignal(longestWait: .milliseconds(20))
        var iterator = FolderImageSource(directory: root).scan(waitingAfterFirstBatchFor: signal).makeAsyncIterator()
        let (total, report) = await Self.drain(&iterator)
        #expect(total == 300 && report?.isComplete == true)
        #expect(!signal.isGiven)
    }

    @Test func stoppingTheConsumerEndsTheWait() async throws {
        let root = try Self.library(600, folders: 3)
        let signal = FirstScreenSignal(longestWait: .seconds(3_600))
        var captured: AsyncStream<String>.Continuation?
        let events = AsyncStream<String> { captured = $0 }
        let signals = try #require(captured)
        let report = Locked<FolderScan.Report?>(nil)
        let stream = FolderImageSource(directory: root).scan(waitingAfterFirstBatchFor: signal) { walk in
            walk.hooks.waitingForFirstScreen = { signals.yield("waiting") }
            walk.hooks.finished = { finished in
                report.withLock { $0 = finished }
                signals.yield("finished")
            }
        }
        let consumer = Task {
            for await _ in stream {}
        }
        var signalled = events.makeAsyncIterator()
        #expect(await signalled.next() == "waiting")
        consumer.cancel()
        #expect(await signalled.next() == "finished")
        let stopped = try #require(report.withLock { $0 })
        #expect(!stopped.isComplete && stopped.photoCount == 256)
        #expect(!signal.isGiven)
    }
}
