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
    /// `frame-0001.png`… at full size and `animation.png` (an APNG of every
    /// frame, at most ``animationSide`` pixels on its longer side, played at
    /// half speed) into `directory`. Returns the files written, the animation last.
    @MainActor
    package static func sequence(library: PhotoLibrary, settings: GallerySettings, size: CGSize, scroll: CGFloat,
                                frames: Int, velocity: CGFloat, pinch: CGFloat? = nil,
                                directory: URL) async throws -> [URL] {
        let model = try await prepared(library: library, settings: settings, size: size, scroll: scroll)
        let headless = try HeadlessRenderer(size: size)
        defer { headless.close() }
        headless.renderer.showsHUD = false
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var written: [URL] = []
        var animation = AnimatedPNG(delay: 1.0 / 30)
        // The frames scaled down for the animation by the decoders' own area resampler, from each frame's PNG,
        // with a budget of their own (the gallery's loader has the shared one).
        let scaler = CodecImageDecoder(memoryBudget: DecodingMemoryBudget(byteLimit: 256 << 20))
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
            let scaled = Self.animationSize(width: frame.width, height: frame.height)
            if scaled == (frame.width, frame.height) {
                animation.append(frame)
            } else {
                animation.append(try scaler.thumbnail(from: png, size: ThumbnailSize(width: scaled.width, height: scaled.height)).image)
            }
        }
        if let data = animation.data() {
            let url = directory.appendingPathComponent("animation.png")
            try OutputFile.write(data, to: url.path)
            written.append(url)
        }
        return written
    }

    /// The most pixels the animation of ``sequence(library:settings:size:scroll:frames:velocity:pinch:directory:)``
    /// has on its longer side; a larger rendering is scaled down for it
    /// (the frames keep their size). Animated PNG is lossless, so the file
    /// grows with the pixels: the 90 frames of `make run`'s scroll over
    /// photos at 1280 × 800 took 114 MB whole, 18 MB at 640 × 400 with only
    /// each frame's changed rectangle stored, and 12 MB at 512 × 320.
    package static let animationSide = 512

    /// The animation's size for frames of `width × height` pixels: theirs
    /// when within ``animationSide``, else scaled to it, the aspect ratio
    /// kept (each side rounded, at least 1).
    package static func animationSize(width: Int, height: Int) -> (width: Int, height: Int) {
        let longer = max(width, height)
        guard longer > animationSide else { return (width, height) }
        let scale = Double(animationSide) / Double(longer)
        return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }
}
#endif
