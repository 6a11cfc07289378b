#if canImport(CSDL2)
import CSDL2
#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxImages

/// Draws gallery frames into memory with SDL's software renderer: no
/// display needed, pixel-identical from run to run, and the very same
/// ``GalleryRenderer`` and ``SDLCanvas`` the window uses. It draws into
/// the pixel format of a window on X11 (XRGB8888), so the benchmarks take
/// the same blitters as the window does.
@MainActor
package final class HeadlessRenderer {
    private let surface: UnsafeMutablePointer<SDL_Surface>
    package let canvas: SDLCanvas
    package var renderer = GalleryRenderer()

    /// A renderer for frames of `size` pixels.
    /// - Throws: ``SDLError`` if SDL cannot make the surface or renderer.
    package init(size: CGSize, fontPath: String? = SDLCanvas.defaultFontPath) throws {
        let width = max(SDLCanvas.pixel(size.width), 1), height = max(SDLCanvas.pixel(size.height), 1)
        guard let surface = SDL_CreateRGBSurfaceWithFormat(0, width, height, 32, pk_sdl_pixelformat_xrgb8888()) else {
            throw SDLError("could not create a \(width)×\(height) surface")
        }
        guard let software = SDL_CreateSoftwareRenderer(surface) else {
            SDL_FreeSurface(surface)
            throw SDLError("could not create the software renderer")
        }
        self.surface = surface
        self.canvas = SDLCanvas(renderer: software, targetFormat: pk_sdl_pixelformat_xrgb8888(), fontPath: fontPath)
    }

    /// Releases SDL's resources.
    package func close() {
        canvas.close()
        SDL_DestroyRenderer(canvas.renderer)
        SDL_FreeSurface(surface)
    }

    /// Draws `model` as it is now and returns the frame.
    package func render(_ model: GalleryModel, hud: [String] = []) -> PixelImage? {
        draw(model, hud: hud)
        return canvas.readPixels()
    }

    /// Draws `model` as it is now, without reading the frame back, after
    /// `work` spent on the frame before (``SDLCanvas/beginFrame(afterWorking:)``).
    package func draw(_ model: GalleryModel, hud: [String] = [], afterWorking work: Duration = .zero) {
        draw(model, viewer: nil, hud: hud, afterWorking: work)
    }

    /// Draws `model` with the detail view's `viewer` scene over it.
    func draw(_ model: GalleryModel, viewer: ViewerScene?, hud: [String] = [], afterWorking work: Duration = .zero) {
        canvas.beginFrame(afterWorking: work)
        renderer.draw(model, viewer: viewer, on: canvas, hud: hud)
        SDL_RenderPresent(canvas.renderer)
    }
}
#endif
