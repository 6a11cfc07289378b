import Foundation
import ParallaxCore
import Testing
@testable import ParallaxImages

/// A pretend gallery screen: cells (targets) bound to thumbnails through
/// ``ImageBindingTable``, receiving results in whatever order they come.
actor FakeSurface {
    var bindings = ImageBindingTable<Int>()
    /// The ticket generation each target last received a result for.
    var delivered: [Int: UInt64] = [:]
    var wrongImages: [String] = []
    var shown = 0
    var failures = 0
    var stale = 0

    func bind(_ target: Int, to key: ThumbnailKey) -> ImageTicket { bindings.bind(target, to: key) }
    func unbind(_ target: Int) { bindings.unbind(target) }
    func currentTickets() -> [Int: ImageTicket] {
        var result: [Int: ImageTicket] = [:]
        for target in 0..<LoaderStressTests.targetCount { result[target] = bindings.ticket(for: target) }
        return result
    }

    func deliver(_ result: Result<LoadedImage, ImageLoadingError>, ticket: ImageTicket, to target: Int) {
        guard bindings.accepts(ticket, for: target) else {
            stale += 1
            return
        }
        delivered[target] = ticket.generation
        switch result {
        case .success(let loaded):
            shown += 1
            let number = Numbered.number(of: ticket.key.id)
            if loaded.key != ticket.key || !Numbered.shows(loaded.image, number) {
                wrongImages.append("target \(target) bound to \(ticket.key) showed \(loaded.key)")
            }
        case .failure:
            failures += 1
        }
    }
}

@Suite("Image loader under stress")
struct LoaderStressTests {
    static let targetCount = 30
    static let imageCount = 400
    /// 200,000 by default; `PARALLAXKIT_STRESS_EVENTS` sets another count. `make test` runs 50,000, with
    /// and without the thread sanitizer: every kind of event still happens thousands of times, in four
    /// minutes less of a 2-core machine.
    static let eventCount = ProcessInfo.processInfo.environment["PARALLAXKIT_STRESS_EVENTS"].flatMap { Int($0) }
        .map { max($0, 1_000) } ?? 200_000

    @Test func neverTheWrongImageWhateverTheOrder() async throws {
        let server = SimulatedImageServer(
            backing: Numbered.source(count: Self.imageCount),
            behavior: .init(latency: .zero ... .milliseconds(2), failureRate: 0.05, seed: 2015))
        let memoryLimit = MemoryImageCache.Limits(costLimit: 60 * 64, countLimit: 50)
        // Raw entries: the test tells pictures apart by exact colour, which a JPEG entry only approximates.
        let disk = try DiskImageCache(directory: temporaryDirectory(), sizeLimit: 120 * 200, format: .raw)
        let loader = ImageLoader(source: server, decoder: PlatformImageDecoder(),
                                 memoryCache: MemoryImageCache(limits: memoryLimit), diskCache: disk,
                                 configuration: .init(maximumConcurrentDecodes: 2, maximumConcurrentDownloads: 4,
                                                      scrollAwayPolicy: .keepDownloading))
        let surface = FakeSurface()
        var rng = SplitMix64(seed: 77)
        var requests: [Int: Task<Void, Never>] = [:]
        var finished: [Task<Void, Never>] = []
        var firstVisible = 0

        func request(_ target: Int, _ number: Int) async {
            let key = Numbered.key(number, side: 4 + number % 2)            // two sizes, to mix keys
            let ticket = await surface.bind(target, to: key)
            if let old = requests[target] { finished.append(old) }
            requests[target] = Task {
                let result: Result<LoadedImage, ImageLoadingError>
                do throws(ImageLoadingError) { result = .success(try await loader.image(for: key)) } catch { result = .failure(error) }
                await surface.deliver(result, ticket: ticket, to: target)
            }
        }

        for event in 0..<Self.eventCount {
            switch rng.next() % 1000 {
            case 0..<400:                                               // a cell is reused for another photo
                await request(Int(rng.next() % UInt64(Self.targetCount)), Int(rng.next() % UInt64(Self.imageCount)))
            case 400..<600:                                             // a scroll step: the top row leaves, a new one appears
                firstVisible = (firstVisible + Int(rng.next() % 7) + Self.imageCount - 3) % Self.imageCount
                for row in 0..<3 {
                    await request(Int(rng.next() % UInt64(Self.targetCount)), (firstVisible + row) % Self.imageCount)
                }
            case 600..<750:                                             // prefetch the next screen
                await loader.prefetch((0..<10).map { Numbered.key((firstVisible + 30 + $0) % Self.imageCount, side: 4) })
            case 750..<850:                                             // a cell scrolls away: its request is cancelled
                let target = Int(rng.next() % UInt64(Self.targetCount))
                await surface.unbind(target)
                if let task = requests.removeValue(forKey: target) { task.cancel(); finished.append(task) }
            case 850..<990:                                             // priorities change while waiting
                let key = Numbered.key(Int(rng.next() % UInt64(Self.imageCount)), side: 4)
                await loader.setPriority(rng.next() % 2 == 0 ? .visible : .prefetch, for: key)
            case 990..<996:
                await loader.reloadAll()
            default:
                await loader.eraseAll()
            }
            let cache = loader.memoryCache
            #expect(cache.totalCost <= memoryLimit.costLimit && cache.count <= memoryLimit.countLimit)
            if event % 256 == 0 {
                try await Task.sleep(for: .microseconds(300))
                if finished.count > 4096 {
                    for task in finished { await task.value }
                    finished.removeAll()
                }
            }
        }
        for task in finished { await task.value }
        for task in requests.values { await task.value }
        await loader.waitUntilIdle()

        let wrong = await surface.wrongImages
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
        // Every target still bound received a result (image or failure) for its current bind.
        let tickets = await surface.currentTickets()
        let delivered = await surface.delivered
        for (target, ticket) in tickets { #expect(delivered[target] == ticket.generation, "target \(target)") }
        // Nothing left running.
        let stats = await loader.statistics
        #expect(stats.jobsInFlight == 0 && stats.downloadsInFlight == 0 && stats.decodesInFlight == 0 && stats.pendingDiskWrites == 0)
        #expect(await server.downloadsInFlight == 0)
        // The run did real work of every kind.
        let shown = await surface.shown, failures = await surface.failures, stale = await surface.stale
        // Cells are rebound far faster than images arrive (a fling through 400 photos), so most results
        // are stale and dropped, and how many land depends on how busy the machine is (a loaded run saw
        // fewer than a thousand, and fewer than a thousand downloads once fetched bytes had to wait for a decode
        // slot); each kind happening at all is what shows the run went through every path.
        #expect(shown > 0 && failures > 0 && stale > 0, "shown \(shown), failures \(failures), stale \(stale)")
        #expect(stats.downloads > 0 && stats.decodes > 0 && stats.memoryHits > 0 && stats.diskHits > 0,
                "downloads \(stats.downloads), decodes \(stats.decodes), memory hits \(stats.memoryHits), disk hits \(stats.diskHits)")
    }
}
