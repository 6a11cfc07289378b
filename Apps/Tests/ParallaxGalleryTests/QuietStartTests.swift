// The gallery draws through SDL2, which it uses on Linux only.
#if canImport(CSDL2)
import Foundation
import Testing
@testable import ParallaxGallery

/// What SDL is let try before the window opens, and what a person sees of
/// it: nothing on standard error but the gallery's own lines.
@Suite("Quiet start", .serialized)
struct QuietStartTests {
    static let drivers = ["x11", "wayland", "kmsdrm", "offscreen", "dummy", "evdev"]

    @Test func waylandIsLeftOutOnlyWhenLibwaylandHasNowhereToLook() {
        let headless: [String: String] = ["HOME": "/root"]
        #expect(SDLVideoDrivers.hint(available: Self.drivers, environment: headless) == "x11,kmsdrm,offscreen,dummy,evdev")
        // An empty or relative runtime directory is one libwayland refuses with its message too.
        for invalid in ["", "run/user/0"] {
            #expect(SDLVideoDrivers.hint(available: Self.drivers, environment: ["XDG_RUNTIME_DIR": invalid]) != nil)
        }
        // A Wayland libwayland can look for is probed as SDL would, its errors shown.
        for reachable in [["XDG_RUNTIME_DIR": "/run/user/1000"], ["WAYLAND_DISPLAY": "/tmp/wayland-1"], ["WAYLAND_SOCKET": "5"]] {
            #expect(SDLVideoDrivers.hint(available: Self.drivers, environment: reachable) == nil, "\(reachable)")
        }
        // The person's own choice stands, and an SDL without Wayland needs no choice.
        #expect(SDLVideoDrivers.hint(available: Self.drivers, environment: ["SDL_VIDEODRIVER": "wayland"]) == nil)
        #expect(SDLVideoDrivers.hint(available: ["x11", "offscreen"], environment: headless) == nil)
        #expect(SDLVideoDrivers.hint(available: ["wayland"], environment: headless) == nil)
    }

    @Test func aHeadlessRunPrintsNothingOnStandardErrorBeforeItsOwnLines() throws {
        let directory = GalleryExecutable.scratch()
        // A headless machine as `make run` meets it: no display, no runtime directory, SDL left to choose.
        let unset: [String: String?] = ["DISPLAY": nil, "WAYLAND_DISPLAY": nil, "WAYLAND_SOCKET": nil,
                                        "XDG_RUNTIME_DIR": nil, "SDL_VIDEODRIVER": nil]
        let outcome = try GalleryExecutable.run(["--generated", "--size", "320x240"], in: directory, environment: unset)
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(!outcome.errors.contains("XDG_RUNTIME_DIR"), "\(outcome.errors)")
        #expect(outcome.errors.isEmpty, "standard error before and besides the gallery's own lines: \(outcome.errors)")
        let lines = outcome.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("parallax-gallery: no display") == true, "\(lines)")
        // It says where the animation is, and that file is there.
        let animation = directory.appendingPathComponent(".cache/gallery-render/animation.png").path
        #expect(lines.last?.trimmingCharacters(in: .whitespaces) == animation)
        #expect(FileManager.default.fileExists(atPath: animation))
    }
}
#endif
