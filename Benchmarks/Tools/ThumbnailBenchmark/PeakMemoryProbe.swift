#if os(Linux)
import Foundation
import Glibc

/// What one measured program cost, as seen by its launcher.
struct ProcessMeasurement: Sendable {
    var termination: Termination
    var wallTime: Duration
    var cpuTime: Duration
    /// The program's peak resident set (`ru_maxrss`), KiB.
    var peakResidentKiB: Int
    /// The launcher's own resident high-water mark when it started the
    /// program, KiB: the smallest `peakResidentKiB` can read.
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
    /// The hidden subcommand that makes this executable a launcher.
    static let subcommand = "--measure"
    private static let marker = "thumbnail-benchmark-measurement"

    /// Runs `program arguments…` under a launcher, with `environment` added
    /// to this process's, and returns what it cost. The program's standard
    /// output goes to this process's standard error.
    static func measure(_ program: String, arguments: [String],
                        environment: [String: String] = [:]) throws(BenchmarkError) -> ProcessMeasurement {
        let launcher = ChildProcess.currentExecutable
        let result = try ChildProcess.run(launcher, arguments: [subcommand, program] + arguments,
                                          environment: environment, output: .capture)
        guard result.outcome.termination.succeeded,
              let line = result.output.split(separator: "\n").last(where: { $0.hasPrefix(marker) }) else {
            throw .process("the launcher for \(program) failed (\(result.outcome.termination)); output: \(result.output)")
        }
        var fields: [String: Int64] = [:]
        for field in line.split(separator: " ").dropFirst() {
            let parts = field.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let value = Int64(parts[1]) { fields[String(parts[0])] = value }
        }
        guard let exited = fields["exited"], let signalled = fields["signalled"], let wall = fields["wall_ns"],
              let cpu = fields["cpu_ns"], let peak = fields["maxrss_kib"], let floor = fields["floor_kib"] else {
            throw .process("cannot read the launcher's report for \(program): \(line)")
        }
        return ProcessMeasurement(
            termination: signalled != 0 ? .signalled(Int32(signalled)) : .exited(Int32(exited)),
            wallTime: .nanoseconds(wall), cpuTime: .nanoseconds(cpu),
            peakResidentKiB: Int(peak), floorKiB: Int(floor))
    }

    /// The launcher side (`--measure PROGRAM ARGS…`): runs the program,
    /// writes the measurement line to standard output, returns the exit
    /// status for the launcher (0 once the program ran, whatever its status).
    static func runLauncher(_ command: [String]) -> Int32 {
        guard let program = command.first else {
            FileHandle.standardError.write(Data("thumbnail-benchmark: --measure needs a program\n".utf8))
            return 2
        }
        let floor = residentHighWaterMarkKiB()
        do {
            let (outcome, _) = try ChildProcess.run(program, arguments: Array(command.dropFirst()), output: .standardError)
            let (exited, signalled): (Int32, Int32)
            switch outcome.termination {
            case .exited(let code): (exited, signalled) = (code, 0)
            case .signalled(let signal): (exited, signalled) = (0, signal)
            }
            let line = "\(marker) exited=\(exited) signalled=\(signalled) "
                + "wall_ns=\(nanoseconds(outcome.wallTime)) cpu_ns=\(nanoseconds(outcome.cpuTime)) "
                + "maxrss_kib=\(outcome.peakResidentKiB) floor_kib=\(floor)\n"
            FileHandle.standardOutput.write(Data(line.utf8))
            return 0
        } catch {
            FileHandle.standardError.write(Data("thumbnail-benchmark: \(error)\n".utf8))
            return 1
        }
    }

    /// `VmHWM` of this process, from /proc/self/status, KiB (0 if unreadable).
    static func residentHighWaterMarkKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(whereSeparator: \.isWhitespace).dropFirst().first ?? "") ?? 0
        }
        return 0
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
#endif
