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
    // The headless run itself, with no display and no runtime directory, is GalleryCommandTests'
    // `withoutADisplayItRendersHeadlessAndSaysWhere`: one 90-frame run checks both.
}
#endif
