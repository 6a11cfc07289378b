#if canImport(CSDL2)
import Foundation
import ParallaxImages
import Testing
@testable import ParallaxGallery

/// A photo folder that is deleted as soon as its list has been read: every
/// photo then fails to load, mid-session.
struct VanishingFolder: ImageSource {
    let base: FolderImageSource

    func imageIDs() async throws(ImageSourceError) -> [ImageID] {
        let ids = try await base.imageIDs()
        try? FileManager.default.removeItem(at: base.directory)
        return ids
    }
    func data(for id: ImageID) async throws(ImageSourceError) -> Data { try await base.data(for: id) }
    func isStoredLocally(_ id: ImageID) async -> Bool { true }
    func header(for id: ImageID) async throws(ImageSourceError) -> ImageHeader { try await base.header(for: id) }
}

/// Serialized: sessions run on the wall clock on the main actor, so two at
/// once would slow each other's frames and measure that.
@Suite("Session benchmark", .serialized)
@MainActor
struct SessionBenchmarkTests {
    /// A session small enough for a test: 300 photos, one fling, one jump, a tenth of a second's dwell.
    /// A screen may take up to ten minutes to fill: the test checks that every stop fills, not how
    /// fast (that is the benchmark's job), so a loaded machine makes it slower, never failed.
    static let script = SessionBenchmark.Script(
        flings: [.init(speed: 3000, count: 1)], jumps: [.init(name: "end", fraction: 1)],
        pinches: [.init(name: "out", scale: 1.8, seconds: 0.2)], dwell: 0.1, fillTimeLimit: 600)

    @Test func aShortSessionMeasuresEveryStopAndEveryFrame() async throws {
        let library = PhotoLibrary.synthetic(count: 12, width: 160, height: 120)
        let scenario = SessionBenchmark.Scenario(layout: .grid, latency: .none, followsViewport: true)
        let figures = try await SessionBenchmark.run(scenario, library: library, photos: 300,
                                                     size: CGSize(width: 640, height: 400), script: Self.script)
        #expect(figures.fills.map(\.event) == ["first screen", "fling 3000 #1", "jump to the end", "back in the middle",
                                                "pinch out"])
        // The pinch: twelve frames with the fingers down, then the settle. How many tiles are blank while
        // pinching depends on how fast decodes run beside the frames, so it is the benchmark's figure
        // (with its target); that a photo once shown never blanks is GalleryPinchTests', exactly.
        #expect(figures.pinching.frames > 12 && figures.pinching.frames < figures.whole.frames)
        #expect(figures.pinching.movingTileFrames > 0, "\(figures.summary)")
        #expect(figures.pinchWork.p99 > 0 && figures.pinchWork.p99 <= figures.pinchWork.max)
        #expect(figures.fills.allSatisfy { $0.seconds != nil },
                "\(figures.fills.map { "\($0.event): \($0.seconds.map { String(format: "%.2f s", $0) } ?? "never")" })")
        // Every frame stood for at least one refresh interval, so the session lasted at least frames / 60 s.
        #expect(figures.whole.frames > 30 && figures.whole.seconds >= Double(figures.whole.frames) / 60 - 1e-6)
        let fling = try #require(figures.flings[3000])
        #expect(fling.movingTileFrames > 0 && fling.frames < figures.whole.frames)
        #expect(figures.work.p50 <= figures.work.p99 && figures.work.p99 <= figures.work.max && figures.work.max > 0)
        #expect(figures.decodes > 0 && figures.cachePeakBytes > 0 && figures.cachePeakBytes <= figures.cacheLimitBytes)
        #expect(figures.peakResidentBytes > 0)
    }

    /// A new temporary folder of `count` generated 160 × 120 photos.
    static func photoFolder(named name: String, count: Int) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for index in 0..<count {
            try SyntheticPhotos.landscape(index: index, width: 160, height: 120)
                .write(to: folder.appendingPathComponent("photo-\(index).png"))
        }
        return folder
    }

    /// A slow server that lists every photo's preview: no tile is ever
    /// blank, at any speed, and every jump shows every tile's preview in
    /// its own frame; the photos themselves arrive 0–2 s later.
    @Test func aServerThatListsPreviewsNeverShowsABlankTile() async throws {
        let folder = try Self.photoFolder(named: "previewed", count: 12)
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = try await PhotoLibrary.folder(folder)
        let scenario = SessionBenchmark.Scenario(layout: .grid, latency: .seed, followsViewport: true)
        #expect(scenario.listsPreviews)
        let figures = try await SessionBenchmark.run(scenario, library: library, photos: 300,
                                                     size: CGSize(width: 640, height: 400), script: Self.script)
        #expect(figures.whole.movingTileFrames > 0)
        #expect(figures.whole.blankTileFrames == 0, "\(figures.summary)")
        #expect(figures.whole.previewTileFrames > 0, "the photos took their time: previews were seen")
        let jump = try #require(figures.fillTimes("jump").first)
        #expect(jump.previewSeconds == 0, "previews in the jump's own frame: \(figures.summary)")
        #expect(figures.failedLoads == 0)
    }

    /// Issue 23: a folder deleted mid-session used to report 0 % blank
    /// (a failed tile counts as shown) and nothing else.
    @Test func aFolderThatVanishesMidSessionIsCountedAndSaidPlainly() async throws {
        let folder = try Self.photoFolder(named: "vanishing", count: 3)
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = PhotoLibrary(source: VanishingFolder(base: FolderImageSource(directory: folder)), credits: [],
                                   description: "a vanishing folder", readsHeadersLocally: true)
        let scenario = SessionBenchmark.Scenario(layout: .grid, latency: .none, followsViewport: true, source: .init(library: library))
        #expect(scenario.source == .folder)
        let script = SessionBenchmark.Script(flings: [.init(speed: 3000, count: 1)], jumps: [], dwell: 0.05)
        let figures = try await SessionBenchmark.run(scenario, library: library, photos: 60,
                                                     size: CGSize(width: 640, height: 400), script: script)
        #expect(figures.failedLoads > 0)
        let problem = try #require(figures.sourceProblem)
        #expect(problem.contains(folder.path))
        #expect(figures.summary.contains("\(figures.failedLoads) failed loads"))
        #expect(figures.summary.contains("THE PHOTO SOURCE FAILED DURING THE SESSION"))
        let markdown = SessionReport.markdown([figures])
        #expect(markdown.contains("### Failed loads"))
        #expect(markdown.contains("| \(scenario.name) | \(figures.failedLoads) | failed: \(problem) |"))
        #expect(markdown.contains("**The photo source failed during \(scenario.name): \(problem).**"))
    }

    /// The wait before the first frame (here the session 300 ms behind its
    /// schedule, as a large library's listing leaves it) is the first
    /// screen's time: the first frame's lateness is its own work past the
    /// budget, never the wait.
    @Test func theWaitForTheFirstFrameIsNotAHitch() async throws {
        let size = CGSize(width: 320, height: 200)
        let headless = try HeadlessRenderer(size: size)
        defer { headless.close() }
        var settings = GallerySettings()
        settings.latency = .none
        let model = GalleryModel(library: .synthetic(count: 4, width: 8, height: 8), settings: settings, viewportSize: size)
        var session = PacedSession(model: model, headless: headless, fillTimeLimit: 10)
        await model.loadPhotoList()
        // Behind by 300 ms when the first frame can start: set, not slept, so nothing depends on the machine.
        session.due = session.due - .milliseconds(300)
        await session.frame()
        #expect(session.workTimes.count == 1)
        #expect(session.whole.hitchSeconds <= session.workTimes[0])
    }

    /// Sessions over `--server` (or generated pictures) say so: never "photos on disk".
    @Test func sessionsOverAServerOrGeneratedPicturesAreLabelledByTheirSource() throws {
        let server = try PhotoLibrary.server(try #require(URL(string: "http://127.0.0.1:8/photos.json")))
        #expect(SessionBenchmark.Scenario.Source(library: server) == .server)
        #expect(SessionBenchmark.Scenario.Source(library: .synthetic(count: 1, width: 8, height: 8)) == .generated)
        func figures(_ source: SessionBenchmark.Scenario.Source, _ followsViewport: Bool) -> SessionBenchmark.Figures {
            var quality = ScrollingQuality()
            quality.record(visible: 100, blank: 1, isMoving: true, frameTime: 0.01, interval: 1.0 / 60)
            return SessionBenchmark.Figures(
                scenario: .init(layout: .grid, latency: .none, followsViewport: followsViewport, source: source), photos: 3000,
                flings: [3000: quality, 6000: quality], whole: quality,
                fills: [.init(event: "first screen", seconds: 0.04), .init(event: "jump to the end", seconds: 0.04)],
                work: (0.004, 0.012, 0.015), peakResidentBytes: 300 << 20, cachePeakBytes: 100 << 20,
                cacheLimitBytes: 256 << 20, decodes: 10)
        }
        let markdown = SessionReport.markdown([figures(.server, true), figures(.server, false)])
        #expect(!markdown.contains("on disk |") && !markdown.contains(", on disk:"))
        #expect(markdown.contains("| grid, photos from --server | "))
        #expect(markdown.contains("| grid, from --server: blank ≤ 1 % at 3,000 pt/s | 1.00 % | **PASS** |"))
        #expect(figures(.generated, true).summary.hasPrefix("grid, generated pictures, ParallaxKit:"))
        #expect(!markdown.contains("### Failed loads"))
        // A library's own photos as listed (`--as-listed`) are never called the set repeated.
        #expect(markdown.hasPrefix("## What the user sees while scrolling\n\nScripted sessions over 3000 photos (the real photo set repeated"))
        let listed = SessionReport.markdown([figures(.folder, true)], photoSet: .listed("the photos in /home/me/Pictures"))
        #expect(listed.hasPrefix("## What the user sees while scrolling a library tree\n\nScripted sessions over the 3,000 photos of the photos in /home/me/Pictures as listed (a nested library tree"))
        #expect(!listed.contains("repeated under distinct names"))
        #expect(!listed.contains("### Against the baseline"), "no baseline ran: no empty table")
        #expect(markdown.contains("### Against the baseline"))
    }

    /// The report is the section's title and body alone: the markers, the date and the machine are
    /// scripts/bench-report.py's to add (scripts/test-bench-report.sh checks that side).
    @Test func theReportIsItsTitleAndBodyAlone() throws {
        func figures(_ followsViewport: Bool, blank: Int, fill: Double) -> SessionBenchmark.Figures {
            var quality = ScrollingQuality()
            quality.record(visible: 100, blank: blank, isMoving: true, frameTime: 0.01, interval: 1.0 / 60)
            return SessionBenchmark.Figures(
                scenario: .init(layout: .grid, latency: .none, followsViewport: followsViewport), photos: 3000,
                flings: [3000: quality, 6000: quality], whole: quality,
                fills: [.init(event: "first screen", seconds: fill), .init(event: "fling 3000 #1", seconds: fill),
                        .init(event: "jump to the end", seconds: fill)],
                work: (0.004, 0.012, 0.015), peakResidentBytes: 300 << 20, cachePeakBytes: 100 << 20,
                cacheLimitBytes: 256 << 20, decodes: 10)
        }
        let markdown = SessionReport.markdown([figures(true, blank: 1, fill: 0.040), figures(false, blank: 20, fill: 0.400)])
        #expect(markdown.hasPrefix("## What the user sees while scrolling\n\nScripted sessions over 3000 photos"))
        #expect(markdown.contains("| grid, photos on disk | 20.00 % / 1.00 % = 20.0× | 400 ms / 40 ms = 10.0× | 400 ms / 40 ms = 10.0× |"))
        #expect(markdown.contains("| grid, on disk: blank ≤ 1 % at 3,000 pt/s | 1.00 % | **PASS** |"))
        #expect(markdown.contains("| grid, on disk: full ≤ 250 ms after every jump | 40 ms | **PASS** |"))
        #expect(!markdown.contains("<!--") && !markdown.contains("Generated") && !markdown.contains("Machine:"))
        #expect(markdown.hasSuffix("| **PASS** |"))
    }
}
#endif
