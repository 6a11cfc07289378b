import Foundation

/// Everything measured for one class of photos in one mode: each photo in
/// process, and the three programs as one process over the whole class.
struct ClassResult: Sendable {
    var photoClass: PhotoClass
    var timings: [PhotoTiming]
    var parallaxKit: ProcessFigures
    var reference: ProcessFigures
    /// `nil` when vips is not installed or failed.
    var vips: ProcessFigures?

    /// Means over the photos of each one's median time, ms.
    var parallaxKitMilliseconds: Double { mean(timings.map(\.parallaxKitMilliseconds)) }
    var referenceMilliseconds: Double { mean(timings.map(\.referenceMilliseconds)) }
    var smoothChromaMilliseconds: Double { mean(timings.map(\.smoothChromaMilliseconds)) }

    /// vips' wall time per photo as a process over ParallaxKit's in-process mean.
    var vipsSpeedRatio: Double? { vips.map { perPhoto($0.wallMilliseconds) / parallaxKitMilliseconds } }
    /// The same with ParallaxKit run as a whole process too.
    var vipsProcessSpeedRatio: Double? { vips.map { $0.wallMilliseconds / parallaxKit.wallMilliseconds } }

    /// A whole process' wall or CPU time per photo of the class, ms.
    func perPhoto(_ milliseconds: Double) -> Double { milliseconds / Double(timings.count) }

    /// The photo with the lowest PSNR.
    var worstPSNR: PhotoTiming? { timings.min { $0.psnr < $1.psnr } }
    /// Mean PSNRs of the thumbnails that differ from the reference at all
    /// (identical ones, `+∞`, would make any mean `+∞`); `+∞` if none differ.
    var meanPSNR: Double { Self.finiteMean(timings.map(\.psnr)) }
    var smoothChromaMeanPSNR: Double { Self.finiteMean(timings.map(\.smoothChromaPSNR)) }

    private static func finiteMean(_ values: [Double]) -> Double {
        let finite = values.filter(\.isFinite)
        return finite.isEmpty ? .infinity : mean(finite)
    }
}

/// The comparison from start to finish: every photo's file read once, then
/// for each mode every photo timed in process (ParallaxKit, the reference,
/// smooth chroma) and each class run as whole processes (ParallaxKit and
/// the reference as this tool's `--child`, and `vipsthumbnail`).
struct ThumbnailComparison {
    var set: PhotoSet
    var runs: Int
    var vips: VipsThumbnail?
    var modes: [(mode: ThumbnailMode, classes: [ClassResult])]
    /// A ParallaxKit process thumbnailing nothing: the Swift runtime and Foundation alone.
    var idleProcess: ProcessFigures
    /// What the vips cells read when there are no figures.
    var vipsGap: String { vips == nil ? "MISSING" : "FAILED" }

    static func run(_ set: PhotoSet, runs: Int) throws(Failure) -> ThumbnailComparison {
        var files: [(Photo, Data)] = []
        for photo in set.photos {
            guard let data = FileManager.default.contents(atPath: photo.path) else {
                throw Failure("cannot read \(photo.path); run scripts/fetch-photos.sh --force")
            }
            files.append((photo, data))
        }
        let vips = try VipsThumbnail.locate()
        defer { vips?.removeOutput() }
        progress(vips.map { "libvips: \($0.executable) (\($0.version))" }
                 ?? "vipsthumbnail is not on PATH (scripts/ensure-packages.sh libvips-tools): its columns will read MISSING")
        let me = ChildProcess.currentExecutable
        var modes: [(mode: ThumbnailMode, classes: [ClassResult])] = []
        for mode in ThumbnailMode.allCases {
            progress("\(mode.title): \(files.count) photos in process, \(runs) run(s) per photo and decoder")
            var timings: [PhotoTiming] = []
            for (index, (photo, data)) in files.enumerated() {
                let timing = try PhotoTiming.measure(photo, data: data, mode: mode, runs: runs)
                timings.append(timing)
                progress(String(format: "  %d/%d %@: ParallaxKit %.2f ms, reference %.2f ms, PSNR %.1f dB", index + 1,
                                files.count, photo.file, timing.parallaxKitMilliseconds, timing.referenceMilliseconds, timing.psnr))
            }
            var classes: [ClassResult] = []
            for photoClass in PhotoClass.allCases {
                let members = timings.filter { photoClass.contains($0.photo) }
                guard !members.isEmpty else { continue }
                let paths = members.map(\.photo.path)
                let child = { (path: DecoderPath) throws(Failure) in
                    try PeakMemoryProbe.measure(me, arguments: [path.childFlag, mode.rawValue] + paths, runs: runs)
                }
                var vipsFigures: ProcessFigures?
                do {
                    vipsFigures = try vips?.measure(mode, files: paths, runs: runs)
                } catch {
                    progress("  \(mode), \(photoClass.title): vips failed: \(error)")
                }
                let result = ClassResult(photoClass: photoClass, timings: members, parallaxKit: try child(.parallaxKit),
                                         reference: try child(.reference), vips: vipsFigures)
                classes.append(result)
            }
            modes.append((mode, classes))
        }
        let idle = try PeakMemoryProbe.measure(me, arguments: [DecoderPath.parallaxKit.childFlag, ThumbnailMode.fit.rawValue], runs: runs)
        return ThumbnailComparison(set: set, runs: runs, vips: vips, modes: modes, idleProcess: idle)
    }

    /// The highest launcher floor of any process measured, KiB.
    var launcherFloorKiB: Int {
        modes.flatMap(\.classes).flatMap { [$0.parallaxKit, $0.reference, $0.vips] }.compactMap(\.?.floorKiB).max() ?? 0
    }
}
