#if canImport(CSDL2)
import CSDL2
import Foundation

/// Which of SDL's video drivers the gallery lets `SDL_Init` try: every one
/// SDL would try, in SDL's order, except Wayland when libwayland has nowhere
/// to look for a compositor.
///
/// SDL 2 tries its drivers in turn: X11, then Wayland, then the rest. On a
/// machine without a display X11 gives up quietly, but Wayland's probe calls
/// `wl_display_connect`, and libwayland-client itself prints
/// `error: XDG_RUNTIME_DIR is invalid or not set in the environment.` to
/// standard error when the variable is unset or not an absolute path: the
/// first line a person saw of a headless `make run`, though nothing was
/// wrong. Without that directory (and without an absolute
/// `WAYLAND_DISPLAY` or an inherited `WAYLAND_SOCKET`) libwayland cannot
/// reach a compositor at all, so leaving Wayland out loses nothing and
/// removes the line at its cause, without hiding any other message: a
/// Wayland session with a runtime directory is probed as before, its
/// errors printed as before, and a driver chosen with `SDL_VIDEODRIVER` is
/// left alone.
package enum SDLVideoDrivers {
    /// The value for SDL's `SDL_VIDEODRIVER` hint (a comma-separated list,
    /// which SDL tries in order), or `nil` to leave SDL's own choice.
    /// - Parameters:
    ///   - available: the drivers SDL was built with, in the order it tries
    ///     them (`SDL_GetVideoDriver`).
    ///   - environment: the process's environment.
    package static func hint(available: [String], environment: [String: String]) -> String? {
        if let chosen = environment["SDL_VIDEODRIVER"], !chosen.isEmpty { return nil }
        guard available.contains("wayland"), !waylandCanConnect(environment) else { return nil }
        let others = available.filter { $0 != "wayland" }
        return others.isEmpty ? nil : others.joined(separator: ",")
    }

    /// Whether `wl_display_connect(NULL)` would look for a compositor
    /// rather than refuse with its message: a socket handed down in
    /// `WAYLAND_SOCKET`, a display named by absolute path, or a runtime
    /// directory given as an absolute path (libwayland's own test).
    package static func waylandCanConnect(_ environment: [String: String]) -> Bool {
        if environment["WAYLAND_SOCKET"] != nil { return true }
        if environment["WAYLAND_DISPLAY"]?.hasPrefix("/") == true { return true }
        return environment["XDG_RUNTIME_DIR"]?.hasPrefix("/") == true
    }

    /// Sets SDL's `SDL_VIDEODRIVER` hint from ``hint(available:environment:)``
    /// for this process (a hint, unlike the variable, reaches no child
    /// process). Call before `SDL_Init`.
    package static func chooseBeforeInit(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let available = (0..<max(SDL_GetNumVideoDrivers(), 0)).compactMap { index in
            SDL_GetVideoDriver(index).map { String(cString: $0) }
        }
        if let drivers = hint(available: available, environment: environment) {
            SDL_SetHint(SDL_HINT_VIDEODRIVER, drivers)
        }
    }
}
#endif
