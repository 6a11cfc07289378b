// The gallery draws through SDL2, which it uses on Linux only.
#if canImport(CSDL2)
import Foundation
import Testing

/// The `parallax-gallery` executable, run as a user would.
enum GalleryExecutable {
    static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    static var url: URL? {
        let candidates = [".build/debug/parallax-gallery", ".build/x86_64-unknown-linux-gnu/debug/parallax-gallery"]
        return candidates.map { repository.appendingPathComponent($0) }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    struct Outcome { var status: Int32; var output: String; var errors: String }

    /// Runs it with `arguments` in `directory`, with `environment` changes, and waits.
    static func run(_ arguments: [String], in directory: URL, environment: [String: String?] = [:],
                    timeout: TimeInterval = 120) throws -> Outcome {
        let process = Process()
        let executable: URL = try #require(url, "build the package first (swift build): no parallax-gallery binary")
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus,
                       output: String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
                       errors: String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    static func scratch() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("gallery-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

@Suite("Gallery command", .serialized)
struct GalleryCommandTests {
    @Test func withoutADisplayItRendersHeadlessAndSaysWhere() throws {
        let directory = GalleryExecutable.scratch()
        let outcome = try GalleryExecutable.run(["--photos", "/nonexistent/photos", "--size", "320x240"], in: directory,
                                                environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil, "SDL_VIDEODRIVER": "x11"])
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output.contains("no display"))
        #expect(outcome.errors.contains("there is no photo folder at /nonexistent/photos"))
        let animation = directory.appendingPathComponent(".cache/gallery-render/animation.png")
        #expect(FileManager.default.fileExists(atPath: animation.path))
        let frames = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(".cache/gallery-render").path)
        #expect(frames.filter { $0.hasPrefix("frame-") }.count == 90)
    }

    @Test func emptyFoldersAndBadOptionsGiveClearMessages() throws {
        let directory = GalleryExecutable.scratch()
        let empty = directory.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        try Data("not a photo".utf8).write(to: empty.appendingPathComponent("notes.txt"))
        let rendered = try GalleryExecutable.run(["render", "--photos", empty.path, "--size", "200x300", "--out", "one.png"], in: directory)
        #expect(rendered.status == 0)
        #expect(rendered.errors.contains("holds no JPEG or PNG file"))
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("one.png").path))
        let bad = try GalleryExecutable.run(["render", "--size", "0x0"], in: directory)
        #expect(bad.status != 0 && bad.errors.contains("--size must be WIDTHxHEIGHT"))
        let effect = try GalleryExecutable.run(["render", "--effect", "sparkle"], in: directory)
        #expect(effect.status != 0 && effect.errors.contains("--effect must be depth, window or off"))
    }

    @Test func unreadablePhotosShowErrorTilesNotACrash() throws {
        let directory = GalleryExecutable.scratch()
        let photos = directory.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0, 1]).write(to: photos.appendingPathComponent("truncated.jpg"))
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: photos.appendingPathComponent("cut.png"))
        let outcome = try GalleryExecutable.run(["render", "--photos", photos.path, "--size", "400x300", "--out", "tiles.png"], in: directory)
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("tiles.png").path))
    }
}
#endif
