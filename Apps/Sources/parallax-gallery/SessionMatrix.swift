import Foundation
import ParallaxGallery

/// The sessions `parallax-gallery session` runs, and the sources they run
/// over, in the order the report lists them.
///
/// First the scrolling sessions: for every latency, every layout, with
/// ParallaxKit's scheduling and then (unless left out) the
/// first-come-first-served baseline, all over the photos the options name.
/// Then a first and a second launch with the thumbnail disk cache, over the
/// photo folder and over the same folder served by `python3 -m http.server`
/// on loopback: in the layouts that need no photo shapes only (the disk
/// cache serves every layout alike, and over a server that ignores byte
/// ranges a quilt would also read every photo whole for its header).
struct SessionMatrix {
    /// A source the launch sessions can run over: `--launches` takes their
    /// raw values.
    enum Launch: String, CaseIterable, Sendable {
        case disk, http, none

        /// What the choice runs, for the help text.
        var summary: String {
            switch self {
            case .disk: return "first and second launch over the photo folder"
            case .http: return "the same over python3 -m http.server on loopback"
            case .none: return "no launch sessions"
            }
        }
    }

    var layouts: [GalleryLayout]
    var latencies: [LatencyPreset]
    /// Whether each scrolling session is run again with the baseline's scheduling.
    var includesBaseline: Bool
    var launches: Set<Launch>
    /// How many photos every session shows (the set repeated under distinct names).
    var photos: Int
    var size: CGSize

    /// The scrolling sessions over photos from `source`.
    func scrollingScenarios(source: SessionBenchmark.Scenario.Source) -> [SessionBenchmark.Scenario] {
        latencies.flatMap { latency in
            layouts.flatMap { layout in
                (includesBaseline ? [true, false] : [true]).map { followsViewport in
                    SessionBenchmark.Scenario(layout: layout, latency: latency, followsViewport: followsViewport, source: source)
                }
            }
        }
    }

    /// The launch sessions over photos from `source`, each to be run as a
    /// first and a second launch.
    func launchScenarios(source: SessionBenchmark.Scenario.Source) -> [SessionBenchmark.Scenario] {
        layouts.filter { !$0.usesPhotoShapes }.map { layout in
            SessionBenchmark.Scenario(layout: layout, latency: .none, followsViewport: true, source: source)
        }
    }

    /// Runs every session over `library` (the photos `photoSource` names),
    /// printing each one's summary line as it ends, and returns their
    /// figures in order.
    ///
    /// The launch sessions compare the photo folder with the same folder
    /// over HTTP, so they are left out, with a notice, when the photos come
    /// from a server or are generated; an HTTP server that cannot start
    /// leaves out its sessions alone.
    @MainActor
    func run(over library: PhotoLibrary, from photoSource: PhotoSourceOptions) async throws -> [SessionBenchmark.Figures] {
        var figures: [SessionBenchmark.Figures] = []
        for scenario in scrollingScenarios(source: .init(library: library)) {
            let result = try await SessionBenchmark.run(scenario, library: library, photos: photos, size: size)
            print(result.summary)
            figures.append(result)
        }
        var launches = self.launches
        if !photoSource.isFolder, !launches.subtracting([.none]).isEmpty {
            CommandOutput.notice("the launch sessions need the photo folder; left out with --server or --generated")
            launches = []
        }
        var sources: [(SessionBenchmark.Scenario.Source, PhotoLibrary)] = []
        if launches.contains(.disk) { sources.append((.folder, library)) }
        var server: LocalHTTPServer?
        if launches.contains(.http) {
            do {
                let started = try LocalHTTPServer(serving: photoSource.folder)
                server = started
                sources.append((.httpServer, try PhotoLibrary.server(started.url)))
            } catch {
                CommandOutput.notice("the HTTP sessions are left out: \(error)")
            }
        }
        defer { server?.stop() }
        for (source, sourceLibrary) in sources {
            for scenario in launchScenarios(source: source) {
                for result in try await SessionBenchmark.runFirstAndSecondLaunch(scenario, library: sourceLibrary,
                                                                                  photos: photos, size: size) {
                    print(result.summary)
                    figures.append(result)
                }
            }
        }
        return figures
    }
}
