// index-benchmark: reads one image index from a server the way the gallery
// does (`HTTPImageSource.imageIDs()`), and prints the seconds it took, the
// photos it found and the process's peak resident memory:
//
//   index-benchmark BASE_URL INDEX_PATH
//   -> "seconds=0.123 photos=100000 peak_kib=54321"
//
// scripts/bench-index.sh runs it in a fresh process per case, for this
// checkout and a baseline commit, over hostile listings and manifests made by
// scripts/hostile/make-indexes.py, and writes the medians to BENCHMARKS.md.
import Foundation
import ParallaxImages

@main
struct IndexBenchmark {
    static func main() async {
        let arguments = CommandLine.arguments
        guard arguments.count == 3, let base = URL(string: arguments[1]) else {
            FileHandle.standardError.write(Data("usage: index-benchmark BASE_URL INDEX_PATH\n".utf8))
            exit(2)
        }
        let start = ContinuousClock.now
        var photos = -1
        var failure = ""
        do {
            let source = try HTTPImageSource(baseURL: base, indexPath: arguments[2], timeout: 600, maximumAttempts: 1,
                                             maximumBodySize: 256 << 20)
            photos = try await source.imageIDs().count
        } catch {
            failure = " error=\"\(String(describing: error).prefix(120))\""
        }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("seconds=\(seconds) photos=\(photos) peak_kib=\(peakResidentKiB())\(failure)")
    }

    /// VmHWM from /proc/self/status: the most this process has held resident.
    static func peakResidentKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return -1 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }
}
