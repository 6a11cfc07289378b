#if canImport(CSDL2)
#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxImages

/// The detail view as a person uses it, in real time (a frame every
/// 16.7 ms, drawn with the window's software path, decodes beside it), on
/// a real photo set: how long a click takes to show the transition's first
/// frame, the whole photo sharp at the window's size, and a sharp 1:1
/// region after a zoom; the hitch time while the photo grows and while
/// paging; and the peak memory of opening and zooming the largest photos.
package enum ViewerBenchmark {
    /// The figures of one run.
    package struct Results: Sendable {
        package var photos = 0
        package var size = CGSize.zero
        /// The work of the frame a click opens the photo in (update and draw), seconds.
        package var firstFrame: [Double] = []
        /// From the click to the first frame drawing the window-size picture (mid-transition, as a rule),
        /// for the JPEGs and for the other photos.
        package var sharp: [Double] = []
        package var sharpOther: [Double] = []
        /// From a double click to 1:1 to the first frame showing the sharp region, the same two ways.
        package var oneToOne: [Double] = []
        package var oneToOneOther: [Double] = []
        /// Hitch time per second from a double click to the sharp region (its upload included).
        package var zoomHitch = 0.0
        /// Each photo: its name, megapixels, whether a progressive JPEG, and the two times (seconds).
        package var each: [(name: String, megapixels: Double, progressive: Bool, window: Double?, oneToOne: Double?)] = []
        /// Hitch time (work past the frame budget) per second, while photos opened and closed.
        package var transitionHitch = 0.0
        /// The same while paging through the photos, one every half second.
        package var pagingHitch = 0.0
        /// From each page to the photo sharp.
        package var pagingSharp: [Double] = []
        /// Per large photo: its name, pixels and bytes, and resident memory before opening it and at the
        /// peak of opening, zooming to 1:1 and panning across it.
        package var large: [(name: String, pixels: Int, bytes: Int, before: Int, peak: Int)] = []

        /// The Markdown report.
        package var markdown: String {
            func ms(_ values: [Double]) -> String {
                guard !values.isEmpty else { return "–" }
                let sorted = values.sorted()
                return String(format: "%.0f / %.0f ms", sorted[sorted.count / 2] * 1000, sorted[sorted.count - 1] * 1000)
            }
            func mib(_ bytes: Int) -> String { String(format: "%.0f MiB", Double(bytes) / 1_048_576) }
            var lines = [
                "## Opening a photo: the detail view", "",
                "The detail view on \(photos) photos at \(Int(size.width)) × \(Int(size.height)), in real time (a frame every 16.7 ms, "
                    + "drawn by the software renderer, decodes beside it). Medians / maxima.",
                "",
                "| measure | median / max | goal | result |",
                "| --- | ---: | --- | --- |",
                "| click → first frame of the transition (that frame's work) | \(ms(firstFrame)) | ≤ one frame (16.7 ms) | "
                    + "\(Self.verdict(firstFrame.max() ?? 0, 1.0 / 60)) |",
                "| click → window-size picture drawn, \(sharp.count) JPEGs | \(ms(sharp)) | ≤ 150 ms | "
                    + "\(Self.verdict(sharp.max() ?? 0, 0.150)) |",
                "| the same, \(sharpOther.count) PNGs | \(ms(sharpOther)) | | |",
                "| double click → sharp 1:1 region, JPEGs | \(ms(oneToOne)) | ≤ 100 ms | \(Self.verdict(oneToOne.max() ?? 0, 0.100)) |",
                "| the same, PNGs (decoded whole down to the region's last row) | \(ms(oneToOneOther)) | | |",
                "| page → sharp photo | \(ms(pagingSharp)) | | |",
                String(format: "| hitch time while opening and closing | %.2f ms/s | ≤ 5 ms/s | %@ |", transitionHitch,
                       Self.verdict(transitionHitch, 5)),
                String(format: "| hitch time from a double click to the sharp region | %.2f ms/s | | |", zoomHitch),
                String(format: "| hitch time while paging | %.2f ms/s | ≤ 5 ms/s | %@ |", pagingHitch, Self.verdict(pagingHitch, 5)),
            ]
            let progressive = each.filter(\.progressive), baseline = each.filter { !$0.progressive && $0.name.hasSuffix(".jpg") }
            lines += ["", "By kind of JPEG (a progressive file's region needs every scan of the whole picture decoded):", "",
                      "| JPEGs | count | megapixels, median | click → window-size picture | double click → sharp 1:1 |",
                      "| --- | ---: | ---: | ---: | ---: |"]
            for (title, group) in [("baseline", baseline), ("progressive", progressive)] where !group.isEmpty {
                let megapixels = group.map(\.megapixels).sorted()[group.count / 2]
                lines.append(String(format: "| %@ | %d | %.1f | %@ | %@ |", title, group.count, megapixels,
                                    ms(group.compactMap(\.window)), ms(group.compactMap(\.oneToOne))))
            }
            lines += ["", "<details><summary>Each photo</summary>", "", "| photo | megapixels | kind | click → window-size picture | double click → sharp 1:1 |",
                      "| --- | ---: | --- | ---: | ---: |"]
            for photo in each.sorted(by: { ($0.window ?? 0) > ($1.window ?? 0) }) {
                let kind = photo.name.hasSuffix(".png") ? "PNG" : photo.progressive ? "progressive JPEG" : "baseline JPEG"
                lines.append(String(format: "| %@ | %.1f | %@ | %@ | %@ |", photo.name, photo.megapixels, kind,
                                    photo.window.map { String(format: "%.0f ms", $0 * 1000) } ?? "–",
                                    photo.oneToOne.map { String(format: "%.0f ms", $0 * 1000) } ?? "–"))
            }
            lines += ["", "</details>"]
            if !large.isEmpty {
                lines += ["", "Memory opening a photo, zooming it to 1:1 and panning across it (resident memory, whole process):", "",
                          "| photo | pixels | file | before opening | peak | added |", "| --- | ---: | ---: | ---: | ---: | ---: |"]
                for photo in large {
                    lines.append(String(format: "| %@ | %.0f MP | %.1f MB | %@ | %@ | %@ |", photo.name, Double(photo.pixels) / 1e6,
                                        Double(photo.bytes) / 1e6, mib(photo.before), mib(photo.peak), mib(photo.peak - photo.before)))
                }
            }
            return lines.joined(separator: "\n")
        }

        /// One line per measure, for the terminal.
        package var summary: String { markdown }

        private static func verdict(_ value: Double, _ goal: Double) -> String { value <= goal ? "met" : "not met" }
    }

    /// Runs the benchmark over the first `photos` photos of `library`, then
    /// opens each file of `large` (each in a library of its own) for memory.
    @MainActor
    package static func run(library: PhotoLibrary, size: CGSize, photos: Int, large: [URL]) async throws -> Results {
        var results = Results()
        results.size = size
        let (model, viewer) = try await prepared(library: library, size: size)
        let headless = try HeadlessRenderer(size: size)
        defer { headless.close() }
        var session = Session(model: model, viewer: viewer, headless: headless)
        let count = min(photos, model.photos.count)
        results.photos = count
        let center = CGPoint(x: size.width / 2, y: size.height / 2)
        var transitionWork = (hitch: 0.0, seconds: 0.0), zoomWork = (hitch: 0.0, seconds: 0.0)
        var each: [(name: String, megapixels: Double, progressive: Bool, window: Double?, oneToOne: Double?)] = []
        for item in 0..<count {
            // The grid at rest with the photo's tile on screen and its thumbnail there.
            model.reveal(item: item)
            await session.settleGrid()
            session.resetHitches()
            let name = model.photos[item].rawValue.lowercased()
            let isJPEG = name.hasSuffix(".jpg") || name.hasSuffix(".jpeg")
            let click = Self.now()
            guard viewer.open(item: item, now: click) else { continue }
            results.firstFrame.append(session.frame())
            let shown = viewer.showsWindowPicture ? Self.now() : await session.frames(until: { viewer.showsWindowPicture })
            if let shown {
                if isJPEG { results.sharp.append(shown - click) } else { results.sharpOther.append(shown - click) }
            }
            _ = await session.frames(until: { viewer.isSharp })
            transitionWork.hitch += session.hitch
            transitionWork.seconds += session.seconds
            session.resetHitches()
            let zoomed = Self.now()
            viewer.toggleOneToOne(at: center)
            var oneToOne: Double?
            if !viewer.zoom.isFitted, let sharp = await session.frames(until: { viewer.isSharp }) {
                oneToOne = sharp - zoomed
                if isJPEG { results.oneToOne.append(sharp - zoomed) } else { results.oneToOneOther.append(sharp - zoomed) }
            }
            let data = viewer.pictures.entries[viewer.id]?.data
            each.append((name, Double(viewer.zoom.pictureSize.width * viewer.zoom.pictureSize.height) / 1e6,
                         data.map(Self.isProgressiveJPEG) ?? false, shown.map { $0 - click }, oneToOne))
            zoomWork.hitch += session.hitch
            zoomWork.seconds += session.seconds
            session.resetHitches()
            viewer.close(now: Self.now())
            _ = await session.frames(until: { viewer.phase == .closed })
            transitionWork.hitch += session.hitch
            transitionWork.seconds += session.seconds
        }
        results.transitionHitch = transitionWork.seconds > 0 ? transitionWork.hitch * 1000 / transitionWork.seconds : 0
        results.zoomHitch = zoomWork.seconds > 0 ? zoomWork.hitch * 1000 / zoomWork.seconds : 0
        results.each = each

        // Paging: a photo every half second, the neighbours read ahead.
        model.reveal(item: 0)
        await session.settleGrid()
        if viewer.open(item: 0, now: Self.now()) {
            _ = await session.frames(until: { viewer.isSharp })
            session.resetHitches()
            for _ in 0..<min(20, count - 1) {
                let paged = Self.now()
                viewer.page(by: 1, now: paged)
                if let sharp = await session.frames(until: { viewer.isSharp }) { results.pagingSharp.append(sharp - paged) }
                _ = await session.frames(until: { Self.now() - paged >= 0.5 })
            }
            results.pagingHitch = session.seconds > 0 ? session.hitch * 1000 / session.seconds : 0
            viewer.close(now: Self.now())
            _ = await session.frames(until: { viewer.phase == .closed })
        }

        for file in large {
            if let measured = try await memory(opening: file, size: size, headless: headless) { results.large.append(measured) }
        }
        return results
    }

    @MainActor
    private static func prepared(library: PhotoLibrary, size: CGSize) async throws -> (GalleryModel, PhotoViewer) {
        var settings = GallerySettings()
        settings.latency = .none
        let model = GalleryModel(library: library, settings: settings, viewportSize: size)
        await model.loadPhotoList()
        guard !model.photos.isEmpty else { throw NothingToRender(description: "no photos in \(library.description)") }
        await model.settleShapes()
        model.update(now: now())
        await model.settle(at: now())
        return (model, PhotoViewer.make(for: model))
    }

    /// Opens the photo in `file` alone, zooms it to 1:1 and pans across it,
    /// with the process's peak resident memory reset before.
    @MainActor
    private static func memory(opening file: URL, size: CGSize,
                               headless: HeadlessRenderer) async throws -> (name: String, pixels: Int, bytes: Int, before: Int, peak: Int)? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-viewer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent(file.lastPathComponent)
        if (try? FileManager.default.linkItem(at: file, to: copy)) == nil { try FileManager.default.copyItem(at: file, to: copy) }
        let (model, viewer) = try await prepared(library: try await PhotoLibrary.folder(folder), size: size)
        var session = Session(model: model, viewer: viewer, headless: headless)
        await session.settleGrid()
        let before = MemoryBenchmark.residentBytes()
        PeakMemory.reset()
        guard viewer.open(item: 0, now: now()) else { return nil }
        _ = await session.frames(until: { viewer.isSharp })
        viewer.toggleOneToOne(at: CGPoint(x: size.width / 2, y: size.height / 2))
        _ = await session.frames(until: { viewer.isSharp })
        // Across the photo and down: each stop decodes the region it shows.
        for _ in 0..<4 {
            viewer.drag(by: CGSize(width: -size.width * 0.9, height: -size.height * 0.5))
            _ = await session.frames(until: { viewer.isSharp })
        }
        let peak = PeakMemory.residentBytes()
        let pixels = Int(viewer.zoom.pictureSize.width * viewer.zoom.pictureSize.height)
        let bytes = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        viewer.close(now: now())
        _ = await session.frames(until: { viewer.phase == .closed })
        return (file.lastPathComponent, pixels, bytes, before, peak)
    }

    /// Whether `data` is a progressive JPEG: its first start-of-frame marker is SOF2 (or another progressive one).
    static func isProgressiveJPEG(_ data: Data) -> Bool {
        let bytes = [UInt8](data.prefix(1 << 20))
        var index = 2
        while index + 4 <= bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            if [0xC2, 0xC6, 0xCA, 0xCE].contains(marker) { return true }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) { return false }
            index += 2 + (Int(bytes[index + 2]) << 8 | Int(bytes[index + 3]))
        }
        return false
    }

    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// Frames paced like a display's: update and draw, then sleep to the
    /// next 16.7 ms tick (the pictures' arrivals run on the main actor then).
    @MainActor
    private struct Session {
        let model: GalleryModel
        let viewer: PhotoViewer
        let headless: HeadlessRenderer
        private(set) var hitch = 0.0
        private(set) var seconds = 0.0

        init(model: GalleryModel, viewer: PhotoViewer, headless: HeadlessRenderer) {
            self.model = model
            self.viewer = viewer
            self.headless = headless
        }

        mutating func resetHitches() { hitch = 0; seconds = 0 }

        /// One frame now; returns its work in seconds.
        mutating func frame() -> Double {
            let start = ViewerBenchmark.now()
            model.update(now: start)
            viewer.update(now: start)
            headless.draw(model, viewer: viewer.scene)
            let work = ViewerBenchmark.now() - start
            hitch += max(work - ScrollingQuality.frameBudget, 0)
            seconds += ScrollingQuality.frameBudget
            return work
        }

        /// Frames until `done` holds after one (at most 5 s); returns when that frame ended.
        mutating func frames(until done: () -> Bool) async -> Double? {
            let limit = ViewerBenchmark.now() + 5
            while ViewerBenchmark.now() < limit {
                let due = ViewerBenchmark.now() + ScrollingQuality.frameBudget
                _ = frame()
                if done() { return ViewerBenchmark.now() }
                let wait = due - ViewerBenchmark.now()
                if wait > 0 { try? await Task.sleep(for: .seconds(wait)) } else { await Task.yield() }
            }
            return nil
        }

        /// The grid at rest with every visible picture drawn.
        mutating func settleGrid() async {
            let now = ViewerBenchmark.now()
            model.update(now: now)
            await model.settle(at: now)
            _ = frame()
        }
    }
}
#endif
