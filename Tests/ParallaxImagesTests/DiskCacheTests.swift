import Foundation
import Testing
@testable import ParallaxImages

@Suite("Disk cache")
struct DiskCacheTests {
    @Test func roundTripsAndSurvivesReopening() async throws {
        let directory = temporaryDirectory()
        let image = PixelImage(width: 3, height: 2, pixels: (0..<24).map { UInt8($0 * 10) })!
        do {
            let cache = try DiskImageCache(directory: directory)
            await cache.store(image, for: key("photo.jpg", 3, .fit))
            #expect(await cache.image(for: key("photo.jpg", 3, .fit)) == image)
            #expect(await cache.image(for: key("photo.jpg", 3, .fill)) == nil)       // another mode is another entry
        }
        let reopened = try DiskImageCache(directory: directory)
        #expect(await reopened.image(for: key("photo.jpg", 3, .fit)) == image)
        #expect(await reopened.count == 1)
    }

    /// The entry whatever version it was made from, with that version:
    /// what a loader shows before asking a server for the photo's own.
    @Test func theLatestEntryComesWithTheVersionItWasMadeFrom() async throws {
        let directory = temporaryDirectory()
        let cache = try DiskImageCache(directory: directory, format: .raw)
        let k = key("photo.jpg", 8)
        #expect(await cache.latestImage(for: k) == nil)
        await cache.store(solidImage(8, 10), for: k, fingerprint: "etag \"1\"")
        await cache.store(solidImage(8, 20), for: key("other.jpg", 8), fingerprint: "etag \"9\"")
        let first = try #require(await cache.latestImage(for: k))
        #expect(first.image == solidImage(8, 10) && first.fingerprint == "etag \"1\"")
        #expect(await cache.image(for: k, fingerprint: "etag \"2\"") == nil)          // another version: not served
        await cache.store(solidImage(8, 30), for: k, fingerprint: "etag \"2\"")
        let second = try #require(await cache.latestImage(for: k))
        #expect(second.image == solidImage(8, 30) && second.fingerprint == "etag \"2\"")
        // Stored without a version: the empty one. A damaged entry is never served, and goes.
        await cache.store(solidImage(8, 40), for: key("plain.jpg", 8))
        #expect(await cache.latestImage(for: key("plain.jpg", 8))?.fingerprint == "")
        let file = directory.appendingPathComponent(DiskImageCache.fileName(for: k))
        var damaged = try Data(contentsOf: file)
        damaged[damaged.count - 1] ^= 1
        try damaged.write(to: file)
        #expect(await cache.latestImage(for: k) == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test func tornAndCorruptEntriesAreNeverServed() async throws {
        let directory = temporaryDirectory()
        let cache = try DiskImageCache(directory: directory)
        let k = key("a.jpg", 8)
        let image = solidImage(8, 77)
        let file = directory.appendingPathComponent(DiskImageCache.fileName(for: k))
        let full = DiskImageCache.encode(image, key: k)
        // A truncated file, a flipped pixel, a flipped checksum, a wrong key: each is detected and deleted.
        for damaged in [full.prefix(full.count - 5), full.prefix(20), { var d = full; d[d.count - 1] ^= 1; return d }(),
                        { var d = full; d[26] ^= 0xFF; return d }(), DiskImageCache.encode(image, key: key("b.jpg", 8))] {
            await cache.store(image, for: k)
            try Data(damaged).write(to: file)
            #expect(await cache.image(for: k) == nil)
            #expect(!FileManager.default.fileExists(atPath: file.path))
        }
        // A header claiming absurd sizes (which would overflow width · height · 4) is rejected, not trusted.
        var forged = DiskImageCache.encode(image, key: key("a.jpg", 8, .fit))
        forged.replaceSubrange(8..<16, with: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        guard case .invalid = DiskImageCache.decode(forged, expecting: key("a.jpg", 8, .fit)) else {
            Issue.record("a forged header was not rejected")
            return
        }
        // A process killed between write and rename leaves a temporary file: never read, removed on open
        // once it is a minute old (a younger one may be another process's write in progress).
        let leftover = directory.appendingPathComponent(".tmp-\(UUID().uuidString)")
        let inProgress = directory.appendingPathComponent(".tmp-\(UUID().uuidString)")
        try full.write(to: leftover)
        try full.write(to: inProgress)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -120)], ofItemAtPath: leftover.path)
        let reopened = try DiskImageCache(directory: directory)
        _ = await reopened.count                      // counts wait for the opening's recount, which clears them
        #expect(!FileManager.default.fileExists(atPath: leftover.path))
        #expect(FileManager.default.fileExists(atPath: inProgress.path))
        #expect(await reopened.image(for: k) == nil)
    }

    @Test func aThumbnailOfAnotherVersionOfThePictureIsNeverServedAndIsReplacedInPlace() async throws {
        let directory = temporaryDirectory()
        let cache = try DiskImageCache(directory: directory)
        let k = key("edited.jpg", 3, .fit)
        let before = PixelImage(width: 3, height: 2, pixels: (0..<24).map { UInt8($0 * 10) })!
        let after = PixelImage(width: 3, height: 2, pixels: (0..<24).map { UInt8(240 - $0 * 10) })!
        await cache.store(before, for: k, fingerprint: "file 100 1700000000.5 42")
        #expect(await cache.image(for: k, fingerprint: "file 100 1700000000.5 42") == before)
        // The photo was edited: its fingerprint changed. The old thumbnail is not served, and not deleted either
        // (the new one replaces it with one rename).
        #expect(await cache.image(for: k, fingerprint: "file 104 1700000100.0 42") == nil)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(DiskImageCache.fileName(for: k)).path))
        await cache.store(after, for: k, fingerprint: "file 104 1700000100.0 42")
        #expect(await cache.image(for: k, fingerprint: "file 104 1700000100.0 42") == after)
        #expect(await cache.image(for: k, fingerprint: "file 100 1700000000.5 42") == nil)
        #expect(await cache.count == 1)
    }

    @Test func opaqueThumbnailsAreStoredAsJPEGAndThoseWithAlphaExactly() async throws {
        // A photo-like opaque thumbnail: smooth gradients and soft waves (real ones are measured in BENCHMARKS.md).
        let width = 240, height = 190
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4, wave = sin(Double(x) / 9) * cos(Double(y) / 13)
                pixels[i] = UInt8(x * 255 / width); pixels[i + 1] = UInt8(128 + 100 * wave); pixels[i + 2] = UInt8(y * 255 / height)
            }
        }
        let photo = PixelImage(width: width, height: height, pixels: pixels)!
        let k = try ThumbnailKey(id: "photo.jpg", size: ThumbnailSize(width: width, height: height))
        let jpegCache = try DiskImageCache(directory: temporaryDirectory())
        await jpegCache.store(photo, for: k)
        let readBack = try #require(await jpegCache.image(for: k))
        #expect(readBack.width == width && readBack.height == height)
        #expect(TestImages.psnr(readBack, photo) > 35, "\(TestImages.psnr(readBack, photo)) dB")
        #expect(await jpegCache.byteCount < width * height * 4 / 4)
        // The same thumbnail raw is exact; one with transparency is always raw.
        let rawCache = try DiskImageCache(directory: temporaryDirectory(), format: .raw)
        await rawCache.store(photo, for: k)
        #expect(await rawCache.image(for: k) == photo)
        var translucent = pixels
        translucent[3] = 128; translucent[0] = 10; translucent[1] = 10; translucent[2] = 10
        let withAlpha = PixelImage(width: width, height: height, pixels: translucent)!
        await jpegCache.store(withAlpha, for: k)
        #expect(await jpegCache.image(for: k) == withAlpha)
    }

    @Test func evictsLeastRecentlyUsedBeyondTheSizeLimit() async throws {
        let entry = DiskImageCache.encode(solidImage(8, 1), key: key("x0", 8)).count
        let cache = try DiskImageCache(directory: temporaryDirectory(), sizeLimit: entry * 3)
        for i in 0..<3 { await cache.store(solidImage(8, UInt8(i)), for: key("x\(i)", 8)) }
        _ = await cache.image(for: key("x0", 8))
        await cache.store(solidImage(8, 9), for: key("x3", 8))
        #expect(await cache.image(for: key("x1", 8)) == nil)
        #expect(await cache.image(for: key("x0", 8)) != nil)
        #expect(await cache.image(for: key("x3", 8)) != nil)
        #expect(await cache.byteCount <= entry * 3)
        await cache.removeAll()
        #expect(await cache.count == 0)
        // A store prepared before removeAll is dropped.
        let stale = cache.generation - 1
        await cache.store(solidImage(8, 5), for: key("late", 8), generation: stale)
        #expect(await cache.image(for: key("late", 8)) == nil)
    }

    @Test func concurrentStoresReadsAndErasesKeepTheIndexAndTheFolderInStep() async throws {
        // Reads and writes run beside each other on the I/O threads; whatever the interleaving, every
        // answer is right or nil, nothing erased comes back, and the index matches the folder.
        let directory = temporaryDirectory()
        let cache = try DiskImageCache(directory: directory, sizeLimit: 1_500)
        func picture(_ n: Int) -> PixelImage { PixelImage(width: 4, height: 4, filledWith: (UInt8(n), 9, 9, 255)) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for step in 0..<400 {
                let n = step % 23
                group.addTask {
                    switch step % 7 {
                    case 0, 1, 2: await cache.store(picture(n), for: key("p\(n)", 4, .fill))
                    case 6 where step % 5 == 0: await cache.removeAll()
                    default:
                        if let image = await cache.image(for: key("p\(n)", 4, .fill)) { #expect(image == picture(n)) }
                    }
                }
            }
            try await group.waitForAll()
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".pkthumb") }
        let bytes = try files.reduce(0) { total, name in
            try total + ((FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)[.size] as? NSNumber)?.intValue ?? 0)
        }
        #expect(await cache.count == files.count)
        #expect(await cache.byteCount == bytes && bytes <= 1_500)
        await cache.removeAll()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".pkthumb") }.isEmpty)
    }

    @Test func theLimitHoldsAcrossProcessesAndAtOpen() async throws {
        let directory = temporaryDirectory()
        let entry = DiskImageCache.encode(solidImage(8, 1), key: key("p0-00", 8)).count
        // Four "processes": caches over one folder that share nothing in memory, writing at once.
        let caches = try (0..<4).map { _ in try DiskImageCache(directory: directory, sizeLimit: entry * 10) }
        await withTaskGroup(of: Void.self) { group in
            for (n, cache) in caches.enumerated() {
                group.addTask {
                    for i in 10..<40 { await cache.store(solidImage(8, UInt8(i)), for: key("p\(n)-\(i)", 8)) }
                }
            }
        }
        func folderBytes() throws -> Int {
            try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".pkthumb") }.reduce(0) {
                $0 + ((try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent($1).path)[.size] as? NSNumber)?.intValue ?? 0)
            }
        }
        #expect(try folderBytes() <= entry * 10, "120 entries written, room for 10")
        #expect(try folderBytes() >= entry * 8, "evicted to 90 %, no further")
        // The folder is the index: each process reads what another wrote (written once the others are done:
        // which of the 120 survived depends on how the four interleaved).
        let kept = key("p3-99", 8)
        await caches[3].store(solidImage(8, 99), for: kept)
        #expect(await caches[0].image(for: kept) == solidImage(8, 99))
        // A use in one process protects an entry from another process's eviction.
        for i in 0..<12 {
            _ = await caches[0].image(for: kept)
            await caches[1].store(solidImage(8, UInt8(i)), for: key("q\(i)", 8))
        }
        #expect(await caches[2].image(for: kept) != nil)
        // Opening a folder over a (smaller) limit evicts down to it.
        let small = try DiskImageCache(directory: directory, sizeLimit: entry * 4)
        let smallBytes = await small.byteCount
        #expect(smallBytes <= entry * 4)
        #expect(try folderBytes() == smallBytes)
    }

    @Test func unusableDirectoriesThrow() throws {
        let file = temporaryDirectory().appendingPathComponent("file")
        try Data([1]).write(to: file)
        #expect(throws: DiskImageCache.CacheError.self) { try DiskImageCache(directory: file) }
    }
}
