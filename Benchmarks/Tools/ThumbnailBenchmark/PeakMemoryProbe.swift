import Foundation

/// A program's figures over several runs of one process: median times, highest peak.
struct ProcessFigures: Sendable {
    var wallMilliseconds: Double
    var cpuMilliseconds: Double
    /// The highest `ru_maxrss` of the runs, KiB.
    var peakResidentKiB: Int
    /// The launcher's own resident high-water mark: the lowest `peakResidentKiB` can read, KiB.
    var floorKiB: Int
}

/// Measures the peak memory of a program run as its own process, without
/// the figure being polluted by this benchmark's own memory.
///
/// `ru_maxrss` of a child is not simply the child's peak: at `exec` Linux
/// seeds it with the high-water mark of the address space being replaced,
/// and `posix_spawn` (a `vfork`) execs from the parent's address space. A
/// benchmark that has held 50 photos and decoded 20-megapixel images in
/// full would lend every child its own peak. So the program is started by
/// a launcher, a fresh, small copy of this executable (`--measure`), that
/// spawns it, reaps it with `wait4` and prints the figures on one line. The
/// launcher's own high-water mark is the floor of the figure and is
/// reported with it.
enum PeakMemoryProbe {
    /// The hidden flag that makes this executable a launcher.
    static let launcherFlag = "--measure"
    private static let marker = "thumbnail-benchmark-measurement"

    /// `program arguments…` (with `environment` added) run `runs` times, each
    /// under a launcher: median wall and CPU time, highest peak memory.
    /// - Throws: when the program cannot start or does not exit with status 0.
    static func measure(_ program: String, arguments: [String], environment: [String: String] = [:],
                        runs: Int) throws(Failure) -> ProcessFigures {
        var walls: [Double] = [], cpus: [Double] = [], peak = 0, floor = 0
        for _ in 0..<max(runs, 1) {
            let result = try ChildProcess.run(ChildProcess.currentExecutable, arguments: [launcherFlag, program] + arguments,
                                              environment: environment, capture: true)
            // The launcher's last line: "thumbnail-benchmark-measurement status=… wall_ns=… cpu_ns=… maxrss_kib=… floor_kib=…".
            let line = result.output.split(separator: "\n").last { $0.hasPrefix(marker) } ?? ""
            let fields = line.split(separator: " ").dropFirst().compactMap { $0.split(separator: "=").last.flatMap { Int64($0) } }
            guard result.outcome.status == 0, fields.count == 5 else {
                throw Failure("the launcher for \(program) failed (\(ChildProcess.describe(status: result.outcome.status))): \(result.output)")
            }
            guard fields[0] == 0 else {
                throw Failure("\((program as NSString).lastPathComponent) ended with \(ChildProcess.describe(status: Int32(fields[0])))")
            }
            walls.append(Double(fields[1]) / 1e6)
            cpus.append(Double(fields[2]) / 1e6)
            (peak, floor) = (max(peak, Int(fields[3])), max(floor, Int(fields[4])))
        }
        return ProcessFigures(wallMilliseconds: median(walls), cpuMilliseconds: median(cpus), peakResidentKiB: peak, floorKiB: floor)
    }

    /// The launcher (`--measure PROGRAM ARGS…`): runs the program, its output
    /// going to standard error, and prints the measurement line; exits 0 once
    /// the program ran, whatever its status.
    static func runLauncher(_ command: [String]) -> Int32 {
        guard let program = command.first else {
            progress("thumbnail-benchmark: --measure needs a program")
            return 2
        }
        let floor = residentHighWaterMarkKiB()
        do {
            let outcome = try ChildProcess.run(program, arguments: Array(command.dropFirst()), capture: false).outcome
            print("\(marker) status=\(outcome.status) wall_ns=\(Int64(outcome.wallTime.milliseconds * 1e6)) "
                  + "cpu_ns=\(Int64(outcome.cpuTime.milliseconds * 1e6)) maxrss_kib=\(outcome.peakResidentKiB) floor_kib=\(floor)")
            return 0
        } catch {
            progress("thumbnail-benchmark: \(error)")
            return 1
        }
    }

    /// `VmHWM` of this process, from /proc/self/status, KiB (0 if unreadable).
    static func residentHighWaterMarkKiB() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Int(line.split(whereSeparator: \.isWhitespace).dropFirst().first ?? "") ?? 0
    }
}
