import Foundation
import ParallaxCore
import Testing
@testable import ParallaxImages

/// A folder source reads a person's photo tree: nested folders, links
/// followed once and never out of the folder, hidden things skipped,
/// videos and other files counted, and no ID that reaches outside.
@Suite("Folder trees")
struct FolderTreeTests {
    /// Creates `path` (relative, any bytes) under `root` with `contents`, and its folders.
    static func create(_ path: [UInt8], in root: URL, contents: Data = Data([1, 2, 3])) throws {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let components = path.split(separator: UInt8(ascii: "/"))
        var folder = Array(root.path.utf8)
        for component in components.dropLast() {
            folder += [UInt8(ascii: "/")] + component
            _ = mkdir(PhotoTreeWalk.cPath(folder), 0o755)
        }
        let file = PhotoTreeWalk.cPath(folder + [UInt8(ascii: "/")] + components.last!)
        let descriptor = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        #expect(contents.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == contents.count)
    }

    static func create(_ path: String, in root: URL, contents: Data = Data([1, 2, 3])) throws {
        try create(Array(path.utf8), in: root, contents: contents)
    }

    static func link(_ path: String, in root: URL, to destination: String) throws {
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent(path).path, withDestinationPath: destination)
    }

    /// Every event of `stream`, and the photos of its batches.
    static func collect(_ stream: AsyncStream<FolderScan.Event>) async -> (photos: [ListedPhoto], report: FolderScan.Report?) {
        var photos: [ListedPhoto] = []
        var report: FolderScan.Report?
        for await event in stream {
            switch event {
            case .photos(let batch): photos += batch
            case .finished(let finished): report = finished
            case .failed(let error): Issue.record("the scan failed: \(error)")
            }
        }
        return (photos, report)
    }

    @Test func aNestedTreeIsListedInTreeOrderWithHiddenThingsSkippedAndTheRestCounted() async throws {
        let root = temporaryDirectory()
        let photos = ["2024/06-trip/IMG_0002.JPG", "2024/06-trip/IMG_0001.jpg", "2023/12 party/a.png", "2025/DCIM/100APPLE/IMG_4411.HEIC",
                      "a.jpg", "a/b.webp", "a b/c.avif", "d1/d2/d3/d4/d5/d6/d7/d8/d9/d10/deep.jpe", "x.heif", "y.hif", "z.jpeg"]
        for path in photos { try Self.create(path, in: root) }
        for path in [".thumbs/a.jpg", ".hidden.jpg", "2024/.cache/b.jpg", "2024/06-trip/._IMG_0001.jpg"] { try Self.create(path, in: root) }
        for path in ["2024/06-trip/clip.MOV", "2025/DCIM/100APPLE/IMG_4412.mp4", "v.m2ts"] { try Self.create(path, in: root) }
        for path in ["2024/06-trip/IMG_0001.xmp", "2025/DCIM/100APPLE/IMG_4411.AAE", "notes.txt", "README"] { try Self.create(path, in: root) }
        let source = FolderImageSource(directory: root)
        let expected: [ImageID] = ["2023/12 party/a.png", "2024/06-trip/IMG_0001.jpg", "2024/06-trip/IMG_0002.JPG",
                                   "2025/DCIM/100APPLE/IMG_4411.HEIC", "a/b.webp", "a b/c.avif", "a.jpg",
                                   "d1/d2/d3/d4/d5/d6/d7/d8/d9/d10/deep.jpe", "x.heif", "y.hif", "z.jpeg"]
        #expect(try await source.imageIDs() == expected)

        let (listed, report) = await Self.collect(source.scan())
        #expect(listed.map(\.id) == expected)
        let scanned = try #require(report)
        #expect(scanned.photoCount == 11 && scanned.videoCount == 3 && scanned.otherFileCount == 4)
        #expect(scanned.notShownSummary == "3 videos and 4 other files not shown")
        #expect(scanned.problems.isEmpty && scanned.isComplete && scanned.isInTreeOrder)
        // Each photo carries the file's status, exactly what fingerprint(for:) says of it.
        for photo in listed {
            #expect(photo.size == 3)
            #expect(photo.fingerprint != nil)
            #expect(await source.fingerprint(for: photo.id) == photo.fingerprint, "\(photo.id)")
        }
        // Without the status, the IDs and inodes alone.
        let (bare, _) = await Self.collect(source.scan(readingFileStatus: false))
        #expect(bare.map(\.id) == expected && bare.allSatisfy { $0.size == nil && $0.fingerprint == nil })
        #expect(bare.map(\.inode) == listed.map(\.inode))
        #expect(FolderScan.Report().notShownSummary == nil)
    }

    @Test func aFileIsAPhotoAVideoOrSomethingElseByItsExtensionInAnyCase() {
        var classifier = LibraryFileKind.Classifier()
        let expected: [(String, LibraryFileKind)] = [
            ("a.JPG", .photo), ("b.jpeg", .photo), ("c.Jpe", .photo), ("d.png", .photo), ("IMG_1.HEIC", .photo), ("e.heif", .photo),
            ("f.HIF", .photo), ("g.avif", .photo), ("h.WebP", .photo), ("clip.MOV", .video), ("v.mp4", .video), ("v.M4V", .video),
            ("v.avi", .video), ("v.mkv", .video), ("v.3gp", .video), ("v.webm", .video), ("v.MTS", .video), ("v.m2ts", .video),
            ("v.mpg", .video), ("v.mpeg", .video), ("v.wmv", .video), ("IMG_1.AAE", .other), ("a.xmp", .other), ("a.THM", .other),
            ("notes.txt", .other), ("README", .other), ("jpg", .other), ("a.", .other), ("a.jpg.txt", .other), ("a.txt.jpg", .photo),
            ("a.verylongextension", .other), ("caf\u{E9}.jpg", .photo),
        ]
        for _ in 0..<2 {                                                  // decided, then remembered
            for (name, kind) in expected {
                #expect(classifier.kind(ofFileNamed: ArraySlice(name.utf8)) == kind, "\(name)")
                #expect(LibraryFileKind(fileName: Array(name.utf8)) == kind, "\(name)")
            }
        }
    }

    @Test func linksAreFollowedOnceAndNeverOutOfTheFolder() async throws {
        let scratch = temporaryDirectory()
        let root = scratch.appendingPathComponent("Pictures")
        let jpeg = TestImages.jpeg(width: 8, height: 6) { _, _ in (90, 120, 200) }
        try Self.create("2024/trip/a.jpg", in: root, contents: jpeg)
        try Self.create(".stash/kept.jpg", in: root, contents: jpeg)
        try Self.create("secret.jpg", in: scratch, contents: jpeg)
        try Self.create("elsewhere/b.jpg", in: scratch, contents: jpeg)
        try Self.link("2024/trip/back", in: root, to: "..")                                  // a loop, to an ancestor
        try Self.link("2024/root", in: root, to: root.path)                                  // a loop, to the root
        try Self.link("favourites", in: root, to: "2024/trip")                               // a folder listed already
        try Self.link("best", in: root, to: ".stash")                                        // a folder listed only through it
        try Self.link("best again", in: root, to: ".stash")                                  // ... once
        try Self.link("elsewhere", in: root, to: scratch.appendingPathComponent("elsewhere").path)   // out of the tree
        try Self.link("outside.jpg", in: root, to: "../secret.jpg")                          // a file out of the tree
        try Self.link("cover.jpg", in: root, to: "2024/trip/a.jpg")                          // a file in the tree
        try Self.link("gone.jpg", in: root, to: "nothing/here.jpg")                          // a link to nothing
        try Self.link("gone", in: root, to: "/nonexistent/folder")
        let source = FolderImageSource(directory: root)
        #expect(try await source.imageIDs() == ["2024/trip/a.jpg", "best/kept.jpg", "cover.jpg"])

        let (listed, report) = await Self.collect(source.scan())
        #expect(listed.map(\.id) == ["2024/trip/a.jpg", "cover.jpg", "best/kept.jpg"])          // through links, after the rest
        let problems = try #require(report).problems
        #expect(Set(problems) == [
            .init(path: "2024/root", kind: .linkLoop), .init(path: "2024/trip/back", kind: .linkLoop),
            .init(path: "best again", kind: .linkToListedFolder), .init(path: "elsewhere", kind: .linkOutsideFolder),
            .init(path: "favourites", kind: .linkToListedFolder), .init(path: "gone", kind: .danglingLink),
            .init(path: "gone.jpg", kind: .danglingLink), .init(path: "outside.jpg", kind: .linkOutsideFolder),
        ])
        #expect(problems.count == 8 && report?.isComplete == true && report?.isInTreeOrder == false)
        #expect(problems.first { $0.path == "elsewhere" }?.description == "elsewhere: a link out of the photo folder, not followed")
        // Reading follows what the listing follows, and refuses what it does not.
        #expect(try await source.data(for: "cover.jpg") == jpeg)
        #expect(try await source.data(for: "best/kept.jpg") == jpeg)
        #expect(try await source.header(for: "2024/trip/back/trip/a.jpg").width == 8)      // inside, however it is spelled
        let out = "is a link out of the photo folder, not followed"
        for id: ImageID in ["outside.jpg", "elsewhere/b.jpg"] {
            await #expect(throws: ImageSourceError.unreadable(id, out)) { try await source.data(for: id) }
            await #expect(throws: ImageSourceError.unreadable(id, out)) { try await source.header(for: id) }
            #expect(await source.fingerprint(for: id) == nil)
        }
        // A batch (its folders resolved once each, ``PathConfinement``) gives every photo the verdict of a read of
        // its own: photos in the tree however spelled, and links out of it refused, in any order.
        let batch: [ImageID] = ["2024/trip/a.jpg", "outside.jpg", "cover.jpg", "elsewhere/b.jpg", "best/kept.jpg",
                                "2024/trip/back/trip/a.jpg", "gone.jpg", "2024/trip/a.jpg", "best again/kept.jpg"]
        let reads = await source.readHeadersAndCaptureDates(of: batch)
        let files = await source.files(of: batch)
        for (id, (read, file)) in zip(batch, zip(reads, files)) {
            let alone: Result<ImageHeader, ImageSourceError>
            do { alone = .success(try await source.header(for: id)) } catch { alone = .failure(error) }
            #expect(read.map(\.header) == alone, "\(id)")
            #expect((file != nil) == (await source.fingerprint(for: id) != nil), "\(id)")
        }
        #expect(reads.filter { (try? $0.get()) != nil }.count == 6)
    }

    @Test func idsThatClimbOutOfTheFolderOpenNothing() async throws {
        let scratch = temporaryDirectory()
        let root = scratch.appendingPathComponent("photos")
        let jpeg = TestImages.jpeg(width: 4, height: 4) { _, _ in (90, 120, 200) }
        try Self.create("a/b.jpg", in: root, contents: jpeg)
        try Self.create("x.jpg", in: scratch, contents: jpeg)
        let source = FolderImageSource(directory: root)
        #expect(try await source.data(for: "a/b.jpg") == jpeg)
        for id: ImageID in ["../x.jpg", "a/../../x.jpg", "a/../b.jpg", "/etc/passwd", ImageID("\(scratch.path)/x.jpg"), "a//b.jpg", "./a/b.jpg",
                            "a/b.jpg/", "", "a/b.jpg\u{0}", "%2E%2E/x.jpg", "..%2Fx.jpg"] {
            await #expect(throws: ImageSourceError.notFound(id)) { try await source.data(for: id) }
            await #expect(throws: ImageSourceError.notFound(id)) { try await source.header(for: id) }
            #expect(await source.fingerprint(for: id) == nil, "\(id)")
        }
    }

    @Test func namesThatAreNotUTF8RoundTripInNestedFolders() async throws {
        let root = temporaryDirectory()
        let png = TestImages.png(width: 6, height: 4, rgba: [UInt8](repeating: 200, count: 6 * 4 * 4))
        let folder: [UInt8] = Array("Ann".utf8) + [0xE9] + Array("e 2003".utf8)              // "Année 2003" in Latin-1
        let name: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".png".utf8)
        try Self.create(folder + [UInt8(ascii: "/")] + [0xFF] + [UInt8(ascii: "/")] + name, in: root, contents: png)
        try Self.create(Array("100%/50%25.png".utf8), in: root, contents: png)
        let source = FolderImageSource(directory: root)
        let ids = try await source.imageIDs()
        #expect(ids == ["100%25/50%2525.png", "Ann%E9e 2003/%FF/caf%E9.png"])
        for id in ids {
            #expect(try await source.data(for: id) == png)
            #expect(try await source.header(for: id).width == 6)
            #expect(await source.fingerprint(for: id) != nil)
        }
        #expect(FolderImageSource.fileName(of: ids[1]) == folder + [UInt8(ascii: "/"), 0xFF, UInt8(ascii: "/")] + name)
        #expect(FolderImageSource.displayName(of: ids[1]) == "caf\u{FFFD}.png")
        #expect(FolderImageSource.displayName(of: ids[0]) == "50%25.png")
    }

    @Test func aFolderThatCannotBeReadIsReportedWhileTheRestIsListed() async throws {
        let root = temporaryDirectory()
        for path in ["a/1.jpg", "b/2.jpg", "c/3.jpg"] { try Self.create(path, in: root) }
        // Tests run as root, for whom no permission bit hides a folder: "b" stops being a folder between its listing and its opening.
        let stream = FolderImageSource(directory: root).scan { walk in
            walk.hooks.beforeOpeningFolder = { path in
                guard path == "b" else { return }
                try? FileManager.default.removeItem(at: root.appendingPathComponent("b"))
                try? Data([1]).write(to: root.appendingPathComponent("b"))
            }
        }
        let (listed, report) = await Self.collect(stream)
        #expect(listed.map(\.id) == ["a/1.jpg", "c/3.jpg"])
        let problems = try #require(report).problems
        #expect(problems == [.init(path: "b", kind: .unreadableFolder(String(cString: strerror(ENOTDIR))))])
        #expect(report?.isComplete == false)
        #expect(problems[0].description == "b: the folder cannot be read (Not a directory)")
    }

    #if canImport(Glibc)
    /// A walk a first screen waits for runs beside the screen's decodes
    /// (nice 5); one that only checks an index's photos below them (nice 10).
    @Test func aBackgroundWalkRunsBelowTheScreensDecodes() async throws {
        let root = temporaryDirectory()
        for path in ["top.jpg", "1/one.jpg"] { try Self.create(path, in: root) }
        let source = FolderImageSource(directory: root)
        let base = await Task.detached { () -> Int32 in
            errno = 0
            return getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        }.value
        var seen: [Int32] = []
        for background in [false, true] {
            let nice = Locked<Int32?>(nil)
            let (photos, _) = await Self.collect(source.scan {
                $0.isBackground = background
                $0.hooks.beforeOpeningFolder = { _ in
                    errno = 0
                    let value = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
                    nice.withLock { $0 = $0 ?? value }
                }
            })
            #expect(photos.count == 2)
            seen.append(try #require(nice.withLock { $0 }))
        }
        // Absolute values (setpriority sets, it does not add); a test process started nicer than 0 may be
        // refused a lower value, and then only the order is certain.
        if base == 0 { #expect(seen == [BlockingWorkQueue.urgentNiceValue, BlockingWorkQueue.backgroundNiceValue]) }
        #expect(seen[0] < seen[1])
    }
    #endif

    @Test func depthAndCountAreBounded() async throws {
        let root = temporaryDirectory()
        for path in ["top.jpg", "1/one.jpg", "1/2/two.jpg", "1/2/3/three.jpg", "1/2/3/4/four.jpg", "1/2/3/4/5/five.jpg"] {
            try Self.create(path, in: root)
        }
        let source = FolderImageSource(directory: root)
        let (shallow, shallowReport) = await Self.collect(source.scan { $0.maximumDepth = 3 })
        #expect(shallow.map(\.id) == ["1/2/3/three.jpg", "1/2/two.jpg", "1/one.jpg", "top.jpg"])
        #expect(shallowReport?.problems == [.init(path: "1/2/3/4", kind: .tooDeep(limit: 3))])
        #expect(shallowReport?.isComplete == false)
        let (few, fewReport) = await Self.collect(source.scan { $0.maximumPhotoCount = 2 })
        #expect(few.map(\.id) == ["1/2/3/4/5/five.jpg", "1/2/3/4/four.jpg"])
        #expect(fewReport?.problems == [.init(path: "1/2/3/three.jpg", kind: .tooManyPhotos(limit: 2))])
        #expect(fewReport?.problems.first?.description == "1/2/3/three.jpg: the listing stopped at 2 photos")
        // A folder that is not there fails the scan at once.
        let missing = FolderImageSource(directory: root.appendingPathComponent("nope")).scan()
        var events: [FolderScan.Event] = []
        for await event in missing { events.append(event) }
        #expect(events == [.failed(.unavailable("there is no photo folder at \(root.path)/nope"))])
    }
}
