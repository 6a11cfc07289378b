#if canImport(CSDL2)
import CSDL2
#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore
import ParallaxImages

/// There is no display to show a window on (SDL found only its offscreen or
/// dummy video driver).
package struct NoDisplay: Error, CustomStringConvertible, Sendable {
    package var driver: String
    package var description: String {
        "no display to open a window on (SDL video driver: \(driver.isEmpty ? "none" : driver); set DISPLAY or WAYLAND_DISPLAY)"
    }
}

/// The interactive gallery: an SDL window, input, and the render loop that
/// owns the ``GalleryModel`` and the ``PhotoViewer`` over it.
///
/// One file past the usual length because the grid's input, the detail
/// view's and the loop share the same private state (a drag, a pinch made
/// of wheel events, a click waiting to see if it is a double click), which
/// extensions elsewhere could not reach.
@MainActor
package final class GalleryWindow {
    private let model: GalleryModel
    private var renderer = GalleryRenderer()
    /// The HUD's first line: which SDL renderer draws, and whether on a GPU.
    private var rendererLine = ""
    /// Displayed frames (their intervals: the frame rate) and the work of each (drawing included).
    private var statistics = FrameStatistics()
    private var workTimes = FrameStatistics()
    private var running = true
    private var dragging: (last: CGPoint, samples: [(time: Double, y: CGFloat)], moved: CGFloat)?
    /// A pinch made of Ctrl + wheel events (what touchpad pinches arrive as
    /// on X11) or of SDL's multi-finger gestures: its scale so far, and when
    /// its last event came. It ends when no event has come for a moment.
    private var wheelPinch: (scale: CGFloat, last: Double, samples: [(time: Double, scale: CGFloat)])?
    /// How long a pinch waits for another wheel or gesture event before it ends.
    private static let pinchPause = 0.15
    private let screenshots: ScreenshotWriter?
    /// The layered background (Y), when shown.
    private var scene: LayeredScene?
    /// The loader's counters, refreshed a few times a second for the HUD.
    private var loaderStatistics = ImageLoader.Statistics()
    private var frameCount = 0
    /// What the person scrolling sees, over the last five to ten seconds
    /// (two alternating five-second windows).
    private var quality = (current: ScrollingQuality(), previous: ScrollingQuality())
    /// The detail view a click or Enter opens.
    private lazy var viewer: PhotoViewer = {
        PhotoViewer.make(for: model)
    }()
    /// A click on the open photo closes it once no second click (a double click: 1:1) has come by then.
    private var pendingClose: Double?
    private static let doubleClickTime = 0.3

    /// - Parameter showsHUD: Whether the developer HUD (frame rate, hitches,
    ///   loader counters) starts shown; off by default, so it covers no
    ///   photo. **I** toggles it either way.
    package init(model: GalleryModel, screenshotDirectory: URL? = nil, showsHUD: Bool = false) {
        self.model = model
        screenshots = screenshotDirectory.map(ScreenshotWriter.init(directory:))
        renderer.showsHUD = showsHUD
    }

    /// Opens the window and runs until it is closed.
    /// - Throws: ``SDLError`` when there is no display (the caller falls
    ///   back to headless rendering).
    package func run() async throws {
        // Only the drivers that can reach a display: a Wayland probe with nowhere to look prints a line.
        SDLVideoDrivers.chooseBeforeInit()
        guard SDL_Init(SDL_INIT_VIDEO) == 0 else { throw SDLError("no display to open a window on") }
        defer { SDL_Quit() }
        // Without a display SDL may still start its offscreen or dummy driver: a window nobody can see.
        let driver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? ""
        if ["offscreen", "dummy", "evdev", ""].contains(driver) {
            throw NoDisplay(driver: driver)
        }
        let size = model.viewportSize
        // A GPU composites the textures where the machine has one. Without one (Xvfb, a VM), SDL's OpenGL
        // renderer would run on Mesa's llvmpipe, a CPU rasteriser slower than SDL's own software renderer,
        // whose path (plain row copies of opaque photos) is the one this gallery makes cheap. Its frames
        // then go to the window system without OpenGL (X11's shared memory): left to itself, SDL would
        // present them as an OpenGL texture (on llvmpipe again: 51-69 % of a core for a window at rest,
        // against 8 %, scripts/bench-window.sh) and create the window a second time for OpenGL, under
        // another ID.
        let hasGPU = Self.hasGPU
        if !hasGPU {
            SDL_SetHint(SDL_HINT_RENDER_DRIVER, "software")
            SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0")
        }
        // With a GPU the renderer is OpenGL's, so the window is made for it at once (never made again).
        let flags = SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_SHOWN.rawValue | (hasGPU ? SDL_WINDOW_OPENGL.rawValue : 0)
        guard let window = SDL_CreateWindow("ParallaxKit — \(model.library.description)", pk_sdl_windowpos_centered(),
                                            pk_sdl_windowpos_centered(), SDLCanvas.pixel(size.width), SDLCanvas.pixel(size.height), flags) else {
            throw SDLError("could not open a window")
        }
        defer { SDL_DestroyWindow(window) }
        guard let sdlRenderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_PRESENTVSYNC.rawValue)
            ?? SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE.rawValue) else {
            throw SDLError("could not create a renderer")
        }
        defer { SDL_DestroyRenderer(sdlRenderer) }
        let canvas = SDLCanvas(renderer: sdlRenderer)
        canvas.makingBudget = SDLCanvas.pacedMakingBudget
        defer { canvas.close() }
        rendererLine = canvas.rendererDescription
        // Photos arrive while frames are drawn: the first screen comes from the listing's first batch.
        model.startListing()
        renderer.prepare(canvas)                            // while the first photos are read
        await model.waitForFirstScreen(now: Self.now())
        // Frames are paced like a display's refresh: one is due every 1/60 s on the wall clock, and the
        // loop sleeps until then. A frame that finishes late waits
        // for the next due time, and how late it was is what the HUD's hitch ratio counts: the same
        // measure as the session benchmark's.
        let budget = ScrollingQuality.frameBudget
        var previous = Self.now()
        var due = previous
        while running {
            var event = SDL_Event()
            while SDL_PollEvent(&event) != 0 { await handle(event, canvas: canvas) }
            let start = Self.now()
            if let pinch = wheelPinch, start - pinch.last > Self.pinchPause {
                model.endPinch(velocity: Self.velocity(of: pinch.samples), now: start)
                wheelPinch = nil
            }
            if let scene {
                canvas.beginFrame()
                scene.advance(by: CGFloat(min(start - previous, 0.25)))
                renderer.draw(scene, on: canvas, hud: renderer.showsHUD ? hud() : [])
            } else {
                if let due = pendingClose, start >= due {
                    pendingClose = nil
                    viewer.close(now: start)
                }
                model.update(now: start)
                viewer.update(now: start)
                canvas.beginFrame(afterWorking: .seconds(Self.now() - start))
                renderer.draw(model, viewer: viewer.scene, on: canvas, hud: renderer.showsHUD ? hud() : [])
            }
            SDL_RenderPresent(sdlRenderer)
            let finished = Self.now()
            var next = due + budget
            while next < finished { next += budget }
            statistics.record(next - due)
            workTimes.record(finished - start)
            if scene == nil {
                let tiles = model.tileCounts
                quality.current.record(visible: model.cells.count, blank: tiles.blank, preview: tiles.preview,
                                       isMoving: !model.scroll.isAtRest,
                                       frameTime: finished - due, interval: next - due)
                if quality.current.seconds >= 5 { quality = (ScrollingQuality(), quality.current) }
            }
            previous = start
            due = next
            frameCount += 1
            if !listingAnnounced, let summary = model.listingSummary {
                listingAnnounced = true
                announce(summary, window: window)
            }
            if frameCount % 15 == 0 { loaderStatistics = await model.loader.statistics }
            // The pipeline's results for the main actor run here, then the thread sleeps until the frame
            // is due (a plain sleep wakes within a fraction of a millisecond; a task's sleep can be late).
            await Task.yield()
            let wait = next - Self.now()
            if wait > 0 { usleep(UInt32(wait * 1_000_000)) }
        }
        await screenshots?.waitForWrites()
    }

    /// Follows a pinch made of wheel or gesture events: the first one begins
    /// it at `point`, each one scales it by `factor`.
    private func pinchBy(factor: CGFloat, at point: CGPoint) {
        guard factor.isFinite, factor > 0 else { return }
        let now = Self.now()
        if wheelPinch == nil {
            model.beginPinch(at: point)
            wheelPinch = (1, now, [])
        }
        wheelPinch!.scale *= factor
        wheelPinch!.last = now
        wheelPinch!.samples.append((now, wheelPinch!.scale))
        if wheelPinch!.samples.count > 6 { wheelPinch!.samples.removeFirst() }
        model.pinch(scale: wheelPinch!.scale, at: point)
    }

    /// The scale's change per second over the last events (0 with fewer than two).
    private static func velocity(of samples: [(time: Double, scale: CGFloat)]) -> CGFloat {
        guard let first = samples.first, let last = samples.last, last.time - first.time > 0.01 else { return 0 }
        return (last.scale - first.scale) / CGFloat(last.time - first.time)
    }

    /// Whether the finished listing has been announced (``announce(_:window:)``).
    private var listingAnnounced = false

    /// Says what the listing found beside the photos, once: in the window's
    /// title ("… · 12 videos and 3 other files not shown") and on standard
    /// error, with each folder or link that was skipped by name.
    private func announce(_ summary: FolderScan.Report, window: OpaquePointer) {
        var title = "ParallaxKit — \(model.photos.count) photos, \(model.library.description)"
        if let notShown = summary.notShownSummary {
            title += " · \(notShown)"
            FileHandle.standardError.write(Data("parallax-gallery: \(notShown)\n".utf8))
        }
        SDL_SetWindowTitle(window, title)
        for problem in summary.problems.prefix(20) {
            FileHandle.standardError.write(Data("parallax-gallery: skipped \(problem)\n".utf8))
        }
        if summary.problemCount > 20 {
            FileHandle.standardError.write(Data("parallax-gallery: … and \(summary.problemCount - 20) more skipped\n".utf8))
        }
    }

    /// Whether the machine has a GPU to render on: a Linux DRM render node
    /// (`/dev/dri/renderD*`). Elsewhere SDL decides.
    static var hasGPU: Bool {
        #if os(Linux)
        let nodes = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []
        return nodes.contains { $0.hasPrefix("renderD") }
        #else
        return true
        #endif
    }

    private static func now() -> Double { Double(SDL_GetPerformanceCounter()) / Double(SDL_GetPerformanceFrequency()) }

    /// The HUD's lines: built only for frames that show it (five formatted
    /// strings and a sort of the last 240 frame times, every frame).
    private func hud() -> [String] {
        let cache = model.loader.memoryCache
        return [
            rendererLine,
            String(format: "%.0f fps  frame work p99 %.1f ms   ", statistics.framesPerSecond, workTimes.percentile(0.99) * 1000)
                + GalleryRenderer.settingsLine(of: model),
            "memory cache \(cache.count) images, \(cache.totalCost / 1_048_576) MB, \(loaderStatistics.memoryHits) hits · downloads in flight \(loaderStatistics.downloadsInFlight), decodes \(loaderStatistics.decodesInFlight)"
                + Self.checksText(loaderStatistics) + " · H for help",
            (quality.previous + quality.current).hudLine,
            GalleryRenderer.libraryLine(of: model),
        ]
    }

    /// The kept thumbnails of a server's photos being checked and replaced
    /// (`ImageLoader.KeptThumbnailCheck`), for the HUD; nothing for a folder.
    nonisolated static func checksText(_ statistics: ImageLoader.Statistics) -> String {
        guard statistics.keptThumbnailChecksInFlight > 0 || statistics.keptThumbnailsReplaced > 0 else { return "" }
        return " · kept thumbnails: \(statistics.keptThumbnailChecksInFlight) being checked, \(statistics.keptThumbnailsReplaced) replaced"
    }

    private func handle(_ event: SDL_Event, canvas: SDLCanvas) async {
        switch SDL_EventType(rawValue: event.type) {
        case SDL_QUIT:
            running = false
        case SDL_WINDOWEVENT where event.window.event == UInt8(SDL_WINDOWEVENT_SIZE_CHANGED.rawValue):
            let size = CGSize(width: CGFloat(event.window.data1), height: CGFloat(event.window.data2))
            model.resize(to: size)
            scene?.resize(to: size)
            viewer.resize(to: CGRect(origin: .zero, size: size))
        case _ where viewer.isShown && scene == nil:
            await handleInViewer(event, canvas: canvas)
        case SDL_MOUSEWHEEL where scene != nil:
            scene!.fling(velocity: -CGFloat(event.wheel.preciseY + event.wheel.preciseX) * 2400)
        case SDL_MOUSEWHEEL where (UInt32(SDL_GetModState().rawValue) & UInt32(KMOD_CTRL.rawValue)) != 0:
            var x: Int32 = 0, y: Int32 = 0
            SDL_GetMouseState(&x, &y)
            // A notch is a tenth more or less; a touchpad's pinch sends fractions of a notch.
            pinchBy(factor: pow(1.1, CGFloat(event.wheel.preciseY)), at: CGPoint(x: CGFloat(x), y: CGFloat(y)))
        case SDL_MULTIGESTURE where event.mgesture.numFingers >= 2:
            // Positions are normalised to the touch device; the distance change likewise.
            let point = CGPoint(x: CGFloat(event.mgesture.x) * model.viewportSize.width,
                                y: CGFloat(event.mgesture.y) * model.viewportSize.height)
            pinchBy(factor: exp(CGFloat(event.mgesture.dDist) * 4), at: point)
        case SDL_MOUSEWHEEL:
            model.fling(velocity: -CGFloat(event.wheel.preciseY) * 1800)
        case SDL_MOUSEBUTTONDOWN where scene != nil && event.button.button == UInt8(SDL_BUTTON_LEFT):
            dragging = (CGPoint(x: CGFloat(event.button.x), y: CGFloat(event.button.y)), [(Self.now(), CGFloat(event.button.x))], 0)
            scene!.beginDrag()
        case SDL_MOUSEMOTION where scene != nil && dragging != nil:
            let x = CGFloat(event.motion.x)
            scene!.drag(by: -(x - dragging!.last.x))
            dragging!.last.x = x
            dragging!.samples.append((Self.now(), x))
            if dragging!.samples.count > 6 { dragging!.samples.removeFirst() }
        case SDL_MOUSEBUTTONUP where scene != nil && event.button.button == UInt8(SDL_BUTTON_LEFT):
            guard let drag = dragging else { return }
            dragging = nil
            var velocity: CGFloat = 0
            if let first = drag.samples.first, let last = drag.samples.last, last.time - first.time > 0.001 {
                velocity = -(last.y - first.y) / CGFloat(last.time - first.time)
            }
            scene!.release(velocity: velocity)
        case SDL_MOUSEBUTTONDOWN where event.button.button == UInt8(SDL_BUTTON_LEFT):
            let point = CGPoint(x: CGFloat(event.button.x), y: CGFloat(event.button.y))
            dragging = (point, [(Self.now(), point.y)], 0)
            model.beginDrag()
            model.press(at: point)
        case SDL_MOUSEMOTION where dragging != nil:
            let point = CGPoint(x: CGFloat(event.motion.x), y: CGFloat(event.motion.y))
            let dy = point.y - dragging!.last.y
            model.drag(by: -dy)
            dragging!.last = point
            dragging!.moved += abs(dy)
            dragging!.samples.append((Self.now(), point.y))
            if dragging!.samples.count > 6 { dragging!.samples.removeFirst() }
            if dragging!.moved > 6 { model.press(at: nil) }
        case SDL_MOUSEBUTTONUP where event.button.button == UInt8(SDL_BUTTON_LEFT):
            guard let drag = dragging else { return }
            dragging = nil
            model.press(at: nil)
            var velocity: CGFloat = 0
            if let first = drag.samples.first, let last = drag.samples.last, last.time - first.time > 0.001,
               Self.now() - last.time < 0.08 {
                velocity = -(last.y - first.y) / CGFloat(last.time - first.time)
            }
            model.endDrag(velocity: velocity)
            if drag.moved <= 6, let item = model.item(at: drag.last) {
                if model.cells.first(where: { $0.item == item })?.failure != nil {
                    model.retry(item: item)
                } else {
                    viewer.open(item: item, now: Self.now())
                }
            }
        case SDL_KEYDOWN:
            await handleKey(event.key.keysym.sym, canvas: canvas)
        default:
            break
        }
    }

    private func handleKey(_ key: SDL_Keycode, canvas: SDLCanvas) async {
        let rowStep = model.rowStep
        let page = model.viewportSize.height
        switch Int(key) {
        case Int(SDLK_q.rawValue), Int(SDLK_ESCAPE.rawValue): running = false
        case Int(SDLK_RETURN.rawValue), Int(SDLK_KP_ENTER.rawValue):
            if let item = model.itemToOpen(at: Self.mousePosition()) { viewer.open(item: item, now: Self.now()) }
        case Int(SDLK_g.rawValue): model.toggleLayout(now: Self.now())
        case Int(SDLK_1.rawValue): model.switchLayout(to: .grid, now: Self.now())
        case Int(SDLK_2.rawValue): model.switchLayout(to: .list, now: Self.now())
        case Int(SDLK_3.rawValue): model.switchLayout(to: .quilt, now: Self.now())
        case Int(SDLK_4.rawValue): model.switchLayout(to: .waterfall, now: Self.now())
        case Int(SDLK_TAB.rawValue): model.switchLayout(to: model.settings.layout.next, now: Self.now())
        case Int(SDLK_LEFTBRACKET.rawValue): model.stepColumns(by: -1, now: Self.now())
        case Int(SDLK_RIGHTBRACKET.rawValue): model.stepColumns(by: 1, now: Self.now())
        case Int(SDLK_e.rawValue): model.cycleEffect()
        case Int(SDLK_PLUS.rawValue), Int(SDLK_EQUALS.rawValue), Int(SDLK_KP_PLUS.rawValue): model.changeIntensity(by: 0.25)
        case Int(SDLK_MINUS.rawValue), Int(SDLK_KP_MINUS.rawValue): model.changeIntensity(by: -0.25)
        case Int(SDLK_m.rawValue): model.toggleReduceMotion()
        case Int(SDLK_n.rawValue): model.toggleSnapping()
        case Int(SDLK_o.rawValue): model.setSort(model.settings.sort.next)
        case Int(SDLK_d.rawValue): model.setGrouping(model.settings.grouping.next)
        case Int(SDLK_COMMA.rawValue), Int(SDLK_LESS.rawValue): model.jumpSection(by: -1)
        case Int(SDLK_PERIOD.rawValue), Int(SDLK_GREATER.rawValue): model.jumpSection(by: 1)
        case Int(SDLK_r.rawValue): await model.reloadAll()
        case Int(SDLK_x.rawValue): await model.eraseAll()
        case Int(SDLK_l.rawValue): await model.cycleLatency()
        case Int(SDLK_f.rawValue): await model.cycleFailureRate()
        case Int(SDLK_h.rawValue), Int(SDLK_QUESTION.rawValue), Int(SDLK_SLASH.rawValue): renderer.showsHelp.toggle()
        case Int(SDLK_c.rawValue): renderer.showsCredits.toggle()
        case Int(SDLK_i.rawValue): renderer.showsHUD.toggle()
        case Int(SDLK_DOWN.rawValue): model.glide(by: rowStep)
        case Int(SDLK_UP.rawValue): model.glide(by: -rowStep)
        case Int(SDLK_PAGEDOWN.rawValue), Int(SDLK_SPACE.rawValue): model.glide(by: page)
        case Int(SDLK_PAGEUP.rawValue): model.glide(by: -page)
        case Int(SDLK_HOME.rawValue): model.glide(to: model.scroll.bounds.lowerBound)
        case Int(SDLK_END.rawValue): model.glide(to: model.scroll.bounds.upperBound)
        case Int(SDLK_p.rawValue): saveScreenshot(canvas)
        case Int(SDLK_y.rawValue): scene = scene == nil ? LayeredScene(viewportSize: model.viewportSize) : nil
        case Int(SDLK_RIGHT.rawValue) where scene != nil: scene!.fling(velocity: 3000)
        case Int(SDLK_LEFT.rawValue) where scene != nil: scene!.fling(velocity: -3000)
        default: break
        }
    }

    /// The pointer's position in the window.
    private static func mousePosition() -> CGPoint? {
        var x: Int32 = 0, y: Int32 = 0
        guard SDL_GetMouseFocus() != nil else { return nil }
        SDL_GetMouseState(&x, &y)
        return CGPoint(x: CGFloat(x), y: CGFloat(y))
    }

    /// Input while the detail view is shown: zoom (wheel, Ctrl + wheel,
    /// pinch), pan or page (drag), 1:1 (double click), close (click, Esc,
    /// Enter, a pinch in at fit), page (arrows), information (I).
    private func handleInViewer(_ event: SDL_Event, canvas: SDLCanvas) async {
        let now = Self.now()
        switch SDL_EventType(rawValue: event.type) {
        case SDL_QUIT:
            running = false
        case SDL_MOUSEWHEEL:
            var x: Int32 = 0, y: Int32 = 0
            SDL_GetMouseState(&x, &y)
            // Ctrl + wheel is a touchpad's pinch on X11: a pinch in at fit closes; a plain wheel stops at fit.
            let isPinch = (UInt32(SDL_GetModState().rawValue) & UInt32(KMOD_CTRL.rawValue)) != 0
            viewer.zoom(by: pow(1.15, CGFloat(event.wheel.preciseY)), about: CGPoint(x: CGFloat(x), y: CGFloat(y)),
                        closesBelowFit: isPinch, now: now)
        case SDL_MULTIGESTURE where event.mgesture.numFingers >= 2:
            let point = CGPoint(x: CGFloat(event.mgesture.x) * model.viewportSize.width,
                                y: CGFloat(event.mgesture.y) * model.viewportSize.height)
            viewer.zoom(by: exp(CGFloat(event.mgesture.dDist) * 4), about: point, now: now)
        case SDL_MOUSEBUTTONDOWN where event.button.button == UInt8(SDL_BUTTON_LEFT):
            let point = CGPoint(x: CGFloat(event.button.x), y: CGFloat(event.button.y))
            dragging = (point, [(now, point.x)], 0)
            if event.button.clicks >= 2 {
                pendingClose = nil
                viewer.toggleOneToOne(at: point)
            }
        case SDL_MOUSEMOTION where dragging != nil:
            let point = CGPoint(x: CGFloat(event.motion.x), y: CGFloat(event.motion.y))
            let delta = CGSize(width: point.x - dragging!.last.x, height: point.y - dragging!.last.y)
            viewer.drag(by: delta)
            dragging!.last = point
            dragging!.moved += abs(delta.width) + abs(delta.height)
            dragging!.samples.append((now, point.x))
            if dragging!.samples.count > 6 { dragging!.samples.removeFirst() }
        case SDL_MOUSEBUTTONUP where event.button.button == UInt8(SDL_BUTTON_LEFT):
            guard let drag = dragging else { return }
            dragging = nil
            if drag.moved <= 6 {
                if event.button.clicks == 1 { pendingClose = now + Self.doubleClickTime }
                return
            }
            var velocity: CGFloat = 0
            if let first = drag.samples.first, let last = drag.samples.last, last.time - first.time > 0.001, now - last.time < 0.08 {
                velocity = (last.y - first.y) / CGFloat(last.time - first.time)
            }
            viewer.endDrag(velocity: velocity, now: now)
        case SDL_KEYDOWN:
            let center = CGPoint(x: model.viewportSize.width / 2, y: model.viewportSize.height / 2)
            switch Int(event.key.keysym.sym) {
            case Int(SDLK_ESCAPE.rawValue), Int(SDLK_RETURN.rawValue), Int(SDLK_KP_ENTER.rawValue), Int(SDLK_BACKSPACE.rawValue):
                viewer.close(now: now)
            case Int(SDLK_q.rawValue): running = false
            case Int(SDLK_RIGHT.rawValue), Int(SDLK_SPACE.rawValue), Int(SDLK_PAGEDOWN.rawValue): viewer.page(by: 1, now: now)
            case Int(SDLK_LEFT.rawValue), Int(SDLK_PAGEUP.rawValue): viewer.page(by: -1, now: now)
            case Int(SDLK_PLUS.rawValue), Int(SDLK_EQUALS.rawValue), Int(SDLK_KP_PLUS.rawValue): viewer.zoom(by: 1.5, about: center, now: now)
            case Int(SDLK_MINUS.rawValue), Int(SDLK_KP_MINUS.rawValue):
                viewer.zoom(by: 1 / 1.5, about: center, closesBelowFit: false, now: now)
            case Int(SDLK_0.rawValue): viewer.fit()
            case Int(SDLK_z.rawValue), Int(SDLK_1.rawValue): viewer.toggleOneToOne(at: center)
            case Int(SDLK_i.rawValue): viewer.showsInfo.toggle()
            case Int(SDLK_h.rawValue), Int(SDLK_QUESTION.rawValue), Int(SDLK_SLASH.rawValue): renderer.showsHelp.toggle()
            case Int(SDLK_p.rawValue): saveScreenshot(canvas)
            default: break
            }
        default:
            break
        }
    }

    /// Writes the frame on screen to the screenshot folder (P), with a line
    /// saying where the gallery stood (``ScreenshotWriter``).
    private func saveScreenshot(_ canvas: SDLCanvas) {
        guard let screenshots, let pixels = canvas.readPixels() else { return }
        // The top photo by position and by ID: dates read in the background re-sort the photos, which
        // moves a photo's position, never the photo at the top of the screen.
        let topPhoto = model.topItem.flatMap { model.photos.indices.contains($0) ? model.photos[$0].rawValue : nil }
        let state = "top-item: \(model.topItem.map(String.init) ?? "none") "
            + "top-photo: \(topPhoto?.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "none") "
            + "layout: \(model.settings.layout.rawValue) "
            + "reading: \(model.isListing || !model.allDatesRead ? "yes" : "no") "
            + "moving: \(model.isMoving ? "yes" : "no") "
            + "viewer: \(viewer.isShown ? "item \(viewer.item) \(viewer.isSharp ? "sharp" : "not-sharp") zoom \(String(format: "%.2f", Double(viewer.zoom.scale)))" : "closed")\n"
        screenshots.write(pixels) { url in "screenshot: \(url.path) " + state }
    }
}
#endif
