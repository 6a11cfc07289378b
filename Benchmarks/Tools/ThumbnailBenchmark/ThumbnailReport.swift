import Foundation

/// The comparison as the thumbnail section of BENCHMARKS.md: its title, what
/// was measured and how, the tables and the targets. scripts/bench-report.py
/// adds the date and the machine.
extension ThumbnailComparison {
    /// Mean time per photo on the whole set at most half of vips'.
    static let allPhotosMinimumRatio = 2.0
    /// Progressive JPEGs at least this many times faster than vips.
    static let progressiveMinimumRatio = 3.0
    /// The lowest acceptable PSNR against the full-decode reference, dB.
    static let minimumPSNR = 30.0

    var markdown: String {
        let side = ThumbnailMode.side
        var lines = ["## Thumbnails from real photos", "",
            "Every photo of the set is made into a thumbnail, fit in \(side) px and fill \(side) × \(side), by three pipelines in the same run:", "",
            "- **ParallaxKit**: `CodecImageDecoder().thumbnail(from:size:)`: JPEGs decoded at the smallest DCT scale (1/8, 1/4, 1/2) that covers the thumbnail, progressive JPEGs stopped once the scans that decode needs have arrived, then area resampling.",
            "- **Reference**: `CodecImageDecoder(options: .reference)`: the plain full-resolution decode of every scan, then the same area resampling. It is also the quality reference for the PSNR.",
            vips.map { "- **libvips**: `vipsthumbnail` (\($0.version), default settings, so its own thread pool), one process given every file of a class: `--size \(side)` for fit, `\($0.options(for: .fill).joined(separator: " "))` for fill. It writes each thumbnail as a JPEG, into a fresh folder in \($0.outputDescription): its times include encoding and writing the thumbnails, which ParallaxKit's do not." }
                ?? "- **libvips**: `vipsthumbnail` was not installed for this run (`scripts/ensure-packages.sh libvips-tools`), so its columns read MISSING.",
            "", photoSetLine]
        for (mode, classes) in modes {
            lines += ["", "### \(mode.title)", "",
                "| Class | Photos | ParallaxKit ms/photo | ParallaxKit photos/s | Reference ms/photo | vips ms/photo | vips / ParallaxKit | Peak RSS ParallaxKit (MiB) | Peak RSS reference (MiB) | Peak RSS vips (MiB) | PSNR min (dB) | PSNR mean (dB) |",
                "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
            lines += classes.map { c in
                row([c.photoClass.title, "\(c.timings.count)", ms(c.parallaxKitMilliseconds), rate(1_000 / c.parallaxKitMilliseconds),
                     ms(c.referenceMilliseconds), c.vips.map { ms(c.perPhoto($0.wallMilliseconds)) } ?? vipsGap,
                     c.vipsSpeedRatio.map(ratio) ?? vipsGap, mebibytes(c.parallaxKit.peakResidentKiB), mebibytes(c.reference.peakResidentKiB),
                     c.vips.map { mebibytes($0.peakResidentKiB) } ?? vipsGap, decibels(c.worstPSNR?.psnr ?? .infinity), decibels(c.meanPSNR)])
            }
            lines += ["",
                "Smooth (\"fancy\") chroma upsampling in the fast path, in the same process and run, against the same reference. At a reduced DCT scale libjpeg decodes subsampled chroma at a larger scale instead of upsampling it, so there is little left for smoothing to change: the fast path leaves it off unless this table shows it buying PSNR.", "",
                "| Class | Fast path ms/photo | With smooth chroma ms/photo | Time ratio | PSNR mean (dB) | With smooth chroma PSNR mean (dB) |",
                "| --- | ---: | ---: | ---: | ---: | ---: |"]
            lines += classes.map { c in
                row([c.photoClass.title, ms(c.parallaxKitMilliseconds), ms(c.smoothChromaMilliseconds),
                     ratio(c.smoothChromaMilliseconds / c.parallaxKitMilliseconds), decibels(c.meanPSNR), decibels(c.smoothChromaMeanPSNR)])
            }
        }
        lines += ["", "### Whole processes", "",
            "Each program run as one process over every photo of the class (this is where the peak RSS above comes from): wall-clock and CPU (user + system, all threads) time per photo.", "",
            "| Mode | Class | Photos | ParallaxKit wall ms/photo | ParallaxKit CPU ms/photo | Reference wall ms/photo | Reference CPU ms/photo | vips wall ms/photo | vips CPU ms/photo | vips / ParallaxKit (wall) |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
        for (mode, classes) in modes {
            lines += classes.map { c in
                let times = [c.parallaxKit, c.reference, c.vips].flatMap { program in
                    program.map { [ms(c.perPhoto($0.wallMilliseconds)), ms(c.perPhoto($0.cpuMilliseconds))] } ?? [vipsGap, vipsGap]
                }
                return row([mode.rawValue, c.photoClass.title, "\(c.timings.count)"] + times + [c.vipsProcessSpeedRatio.map(ratio) ?? vipsGap])
            }
        }
        lines += [""] + method
        lines += ["", "### Targets", "", "| Target | Measured | Goal | Result |", "| --- | --- | --- | --- |"]
        lines += targetRows
        return lines.joined(separator: "\n")
    }

    private var photoSetLine: String {
        let photos = set.photos.filter(\.format.isOriginal), megapixels = photos.map(\.megapixels)
        let counts = Photo.Format.allCases.filter(\.isOriginal).map { format in "\(photos.filter { $0.format == format }.count) \(format.title)" }
        let copies = set.photos.filter { !$0.format.isOriginal }
        return "Photo set: \(photos.count) photos from Debian wallpaper packages (`scripts/fetch-photos.sh`, credits in CREDITS.tsv beside the photos), "
            + String(format: "%.1f MP in all, %.1f–%.1f MP a photo (median %.1f MP), %.1f MiB of files: ", megapixels.reduce(0, +),
                     megapixels.min() ?? 0, megapixels.max() ?? 0, median(megapixels), Double(photos.reduce(0) { $0 + $1.bytes }) / 1_048_576)
            + counts.joined(separator: ", ") + "."
            + (copies.isEmpty ? "" : " The WebP, HEIF and AVIF rows are \(copies.count) copies of \(copies.count / 3) of its JPEGs made by `scripts/make-format-photos.sh` (cwebp -q 80; heif-enc -q 80, x265 ultrafast, with a 320-pixel thumbnail item; avifenc -s 10, quantizers 18–30), measured in their own rows only: \"all\" is the photo set as fetched. ParallaxKit decodes WebP scaled by libwebp, HEIF and AVIF whole (their thumbnail sizes need more than the 320-pixel item).")
            + (set.skipped.isEmpty ? "" : " Left out: " + set.skipped.joined(separator: "; ") + ".")
    }

    private var method: [String] {
        let times = runs == 1 ? "once" : "\(runs) times", floor = launcherFloorKiB
        let idle = " A ParallaxKit process that thumbnails nothing peaks at \(mebibytes(idleProcess.peakResidentKiB)) MiB (the Swift runtime and Foundation)"
            + (idleProcess.peakResidentKiB >= floor ? ", so the floor hides none of ParallaxKit's own memory."
                                                    : ", below the floor: ParallaxKit figures near the floor overstate it.")
        return ["How it is measured:", "",
            "- In process: each photo's file is read into memory once, untimed; the thumbnail call alone is timed (`ContinuousClock`) \(times) for each pipeline, and the photo's figure is \(runs == 1 ? "that time" : "the median"). ms/photo is the mean of those medians over the class, photos/s its inverse.",
            "- As processes: ParallaxKit and the reference run as this tool again (`--child`, `--child-reference`), reading and thumbnailing each file of the class once, as `vipsthumbnail` does. Each process is run \(times); its wall time, from spawn to reaped, is \(runs == 1 ? "that run's" : "the median of the runs"), and ms/photo is that divided by the photo count, so process start-up is included. The vips column of the per-mode tables is this figure; their ratio divides it by ParallaxKit's in-process mean, the ratio of the process table by ParallaxKit's own process figure.",
            "- Peak RSS is `ru_maxrss` from `wait4` for that process alone, the highest of its runs. Linux seeds a child's `ru_maxrss` at `exec` with the high-water mark of the process that spawned it, so each program is started by a small launcher (this tool's `--measure`), whose own peak, at most \(mebibytes(floor)) MiB here, is the floor of every figure.\(idle)",
            "- PSNR is over R, G and B at 8 bits, ParallaxKit's thumbnail against the reference's (the same size). Thumbnails identical to the reference (PSNR ∞: the PNGs, which both pipelines decode the same way) are left out of the mean. PNG photos appear in the \"all\" rows only."]
    }

    // MARK: Targets

    /// The goals' rows, one per mode: speed against vips on all photos and on
    /// progressive JPEGs (ParallaxKit in process against vips as a process, and
    /// both as processes), peak memory against vips, and the lowest PSNR.
    private var targetRows: [String] {
        var speed: [String] = [], memory: [String] = [], quality: [String] = []
        for (photoClass, minimum, goal) in [(PhotoClass.all, Self.allPhotosMinimumRatio, "ParallaxKit ≤ ½ × vips (vips / ParallaxKit ≥ 2×)"),
                                            (.progressiveJPEG, Self.progressiveMinimumRatio, "vips / ParallaxKit ≥ 3×")] {
            for (mode, classes) in modes {
                let label = "\(mode), \(photoClass == .all ? "all photos" : photoClass.title): mean time per photo"
                if let c = classes.first(where: { $0.photoClass == photoClass }), let vips = c.vips, let speedRatio = c.vipsSpeedRatio {
                    let processes = c.vipsProcessSpeedRatio.map { " (both as processes: \(ratio($0)))" } ?? ""
                    speed.append(target(label, "vips \(ms(c.perPhoto(vips.wallMilliseconds))) ms / ParallaxKit \(ms(c.parallaxKitMilliseconds)) ms = \(ratio(speedRatio))\(processes)", goal, speedRatio >= minimum))
                } else {
                    let ours = classes.first { $0.photoClass == photoClass }.map { "ParallaxKit \(ms($0.parallaxKitMilliseconds)) ms; vips \(vipsGap)" }
                    speed.append(target(label, ours ?? "no \(photoClass.title) photos in the set", goal, nil))
                }
            }
        }
        for (mode, classes) in modes {
            // Every photo set has an "all" class (a set has at least one photo).
            guard let all = classes.first(where: { $0.photoClass == .all }), let worst = all.worstPSNR else { continue }
            let ours = all.parallaxKit.peakResidentKiB
            memory.append(target("\(mode), all photos: peak memory",
                                 all.vips.map { "ParallaxKit \(mebibytes(ours)) MiB, vips \(mebibytes($0.peakResidentKiB)) MiB" }
                                     ?? "ParallaxKit \(mebibytes(ours)) MiB; vips \(vipsGap)",
                                 "ParallaxKit < vips", all.vips.map { ours < $0.peakResidentKiB }))
            quality.append(target("\(mode), all photos: lowest PSNR against the full decode", "\(decibels(worst.psnr)) dB (`\(worst.photo.file)`)",
                                  "≥ \(decibels(Self.minimumPSNR)) dB", worst.psnr >= Self.minimumPSNR))
        }
        return speed + memory + quality
    }
}

/// A row of the targets table: PASS or FAIL, or MISSING when `passed` is `nil` (not measured).
private func target(_ label: String, _ measured: String, _ goal: String, _ passed: Bool?) -> String {
    row([label, measured, goal, "**\(passed.map { $0 ? "PASS" : "FAIL" } ?? "MISSING")**"])
}

// MARK: Number formats

private func row(_ cells: [String]) -> String { "| " + cells.joined(separator: " | ") + " |" }
/// Milliseconds: 2 decimals under 10, 1 under 1,000, then whole and grouped.
private func ms(_ value: Double) -> String { value < 10 ? String(format: "%.2f", value) : value < 1_000 ? String(format: "%.1f", value) : grouped(value) }
private func rate(_ value: Double) -> String { value < 1_000 ? String(format: "%.1f", value) : grouped(value) }
private func ratio(_ value: Double) -> String { String(format: "%.2f×", value) }
/// dB, one decimal; "∞" for identical images.
private func decibels(_ value: Double) -> String { value.isFinite ? String(format: "%.1f", value) : "∞" }
private func mebibytes(_ kib: Int) -> String { String(format: "%.1f", Double(kib) / 1024) }
/// A whole number with thousands separators, whatever the locale.
func grouped(_ value: Double) -> String {
    let digits = String(Int(value.rounded()))
    return digits.enumerated().map { index, digit in (index > 0 && (digits.count - index) % 3 == 0 ? "," : "") + String(digit) }.joined()
}
