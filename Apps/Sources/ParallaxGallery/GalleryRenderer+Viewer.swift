#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxImages

extension GalleryRenderer {
    /// Draws the detail view over the grid: the grid dimmed, then each
    /// photo from its softest picture to its sharpest (the preview, the
    /// tile's thumbnail where its crop lies, the window-size picture, the
    /// sharp region when zoomed), each under its clip, and the information
    /// panel.
    @MainActor
    func draw(_ scene: ViewerScene, on canvas: GalleryCanvas) {
        let size = canvas.pixelSize
        let whole = CGRect(origin: .zero, size: size)
        canvas.clip(to: nil)
        // The grid dims around the photo, not under it: the photo covers its clip whole (a preview, the
        // tile's thumbnail or the picture, each opaque), so blending there is work nobody sees. Fading out
        // onto no tile (opacity below 1), the grid shows through the photo and dims whole.
        if scene.dimming > 0, !scene.coversGrid {
            let shade = RGBA(0, 0, 0, UInt8(max(0, min(255, (scene.dimming * 255).rounded()))))
            if let photo = scene.photos.first, photo.opacity >= 1, !photo.clip.isEmpty {
                for strip in Self.strips(of: whole, around: photo.clip) { canvas.fill(strip, shade) }
            } else {
                canvas.fill(whole, shade)
            }
        }
        for photo in scene.photos {
            guard !photo.clip.isNull, !photo.clip.isEmpty else { continue }
            canvas.clip(to: photo.clip)
            if photo.screen == nil {
                // The preview only where the thumbnail does not cover it: the software renderer's stretch costs
                // every pixel it writes.
                let uncovered = photo.thumbnail.map { Self.strips(of: photo.clip, around: $0.rect) } ?? [photo.clip]
                for part in uncovered {
                    canvas.clip(to: part)
                    if let preview = photo.preview {
                        canvas.drawPreview(preview, of: photo.id, in: photo.frame)
                    } else {
                        canvas.fill(part, RGBA(40, 42, 48))
                    }
                }
                canvas.clip(to: photo.clip)
                if let thumbnail = photo.thumbnail {
                    canvas.draw(thumbnail.image, key: thumbnail.key, in: thumbnail.rect, opacity: photo.opacity)
                }
            }
            if let screen = photo.screen {
                canvas.drawDetail(screen.image, key: screen.key, in: photo.frame, opacity: photo.opacity)
            }
            if let region = photo.region {
                canvas.drawDetail(region.image, key: region.key, in: region.rect, opacity: photo.opacity)
            }
            if let failure = photo.failure {
                canvas.drawText("⚠ " + String(failure.prefix(80)), at: CGPoint(x: photo.frame.minX + 16, y: photo.frame.midY),
                                size: 15, color: RGBA(255, 220, 220), outlined: true)
            }
        }
        canvas.clip(to: nil)
        if let info = scene.info {
            let lineHeight: CGFloat = 20
            let panel = CGRect(x: 16, y: size.height - 16 - CGFloat(info.count) * lineHeight - 20, width: min(560, size.width - 32),
                               height: CGFloat(info.count) * lineHeight + 20)
            canvas.fill(panel, RGBA(0, 0, 0, 190))
            for (row, line) in info.enumerated() {
                canvas.drawText(line, at: CGPoint(x: panel.minX + 12, y: panel.minY + 10 + CGFloat(row) * lineHeight),
                                size: row == 0 ? 15 : 13, color: RGBA(255, 255, 255), outlined: false)
            }
        }
    }

    /// The parts of `outer` outside `inner`: up to four strips (above,
    /// below, left and right of `inner`), none where `inner` covers `outer`.
    static func strips(of outer: CGRect, around inner: CGRect) -> [CGRect] {
        let cut = outer.intersection(inner)
        guard !cut.isNull, !cut.isEmpty else { return [outer] }
        let candidates = [
            CGRect(x: outer.minX, y: outer.minY, width: outer.width, height: cut.minY - outer.minY),
            CGRect(x: outer.minX, y: cut.maxY, width: outer.width, height: outer.maxY - cut.maxY),
            CGRect(x: outer.minX, y: cut.minY, width: cut.minX - outer.minX, height: cut.height),
            CGRect(x: cut.maxX, y: cut.minY, width: outer.maxX - cut.maxX, height: cut.height),
        ]
        return candidates.filter { $0.width > 0.01 && $0.height > 0.01 }
    }

    /// The detail view's keys, for the help.
    static let viewerHelpLines = [
        "Photo: ← / → or drag   previous / next        wheel, Ctrl + wheel, pinch, + / −   zoom",
        "double click or Z   1:1 / fit    0   fit      drag   pan when zoomed       I   information",
        "Esc, Enter, click or pinch in at fit   back to the grid",
    ]
}
