import Foundation
import ParallaxCore
import ParallaxHosting
import ParallaxImages
import Testing

/// A pipeline whose requests wait until the test answers them, and which
/// records every request, its priority and whether its task was cancelled.
final class FakeThumbnailLoader: ThumbnailLoading, @unchecked Sendable {
    struct Request: Hashable {
        var key: ThumbnailKey
        var priority: LoadPriority
        var serial: Int
    }

    private let lock = NSLock()
    private var waiting: [Int: CheckedContinuation<Result<LoadedImage, ImageLoadingError>, Never>] = [:]
    private var requestWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    private(set) var requests: [Request] = []
    private(set) var cancelledSerials: Set<Int> = []
    var memory: [ThumbnailKey: PixelImage] = [:]
    var previews: [ImageID: PixelImage] = [:]

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    func cachedImage(for key: ThumbnailKey) -> PixelImage? { locked { memory[key] } }
    func preview(for id: ImageID) -> PixelImage? { locked { previews[id] } }

    func image(for key: ThumbnailKey, priority: LoadPriority) async throws(ImageLoadingError) -> LoadedImage {
        let serial = locked { requests.count + 1 }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready: [CheckedContinuation<Void, Never>] = locked {
                    requests.append(Request(key: key, priority: priority, serial: serial))
                    waiting[serial] = continuation
                    let count = requests.count
                    let ready = requestWaiters.filter { $0.count <= count }.map(\.continuation)
                    requestWaiters.removeAll { $0.count <= count }
                    return ready
                }
                for waiter in ready { waiter.resume() }
            }
        } onCancel: {
            self.answer(serial, with: .failure(.cancelled), cancelled: true)
        }
        return try result.value()
    }

    /// Returns once `count` requests have been made in all.
    func waitForRequests(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = locked { () -> Bool in
                if requests.count >= count { return true }
                requestWaiters.append((count, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Ends request `serial` with `result` (nothing if it has ended).
    func answer(_ serial: Int, with result: Result<LoadedImage, ImageLoadingError>, cancelled: Bool = false) {
        let continuation = locked { () -> CheckedContinuation<Result<LoadedImage, ImageLoadingError>, Never>? in
            if cancelled { cancelledSerials.insert(serial) }
            return waiting.removeValue(forKey: serial)
        }
        continuation?.resume(returning: result)
    }
}

extension Result where Failure == ImageLoadingError {
    /// The success, or the typed error thrown.
    fileprivate func value() throws(ImageLoadingError) -> Success {
        switch self {
        case .success(let value): return value
        case .failure(let error): throw error
        }
    }
}

@Suite("CellImageLoad: a cell's own task loads its photo and cancels with the cell")
struct CellImageLoadTests {
    let load = CellImageLoad(fadeDuration: 0.25)

    func picture(_ n: Int) -> PixelImage {
        let (r, g, b) = Swatches.colour(n)
        return PixelImage(width: 4, height: 4, filledWith: (r, g, b, 255))
    }

    @Test("a memory hit is drawn at once, without a request or a fade")
    func memoryHit() {
        let loader = FakeThumbnailLoader()
        loader.memory[Swatches.key(1)] = picture(1)
        #expect(load.immediateDisplay(of: Swatches.key(1), from: loader) == .image(picture(1), fadeDuration: 0))
        #expect(loader.requests.isEmpty)
    }

    @Test("the preview is drawn at once; nothing is drawn for an unknown photo; a resize keeps the photo")
    func immediate() {
        let loader = FakeThumbnailLoader()
        loader.previews[Swatches.id(2)] = picture(2)
        #expect(load.immediateDisplay(of: Swatches.key(2), from: loader) == .placeholder(.preview(picture(2))))
        #expect(load.immediateDisplay(of: Swatches.key(3), from: loader) == nil)
        #expect(load.immediateDisplay(of: Swatches.key(2), showing: Swatches.id(2), from: loader) == nil)
    }

    @Test("the request carries the planned priority; the result fades in, or not when it came from memory")
    func loadsWithPriority() async {
        let loader = FakeThumbnailLoader()
        let key = Swatches.key(4)
        let task = Task { await load.load(key, priority: .prefetch, from: loader) }
        await loader.waitForRequests(1)
        #expect(loader.requests == [.init(key: key, priority: .prefetch, serial: 1)])
        loader.answer(1, with: .success(LoadedImage(key: key, image: picture(4), origin: .disk)))
        #expect(await task.value == .image(picture(4), fadeDuration: 0.25))

        let again = Task { await load.load(key, priority: .visible, from: loader) }
        await loader.waitForRequests(2)
        loader.answer(2, with: .success(LoadedImage(key: key, image: picture(4), origin: .memory)))
        #expect(await again.value == .image(picture(4), fadeDuration: 0))
    }

    @Test("cancelling the cell's task (it left, or its key changed) ends the request and draws nothing")
    func cancellation() async {
        let loader = FakeThumbnailLoader()
        let first = Task { await load.load(Swatches.key(5), priority: .visible, from: loader) }
        await loader.waitForRequests(1)
        // task(id:) with a new key: the old task is cancelled, a new one starts.
        first.cancel()
        let second = Task { await load.load(Swatches.key(6), priority: .visible, from: loader) }
        #expect(await first.value == nil)
        #expect(loader.cancelledSerials == [1])
        await loader.waitForRequests(2)
        #expect(loader.requests.map(\.key) == [Swatches.key(5), Swatches.key(6)])
        loader.answer(2, with: .success(LoadedImage(key: Swatches.key(6), image: picture(6), origin: .network)))
        #expect(await second.value == .image(picture(6), fadeDuration: 0.25))
        // Exactly one request each: a cancelled request is not retried.
        #expect(loader.requests.count == 2)
    }

    @Test("a request the pipeline dropped while the cell still wants it is made once more, then fails")
    func retriesOnce() async {
        let loader = FakeThumbnailLoader()
        let key = Swatches.key(7)
        let task = Task { await load.load(key, priority: .visible, from: loader) }
        await loader.waitForRequests(1)
        loader.answer(1, with: .failure(.source(.erased(Swatches.id(7)))))
        await loader.waitForRequests(2)
        loader.answer(2, with: .failure(.cancelled))
        #expect(await task.value == .failure(ImageLoadingError.cancelled.description))
        #expect(loader.requests.count == 2)
    }

    @Test("a failure is drawn, except for the same photo at a new size, which keeps the old one")
    func failures() async {
        let loader = FakeThumbnailLoader()
        let key = Swatches.key(8)
        let failing = Task { await load.load(key, priority: .visible, from: loader) }
        await loader.waitForRequests(1)
        loader.answer(1, with: .failure(.decoding(.unsupportedFormat)))
        #expect(await failing.value == .failure(ImageLoadingError.decoding(.unsupportedFormat).description))

        let resize = Task { await load.load(key, priority: .visible, showing: key.id, from: loader) }
        await loader.waitForRequests(2)
        loader.answer(2, with: .failure(.decoding(.unsupportedFormat)))
        #expect(await resize.value == nil)

        let resized = Task { await load.load(key, priority: .visible, showing: key.id, from: loader) }
        await loader.waitForRequests(3)
        loader.answer(3, with: .success(LoadedImage(key: key, image: picture(8), origin: .disk)))
        #expect(await resized.value == .image(picture(8), fadeDuration: 0))
    }
}

