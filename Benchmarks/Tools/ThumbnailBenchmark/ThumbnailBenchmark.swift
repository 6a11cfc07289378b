// thumbnail-benchmark: ParallaxKit's thumbnails of real photos against
// libvips' `vipsthumbnail` and a plain full decode, and how fast a photo's
// header is read. It prints its report as Markdown, a `## Title` line and
// the section's text; scripts/bench-thumbnails.sh hands that to
// scripts/bench-report.py, which puts it into BENCHMARKS.md with the machine
// and the date. Linux only: it measures processes with posix_spawn, wait4
// and /proc.
import Foundation

@main
enum ThumbnailBenchmark {
    static let usage = """
        Usage: thumbnail-benchmark --photos DIR… [--runs N]  ParallaxKit, a full decode and vipsthumbnail
               thumbnail-benchmark --photos DIR --headers    header reads beside thumbnail decodes
        DIR holds MANIFEST.tsv and the photos (scripts/fetch-photos.sh); --photos may be given again for
        more (scripts/make-format-photos.sh's WebP, HEIF and AVIF copies), reported in rows of their own. Every measurement runs N times
        (default 3); medians are reported. The report, Markdown, goes to standard output, progress to
        standard error; the exit status is 0 whether or not the targets are met. Hidden: `--child fit|fill
        FILE…` thumbnails the files with ParallaxKit alone (scripts/bench-hostile.sh runs it),
        `--child-reference` with the full decode, `--measure PROGRAM ARG…` is PeakMemoryProbe's launcher.
        """

    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch arguments.first {
        case DecoderPath.parallaxKit.childFlag?: exit(ChildWorkload.run(.parallaxKit, arguments.dropFirst()))
        case DecoderPath.reference.childFlag?: exit(ChildWorkload.run(.reference, arguments.dropFirst()))
        case PeakMemoryProbe.launcherFlag?: exit(PeakMemoryProbe.runLauncher(Array(arguments.dropFirst())))
        case "-h"?, "--help"?: print(usage); exit(0)
        default: break
        }
        do {
            var photos: [String] = [], runs = 3, headers = false
            var remaining = arguments[...]
            while let flag = remaining.popFirst() {
                if flag == "--headers" { headers = true; continue }
                let value = remaining.popFirst()
                switch (flag, value.flatMap { Int($0) }) {
                case ("--photos", _) where value != nil: photos.append(value!)
                case ("--runs", let count?) where count >= 1: runs = count
                default: throw Failure("cannot read the arguments at \(flag)\(value.map { " " + $0 } ?? "")\n\n\(usage)")
                }
            }
            guard !photos.isEmpty else { throw Failure("--photos is required\n\n\(usage)") }
            let set = try PhotoSet.load(directories: photos)
            print(headers ? try HeaderBenchmark.run(set) : try ThumbnailComparison.run(set, runs: runs).markdown)
            exit(0)
        } catch {
            progress("thumbnail-benchmark: \(error)")
            exit(1)
        }
    }
}

/// Why the benchmark could not run at all (a missed target is not one).
struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Progress and errors, on standard error: standard output carries the report.
func progress(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// The median of `values` (the mean of the middle two for an even count); zero for none.
func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted(), middle = sorted.count / 2
    return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
}

/// The arithmetic mean of `values`; zero for none.
func mean(_ values: [Double]) -> Double {
    values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
}
