import Foundation
import Testing
@testable import ParallaxImages

/// ``FolderImageSource/captureDate(for:)``: metadata first, the file's
/// modification time otherwise, and the few reads it takes.
@Suite("Capture dates of a folder's photos")
struct FolderCaptureDateTests {
    typealias F = MetadataFixtures

    @Test func datesFromMetadataOrTheModificationTime() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A WebP whose EXIF chunk lies 300 KB in, behind its image data: one more read, of 64 KB.
        var webp = [UInt8](F.datedWebP)
        let size = Int(webp[34]) | Int(webp[35]) << 8
        webp.insert(contentsOf: [UInt8](repeating: 0, count: 300_000), at: 38 + size)
        webp.replaceSubrange(34..<38, with: WebPHeaderTests.le32(size + 300_000))
        webp.replaceSubrange(4..<8, with: WebPHeaderTests.le32(webp.count - 8))
        let files: [(String, Data)] = [("a.jpg", F.datedJPEG), ("b.heic", F.datedHEIC), ("c.webp", Data(webp)),
                                       ("d.png", F.timePNG), ("e.jpg", F.unknownJPEG), ("f.jpg", Data("not a photo".utf8))]
        for (name, data) in files { try data.write(to: folder.appendingPathComponent(name)) }
        let touched = Date(timeIntervalSince1970: 1_500_000_000)
        try FileManager.default.setAttributes([.modificationDate: touched], ofItemAtPath: folder.appendingPathComponent("e.jpg").path)

        let source = FolderImageSource(directory: folder)
        let taken = CaptureDateTests.utc(2024, 6, 15, 12, 30, 5).addingTimeInterval(0.25)
        for name in ["a.jpg", "b.heic", "c.webp"] {
            #expect(try await source.captureDate(for: ImageID(name)) == CaptureDate(date: taken, hasUTCOffset: true, source: .exifOriginal), "\(name)")
        }
        #expect(try await source.captureDate(for: "d.png").source == .pngModified)
        #expect(try await source.captureDate(for: "e.jpg") == CaptureDate(date: touched, hasUTCOffset: true, source: .fileModified))
        await #expect(throws: ImageSourceError.unreadable("f.jpg", "is not a photo this source reads")) { try await source.captureDate(for: "f.jpg") }
        await #expect(throws: ImageSourceError.notFound("g.jpg")) { try await source.captureDate(for: "g.jpg") }
        // Header and date from one opening of the file, as each alone gives them.
        for name in ["a.jpg", "b.heic", "c.webp", "d.png", "e.jpg"] {
            let both = try await source.headerAndCaptureDate(for: ImageID(name))
            var header = try await source.header(for: ImageID(name))
            // The WebP's EXIF chunk lies 300 KB in: the header alone cannot see its orientation; read with the date, it does.
            if name == "c.webp" {
                #expect(header.orientation == .up && both.header.orientation == .right)
                header.orientation = .right
            }
            #expect(both.header == header, "\(name)")
            #expect(both.date == (try await source.captureDate(for: ImageID(name))), "\(name)")
        }
        await #expect(throws: ImageSourceError.self) { try await source.headerAndCaptureDate(for: "f.jpg") }
    }
}

/// A folder reads headers and dates in batches, and the probe takes them so:
/// every photo answered once, in batches, the same answers as one at a time.
struct FolderBatchedHeaderTests {
    /// Each read names the file it was read from exactly as a scan that
    /// reads file status lists it, and as ``FolderImageSource/files(of:)``
    /// states it; an edit changes what both say.
    @Test func readsAndStatusesNameTheFileAsTheScanDoes() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("read-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("2024"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let names = ["a.png", "2024/b.png", "2024/c.png"]
        for (index, name) in names.enumerated() {
            try TestImages.png(width: index + 1, height: 2, rgba: [UInt8](repeating: 9, count: 8 * (index + 1)))
                .write(to: folder.appendingPathComponent(name))
        }
        let source = FolderImageSource(directory: folder)
        var scanned: [ImageID: ListedPhoto] = [:]
        for await event in source.scan(readingFileStatus: true) {
            if case .photos(let photos) = event { for photo in photos { scanned[photo.id] = photo } }
        }
        let ids = names.map { ImageID($0) } + ["missing.png"]
        let reads = await source.readHeadersAndCaptureDates(of: ids)
        let files = await source.files(of: ids)
        for (index, id) in ids.enumerated() {
            guard index < names.count else {
                #expect(throws: ImageSourceError.notFound(id)) { try reads[index].get() }
                #expect(files[index] == nil)
                continue
            }
            let read = try reads[index].get()
            #expect(read.header.width == index + 1)
            #expect(read.file == scanned[id] && read.file.size != nil, "\(id)")
            #expect(files[index] == read.file, "\(id)")
        }
        // An edit (a longer file, a later time) shows in both.
        let edited = folder.appendingPathComponent("2024/b.png")
        try TestImages.png(width: 5, height: 5, rgba: [UInt8](repeating: 1, count: 100)).write(to: edited)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: edited.path)
        let after = try await source.readHeadersAndCaptureDates(of: ["2024/b.png"])[0].get()
        #expect(after.header.width == 5)
        #expect(after.file != scanned["2024/b.png"])
        #expect(await source.files(of: ["2024/b.png"]) == [after.file])
    }

    @Test func batchesGiveWhatSingleReadsGive() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("batched-headers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("a/b"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var ids: [ImageID] = []
        for index in 0..<150 {
            let name = index % 2 == 0 ? "a/b/p\(index).png" : "p\(index).png"
            let pixels = [UInt8](repeating: UInt8(index % 256), count: 4 * (index % 7 + 1) * 3)
            try TestImages.png(width: index % 7 + 1, height: 3, rgba: pixels).write(to: folder.appendingPathComponent(name))
            ids.append(ImageID(name))
        }
        try Data("not a photo".utf8).write(to: folder.appendingPathComponent("broken.png"))
        ids.append("broken.png")
        ids.append("missing.png")
        let source = FolderImageSource(directory: folder)
        #expect(source.headerBatchSize > 1)
        let batched = await source.headersAndCaptureDates(for: ids)
        #expect(batched.count == ids.count)
        for (id, result) in zip(ids, batched) {
            switch result {
            case .success(let read):
                let single = try await source.headerAndCaptureDate(for: id)
                #expect(read.header == single.header && read.date == single.date, "\(id)")
            case .failure(let error):
                #expect(["broken.png", "missing.png"].contains(id.rawValue), "\(id): \(error)")
            }
        }
        // The probe reads in batches: every photo answered once.
        let probe = HeaderProbe(source: source, readingCaptureDates: true)
        await probe.probe(ids)
        await probe.waitUntilIdle()
        var answered: [ImageID: Int] = [:]
        var batches = 0
        for await updates in probe.updates {
            batches += 1
            for update in updates { answered[update.id, default: 0] += 1 }
            if answered.count == ids.count { break }
        }
        #expect(answered.count == ids.count && answered.values.allSatisfy { $0 == 1 })
        #expect(batches < ids.count / 10)
        #expect(await probe.knownCount == 150)
    }
}

/// A folder reads a little of each file first (``FolderImageSource/headerReadEnds``)
/// and more only while the frame header lies further in: a header just
/// before or just past each step is found by both reads, and one past the
/// last step is refused by name.
struct FolderHeaderStepTests {
    @Test func framesHeadersOnEitherSideOfEveryReadStepAreFound() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("header-steps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let ends = FolderImageSource.headerReadEnds
        #expect(ends == ends.sorted() && ends.first == 16 << 10 && ends.last == 1 << 20)
        // The frame header (about 20 bytes) then starts this far in: the metadata's size plus the SOI's 2 bytes
        // and each 65,000-byte segment's 4-byte marker.
        var cases: [(name: String, comment: Int, width: Int)] = [("none.jpg", 0, 7)]
        for (step, end) in ends.dropLast().enumerated() {
            cases.append(("before-\(step).jpg", end - 400, 10 + step))
            cases.append(("after-\(step).jpg", end + 400, 20 + step))
        }
        for photo in cases {
            try jpegWithMetadata(width: photo.width, height: 5, comment: photo.comment).write(to: folder.appendingPathComponent(photo.name))
        }
        try jpegWithMetadata(width: 9, height: 5, comment: ends.last! + 400).write(to: folder.appendingPathComponent("too-far.jpg"))
        let source = FolderImageSource(directory: folder)
        for photo in cases {
            let header = try await source.header(for: ImageID(photo.name))
            #expect(header.width == photo.width && header.height == 5, "\(photo.name)")
            let withDate = try await source.headerAndCaptureDate(for: ImageID(photo.name))
            #expect(withDate.header == header, "\(photo.name)")
        }
        for read in [{ try await source.header(for: "too-far.jpg") },
                     { try await source.headerAndCaptureDate(for: "too-far.jpg").header }] as [() async throws -> ImageHeader] {
            do {
                _ = try await read()
                Issue.record("a frame header past the first megabyte was read")
            } catch {
                guard case .unreadable(_, let reason) = error as? ImageSourceError else { Issue.record("\(error)"); continue }
                #expect(reason.contains("first megabyte"), "\(reason)")
            }
        }
    }
}
