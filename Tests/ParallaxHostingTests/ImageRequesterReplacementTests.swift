import Foundation
import ParallaxImages
import ParallaxHosting
import Testing

/// A server of swatches whose photos can be edited (photo n at edition e
/// shows swatch n + 100 e), whose version answers (an HTTP `HEAD` each)
/// wait for the test to release them.
private actor EditedSwatches: ImageSource {
    private var editions: [Int: Int] = [:]
    private var released = false
    private var held: [CheckedContinuation<Void, Never>] = []

    func edit(_ n: Int) { editions[n, default: 0] += 1 }
    func releaseVersions() {
        released = true
        for waiter in held { waiter.resume() }
        held = []
    }

    private func number(_ id: ImageID) -> Int { Int(id.rawValue.dropFirst(7).dropLast(4)) ?? 0 }
    private func version(_ id: ImageID) -> String { "edition \(editions[number(id), default: 0])" }

    func imageIDs() async throws(ImageSourceError) -> [ImageID] { (0..<4).map(Swatches.id) }
    func isStoredLocally(_ id: ImageID) async -> Bool { false }
    nonisolated var fingerprintNeedsRequest: Bool { true }
    func fingerprint(for id: ImageID) async -> String? {
        if !released { await withCheckedContinuation { held.append($0) } }
        return version(id)
    }
    func data(for id: ImageID) async throws(ImageSourceError) -> Data { try await versionedData(for: id).data }
    func versionedData(for id: ImageID) async throws(ImageSourceError) -> (data: Data, fingerprint: String?) {
        (Swatches.data(number(id) + 100 * editions[number(id), default: 0]), version(id))
    }
}

@MainActor
@Suite("ImageRequester: thumbnails replaced under the views")
struct ImageRequesterReplacementTests {
    /// A second launch shows the thumbnail it kept of an edited photo, and
    /// swaps in the new one once the check finds it changed: at once (a
    /// photo never fades over itself), in every view still bound to it,
    /// and in no other.
    @Test func anEditedPhotosNewThumbnailReplacesTheKeptOneWhereItIsShown() async throws {
        let server = EditedSwatches(), folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("parallaxkit-replacement-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try DiskImageCache(directory: folder, format: .raw)
        let first = ImageLoader(source: server, diskCache: cache, configuration: .placeholdersOnly)
        for n in 1...3 { _ = try await first.image(for: Swatches.key(n)) }
        await first.waitUntilIdle()
        await server.edit(1)

        let loader = ImageLoader(source: server, diskCache: cache, configuration: .placeholdersOnly)
        let requests = ImageRequester<Int>(loader: loader)
        let shown = DisplayLog(), unchanged = DisplayLog(), rebound = DisplayLog()
        requests.load(Swatches.key(1), into: 0) { shown.record($0) }
        requests.load(Swatches.key(2), into: 1) { unchanged.record($0) }
        requests.load(Swatches.key(1), into: 2) { rebound.record($0) }
        await requests.waitUntilSettled()
        #expect(shown.shownNumber == 1 && unchanged.shownNumber == 2 && rebound.shownNumber == 1)  // what was kept
        requests.load(Swatches.key(3), into: 2) { rebound.record($0) }                        // view 2 moves on
        await requests.waitUntilSettled()
        let before = (shown.entries.count, unchanged.entries.count, rebound.entries.count)

        await server.releaseVersions()
        await shown.waitForEntries(before.0 + 1)
        #expect(shown.shownNumber == 101)
        if case .image(_, let fade) = shown.last { #expect(fade == 0) } else { Issue.record("no image") }
        await loader.waitUntilIdle()
        #expect(shown.entries.count == before.0 + 1)
        #expect(unchanged.entries.count == before.1 && rebound.entries.count == before.2 && rebound.shownNumber == 3)
        #expect(await loader.statistics.keptThumbnailsReplaced == 1)
        // A view bound to it from now on gets the new one from memory.
        let later = DisplayLog()
        requests.load(Swatches.key(1), into: 3) { later.record($0) }
        #expect(later.entries.count == 1 && later.shownNumber == 101)
    }
}
