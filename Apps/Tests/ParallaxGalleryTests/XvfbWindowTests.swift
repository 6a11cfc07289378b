// The gallery draws through SDL2, which it uses on Linux only.
#if canImport(CSDL2)
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// The gallery in a real X window (Xvfb, from `make test`'s packages), driven
/// with real input events through xdotool (XTEST), as a person would.
@Suite("Gallery window under Xvfb", .serialized)
struct XvfbWindowTests {
    /// Runs `command` and returns its standard output.
    @discardableResult
    static func shell(_ command: String, environment: [String: String] = [:]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "timeout 10 " + command]      // no step may hang the suite
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    @Test func scrollsSwitchesKeepsThePhotoAndSurvivesEraseMidFling() throws {
        for tool in ["Xvfb", "xdotool"] {
            try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/\(tool)"),
                         "\(tool) is missing: make test installs it (xvfb, xdotool)")
        }
        // Xvfb picks a free display itself and writes its number when it is ready (-displayfd).
        let xvfb = Process()
        xvfb.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        xvfb.arguments = ["-displayfd", "1", "-screen", "0", "1280x800x24", "-nolisten", "tcp"]
        let announcement = Pipe()
        xvfb.standardOutput = announcement
        xvfb.standardError = FileHandle.nullDevice
        try xvfb.run()
        var number = ""
        while !number.hasSuffix("\n") {
            let byte = announcement.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty { break }
            number += String(decoding: byte, as: UTF8.self)
        }
        let display = ":" + number.trimmingCharacters(in: .whitespacesAndNewlines)
        defer {
            kill(xvfb.processIdentifier, SIGKILL)      // Xvfb can linger after SIGTERM; nothing of it needs keeping
            xvfb.waitUntilExit()
            try? FileManager.default.removeItem(atPath: "/tmp/.X\(display.dropFirst())-lock")
            try? FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X\(display.dropFirst())")
        }
        try #require(display.count > 1, "Xvfb did not start")

        let directory = GalleryExecutable.scratch()
        let shots = directory.appendingPathComponent("shots")
        let app = Process()
        let executable: URL = try #require(GalleryExecutable.url, "build the package first")
        app.executableURL = executable
        app.arguments = ["run", "--size", "800x600", "--latency", "none", "--screenshots", shots.path,
                         "--cache", directory.appendingPathComponent("thumbnails").path]    // not the user's cache
        app.currentDirectoryURL = GalleryExecutable.repository          // the fetched photos, if there
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = display
        app.environment = env
        // A file, not a pipe: a pipe's write end can outlive the app in a grandchild and its read never end.
        let log = directory.appendingPathComponent("gallery.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        app.standardOutput = try FileHandle(forWritingTo: log)
        app.standardError = FileHandle.nullDevice
        try app.run()
        defer { if app.isRunning { app.terminate() } }
        let x = ["DISPLAY": display]
        // One bound for the whole run: it only turns a hang into a failure (a loaded machine is slow, and
        // every wait below ends at the event it waits for).
        let deadline = Date().addingTimeInterval(600)
        var window = ""
        // The window once it is shown (mapped): the one that gets the keys.
        while window.isEmpty, Date() < deadline {
            window = try Self.shell("xdotool search --onlyvisible --name ParallaxKit | head -1", environment: x)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            if window.isEmpty { Thread.sleep(forTimeInterval: 0.05) }
        }
        try #require(!window.isEmpty, "no gallery window appeared")
        try Self.shell("xdotool windowfocus \(window)", environment: x)
        func key(_ name: String, wait: TimeInterval = 0.8) throws {
            try Self.shell("xdotool key --window \(window) \(name)", environment: x)
            Thread.sleep(forTimeInterval: wait)
        }
        func wheel(_ clicks: Int) throws {
            try Self.shell("xdotool mousemove --window \(window) 400 300 click --repeat \(clicks) --delay 20 5", environment: x)
        }
        func screenshotLines() -> [Substring] {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").filter { $0.hasPrefix("screenshot:") }
        }
        /// Presses P and returns the screenshot's line; with `atRest`, presses again until the photos have
        /// stopped moving (a loaded machine draws few frames a second, so a glide may still be running).
        /// The bounds only turn a hang into a failure.
        func screenshot(atRest: Bool = true) throws -> Substring? {
            while Date() < deadline {
                let before = screenshotLines().count
                try key("p", wait: 0)
                while screenshotLines().count == before, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
                guard let line = screenshotLines().last, screenshotLines().count > before else { return nil }
                // At rest, and every date read: a date arriving later re-sorts the photos, and the first photo of
                // the top row (the one a switch keeps) may then be another one beside it.
                if !atRest || (line.contains("moving: no ") && line.contains("reading: no")) { return line }
                Thread.sleep(forTimeInterval: 0.2)
            }
            return nil
        }
        Thread.sleep(forTimeInterval: 1.5)
        var taken: [Substring?] = []
        taken.append(try screenshot())                       // 1: the top of the grid
        try wheel(6)
        taken.append(try screenshot())                       // 2: scrolled
        try key("g", wait: 0)
        taken.append(try screenshot())                       // 3: the list, same top photo
        try wheel(10)
        try key("x", wait: 2)                                // erase everything in the middle of the fling
        taken.append(try screenshot(atRest: false))          // 4: still running
        /// Presses P until the screenshot's line says what `wanted` looks for (bounded: a hang fails).
        func viewerLine(_ wanted: (Substring) -> Bool) throws -> Substring? {
            while Date() < deadline {
                if let line = try screenshot(atRest: false), wanted(line) { return line }
                Thread.sleep(forTimeInterval: 0.1)
            }
            return nil
        }
        // Enter opens the photo under the pointer (or the top one) and it comes sharp; → pages to the next; Esc
        // closes it onto the grid.
        try key("Return", wait: 0)
        let opened = try viewerLine { $0.contains("viewer: item") && $0.contains(" sharp ") }
        try key("Right", wait: 0)
        let openedItem = opened.map { String($0.components(separatedBy: "viewer: item ").last!.split(separator: " ").first!) }
        let paged = try viewerLine { line in
            line.contains(" sharp ") && openedItem.map { !line.contains("viewer: item \($0) ") } == true
        }
        try key("Escape", wait: 0)
        let closed = try viewerLine { $0.hasSuffix("viewer: closed") }
        #expect(opened != nil && paged != nil && closed != nil, "\(screenshotLines().suffix(4))")
        if let openedItem, let paged {
            #expect(paged.contains("viewer: item \(Int(openedItem)! + 1) "), "→ paged to the next photo")
        }
        // Without a GPU nothing draws through OpenGL: left to itself, SDL presented the software renderer's
        // frames as an OpenGL texture on Mesa's llvmpipe (a CPU rasteriser: most of a core for an idle
        // window), and made the window again for it under another ID, which keys sent early never reached.
        let renderNodes = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []
        if !renderNodes.contains(where: { $0.hasPrefix("renderD") }) {
            // Read to its end by cat: a /proc file says it is empty, and Foundation then reads one page of it.
            let maps = try Self.shell("cat /proc/\(app.processIdentifier)/maps")
            #expect(!maps.isEmpty && !maps.contains("_dri.so") && !maps.contains("libGLX_mesa"),
                    "Mesa is loaded: \(maps.split(separator: "\n").filter { $0.contains("dri") || $0.contains("GL") }.prefix(3))")
        }
        try key("q", wait: 0.5)
        let quitBy = max(deadline, Date().addingTimeInterval(30))
        while app.isRunning, Date() < quitBy { Thread.sleep(forTimeInterval: 0.05) }
        let quit = !app.isRunning
        if !quit { app.terminate() }
        app.waitUntilExit()
        #expect(quit, "Q did not quit the gallery")
        #expect(!quit || app.terminationStatus == 0, "the gallery crashed or failed")

        let lines = taken.compactMap { $0 }
        #expect(lines.count == 4, "\(screenshotLines())")
        guard lines.count == 4 else { return }
        func field(_ line: Substring, _ name: String) -> String {
            String(line.components(separatedBy: "\(name): ").last!.split(separator: " ").first!)
        }
        let images = try lines.map { try Data(contentsOf: URL(fileURLWithPath: String(field($0, "screenshot")))) }
        #expect(images[0] != images[1], "the wheel scrolled")
        #expect(field(lines[0], "top-item") == "0")
        #expect(field(lines[1], "top-item") != "0", "scrolled down")
        #expect(field(lines[1], "layout") == "grid" && field(lines[2], "layout") == "list")
        // By ID: a date read meanwhile may re-sort the photos, moving the top photo's position but not the photo.
        #expect(field(lines[2], "top-photo") == field(lines[1], "top-photo"), "the grid ↔ list switch kept the photo")
        #expect(images[1] != images[2])
    }
}
#endif
