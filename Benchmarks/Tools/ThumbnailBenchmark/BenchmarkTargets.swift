#if os(Linux)
/// The issue's four goals, judged on a run.
struct BenchmarkTarget: Sendable {
    enum Outcome: String, Sendable {
        case pass = "PASS"
        case fail = "FAIL"
        /// Not measured (vips missing or failed, no such photos).
        case missing = "MISSING"
    }

    var label: String
    var measured: String
    var goal: String
    var outcome: Outcome

    /// Mean time per photo on the whole set at most half of vips's.
    static let allPhotosMinimumRatio = 2.0
    /// Progressive JPEGs at least this many times faster than vips.
    static let progressiveMinimumRatio = 3.0
    /// The lowest acceptable PSNR against the full-decode reference, dB.
    static let minimumPSNR = 30.0

    /// Every target, grouped by goal, one row per mode.
    ///
    /// Times compare ParallaxKit's in-process mean (median per photo, the
    /// call alone) with vips's wall time per photo as one process; the row
    /// also gives the ratio with ParallaxKit run as a whole process too.
    /// Peak memory compares the two as processes over all photos.
    static func evaluate(_ results: BenchmarkResults) -> [BenchmarkTarget] {
        var targets: [BenchmarkTarget] = []
        for mode in results.modes {
            targets.append(speed(mode, .all, minimum: allPhotosMinimumRatio,
                                 goal: "ParallaxKit ≤ ½ × vips (vips / ParallaxKit ≥ 2×)"))
        }
        for mode in results.modes {
            targets.append(speed(mode, .progressiveJPEG, minimum: progressiveMinimumRatio,
                                 goal: "vips / ParallaxKit ≥ 3×"))
        }
        for mode in results.modes { targets.append(memory(mode)) }
        for mode in results.modes { targets.append(quality(mode)) }
        return targets
    }

    private static func speed(_ mode: ModeResult, _ photoClass: PhotoClass, minimum: Double, goal: String) -> BenchmarkTarget {
        let label = "\(mode.mode.rawValue), \(photoClass == .all ? "all photos" : photoClass.title): mean time per photo"
        guard let result = mode.result(for: photoClass) else {
            return BenchmarkTarget(label: label, measured: "no \(photoClass.title) photos in the set", goal: goal, outcome: .missing)
        }
        guard let vips = result.vips.figures, let ratio = result.vipsSpeedRatio else {
            return BenchmarkTarget(label: label, measured: "ParallaxKit \(Format.milliseconds(result.parallaxKitMilliseconds)); "
                                   + "vips \(Format.unmeasured(result.vips))", goal: goal, outcome: .missing)
        }
        var measured = "vips \(Format.milliseconds(vips.wallMillisecondsPerPhoto)) / "
            + "ParallaxKit \(Format.milliseconds(result.parallaxKitMilliseconds)) = \(Format.ratio(ratio))"
        if let processRatio = result.vipsProcessSpeedRatio {
            measured += " (both as processes: \(Format.ratio(processRatio)))"
        }
        return BenchmarkTarget(label: label, measured: measured, goal: goal, outcome: ratio >= minimum ? .pass : .fail)
    }

    private static func memory(_ mode: ModeResult) -> BenchmarkTarget {
        let label = "\(mode.mode.rawValue), all photos: peak memory"
        let goal = "ParallaxKit < vips"
        guard let result = mode.result(for: .all), let ours = result.parallaxKit.figures, let vips = result.vips.figures else {
            let detail = mode.result(for: .all).map { "ParallaxKit \(Format.peakWithUnit($0.parallaxKit)); vips \(Format.peakWithUnit($0.vips))" }
            return BenchmarkTarget(label: label, measured: detail ?? "not measured", goal: goal, outcome: .missing)
        }
        return BenchmarkTarget(label: label,
                               measured: "ParallaxKit \(Format.mebibytes(ours.peakResidentKiB)) MiB, vips \(Format.mebibytes(vips.peakResidentKiB)) MiB",
                               goal: goal, outcome: ours.peakResidentKiB < vips.peakResidentKiB ? .pass : .fail)
    }

    private static func quality(_ mode: ModeResult) -> BenchmarkTarget {
        let label = "\(mode.mode.rawValue), all photos: lowest PSNR against the full decode"
        let goal = "≥ \(Format.decibels(minimumPSNR)) dB"
        guard let result = mode.result(for: .all), let worst = result.worstPSNR else {
            return BenchmarkTarget(label: label, measured: "no photos", goal: goal, outcome: .missing)
        }
        return BenchmarkTarget(label: label, measured: "\(Format.decibels(worst.psnr)) dB (`\(worst.photo.file)`)",
                               goal: goal, outcome: worst.psnr >= minimumPSNR ? .pass : .fail)
    }
}
#endif
