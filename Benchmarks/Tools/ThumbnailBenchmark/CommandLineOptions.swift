#if os(Linux)
/// What the command line asks for. The benchmark itself is the public
/// command; the other three are how it starts itself again.
enum Invocation {
    /// `--photos DIR --out FILE [--runs N]`: the benchmark.
    case benchmark(BenchmarkOptions)
    /// `--headers --photos DIR --out FILE`: the header probe against thumbnail decodes.
    case headers(BenchmarkOptions)
    /// `--child MODE FILE…` / `--child-reference MODE FILE…` (hidden): one
    /// measured process's work.
    case child(DecoderPath, arguments: [String])
    /// `--measure PROGRAM ARG…` (hidden): the launcher of ``PeakMemoryProbe``.
    case measure([String])
    case help

    static let usage = """
        Usage: thumbnail-benchmark --photos DIR --out FILE [--runs N]

        Thumbnails every JPEG and PNG photo listed in DIR/MANIFEST.tsv (written by
        scripts/fetch-photos.sh), fit in 400 px and fill 400 × 400, with ParallaxKit,
        with a plain full decode + resize, and with libvips's vipsthumbnail; writes
        time per photo, peak memory and PSNR between the markers
        <!-- thumbnail-benchmarks:start --> and <!-- thumbnail-benchmarks:end -->
        of FILE (appended when absent), and prints the targets.

          --photos DIR   the photo folder (scripts/fetch-photos.sh: .cache/photos)
          --out FILE     the Markdown file to update (BENCHMARKS.md)
          --runs N       runs of every measurement; medians are reported (default 3)
          --headers      instead: how fast each photo's header (size, orientation) is read,
                         beside its thumbnail decode (its own section of FILE)

        Exits 0 whether or not the targets are met; non-zero only when it cannot run.
        """

    /// Parses the arguments after the executable's name.
    static func parse(_ arguments: [String]) throws(BenchmarkError) -> Invocation {
        switch arguments.first {
        case DecoderPath.parallaxKit.childSubcommand?:
            return .child(.parallaxKit, arguments: Array(arguments.dropFirst()))
        case DecoderPath.reference.childSubcommand?:
            return .child(.reference, arguments: Array(arguments.dropFirst()))
        case PeakMemoryProbe.subcommand?:
            return .measure(Array(arguments.dropFirst()))
        default:
            break
        }
        var photos: String?, out: String?, runs = 3, headers = false
        var remaining = arguments[...]
        while let flag = remaining.popFirst() {
            switch flag {
            case "-h", "--help":
                return .help
            case "--headers":
                headers = true
            case "--photos", "--out", "--runs":
                guard let value = remaining.popFirst() else { throw .setup("\(flag) needs a value\n\n\(usage)") }
                if flag == "--photos" { photos = value }
                if flag == "--out" { out = value }
                if flag == "--runs" {
                    guard let count = Int(value), count >= 1 else { throw .setup("--runs needs a whole number ≥ 1, not \(value)") }
                    runs = count
                }
            default:
                throw .setup("unknown argument \(flag)\n\n\(usage)")
            }
        }
        guard let photos, let out else { throw .setup("--photos and --out are required\n\n\(usage)") }
        let options = BenchmarkOptions(photos: photos, out: out, runs: runs)
        return headers ? .headers(options) : .benchmark(options)
    }
}

/// The benchmark's settings.
struct BenchmarkOptions: Sendable {
    /// The folder with MANIFEST.tsv and the photos.
    var photos: String
    /// The Markdown file to update.
    var out: String
    /// Runs of every measurement.
    var runs: Int
}
#endif
