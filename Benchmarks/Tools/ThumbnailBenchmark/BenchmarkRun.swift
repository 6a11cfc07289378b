#if os(Linux)
import Foundation

/// The benchmark from start to finish: read the set, measure in process and
/// as processes, write the report, print the targets.
struct BenchmarkRun {
    var options: BenchmarkOptions

    func run() throws(BenchmarkError) {
        try MarkdownSection.validate(key: BenchmarkReport.sectionKey, path: options.out)
        let manifest = try PhotoManifest.load(directory: options.photos)
        for reason in manifest.skipped { printProgress("skipping \(reason)") }
        let loaded = try load(manifest.photos)

        let vips = VipsThumbnail.locate()
        if let vips {
            printProgress("libvips: \(vips.executable) (\(vips.version)); fill uses \(vips.fillArguments.joined(separator: " "))")
        } else {
            printProgress("vipsthumbnail is not on PATH: install libvips-tools (scripts/ensure-packages.sh libvips-tools). "
                + "Reporting ParallaxKit against the full decode only; the vips columns will read MISSING.")
        }
        let scratch = vips == nil ? nil : try ScratchDirectory.make()
        defer { scratch?.remove() }
        let machine = MachineFacts.collect(vips: vips)
        let started = Date()

        var modes: [ModeResult] = []
        for mode in BenchmarkMode.allCases {
            printProgress("\(mode.title): \(loaded.count) photos in process, \(options.runs) run(s) per photo and pipeline")
            let timings = try InProcessBenchmark.measure(loaded, mode: mode, runs: options.runs) { index, timing in
                printProgress("  \(index + 1)/\(loaded.count) \(timing.photo.file): "
                              + "ParallaxKit \(Format.milliseconds(timing.parallaxKit.milliseconds)), "
                              + "reference \(Format.milliseconds(timing.reference.milliseconds)), "
                              + "PSNR \(Format.decibels(timing.psnr)) dB")
            }
            var classes: [ClassResult] = []
            for photoClass in PhotoClass.allCases {
                let members = timings.filter { photoClass.contains($0.photo) }
                guard !members.isEmpty else { continue }
                let result = measureProcesses(members, photoClass: photoClass, mode: mode, vips: vips, scratch: scratch)
                classes.append(result)
            }
            modes.append(ModeResult(mode: mode, classes: classes))
        }

        // What a ParallaxKit process costs before it thumbnails anything.
        let idle = ProcessBenchmark.measure(ChildProcess.currentExecutable,
                                            arguments: [DecoderPath.parallaxKit.childSubcommand, BenchmarkMode.fit.rawValue],
                                            photoCount: 0, runs: options.runs)
        let results = BenchmarkResults(generated: started, machine: machine, manifest: manifest, runs: options.runs,
                                       vips: vips, scratch: scratch, modes: modes, idleProcess: idle)
        let report = BenchmarkReport(results)
        try MarkdownSection.write(report.markdown, key: BenchmarkReport.sectionKey, to: options.out)
        print("\nThumbnail targets (written to \(options.out)):")
        print(report.consoleTargets)
    }

    /// The three programs as whole processes over one class of photos.
    private func measureProcesses(_ members: [PhotoTiming], photoClass: PhotoClass, mode: BenchmarkMode,
                                  vips: VipsThumbnail?, scratch: ScratchDirectory?) -> ClassResult {
        let files = members.map(\.photo.path)
        let me = ChildProcess.currentExecutable
        let ours = ProcessBenchmark.measure(me, arguments: [DecoderPath.parallaxKit.childSubcommand, mode.rawValue] + files,
                                            photoCount: files.count, runs: options.runs)
        let reference = ProcessBenchmark.measure(me, arguments: [DecoderPath.reference.childSubcommand, mode.rawValue] + files,
                                                 photoCount: files.count, runs: options.runs)
        let vipsResult: ProcessResult
        if let vips, let scratch {
            vipsResult = ProcessBenchmark.measure(vips.executable,
                                                  arguments: vips.arguments(for: mode, outputDirectory: scratch.path, files: files),
                                                  environment: VipsThumbnail.environment,
                                                  photoCount: files.count, runs: options.runs)
        } else {
            vipsResult = .missing
        }
        let result = ClassResult(photoClass: photoClass, timings: members, parallaxKit: ours, reference: reference, vips: vipsResult)
        for (name, program) in [("ParallaxKit", ours), ("reference", reference), ("vips", vipsResult)] {
            if case .failed(let reason) = program { printProgress("  \(mode.rawValue), \(photoClass.title): \(name) failed: \(reason)") }
        }
        printProgress("  \(mode.rawValue), \(photoClass.title) (\(files.count) photos) as processes: "
            + "ParallaxKit \(Format.summary(ours)); reference \(Format.summary(reference)); vips \(Format.summary(vipsResult))")
        return result
    }

    /// Every photo's file, read once, before anything is timed.
    private func load(_ photos: [Photo]) throws(BenchmarkError) -> [LoadedPhoto] {
        var loaded: [LoadedPhoto] = []
        for photo in photos {
            guard let data = FileManager.default.contents(atPath: photo.path) else {
                throw .setup("cannot read \(photo.path); run scripts/fetch-photos.sh --force")
            }
            loaded.append(LoadedPhoto(photo: photo, data: data))
        }
        return loaded
    }
}

/// Progress, on standard error so standard output carries the targets.
func printProgress(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
#endif
