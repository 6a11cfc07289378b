#if os(Linux)
import Foundation

/// Everything measured for one class of photos in one mode.
struct ClassResult: Sendable {
    var photoClass: PhotoClass
    /// The in-process figures of the class's photos.
    var timings: [PhotoTiming]
    /// The three programs, each one process over the whole class.
    var parallaxKit: ProcessResult
    var reference: ProcessResult
    var vips: ProcessResult

    var photoCount: Int { timings.count }

    /// Mean over the photos of ParallaxKit's median time, ms.
    var parallaxKitMilliseconds: Double { Statistics.mean(timings.map(\.parallaxKit.milliseconds)) }
    /// Mean over the photos of the reference's median time, ms.
    var referenceMilliseconds: Double { Statistics.mean(timings.map(\.reference.milliseconds)) }
    var parallaxKitPhotosPerSecond: Double { 1_000 / parallaxKitMilliseconds }

    /// vips's wall time per photo over ParallaxKit's in-process mean.
    var vipsSpeedRatio: Double? { vips.figures.map { $0.wallMillisecondsPerPhoto / parallaxKitMilliseconds } }
    /// The same, ParallaxKit also run as a whole process.
    var vipsProcessSpeedRatio: Double? {
        guard let vips = vips.figures, let ours = parallaxKit.figures else { return nil }
        return vips.wallMillisecondsPerPhoto / ours.wallMillisecondsPerPhoto
    }

    /// The same means for the fast path with smooth chroma upsampling.
    var smoothChromaMilliseconds: Double { Statistics.mean(timings.map(\.smoothChroma.milliseconds)) }
    var smoothChromaMeanPSNR: Double {
        let finite = timings.map(\.smoothChromaPSNR).filter(\.isFinite)
        return finite.isEmpty ? .infinity : Statistics.mean(finite)
    }

    /// The photo with the lowest PSNR.
    var worstPSNR: PhotoTiming? { timings.min { $0.psnr < $1.psnr } }
    var minimumPSNR: Double { worstPSNR?.psnr ?? .infinity }
    /// Mean PSNR of the thumbnails that differ from the reference at all
    /// (identical ones, `+∞`, would make any mean `+∞`); `+∞` if none differ.
    var meanPSNR: Double {
        let finite = timings.map(\.psnr).filter(\.isFinite)
        return finite.isEmpty ? .infinity : Statistics.mean(finite)
    }
}

/// Everything measured in one mode.
struct ModeResult: Sendable {
    var mode: BenchmarkMode
    var classes: [ClassResult]

    func result(for photoClass: PhotoClass) -> ClassResult? {
        classes.first { $0.photoClass == photoClass }
    }
}

/// One run of the benchmark, ready to be reported.
struct BenchmarkResults: Sendable {
    var generated: Date
    var machine: [(label: String, value: String)]
    var manifest: PhotoManifest
    var runs: Int
    var vips: VipsThumbnail?
    var scratch: ScratchDirectory?
    var modes: [ModeResult]
    /// ParallaxKit's process thumbnailing nothing: the Swift runtime and
    /// Foundation alone.
    var idleProcess: ProcessResult

    /// The highest launcher floor of any process measurement, KiB.
    var launcherFloorKiB: Int {
        modes.flatMap(\.classes)
            .flatMap { [$0.parallaxKit, $0.reference, $0.vips] }
            .compactMap(\.figures?.floorKiB).max() ?? 0
    }
}
#endif
