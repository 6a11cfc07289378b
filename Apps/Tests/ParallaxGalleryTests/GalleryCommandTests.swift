// The gallery draws through SDL2, which it uses on Linux only.
#if canImport(CSDL2)
import Foundation
import ProcessTestSupport
import Testing

/// The `parallax-gallery` executable, run as a user would.
enum GalleryExecutable {
    /// The repository's root (Apps/ is one level below it): where `make`
    /// fetches the photos to, `.cache/photos`.
    static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    static var url: URL? { binary("parallax-gallery") }

    /// The executable `name` of this build: in `PARALLAX_BIN_PATH` (what
    /// `make test` sets from `swift build --show-bin-path`), else beside the
    /// running test bundle, whatever the scratch path.
    static func binary(_ name: String) -> URL? {
        var folders: [URL] = []
        if let bin = ProcessInfo.processInfo.environment["PARALLAX_BIN_PATH"], !bin.isEmpty {
            folders.append(URL(fileURLWithPath: bin))
        }
        if let tests = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            folders.append(tests.deletingLastPathComponent())
        }
        return folders.map { $0.appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    struct Outcome {
        var status: Int32
        var output: String
        var errors: String
        /// How long it ran, in seconds.
        var seconds: TimeInterval = 0
        /// The first line on standard error: the one-sentence reason for a refusal.
        var firstError: String { String(errors.split(separator: "\n", omittingEmptySubsequences: false).first ?? "") }
    }

    /// Runs it (or the executable `name`) with `arguments` in `directory`, with `environment` changes, and waits:
    /// `timeout` only turns a hang into a failure (a loaded machine may take minutes to render).
    static func run(_ arguments: [String], in directory: URL, environment: [String: String?] = [:],
                    timeout: TimeInterval = 900, executable name: String = "parallax-gallery") throws -> Outcome {
        let executable: URL = try #require(binary(name), "build the apps first (swift build --package-path Apps): no \(name) binary")
        var env = ProcessInfo.processInfo.environment
        // Never the developer's own thumbnail cache: a window run keeps thumbnails by default.
        env["XDG_CACHE_HOME"] = directory.appendingPathComponent("xdg-cache").path
        for (key, value) in environment { env[key] = value }
        let finished = try FinishedProcess.run(executable, arguments: arguments, directory: directory, environment: env,
                                               timeout: timeout)
        let elapsed = finished.duration.components
        return Outcome(status: finished.status, output: String(decoding: finished.output, as: UTF8.self),
                       errors: String(decoding: finished.errors, as: UTF8.self),
                       seconds: Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
    }

    static func scratch() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("gallery-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

@Suite("Gallery command", .serialized)
struct GalleryCommandTests {
    /// libcurl (and what it links) and FoundationNetworking are not loaded
    /// at start: libcurl is opened when a server is first asked for. The
    /// dynamic loader lists what it would load, and runs nothing.
    @Test func itStartsWithoutLibcurlOrFoundationNetworking() throws {
        let loaded = try GalleryExecutable.run([], in: GalleryExecutable.scratch(), environment: ["LD_TRACE_LOADED_OBJECTS": "1"])
        #expect(loaded.status == 0, "\(loaded.errors)")
        #expect(loaded.output.contains("libSDL2") && loaded.output.contains("libFoundation.so"), "\(loaded.output)")
        #expect(!loaded.output.contains("libcurl"), "\(loaded.output)")
        #expect(!loaded.output.contains("libFoundationNetworking"), "\(loaded.output)")
    }

    @Test func withoutADisplayItRendersHeadlessAndSaysWhere() throws {
        let directory = GalleryExecutable.scratch()
        // A headless machine as `make run` meets it: no display, no runtime directory, SDL left to choose.
        let environment: [String: String?] = ["DISPLAY": nil, "WAYLAND_DISPLAY": nil, "WAYLAND_SOCKET": nil,
                                              "XDG_RUNTIME_DIR": nil, "SDL_VIDEODRIVER": nil]
        // A folder that was named and is not there is an error, not generated pictures.
        let missing = try GalleryExecutable.run(["--photos", "/nonexistent/photos", "--size", "320x240"], in: directory,
                                                environment: environment)
        #expect(missing.status != 0 && missing.errors.contains("there is no photo folder at /nonexistent/photos"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(".cache/gallery-render").path))
        let outcome = try GalleryExecutable.run(["--generated", "--size", "320x240"], in: directory, environment: environment)
        #expect(outcome.status == 0, "\(outcome.errors)")
        // Nothing on standard error (SDL's and libwayland's XDG_RUNTIME_DIR complaint included), and the
        // gallery's own line first.
        #expect(outcome.errors.isEmpty, "standard error before and besides the gallery's own lines: \(outcome.errors)")
        let lines = outcome.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("parallax-gallery: no display") == true, "\(lines)")
        // It says where the animation is, and that file is there.
        let animation = directory.appendingPathComponent(".cache/gallery-render/animation.png")
        #expect(lines.last?.trimmingCharacters(in: .whitespaces) == animation.path)
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
        #expect(rendered.status != 0)
        #expect(rendered.errors.contains("holds no photo"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("one.png").path))
        let bad = try GalleryExecutable.run(["render", "--size", "0x0"], in: directory)
        #expect(bad.status == 64)
        let ftp = try GalleryExecutable.run(["--server", "ftp://photos.example/"], in: directory)
        #expect(ftp.status == 64 && ftp.errors.contains("--server must be an http:// or https:// URL with a host"), "\(ftp.errors)")
        let both = try GalleryExecutable.run(["--cache", "x", "--no-cache"], in: directory)
        #expect(both.status == 64 && both.errors.contains("--cache and --no-cache contradict each other"), "\(both.errors)")
        #expect(bad.firstError == "Error: The value '0x0' is invalid for '--size <size>': out of range; "
                    + "expected WIDTHxHEIGHT, each side a whole number of pixels in 64…8192, e.g. 1280x800.")
        let noFolder = try GalleryExecutable.run(["manifest", "/nonexistent/photos"], in: directory)
        #expect(noFolder.status == 64 && noFolder.errors.contains("there is no photo folder at /nonexistent/photos"),
                "\(noFolder.errors)")
        let noPhotos = try GalleryExecutable.run(["manifest", empty.path], in: directory)
        #expect(noPhotos.status == 64 && noPhotos.errors.contains("holds no photo"), "\(noPhotos.errors)")
        #expect(!FileManager.default.fileExists(atPath: empty.appendingPathComponent("photos.json").path))
        // A named choice is refused with the names its enum declares, as parallax-demo refuses its own.
        let effect = try GalleryExecutable.run(["render", "--effect", "sparkle"], in: directory)
        #expect(effect.status == 64 && effect.firstError == "Error: The value 'sparkle' is invalid for '--effect <effect>'. "
                    + "Please provide one of 'depth', 'window' or 'off'.", "\(effect.errors)")
        let layouts = try GalleryExecutable.run(["session", "--layouts", "grid,sparkle"], in: directory)
        #expect(layouts.status == 64 && layouts.firstError == "Error: The value 'grid,sparkle' is invalid for '--layouts <layouts>': "
                    + "'sparkle' is not a choice; expected names from grid, list, quilt, waterfall, separated by commas.",
                "\(layouts.errors)")
        #expect(layouts.output.isEmpty)
    }

    /// Each refused value, with the one sentence the gallery prints for it.
    static let refusals: [(arguments: [String], message: String)] = [
        (["--pinch", "9", "--frames", "4"], "--pinch must be a scale from 0.2 to 5, not 9.0"),
        (["--pinch", "nan", "--frames", "4"], "--pinch must be a scale from 0.2 to 5, not nan"),
        (["--pinch", "0.5"], "--pinch needs a sequence: --frames 2 or more"),
        (["--scene", "sky"], "The value 'sky' is invalid for '--scene <scene>'. Please provide one of 'gallery' and 'layers'."),
        (["--latency", "fast"], "The value 'fast' is invalid for '--latency <latency>'. Please provide one of 'none', 'seed' or 'slow'."),
        (["--scroll", "nan"], "The value 'nan' is invalid for '--scroll <scroll>': not a finite number; "
            + "expected a finite number of points in -1000000000000…1000000000000."),
        (["--scroll", "1e308"], "The value '1e308' is invalid for '--scroll <scroll>': out of range; "
            + "expected a finite number of points in -1000000000000…1000000000000."),
        (["--fling", "inf", "--frames", "2"], "The value 'inf' is invalid for '--fling <fling>': not a finite number; "
            + "expected a finite number of points per second in -10000000…10000000."),
        (["--fling", "-1e308", "--frames", "2"], "The value '-1e308' is invalid for '--fling <fling>': out of range; "
            + "expected a finite number of points per second in -10000000…10000000."),
        (["--intensity", "1e308"], "The value '1e308' is invalid for '--intensity <intensity>': out of range; "
            + "expected a finite number in 0…10."),
        (["--intensity", "nan"], "The value 'nan' is invalid for '--intensity <intensity>': not a finite number; "
            + "expected a finite number in 0…10."),
        (["--intensity", "-1"], "The value '-1' is invalid for '--intensity <intensity>': out of range; "
            + "expected a finite number in 0…10."),
        (["--seed", "-1"], "The value '-1' is invalid for '--seed <seed>': out of range; "
            + "expected a whole number in 0…18446744073709551615."),
        (["--frames", "-1"], "The value '-1' is invalid for '--frames <frames>': out of range; expected a whole number in 1…3600."),
        (["--frames", "1e308"], "The value '1e308' is invalid for '--frames <frames>': out of range; "
            + "expected a whole number in 1…3600."),
        (["--frames", "nan"], "The value 'nan' is invalid for '--frames <frames>': not a whole number; "
            + "expected a whole number in 1…3600."),
        (["--failure-rate", "inf"], "The value 'inf' is invalid for '--failure-rate <failure-rate>': not a finite number; "
            + "expected a finite number in 0…1."),
    ]

    /// Refused before any work: nothing printed, no file written (not timed: a loaded machine may
    /// take any time to start a process).
    @Test func badNumbersAreRefusedBeforeAnyWork() throws {
        let directory = GalleryExecutable.scratch()
        for refusal in Self.refusals {
            let outcome = try GalleryExecutable.run(["render", "--generated", "--size", "64x64"] + refusal.arguments + ["--out", "x.png"],
                                                    in: directory, timeout: 300)
            #expect(outcome.status == 64, "\(refusal.arguments): \(outcome.errors)")
            #expect(outcome.firstError == "Error: " + refusal.message)
            #expect(outcome.output.isEmpty)
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("x.png").path))
        // A pinch sequence: its frames and the animation.
        let pinch = try GalleryExecutable.run(["render", "--generated", "--size", "200x200", "--frames", "6", "--pinch", "0.5",
                                               "--out", "pinch"], in: directory)
        #expect(pinch.status == 0, "\(pinch.errors)")
        let written = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("pinch").path)
        #expect(written.count == 7 && written.contains("animation.png"), "\(written)")
        // Negative values are values, not option names: a negative scroll position is accepted.
        let layers = try GalleryExecutable.run(["render", "--scene", "layers", "--size", "64x64", "--scroll", "-200", "--out", "l.png"],
                                               in: directory)
        #expect(layers.status == 0, "\(layers.errors)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("l.png").path))
    }

    @Test func anOutputThatCannotBeWrittenFailsBeforeRendering() throws {
        let directory = GalleryExecutable.scratch()
        let missing = try GalleryExecutable.run(["render", "--generated", "--size", "64x64", "--out", "/nonexistent/dir/x.png"],
                                                in: directory, timeout: 300)
        #expect(missing.status == 64)
        #expect(missing.firstError == "Error: --out '/nonexistent/dir/x.png' cannot be written: there is no folder '/nonexistent/dir'.")
        #expect(!missing.errors.contains("NSCocoaErrorDomain"))
        // A sequence needs a folder: an existing file is refused, before rendering too.
        try Data("x".utf8).write(to: directory.appendingPathComponent("taken"))
        let file = try GalleryExecutable.run(["render", "--generated", "--size", "64x64", "--frames", "2", "--out", "taken"],
                                             in: directory, timeout: 300)
        #expect(file.status == 64)
        #expect(file.firstError == "Error: --out 'taken' cannot be written: it is a file, not a folder.")
        let bench = try GalleryExecutable.run(["bench", "--out", "/nonexistent/BENCHMARKS.md"], in: directory, timeout: 300)
        #expect(bench.status == 64)
        #expect(bench.firstError == "Error: --out '/nonexistent/BENCHMARKS.md' cannot be written: there is no folder '/nonexistent'.")
    }

    @Test func bothCommandsWordARefusalTheSame() throws {
        let directory = GalleryExecutable.scratch()
        for value in ["-1", "1e308", "inf", "nan"] {
            let gallery = try GalleryExecutable.run(["render", "--intensity", value], in: directory, timeout: 300)
            let demo = try GalleryExecutable.run(["--intensity", value], in: directory, timeout: 300, executable: "parallax-demo")
            #expect(gallery.status == 64 && demo.status == 64)
            #expect(gallery.firstError.hasPrefix("Error: The value '\(value)' is invalid for '--intensity <intensity>': "))
            #expect(gallery.firstError == demo.firstError)
        }
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
