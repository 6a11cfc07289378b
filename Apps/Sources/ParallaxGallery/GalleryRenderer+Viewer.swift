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
        if scene.dimming > 0 {
            canvas.fill(whole, RGBA(0, 0, 0, UInt8(max(0, min(255, (scene.dimming * 255).rounded())))))
        }
        for photo in scene.photos {
            guard !photo.clip.isNull, !photo.clip.isEmpty else { continue }
            canvas.clip(to: photo.clip)
            if photo.screen == nil {
                if let preview = photo.preview {
                    canvas.drawPreview(preview, of: photo.id, in: photo.frame)
                } else if photo.thumbnail == nil {
                    canvas.fill(photo.frame, RGBA(40, 42, 48))
                }
                if let thumbnail = photo.thumbnail {
                    canvas.draw(thumbnail.image, key: thumbnail.key, in: thumbnail.rect, opacity: photo.opacity)
                }
            }
            if let screen = photo.screen {
                canvas.draw(screen.image, key: screen.key, in: photo.frame, opacity: photo.opacity)
            }
            if let region = photo.region {
                canvas.draw(region.image, key: region.key, in: region.rect, opacity: photo.opacity)
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

    /// The detail view's keys, for the help.
    static let viewerHelpLines = [
        "Photo: ← / → or drag   previous / next        wheel, Ctrl + wheel, pinch, + / −   zoom",
        "double click or Z   1:1 / fit    0   fit      drag   pan when zoomed       I   information",
        "Esc, Enter, click or pinch in at fit   back to the grid",
    ]
}
