// The gallery draws through SDL2, which it uses on Linux only.
#if canImport(CSDL2)
import Foundation
import ParallaxImages
import ParallaxLibraryIndex
import Testing
@testable import ParallaxGallery

/// A folder library with its index: a second launch lists what the first
/// read (every shape known, no photo read), then reconciles with the tree:
/// deleted and changed photos removed, new and changed ones added.
@Suite("Indexed library")
@MainActor
struct IndexedLibraryTests {
    private func makeTree(_ root: URL, count: Int) throws {
        for index in 0..<count {
            let folder = root.appendingPathComponent(String(format: "%d/%02d-trip", 2020 + index % 3, index % 12 + 1))
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try SyntheticPhotos.rowPattern(tag: UInt8(index % 256), width: 30 + index % 20, height: 20)
                .write(to: folder.appendingPathComponent(String(format: "IMG_%04d.png", index)))
        }
    }

    private func events(of library: PhotoLibrary) async -> [ListingEvent] {
        var events: [ListingEvent] = []
        for await event in library.listing(from: library.source) { events.append(event) }
        return events
    }

    @Test func aSecondLaunchShowsTheIndexThenReconcilesWithTheTree() async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("indexed-library-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let root = base.appendingPathComponent("Pictures"), cache = base.appendingPathComponent("cache")
        try makeTree(root, count: 60)

        // First launch: everything comes from the walk, and the shapes read are filed.
        let first = try await PhotoLibrary.folder(root, indexDirectory: cache)
        var settings = GallerySettings()
        settings.latency = .none
        let model = GalleryModel(library: first, settings: settings, viewportSize: CGSize(width: 600, height: 500))
        await model.loadPhotoList()
        await model.settleShapes()
        #expect(model.photos.count == 60)
        #expect(model.allShapesRead)
        await first.indexWriter?.flushAndWait()

        // Between launches: one photo deleted, one changed (another size), one added.
        let deleted = "2020/01-trip/IMG_0000.png", changed = "2021/02-trip/IMG_0001.png", added = "2022/12-trip/IMG_9999.png"
        try FileManager.default.removeItem(at: root.appendingPathComponent(deleted))
        try SyntheticPhotos.rowPattern(tag: 1, width: 99, height: 11).write(to: root.appendingPathComponent(changed))
        try SyntheticPhotos.rowPattern(tag: 2, width: 40, height: 40).write(to: root.appendingPathComponent(added))

        // Second launch: the index's 60 records, every header known, before the walk says anything.
        let second = try await PhotoLibrary.folder(root, indexDirectory: cache)
        let events = await events(of: second)
        // First what it remembers: all 60 in the first batch, so no count of more to come follows.
        guard case .photos(let remembered)? = events.first else {
            Issue.record("the first event is not the index's photos: \(events)")
            return
        }
        #expect(remembered.count == 60)
        #expect(remembered.allSatisfy { $0.header != nil })
        #expect(Set(remembered.map(\.id.rawValue)).contains(deleted))
        // Then the walk: the new photo, the removals, the changed photo again, the report.
        var found: [String] = [], removed: [String] = [], finished = false
        for event in events.dropFirst() {
            switch event {
            case .photos(let photos):
                found += photos.map(\.id.rawValue)
                #expect(photos.allSatisfy { $0.header == nil })      // to be read again
            case .removed(let ids): removed += ids.map(\.rawValue)
            case .finished(let report):
                finished = true
                #expect(report.photoCount == 60)
            case .failed(let message): Issue.record("failed: \(message)")
            case .expecting(let count): Issue.record("a count of more to come: \(count)")
            }
        }
        #expect(finished)
        #expect(Set(removed) == [deleted, changed])
        #expect(Set(found) == [added, changed])

        // A model on the second launch ends with the tree as it is now, the changed photo at its new size.
        let again = GalleryModel(library: try await PhotoLibrary.folder(root, indexDirectory: cache), settings: settings,
                                 viewportSize: CGSize(width: 600, height: 500))
        await again.loadPhotoList()
        await again.settleShapes()
        #expect(again.photos.count == 60)
        #expect(Set(again.photos.map(\.rawValue)).contains(added))
        #expect(!again.photos.map(\.rawValue).contains(deleted))
        let number = try #require(again.timeline.number(of: ImageID(changed)))
        #expect(again.shapes.size(of: number) == CGSize(width: 99, height: 11))
    }

    /// Photos of one time (a folder copied in one second) come in the same
    /// order from the walk and from the index: the index's first batch is
    /// the top of the timeline, and a second launch opens on the photos the
    /// first showed. Without a tie-break the index shares, they came in the
    /// order found, which a walk (the directory's hash order) and the index
    /// (by path) do not share.
    @Test func photosOfOneTimeComeInTheSameOrderFromTheWalkAndFromTheIndex() async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("indexed-library-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let root = base.appendingPathComponent("Pictures"), cache = base.appendingPathComponent("cache")
        try makeTree(root, count: 60)
        // Where a walk's order (a folder's files, then its subfolders, names sorted) is not the paths' byte
        // order: "2020-x/…" sorts before "2020/…" ('-' < '/'), "2021/b.png" after "2021/01-trip/…".
        for extra in ["2020-x/a.png", "2021/b.png", "2022/01-trip/sub/c.png", "top.png"] {
            let url = root.appendingPathComponent(extra)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try SyntheticPhotos.rowPattern(tag: 9, width: 30, height: 20).write(to: url)
        }
        let copied = Date(timeIntervalSince1970: 1_700_000_000)          // every file, to the nanosecond
        for case let url as URL in FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)!
            where url.pathExtension == "png" {
            try FileManager.default.setAttributes([.modificationDate: copied], ofItemAtPath: url.path)
        }
        var settings = GallerySettings()
        settings.latency = .none
        let first = try await PhotoLibrary.folder(root, indexDirectory: cache)
        let model = GalleryModel(library: first, settings: settings, viewportSize: CGSize(width: 600, height: 500))
        await model.loadPhotoList()
        await model.settleShapes()
        await first.indexWriter?.flushAndWait()
        let shown = model.photos.map(\.rawValue)
        #expect(shown == shown.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })

        let second = try await PhotoLibrary.folder(root, indexDirectory: cache)
        let events = await events(of: second)
        guard case .photos(let remembered)? = events.first else {
            Issue.record("no photos from the index: \(events)")
            return
        }
        #expect(remembered.map(\.id.rawValue) == shown)
        let again = GalleryModel(library: try await PhotoLibrary.folder(root, indexDirectory: cache), settings: settings,
                                 viewportSize: CGSize(width: 600, height: 500))
        await again.loadPhotoList()
        #expect(again.photos.map(\.rawValue) == shown)
    }

    @Test func previewsMadeOnOneLaunchShowFromTheFirstFrameOfTheNext() async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("indexed-library-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let root = base.appendingPathComponent("Pictures"), cache = base.appendingPathComponent("cache")
        try makeTree(root, count: 30)
        var settings = GallerySettings()
        settings.latency = .none
        let size = CGSize(width: 600, height: 500)

        // First launch, in a window tall enough for every photo: nothing to preview; each photo decodes and
        // gets a hash, which is saved.
        let first = GalleryModel(library: try await PhotoLibrary.folder(root, indexDirectory: cache), settings: settings,
                                 viewportSize: CGSize(width: size.width, height: 4000))
        await first.loadPhotoList()
        first.update(now: 0)
        #expect(first.previewCellCount == 0 && first.blankCellCount > 0)
        await first.settle(at: 0)
        #expect(first.cells.count == 30 && first.cells.allSatisfy { first.loader.previews.contains($0.id) })
        await first.loader.waitUntilIdle()
        await first.saveForNextLaunch()

        // Second launch, no thumbnail cache: the index gives every photo's hash with the list, so every tile
        // of the first frame shows its preview (or, a tiny PNG decoding fast, already its photo): none blank.
        let second = GalleryModel(library: try await PhotoLibrary.folder(root, indexDirectory: cache), settings: settings,
                                  viewportSize: size)
        await second.loadPhotoList()
        #expect(second.loader.previews.count == 30)
        second.update(now: 0)
        #expect(second.cells.count > 0 && second.cells.count < 30)
        #expect(second.blankCellCount == 0)
        #expect(second.previewCellCount == second.unsharpCellCount)
        for cell in second.cells {
            guard case .preview(let preview) = cell.placeholder else { continue }
            // The photo's own preview: the hash the first launch made of it, rendered.
            #expect(preview == first.loader.previews.hash(for: cell.id)?.render())
        }
        await second.settle(at: 0)
        #expect(second.unsharpCellCount == 0)
    }

    @Test func aDamagedIndexIsRebuiltAndTheLibraryStillShows() async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("indexed-library-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let root = base.appendingPathComponent("Pictures"), cache = base.appendingPathComponent("cache")
        try makeTree(root, count: 12)
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let file = LibraryIndex.fileURL(forLibraryAt: root, in: cache)
        try Data(repeating: 0x5A, count: 4096).write(to: file)              // not a database
        let library = try await PhotoLibrary.folder(root, indexDirectory: cache)
        let events = await events(of: library)
        let photos = events.reduce(0) { count, event in
            if case .photos(let photos) = event { return count + photos.count }
            return count
        }
        #expect(photos == 12)
        #expect(library.indexWriter != nil)
    }

    /// A library whose index files photos opens without a walk to its
    /// first photo (a folder of 100,000 names is read and sorted before the
    /// first is handed out): the listing says what is still there, even
    /// when nothing is. A folder never listed, or no longer there, is still
    /// refused at once.
    @Test func aLibraryItsIndexFilesOpensWithoutLookingForAPhoto() async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("indexed-library-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let root = base.appendingPathComponent("Pictures"), cache = base.appendingPathComponent("cache")
        try makeTree(root, count: 12)
        let first = try await PhotoLibrary.folder(root, indexDirectory: cache)
        var settings = GallerySettings()
        settings.latency = .none
        let model = GalleryModel(library: first, settings: settings, viewportSize: CGSize(width: 600, height: 500))
        await model.loadPhotoList()
        #expect(model.photos.count == 12)
        await first.indexWriter?.flushAndWait()

        // Every photo deleted between launches: the index still opens the library, and its listing removes them all.
        for year in 2020...2022 { try FileManager.default.removeItem(at: root.appendingPathComponent("\(year)")) }
        let second = try await PhotoLibrary.folder(root, indexDirectory: cache)
        let again = GalleryModel(library: second, settings: settings, viewportSize: CGSize(width: 600, height: 500))
        await again.loadPhotoList()
        #expect(again.photos.isEmpty)
        #expect(again.status == "No photos to show.")

        // Without an index that files photos (this one now files none), the empty folder is refused.
        await second.indexWriter?.flushAndWait()
        await #expect(throws: ImageSourceError.self) { try await PhotoLibrary.folder(root, indexDirectory: cache) }
        await #expect(throws: ImageSourceError.self) {
            try await PhotoLibrary.folder(root, indexDirectory: base.appendingPathComponent("another-cache"))
        }
        // Nor does an index open a folder that is gone.
        try makeTree(root, count: 3)
        let third = try await PhotoLibrary.folder(root, indexDirectory: cache)
        let model3 = GalleryModel(library: third, settings: settings, viewportSize: CGSize(width: 600, height: 500))
        await model3.loadPhotoList()
        await third.indexWriter?.flushAndWait()
        try FileManager.default.removeItem(at: root)
        await #expect(throws: ImageSourceError.self) { try await PhotoLibrary.folder(root, indexDirectory: cache) }
    }

    /// The index's count of the photos still to come is taken in once the
    /// first screen is shown, not in the frame that shows it: room for all
    /// of them is made then, in one go, before they are filed.
    @Test func roomForTheIndexIsMadeOnceTheFirstScreenIsShown() async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("indexed-library-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let root = base.appendingPathComponent("Pictures"), cache = base.appendingPathComponent("cache")
        let count = IndexedFolderListing.firstBatchSize + 100
        try makeTree(root, count: count)
        var settings = GallerySettings()
        settings.latency = .none
        let first = try await PhotoLibrary.folder(root, indexDirectory: cache)
        let model = GalleryModel(library: first, settings: settings, viewportSize: CGSize(width: 600, height: 500))
        await model.loadPhotoList()
        await first.indexWriter?.flushAndWait()

        let again = GalleryModel(library: try await PhotoLibrary.folder(root, indexDirectory: cache), settings: settings,
                                 viewportSize: CGSize(width: 600, height: 500))
        again.startListing()
        await again.listing.waitUntilFinished()          // every event in, the count among them
        again.update(now: 0)                             // the first screen, from the first batch alone
        #expect(again.timeline.count == IndexedFolderListing.firstBatchSize)
        #expect(again.timeline.capacity < count)
        // Its pictures never asked to arrive: the rest waits a second at most, then room is made for all.
        again.update(now: GalleryModel.firstScreenWait)
        #expect(again.timeline.count > IndexedFolderListing.firstBatchSize)
        // Made for the whole count, not grown twofold past the first batch's.
        #expect(again.timeline.capacity >= count && again.timeline.capacity < 2 * IndexedFolderListing.firstBatchSize)
    }
}
#endif
