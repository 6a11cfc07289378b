#if os(Linux)
import Foundation

/// A program's figures for one class of photos, over several runs of one
/// process that thumbnails all of them.
struct ProcessFigures: Sendable {
    var photoCount: Int
    /// Median wall-clock time of the runs (process start to reaped).
    var wallTime: Duration
    /// Median user + system CPU time of the runs (all threads).
    var cpuTime: Duration
    /// The highest peak resident set of the runs, KiB.
    var peakResidentKiB: Int
    /// The launcher's resident high-water mark, the floor of `peakResidentKiB`, KiB.
    var floorKiB: Int

    var wallMillisecondsPerPhoto: Double { wallTime.milliseconds / Double(max(photoCount, 1)) }
    var cpuMillisecondsPerPhoto: Double { cpuTime.milliseconds / Double(max(photoCount, 1)) }
}

/// How a program fared on one class of photos.
enum ProcessResult: Sendable {
    case measured(ProcessFigures)
    /// The program is not installed.
    case missing
    /// It ran but failed; the reason.
    case failed(String)

    var figures: ProcessFigures? {
        if case .measured(let figures) = self { return figures }
        return nil
    }
}

/// Runs whole programs over a class of photos, each under a
/// ``PeakMemoryProbe`` launcher, `runs` times.
enum ProcessBenchmark {
    /// `program arguments…`, which thumbnails `photoCount` photos, run
    /// `runs` times (with `environment` added): median wall and CPU time,
    /// highest peak memory.
    static func measure(_ program: String, arguments: [String], environment: [String: String] = [:],
                        photoCount: Int, runs: Int) -> ProcessResult {
        var walls: [Duration] = [], cpus: [Duration] = []
        var peak = 0, floor = 0
        for _ in 0..<max(runs, 1) {
            let measurement: ProcessMeasurement
            do {
                measurement = try PeakMemoryProbe.measure(program, arguments: arguments, environment: environment)
            } catch {
                return .failed(error.description)
            }
            guard measurement.termination.succeeded else {
                return .failed("\((program as NSString).lastPathComponent) ended with \(measurement.termination)")
            }
            walls.append(measurement.wallTime)
            cpus.append(measurement.cpuTime)
            peak = max(peak, measurement.peakResidentKiB)
            floor = max(floor, measurement.floorKiB)
        }
        return .measured(ProcessFigures(photoCount: photoCount, wallTime: Statistics.median(walls),
                                        cpuTime: Statistics.median(cpus), peakResidentKiB: peak, floorKiB: floor))
    }
}
#endif
