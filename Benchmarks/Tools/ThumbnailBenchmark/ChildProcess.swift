#if os(Linux)
import Foundation
import Glibc

/// How a child process ended.
enum Termination: Sendable, Equatable, CustomStringConvertible {
    case exited(Int32)
    case signalled(Int32)

    /// Decodes a `wait4` status (the `WIFEXITED`/`WEXITSTATUS`/`WTERMSIG`
    /// macros, which Swift does not import).
    init(waitStatus status: Int32) {
        let signal = status & 0x7F
        self = signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
    }

    var succeeded: Bool { self == .exited(0) }

    var description: String {
        switch self {
        case .exited(let code): return "exit status \(code)"
        case .signalled(let signal): return "signal \(signal)"
        }
    }
}

/// What one finished child process cost, from `wait4`.
struct ChildOutcome: Sendable {
    var termination: Termination
    /// From just before `posix_spawn` to `wait4` returning.
    var wallTime: Duration
    /// `ru_maxrss`: the child's peak resident set, KiB on Linux.
    ///
    /// Beware: the kernel seeds it, at `exec`, with the resident high-water
    /// mark of the address space the child had before (with `posix_spawn`,
    /// which uses `vfork`, that is the *parent's*). It is only the child's
    /// own peak when the spawning process is small; see ``PeakMemoryProbe``.
    var peakResidentKiB: Int
    /// User plus system CPU time of the child.
    var cpuTime: Duration
}

/// Runs programs with `posix_spawn` and reaps them with `wait4`, the one
/// way to get a single child's own resource usage (`getrusage` with
/// `RUSAGE_CHILDREN` mixes every child ever reaped).
enum ChildProcess {
    /// Where the child's standard output goes.
    enum Output {
        /// The parent's standard output.
        case inherit
        /// The parent's standard error, keeping the parent's stdout clean.
        case standardError
        /// Into a pipe, returned as text by ``run(_:arguments:environment:output:silenceStandardError:)``.
        case capture
    }

    /// Runs `program` (a path, or a name looked up in `PATH`) with
    /// `arguments` to completion, in this process's environment plus
    /// `environment`.
    /// - Returns: the outcome and, with `.capture`, everything the child
    ///   wrote to its standard output (else "").
    static func run(_ program: String, arguments: [String], environment: [String: String] = [:],
                    output: Output = .inherit,
                    silenceStandardError: Bool = false) throws(BenchmarkError) -> (outcome: ChildOutcome, output: String) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }

        // The pipe is close-on-exec: only the dup2'd copy reaches the child,
        // and no other child inherits either end.
        var pipeEnds: [Int32] = [-1, -1]
        switch output {
        case .inherit:
            break
        case .standardError:
            posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO)
        case .capture:
            guard pipe(&pipeEnds) == 0 else {
                throw .process("cannot make a pipe for \(program): \(String(cString: strerror(errno)))")
            }
            // (pipe2 is not imported; this tool spawns from one thread only.)
            _ = fcntl(pipeEnds[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(pipeEnds[1], F_SETFD, FD_CLOEXEC)
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDOUT_FILENO)
        }
        if silenceStandardError {
            posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        }

        let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] =
            ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }

        var pid: pid_t = 0
        let clock = ContinuousClock()
        let start = clock.now
        let spawnStatus = program.contains("/")
            ? posix_spawn(&pid, program, &actions, nil, argv, envp)
            : posix_spawnp(&pid, program, &actions, nil, argv, envp)
        if output == .capture { close(pipeEnds[1]) }
        guard spawnStatus == 0 else {
            if output == .capture { close(pipeEnds[0]) }
            throw .process("cannot start \(program): \(String(cString: strerror(spawnStatus)))")
        }

        var captured = [UInt8]()
        if output == .capture {
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress, $0.count) }
                if count > 0 {
                    captured.append(contentsOf: buffer[0..<count])
                } else if count == 0 || errno != EINTR {
                    break
                }
            }
            close(pipeEnds[0])
        }

        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 {
            guard errno == EINTR else {
                throw .process("cannot wait for \(program): \(String(cString: strerror(errno)))")
            }
        }
        let wall = clock.now - start
        let cpu = Duration.seconds(Int64(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec))
            + Duration.microseconds(Int64(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec))
        let outcome = ChildOutcome(termination: Termination(waitStatus: status), wallTime: wall,
                                   peakResidentKiB: Int(usage.ru_maxrss), cpuTime: cpu)
        return (outcome, String(decoding: captured, as: UTF8.self))
    }

    /// The trimmed standard output of a short command, or `nil` if it
    /// cannot run or fails (for machine facts and version strings).
    static func outputOf(_ program: String, _ arguments: String...) -> String? {
        guard let result = try? run(program, arguments: arguments, output: .capture, silenceStandardError: true),
              result.outcome.termination.succeeded else { return nil }
        let text = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }

    /// The absolute path of the running executable, to start it again.
    static var currentExecutable: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if length > 0 {
            return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return CommandLine.arguments[0]
    }
}

/// Convenience for the report: durations as fractional milliseconds.
extension Duration {
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }
}
#endif
