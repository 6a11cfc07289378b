// thumbnail-benchmark: ParallaxKit's thumbnails from real photos against
// libvips's `vipsthumbnail` and a plain full decode + resize, written into
// BENCHMARKS.md. Run it through scripts/bench-thumbnails.sh (`make bench`).
// Linux only: it measures processes through posix_spawn, wait4 and /proc.
import Foundation

#if os(Linux)
@main
enum ThumbnailBenchmark {
    static func main() {
        let status: Int32
        do {
            switch try Invocation.parse(Array(CommandLine.arguments.dropFirst())) {
            case .help:
                print(Invocation.usage)
                status = 0
            case .child(let path, let arguments):
                status = ChildWorkload.run(path: path, arguments: arguments)
            case .measure(let command):
                status = PeakMemoryProbe.runLauncher(command)
            case .benchmark(let options):
                try BenchmarkRun(options: options).run()
                status = 0
            case .headers(let options):
                try HeaderBenchmark(options: options).run()
                status = 0
            }
        } catch {
            FileHandle.standardError.write(Data("thumbnail-benchmark: \(error)\n".utf8))
            status = 1
        }
        exit(status)
    }
}
#else
@main
enum ThumbnailBenchmark {
    static func main() {
        FileHandle.standardError.write(Data("thumbnail-benchmark runs on Linux only (posix_spawn, wait4, /proc)\n".utf8))
        exit(1)
    }
}
#endif
