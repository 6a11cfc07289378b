// The gallery draws through SDL2, which it uses on Linux only.
#if canImport(CSDL2)
import Foundation
import ParallaxImages
import Testing
@testable import ParallaxGallery

/// A folder of `count` generated photos (PNG, each its own colours), for a
/// server or a folder source.
func photoFolder(count: Int) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-photos-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for index in 0..<count {
        try SyntheticPhotos.landscape(index: index, width: 640, height: 480)
            .write(to: folder.appendingPathComponent(String(format: "photo %02d.png", index)))
    }
    return folder
}

@Suite("The gallery over a real HTTP server, and with thumbnails kept on disk", .serialized)
@MainActor
struct ServerAndCacheTests {
    static let size = CGSize(width: 390, height: 844)

    var settings: GallerySettings {
        var settings = GallerySettings()
        settings.latency = .none
        return settings
    }

    /// Every cell on screen shows its picture (and none failed).
    func allVisibleShowPhotos(_ model: GalleryModel) -> Bool {
        !model.cells.isEmpty && model.cells.allSatisfy { $0.image != nil && $0.failure == nil }
    }

    @Test func theGalleryShowsThePhotosOfPython3HTTPServer() async throws {
        let folder = try photoFolder(count: 12)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try LocalHTTPServer(serving: folder)
        defer { server.stop() }
        let model = GalleryModel(library: try PhotoLibrary.server(server.url), settings: settings, viewportSize: Self.size)
        await model.loadPhotoList()
        #expect(model.status == nil)
        #expect(model.photos.map(\.rawValue) == (0..<12).map { String(format: "photo %02d.png", $0) })
        await model.settle(at: 0)
        #expect(allVisibleShowPhotos(model))
        // The pixels are the photos': the top-left cell shows photo 0 as decoded straight from its file.
        let first = try #require(model.cells.first { $0.item == 0 })
        let key = try #require(first.imageKey)
        let expected = try CodecImageDecoder().thumbnail(from: Data(contentsOf: folder.appendingPathComponent("photo 00.png")),
                                                         size: key.size).image
        #expect(first.image == expected)
    }

    /// A library kept in folders, served as it is on disk: python's server
    /// lists only folders at the top, and the gallery reads them all.
    @Test func theGalleryShowsANestedLibraryOverPython3HTTPServer() async throws {
        let folder = try photoFolder(count: 2)
        defer { try? FileManager.default.removeItem(at: folder) }
        let trip = folder.appendingPathComponent("2024/06-trip"), phone = folder.appendingPathComponent("DCIM/100APPLE")
        let hidden = folder.appendingPathComponent(".thumbnails")
        for made in [trip, phone, hidden] { try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true) }
        try SyntheticPhotos.landscape(index: 3, width: 320, height: 240).write(to: trip.appendingPathComponent("beach.png"))
        try SyntheticPhotos.landscape(index: 4, width: 320, height: 240).write(to: phone.appendingPathComponent("IMG_0001.PNG"))
        try SyntheticPhotos.landscape(index: 5, width: 320, height: 240).write(to: hidden.appendingPathComponent("thumb.png"))
        try Data("a video".utf8).write(to: phone.appendingPathComponent("IMG_0002.MOV"))
        let server = try LocalHTTPServer(serving: folder)
        defer { server.stop() }
        let model = GalleryModel(library: try PhotoLibrary.server(server.url), settings: settings, viewportSize: Self.size)
        await model.loadPhotoList()
        #expect(model.status == nil)
        #expect(Set(model.photos.map(\.rawValue)) == ["photo 00.png", "photo 01.png", "2024/06-trip/beach.png",
                                                      "DCIM/100APPLE/IMG_0001.PNG"])
        let summary = try #require(model.listingSummary)
        #expect(summary.folderCount == 5 && summary.photoCount == 4 && summary.problems.isEmpty)
        #expect(summary.notShownSummary == "1 video not shown")
        await model.settle(at: 0)
        #expect(allVisibleShowPhotos(model))
    }

    /// `parallax-gallery manifest` writes the folder's sizes; over python's
    /// server the gallery then knows every shape as the list arrives.
    @Test func aManifestWrittenByTheCommandGivesTheGalleryEveryShapeWithTheList() async throws {
        let folder = try photoFolder(count: 6)
        defer { try? FileManager.default.removeItem(at: folder) }
        try SyntheticPhotos.landscape(index: 9, width: 300, height: 600).write(to: folder.appendingPathComponent("tall.png"))
        try Data("not a picture".utf8).write(to: folder.appendingPathComponent("broken.png"))
        let written = try GalleryExecutable.run(["manifest", folder.path], in: GalleryExecutable.scratch())
        #expect(written.status == 0, "\(written.errors)")
        #expect(written.output.contains("8 photos, 7 with their size, 7 with a preview"), "\(written.output)")
        #expect(written.errors.contains("no readable header in broken.png"), "\(written.errors)")
        let manifest = try ImageManifest(json: Data(contentsOf: folder.appendingPathComponent("photos.json")))
        #expect(manifest.headers["tall.png"]?.height == 600 && manifest.headers["photo 00.png"]?.width == 640)
        #expect(manifest.previewHashes.count == 7 && manifest.previewHashes["broken.png"] == nil)

        let server = try LocalHTTPServer(serving: folder)
        defer { server.stop() }
        // In the grid, which needs no shapes: a manifest's are read with the list all the same, so the
        // quilt has them all the moment it is shown.
        let library = try PhotoLibrary.server(server.url.appendingPathComponent("photos.json"))
        #expect(!library.headersComeCheap, "not before the list is read")
        let model = GalleryModel(library: library, settings: settings, viewportSize: Self.size)
        await model.loadPhotoList()
        #expect(library.headersComeCheap, "the manifest stated sizes")
        #expect(model.status == nil)
        #expect(model.photos.count == 8)
        // The previews came with the list: the first frame shows every photo's, or the photo (none blank)
        // but for the broken one, which has none.
        #expect(model.loader.previews.count == 7)
        model.update(now: 0)
        let broken = model.photos.firstIndex(of: "broken.png")
        #expect(model.cells.filter { $0.item != broken && $0.image == nil }.allSatisfy {
            if case .preview = $0.placeholder { return true } else { return false }
        })
        await model.settleShapes()
        #expect(model.allShapesRead && model.shapes.knownCount == 7 && model.unreadableShapeCount == 1)
        let tall = try #require(model.photos.firstIndex(of: "tall.png"))
        #expect(model.shapes.size(of: tall) == CGSize(width: 300, height: 600))
        model.switchLayout(to: .quilt, now: 0)
        #expect(model.shapes.quiltSpan(of: tall, columns: model.columnCount).height == 2, "the tall photo covers two blocks down")
        await model.settle(at: 1)
        #expect(model.cells.filter { $0.item != model.photos.firstIndex(of: "broken.png") }.allSatisfy { $0.image != nil })
    }

    /// A manifest that names files outside its folder: those are never
    /// asked for (python's server would answer `/..%2Fsecret.png` from the
    /// folder's parent), the rest shows, and the user is told which.
    @Test func namesOutsideTheFolderAreRefusedAndTheRestShows() async throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-parent-\(UUID().uuidString)")
        let folder = parent.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: parent) }
        try SyntheticPhotos.landscape(index: 1, width: 320, height: 240).write(to: folder.appendingPathComponent("a.png"))
        try SyntheticPhotos.landscape(index: 2, width: 320, height: 240).write(to: parent.appendingPathComponent("secret.png"))
        let manifest = #"{"images": ["../secret.png", "..%2Fsecret.png", "a.png"]}"#
        try Data(manifest.utf8).write(to: folder.appendingPathComponent("photos.json"))
        let server = try LocalHTTPServer(serving: folder)
        defer { server.stop() }
        let library = try PhotoLibrary.server(server.url.appendingPathComponent("photos.json"))
        let model = GalleryModel(library: library, settings: settings, viewportSize: Self.size)
        await model.loadPhotoList()
        #expect(Array(model.photos) == ["a.png"])
        let notice = try #require(library.refusalNotice)
        #expect(notice.hasPrefix("the server's list named 2 files the gallery will not request"), "\(notice)")
        #expect(notice.contains("\"../secret.png\" (not a file name (\"..\"))"), "\(notice)")
        #expect(notice.contains("\"..%2Fsecret.png\" (a part that is a path itself (an encoded / or a \\))"), "\(notice)")
        await model.settle(at: 0)
        #expect(allVisibleShowPhotos(model))
    }

    @Test func aServerThatIsNotThereIsAMessageNotACrash() async throws {
        let folder = try photoFolder(count: 1)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try LocalHTTPServer(serving: folder)
        let url = server.url
        server.stop()
        let model = GalleryModel(library: try PhotoLibrary.server(url), settings: settings, viewportSize: Self.size)
        await model.loadPhotoList()
        #expect(model.photos.isEmpty)
        #expect(model.status?.hasPrefix("The photos could not be listed") == true, "\(model.status ?? "")")
    }

    /// Runs `body` with a library of `count` generated photos and an empty cache folder, both removed after.
    func withPhotos(_ count: Int, _ body: @MainActor (PhotoLibrary, URL) async throws -> Void) async throws {
        let folder = try photoFolder(count: count)
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-cache-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: cache)
        }
        try await body(try await PhotoLibrary.folder(folder), cache)
    }

    @Test func aSecondLaunchShowsThePhotosFromTheDiskCacheWithoutDecoding() async throws {
        try await withPhotos(30) { library, cache in
            @MainActor func launch() async throws -> GalleryModel {
                let model = GalleryModel(library: library, settings: settings, viewportSize: Self.size,
                                         diskCache: try DiskImageCache(directory: cache))
                await model.loadPhotoList()
                await model.settle(at: 0)
                await model.loader.waitUntilIdle()
                return model
            }
            let first = try await launch()
            #expect(allVisibleShowPhotos(first))
            let visible = first.cells.count
            #expect(await first.loader.statistics.decodes >= visible)
            let second = try await launch()
            #expect(allVisibleShowPhotos(second))
            let stats = await second.loader.statistics
            #expect(stats.decodes == 0 && stats.diskHits >= visible, "\(stats)")
            // What the second launch shows is what the first decoded (JPEG entries: within a rounding of it).
            for (a, b) in zip(first.cells, second.cells) {
                let (x, y) = (try #require(a.image), try #require(b.image))
                #expect(CacheFormatBenchmark.psnr(x, y) > 35, "item \(a.item)")
            }

            // Corrupt every entry, as a crash or a bad disk could: a third launch decodes again and shows photos.
            for name in try FileManager.default.contentsOfDirectory(atPath: cache.path) where name.hasSuffix(".pkthumb") {
                try Data(repeating: 0x5A, count: 100).write(to: cache.appendingPathComponent(name))
            }
            let third = try await launch()
            #expect(allVisibleShowPhotos(third))
            #expect(await third.loader.statistics.decodes >= visible)
        }
    }

    @Test func twoGalleriesOnOneCacheFolderBothShowPhotos() async throws {
        // As two processes would: each its own DiskImageCache, both writing the same folder at once.
        try await withPhotos(24) { library, cache in
            let models = try (0..<2).map { _ in
                GalleryModel(library: library, settings: settings, viewportSize: Self.size, diskCache: try DiskImageCache(directory: cache))
            }
            for model in models { await model.loadPhotoList() }
            // Both at once: their loads, decodes and cache commits interleave on the shared folder.
            async let first: Void = models[0].settle(at: 0)
            async let second: Void = models[1].settle(at: 0)
            _ = await (first, second)
            for model in models {
                await model.loader.waitUntilIdle()
                #expect(allVisibleShowPhotos(model))
            }
            let reader = try DiskImageCache(directory: cache)
            #expect(await reader.count >= models[0].cells.count)
            // Every entry either process wrote reads back whole.
            for cell in models[0].cells {
                let key = try #require(cell.imageKey)
                let fingerprint = try #require(await library.source.fingerprint(for: cell.id))
                #expect(await reader.image(for: key, fingerprint: fingerprint) != nil, "item \(cell.item)")
            }
        }
    }

    @Test func theCacheFolderFollowsTheXDGBaseDirectorySpecification() {
        #expect(GalleryCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "/var/cache/me", "HOME": "/home/me"])?.path
                == "/var/cache/me/parallax-gallery")
        #expect(GalleryCache.defaultDirectory(environment: ["HOME": "/home/me"])?.path == "/home/me/.cache/parallax-gallery")
        // Empty or relative: ignored, as the specification says.
        #expect(GalleryCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "cache", "HOME": "/home/me"])?.path
                == "/home/me/.cache/parallax-gallery")
        #expect(GalleryCache.defaultDirectory(environment: [:]) == nil)
        // A folder that cannot be one: the gallery runs without a cache and says why.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-not-a-folder-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: file.path, contents: Data("x".utf8))
        defer { try? FileManager.default.removeItem(at: file) }
        guard case .failure(let error) = GalleryCache.open(file) else {
            Issue.record("a file opened as a cache folder")
            return
        }
        #expect(error.description.contains("is a file"))
    }
}
#endif
