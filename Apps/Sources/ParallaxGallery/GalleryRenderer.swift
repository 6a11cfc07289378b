#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxImages

/// Draws a ``GalleryModel`` onto a ``GalleryCanvas``: the photos with their
/// parallax, previews (a photo's ThumbHash, soft, where it is known) or
/// else placeholders (an illustration while a photo downloads, black while
/// a stored one decodes), the 0.25 s cross-fade, error tiles, titles,
/// the HUD, the help and the credits.
package struct GalleryRenderer {
    package var showsHUD = true
    package var showsHelp = false
    package var showsCredits = false
    package var showsTitles = true
    private let titles = PhotoTitles()

    package init() {}

    /// The sizes of tiles' titles, sections' titles on their headers, and
    /// the title of the section pinned to the top.
    static let tileTitleSize = 14, sectionTitleSize = 20, pinnedTitleSize = 18

    /// Gets `canvas` ready for the text of a grid's first screen: call it
    /// while waiting for the first photos.
    @MainActor
    package func prepare(_ canvas: GalleryCanvas) {
        canvas.prepareText(sizes: [Self.tileTitleSize, Self.sectionTitleSize, Self.pinnedTitleSize])
    }

    package static let background = RGBA(24, 26, 32)
    package static let cachedPlaceholder = RGBA(0, 0, 0)
    package static let errorTile = RGBA(110, 24, 30)

    /// Draws the grid, then the detail view's `viewer` scene over it (the
    /// grid not at all when the scene covers it, and without the tile the
    /// photo is lifted from), then the status, HUD, help and credits.
    @MainActor
    package func draw(_ model: GalleryModel, on canvas: GalleryCanvas, hud: [String] = []) {
        draw(model, viewer: nil, on: canvas, hud: hud)
    }

    @MainActor
    func draw(_ model: GalleryModel, viewer: ViewerScene?, on canvas: GalleryCanvas, hud: [String] = []) {
        canvas.clip(to: nil)
        canvas.clear(viewer?.coversGrid == true ? RGBA(0, 0, 0) : Self.background)
        if viewer?.coversGrid != true { drawCells(of: model, hiding: viewer?.liftedItem, on: canvas) }
        if let viewer { draw(viewer, on: canvas) }
        if let status = model.status {
            canvas.drawText(status, at: CGPoint(x: 20, y: 20), size: 18, color: RGBA(255, 255, 255), outlined: true)
        }
        if showsHUD { drawLines(hud, at: CGPoint(x: 10, y: 8), on: canvas, size: 13) }
        if showsHelp {
            drawLines(Self.helpLines + (viewer == nil ? [] : Self.viewerHelpLines), at: CGPoint(x: 40, y: 60), on: canvas,
                      size: 16, panel: true)
        }
        if showsCredits {
            drawLines(["Photo credits"] + model.library.credits.prefix(40), at: CGPoint(x: 40, y: 60), on: canvas, size: 12, panel: true)
        }
    }

    /// The grid's cells and section headers; the cell of `hidden` (a photo
    /// lifted into the detail view) shows the background.
    @MainActor
    private func drawCells(of model: GalleryModel, hiding hidden: Int?, on canvas: GalleryCanvas) {
        for cell in model.cells {
            canvas.clip(to: cell.frame)
            if cell.item == hidden {
                canvas.fill(cell.frame, Self.background)
                continue
            }
            if let image = cell.image, let key = cell.imageKey {
                let rect = cell.contentFrame.offsetBy(dx: cell.frame.minX, dy: cell.frame.minY)
                // Under an opaque photo that has faded in and covers its cell, the placeholder is hidden: not drawn.
                if cell.opacity < 1 || !Self.rect(rect, covers: cell.frame) || !canvas.isOpaque(image, key: key) {
                    drawPlaceholder(cell, on: canvas)
                }
                canvas.draw(image, key: key, in: rect, opacity: cell.opacity)
            } else if let failure = cell.failure {
                canvas.fill(cell.frame, Self.errorTile)
                canvas.drawText("⚠ failed — click to retry", at: CGPoint(x: cell.frame.minX + 8, y: cell.frame.midY - 8),
                                size: 13, color: RGBA(255, 230, 230), outlined: true)
                canvas.drawText(String(failure.prefix(48)), at: CGPoint(x: cell.frame.minX + 8, y: cell.frame.midY + 10),
                                size: 11, color: RGBA(255, 200, 200), outlined: false)
            } else {
                drawPlaceholder(cell, on: canvas)
            }
            if cell.isPressed { canvas.fill(cell.frame, RGBA(255, 255, 255, 70)) }
            if showsTitles, cell.frame.height >= 60 {
                canvas.drawText(titles.title(of: cell.id), at: CGPoint(x: cell.frame.minX + 8, y: cell.frame.maxY - 24),
                                size: Self.tileTitleSize, color: RGBA(255, 255, 255), outlined: true)
            }
        }
        canvas.clip(to: nil)
        drawSectionHeaders(of: model, on: canvas)
    }

    /// Whether `outer` covers every pixel of `inner`, shared edges included
    /// (Foundation's `contains` on Linux leaves out a rectangle's far edges).
    static func rect(_ outer: CGRect, covers inner: CGRect) -> Bool {
        outer.minX <= inner.minX && outer.minY <= inner.minY && outer.maxX >= inner.maxX && outer.maxY >= inner.maxY
    }

    /// Each visible section's title ("June 2024") on its header, and the
    /// title of the section at the top pinned to the top of the window
    /// once its own header has scrolled away.
    @MainActor
    private func drawSectionHeaders(of model: GalleryModel, on canvas: GalleryCanvas) {
        model.forEachVisibleHeader { title, frame in
            canvas.drawText(title, at: CGPoint(x: frame.minX + 12, y: frame.minY + 10), size: Self.sectionTitleSize, color: RGBA(255, 255, 255),
                            outlined: true)
        }
        if let title = model.pinnedHeaderTitle {
            canvas.fill(CGRect(x: 0, y: 0, width: model.viewportSize.width, height: 36), RGBA(24, 26, 32, 210))
            canvas.drawText(title, at: CGPoint(x: 12, y: 8), size: Self.pinnedTitleSize, color: RGBA(255, 255, 255),
                            outlined: true)
        }
    }

    @MainActor
    private func drawPlaceholder(_ cell: CellContent, on canvas: GalleryCanvas) {
        switch cell.placeholder {
        case .preview(let preview):
            // A see-through photo's preview is see-through too: the tile's colour under it, never the window's.
            if !canvas.isPreviewOpaque(preview, of: cell.id) { canvas.fill(cell.frame, Self.cachedPlaceholder) }
            // Where the photo will be: in its content frame, parallax included, under the cell's clip.
            canvas.drawPreview(preview, of: cell.id, in: cell.contentFrame.offsetBy(dx: cell.frame.minX, dy: cell.frame.minY))
        case .cached:
            canvas.fill(cell.frame, Self.cachedPlaceholder)
        case .uncached:
            // An illustration: a soft sky and hills, so a missing picture reads as "coming".
            canvas.fill(cell.frame, RGBA(58, 74, 98))
            let hill = CGRect(x: cell.frame.minX, y: cell.frame.minY + cell.frame.height * 0.62,
                              width: cell.frame.width, height: cell.frame.height * 0.38)
            canvas.fill(hill, RGBA(46, 92, 70))
            let sun = CGRect(x: cell.frame.minX + cell.frame.width * 0.68, y: cell.frame.minY + cell.frame.height * 0.18,
                             width: cell.frame.width * 0.12, height: cell.frame.width * 0.12)
            canvas.fill(sun, RGBA(236, 200, 96))
        }
    }

    @MainActor
    private func drawLines(_ lines: [String], at origin: CGPoint, on canvas: GalleryCanvas, size: Int, panel: Bool = false) {
        guard !lines.isEmpty else { return }
        let lineHeight = CGFloat(size) * 1.45
        if panel {
            canvas.fill(CGRect(x: origin.x - 16, y: origin.y - 12, width: min(canvas.pixelSize.width - 2 * origin.x + 32, 760),
                               height: CGFloat(lines.count) * lineHeight + 24), RGBA(0, 0, 0, 200))
        }
        for (row, line) in lines.enumerated() {
            canvas.drawText(line, at: CGPoint(x: origin.x, y: origin.y + CGFloat(row) * lineHeight), size: size,
                            color: RGBA(255, 255, 255), outlined: true)
        }
    }

    /// Draws the layered scene: every layer's art at its own offset, repeated across its loop.
    @MainActor
    package func draw(_ scene: LayeredScene, on canvas: GalleryCanvas, hud: [String] = []) {
        canvas.clip(to: nil)
        canvas.clear(RGBA(20, 30, 78))
        let width = scene.viewportSize.width
        for layer in 0..<scene.art.count {
            let offset = scene.offset(ofLayer: layer)
            let period = scene.loop(ofLayer: layer).period
            for mark in scene.art[layer] {
                // Each mark shows where it falls in this screen, once per period that reaches it.
                var x = mark.x - offset
                while x + mark.width < 0 { x += period }
                while x < width {
                    canvas.fill(CGRect(x: x, y: mark.y, width: mark.width, height: mark.height), mark.color)
                    x += period
                }
            }
        }
        if showsHUD { drawLines(hud, at: CGPoint(x: 10, y: 8), on: canvas, size: 13) }
    }

    /// The HUD line that describes the library: how many photos, whether
    /// more are being found, what was not shown, how many dates are known.
    @MainActor
    package static func libraryLine(of model: GalleryModel) -> String {
        var parts = ["\(model.photos.count) photos" + (model.isListing ? " so far, listing…" : "")]
        if let notShown = model.listingSummary?.notShownSummary { parts.append(notShown) }
        if let problems = model.listingSummary?.problemCount, problems > 0 {
            parts.append("\(problems) folder\(problems == 1 ? "" : "s") or link\(problems == 1 ? "" : "s") skipped")
        }
        parts.append("order: \(model.settings.sort.rawValue), sections: \(model.settings.grouping.rawValue)")
        return parts.joined(separator: " · ")
    }

    /// The HUD line that describes the model's settings (the window adds
    /// frame times and loader counters to it).
    @MainActor
    package static func settingsLine(of model: GalleryModel) -> String {
        let settings = model.settings
        let layout: String
        switch settings.layout {
        case .grid: layout = "grid of \(model.columnCount)"
        case .list: layout = "list"
        case .quilt, .waterfall:
            let shapes = model.allShapesRead ? "" : ", \(model.shapes.knownCount) of \(model.photos.count) shapes known"
            layout = "\(settings.layout.rawValue) of \(model.columnCount)\(shapes)"
        }
        return String(format: "%@ · %@ · intensity %.1f%@ · latency %@, failures %d %%", layout,
                      settings.effect.rawValue, Double(settings.intensity), settings.reduceMotion ? " · Reduce Motion" : "",
                      settings.latency.rawValue, Int(settings.failureRate * 100))
    }

    package static let helpLines = [
        "ParallaxKit gallery — keys",
        "wheel, drag, arrows, Page Up/Down, Home/End   scroll (flings snap to rows)",
        "G   switch grid ↔ list (keeps the photo)        E   effect: depth / window / off",
        "1 grid  2 list  3 quilt  4 waterfall   Tab   next layout (each switch keeps the photo in place)",
        "Ctrl + wheel, pinch, [ and ]   fewer / more columns (1–8, quilt 2–8; the photo under the pointer stays)",
        "+ / −   parallax intensity                        M   Reduce Motion",
        "R   reload all (forget downloads)               X   erase all and fetch the list again",
        "L   server latency: none / 0–2 s / 1–5 s         F   failure rate: 0 / 10 / 30 %",
        "O   order: newest / oldest first / by name       D   sections: month / day / folder / none",
        ", and .   previous / next section (month)",
        "N   snapping on/off          Y   layered scene          C   photo credits",
        "click or Enter   open the photo (Enter: the one under the pointer, else the top one)",
        "H or ?   this help           I   HUD           click a failed tile to retry      Q / Esc   quit",
    ]
}
