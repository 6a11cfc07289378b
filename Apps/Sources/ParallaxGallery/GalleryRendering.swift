#if canImport(CSDL2)
#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxImages

/// Why a headless rendering has no photos to draw (the list failed, or
/// it is empty), instead of a frame that only shows that message.
package struct NothingToRender: Error, CustomStringConvertible, Sendable {
    package var description: String
}

/// Scripted, headless runs of the gallery: single frames, fling sequences
/// with an animation, and the frame-time benchmark.
package enum GalleryRendering {
    /// Renders one frame with the content scrolled to `scroll`, after every
    /// visible picture has arrived, and returns it.
    @MainActor
    package static func frame(library: PhotoLibrary, settings: GallerySettings, size: CGSize, scroll: CGFloat,
                             hud: Bool = false) async throws -> PixelImage? {
        let model = try await prepared(library: library, settings: settings, size: size, scroll: scroll)
        let headless = try HeadlessRenderer(size: size)
        defer { headless.close() }
        headless.renderer.showsHUD = hud
        await model.settle(at: 0)
        return headless.render(model, hud: hud ? [GalleryRenderer.settingsLine(of: model)] : [])
    }

    /// A model with its photo list and (for quilt and waterfall) every
    /// photo's shape loaded, scrolled to `scroll`: the same frame every run.
    /// - Throws: ``NothingToRender`` when the list cannot be had or is
    ///   empty: a frame of that message is not a rendering of the photos.
    @MainActor
    private static func prepared(library: PhotoLibrary, settings: GallerySettings, size: CGSize,
                                 scroll: CGFloat) async throws -> GalleryModel {
        let model = GalleryModel(library: library, settings: settings, viewportSize: size)
        await model.loadPhotoList()
        guard !model.photos.isEmpty else {
            throw NothingToRender(description: "nothing to render from \(library.description): \(model.status ?? "No photos to show.")")
        }
        await model.settleShapes()
        model.jump(to: scroll)
        return model
    }

    /// Renders the layered scene with the driver scrolled to `offset`.
    @MainActor
    package static func layers(size: CGSize, offset: CGFloat) throws -> PixelImage? {
        let scene = LayeredScene(viewportSize: size)
        scene.beginDrag()
        scene.drag(by: offset)
        let headless = try HeadlessRenderer(size: size)
        defer { headless.close() }
        headless.canvas.beginFrame()
        headless.renderer.showsHUD = false
        headless.renderer.draw(scene, on: headless.canvas)
        return headless.canvas.readPixels()
    }

    /// Renders `frames` frames at 60 per second of a fling at `velocity`
    /// points per second starting from `scroll` (or, with `pinch`, of a
    /// pinch about the centre whose scale goes from 1 to `pinch` over the
    /// first half of the frames, then lets go and settles), each after its
    /// pictures have arrived (deterministic for a given seed), writing
    /// `frame-0001.png`… and `animation.png` (APNG) into `directory`.
    /// Returns the files written.
    @MainActor
    package static func sequence(library: PhotoLibrary, settings: GallerySettings, size: CGSize, scroll: CGFloat,
                                frames: Int, velocity: CGFloat, pinch: CGFloat? = nil,
                                directory: URL) async throws -> [URL] {
        let model = try await prepared(library: library, settings: settings, size: size, scroll: scroll)
        let headless = try HeadlessRenderer(size: size)
        defer { headless.close() }
        headless.renderer.showsHUD = false
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var written: [URL] = [], pngs: [Data] = []
        model.update(now: 0)
        let center = CGPoint(x: size.width / 2, y: size.height / 2)
        let pinchFrames = max(frames / 2, 1)
        if pinch != nil { model.beginPinch(at: center) } else { model.fling(velocity: velocity) }
        for index in 0..<max(frames, 1) {
            let now = Double(index) / 60
            if let pinch {
                if index < pinchFrames {
                    // Eased in and out, as fingers move.
                    let t = Double(index + 1) / Double(pinchFrames), eased = t * t * (3 - 2 * t)
                    model.pinch(scale: CGFloat(pow(Double(pinch), eased)), at: center)
                } else if index == pinchFrames {
                    model.endPinch(now: now)
                }
            }
            await model.settle(at: now)
            guard let frame = headless.render(model), let png = frame.pngData() else { continue }
            let url = directory.appendingPathComponent(String(format: "frame-%04d.png", index + 1))
            try OutputFile.write(png, to: url.path)
            written.append(url)
            pngs.append(png)
        }
        if let animation = AnimatedPNG.make(frames: pngs, delay: 1.0 / 30) {
            let url = directory.appendingPathComponent("animation.png")
            try OutputFile.write(animation, to: url.path)
            written.append(url)
        }
        return written
    }
}
#endif
