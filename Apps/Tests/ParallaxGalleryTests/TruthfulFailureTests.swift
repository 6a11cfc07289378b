// The gallery draws through SDL2, which it uses on Linux only.
#if canImport(CSDL2)
import Foundation
import ParallaxImages
import Testing
@testable import ParallaxGallery

/// Issue 23: what cannot be done is an error with its reason (exit status
/// non-zero), never a fake gallery, a frame of an error message, or a
/// partial or misplaced file.
@Suite("Truthful failures", .serialized)
struct TruthfulFailureTests {
    func kind(_ path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : 0
    }

    @Test func writingToAFullDeviceFailsClearlyLeavesNothingAndKeepsTheDevice() throws {
        let scratch = GalleryExecutable.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let photos = scratch.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try SyntheticPhotos.landscape(index: 0, width: 160, height: 120).write(to: photos.appendingPathComponent("a.png"))
        let render = try GalleryExecutable.run(["render", "--photos", photos.path, "--size", "320x200", "--out", "/dev/full"],
                                               in: scratch)
        #expect(render.status != 0)
        #expect(render.errors.contains("cannot write '/dev/full': \(String(cString: strerror(ENOSPC)))"), "\(render.errors)")
        let manifest = try GalleryExecutable.run(["manifest", photos.path, "--out", "/dev/full"], in: scratch)
        #expect(manifest.status != 0 && manifest.errors.contains("cannot write '/dev/full'"), "\(manifest.errors)")
        #expect(kind("/dev/full") == S_IFCHR)
        #expect(try FileManager.default.contentsOfDirectory(atPath: photos.path) == ["a.png"])
        // A link to nothing is refused before any work, by every command that writes a file.
        let dangling = scratch.appendingPathComponent("report.md").path
        symlink(scratch.appendingPathComponent("nowhere/report.md").path, dangling)
        for arguments in [["session", "--out", dangling], ["render", "--out", dangling], ["manifest", photos.path, "--out", dangling]] {
            let refused = try GalleryExecutable.run(arguments, in: scratch)
            #expect(refused.status == 64 && refused.errors.contains("symbolic link to a file that does not exist"), "\(arguments): \(refused.errors)")
        }
        #expect(kind(dangling) == S_IFLNK)
        // A link to a file is followed: the link stays, its file gets the manifest.
        let target = scratch.appendingPathComponent("real.json"), link = scratch.appendingPathComponent("link.json")
        try Data("old".utf8).write(to: target)
        symlink(target.path, link.path)
        let followed = try GalleryExecutable.run(["manifest", photos.path, "--out", link.path], in: scratch)
        #expect(followed.status == 0, "\(followed.errors)")
        let written = try String(contentsOf: target, encoding: .utf8)
        #expect(kind(link.path) == S_IFLNK && written.contains("a.png"))
    }

    @Test func aNamedFolderThatCannotBeUsedIsAnErrorNamingIt() throws {
        let scratch = GalleryExecutable.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let missing = scratch.appendingPathComponent("no-such-folder").path
        let outcome = try GalleryExecutable.run(["render", "--photos", missing, "--out", "frame.png"], in: scratch)
        #expect(outcome.status != 0)
        #expect(outcome.errors.contains("there is no photo folder at \(missing)") && !outcome.errors.contains("generated"))
        let empty = scratch.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let none = try GalleryExecutable.run(["render", "--photos", empty.path, "--out", "frame.png"], in: scratch)
        #expect(none.status != 0 && none.errors.contains("\(empty.path) holds no photo"), "\(none.errors)")
        #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("frame.png").path))
    }

    /// A folder its user cannot read. Tests run as root, which reads any
    /// folder whatever its mode, so as root the command runs as `nobody`
    /// (setpriv); the folder is unreadable to it by its mode, as for any user.
    @Test func anUnreadableFolderIsAnErrorNotGeneratedPictures() throws {
        let scratch = GalleryExecutable.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        chmod(scratch.path, 0o755)
        let locked = scratch.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        try HostilePNG.claiming(width: 4, height: 3).write(to: locked.appendingPathComponent("a.png"))
        chmod(locked.path, 0o000)
        defer { chmod(locked.path, 0o755) }
        var arguments = ["render", "--photos", locked.path, "--out", "/dev/null"]
        var executable = "parallax-gallery"
        if geteuid() == 0 {
            let binary = try #require(GalleryExecutable.url)
            try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "as root, this test needs setpriv (util-linux)")
            arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", binary.path] + arguments
            executable = "setpriv"
        }
        let outcome = try runAllowingSystemExecutable(executable, arguments, in: scratch)
        #expect(outcome.status != 0)
        #expect(outcome.errors.contains("the photo folder \(locked.path) cannot be read"), "\(outcome.errors)")
        #expect(!outcome.errors.contains("generated"))
    }

    /// A listing that fails (here: nothing listens on the port) is an
    /// error with the reason on standard error, not a PNG of the message.
    @Test func renderExitsNonZeroWhenTheServerListingFails() throws {
        let scratch = GalleryExecutable.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outcome = try GalleryExecutable.run(["render", "--server", "http://127.0.0.1:1/", "--out", "frame.png"], in: scratch)
        #expect(outcome.status != 0)
        #expect(outcome.errors.contains("The photos could not be listed"), "\(outcome.errors)")
        #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("frame.png").path))
    }

    /// A thumbnail cache folder that cannot be written is still used, read
    /// only, and the gallery says so. The folder is made read-only for real:
    /// by its mode for a user, by the immutable attribute as root (whom
    /// modes do not stop); without either the test has nothing to check.
    @Test func aReadOnlyThumbnailCacheIsReadAndSaidSo() async throws {
        let scratch = GalleryExecutable.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let photos = scratch.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try SyntheticPhotos.landscape(index: 1, width: 160, height: 120).write(to: photos.appendingPathComponent("a.png"))
        let cache = scratch.appendingPathComponent("xdg-cache/parallax-gallery")
        _ = try DiskImageCache(directory: cache)                         // its lock and ledger, as a first launch leaves them
        func chattr(_ flag: String) -> Bool {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
            process.arguments = [flag, cache.path]
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return false }
            process.waitUntilExit()
            return process.terminationStatus == 0
        }
        let locked = geteuid() == 0 ? chattr("+i") : chmod(cache.path, 0o555) == 0
        defer { if geteuid() == 0 { _ = chattr("-i") } else { chmod(cache.path, 0o755) } }
        guard locked, !FileManager.default.createFile(atPath: cache.appendingPathComponent("probe").path, contents: nil) else {
            return                                                           // this system cannot make a read-only folder
        }
        let outcome = try GalleryExecutable.run(["--photos", photos.path, "--size", "160x120"], in: scratch,
                                                environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil, "SDL_VIDEODRIVER": "x11"])
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.errors.contains("the thumbnail cache \(cache.path) is read-only: thumbnails already there are shown, new ones are not kept"),
                "\(outcome.errors)")
    }

    /// A list with no photo (an empty index, an empty manifest) is nothing
    /// to render, not a frame saying so.
    @Test @MainActor func anEmptyListIsNothingToRender() async throws {
        let empty = PhotoLibrary(source: InMemoryImageSource(images: []), credits: [], description: "an empty list")
        do {
            _ = try await GalleryRendering.frame(library: empty, settings: GallerySettings(), size: CGSize(width: 64, height: 64), scroll: 0)
            Issue.record("an empty list was rendered")
        } catch let error as NothingToRender {
            #expect(error.description == "nothing to render from an empty list: No photos to show.")
        }
    }

    /// A real photo whose file name is not UTF-8 is in the list, the
    /// manifest and the rendered frame.
    @Test @MainActor func aPhotoWhoseNameIsNotUTF8IsListedInTheManifestAndRendered() async throws {
        let scratch = GalleryExecutable.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let photos = scratch.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let name: [UInt8] = Array("caf".utf8) + [0xE9, 0xFF] + Array(".png".utf8)
        let path = (Array(photos.path.utf8) + [UInt8(ascii: "/")] + name + [0]).map { CChar(bitPattern: $0) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(descriptor >= 0)
        let png = SyntheticPhotos.landscape(index: 3, width: 160, height: 120)
        #expect(png.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == png.count)
        close(descriptor)
        try SyntheticPhotos.landscape(index: 4, width: 160, height: 120).write(to: photos.appendingPathComponent("plain.png"))
        let library = try await PhotoLibrary.folder(photos)
        #expect(try await library.source.imageIDs() == ["caf%E9%FF.png", "plain.png"])
        let manifest = try GalleryExecutable.run(["manifest", photos.path, "--out", scratch.appendingPathComponent("m.json").path],
                                                 in: scratch)
        #expect(manifest.status == 0 && manifest.output.contains("2 photos, 2 with their size"), "\(manifest.output)\(manifest.errors)")
        let frame = try await GalleryRendering.frame(library: library, settings: GallerySettings(), size: CGSize(width: 320, height: 200),
                                                     scroll: 0)
        #expect(frame != nil)
        let model = GalleryModel(library: library, settings: GallerySettings(), viewportSize: CGSize(width: 320, height: 200))
        await model.loadPhotoList()
        await model.settle(at: 0)
        #expect(model.cells.contains { $0.id == "caf%E9%FF.png" && $0.image != nil })
    }

    /// `GalleryExecutable.run` for the gallery, or for a system tool by its path in /usr/bin.
    func runAllowingSystemExecutable(_ name: String, _ arguments: [String], in directory: URL) throws -> GalleryExecutable.Outcome {
        guard name != "parallax-gallery" else { return try GalleryExecutable.run(arguments, in: directory) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/\(name)")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = directory.appendingPathComponent("xdg-cache").path
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile(), errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return GalleryExecutable.Outcome(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
                                         errors: String(decoding: errors, as: UTF8.self))
    }
}
#endif
