import Foundation
import Glibc

/// What one finished child cost, from `wait4`.
struct ChildOutcome: Sendable {
    /// The raw `wait4` status: 0 is "exited with status 0".
    var status: Int32
    /// From just before `posix_spawn` to `wait4` returning.
    var wallTime: Duration
    /// User plus system CPU time of the child, all threads.
    var cpuTime: Duration
    /// `ru_maxrss`: the child's peak resident set, KiB. Beware: the kernel
    /// seeds it at `exec` with the high-water mark of the address space the
    /// child replaced, which after `posix_spawn` (a `vfork`) is the
    /// *parent's*. It is the child's own peak only when the spawner is
    /// small: see ``PeakMemoryProbe``.
    var peakResidentKiB: Int
}

/// Runs programs with `posix_spawn` and reaps each with `wait4`: the one way
/// to get a single child's own resource usage (`getrusage(RUSAGE_CHILDREN)`
/// mixes every child ever reaped).
enum ChildProcess {
    /// Runs `program` (a path, or a name looked up in `PATH`) to completion,
    /// with `environment` added to this process's. Its standard output is
    /// captured and returned with `capture` (its standard error then silenced
    /// if `quiet`); else it goes to this process's standard error, keeping
    /// this process's standard output for the report.
    static func run(_ program: String, arguments: [String], environment: [String: String] = [:],
                    capture: Bool, quiet: Bool = false) throws(Failure) -> (outcome: ChildOutcome, output: String) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var pipeEnds: [Int32] = [-1, -1]
        if capture {
            guard pipe(&pipeEnds) == 0 else { throw Failure("cannot make a pipe for \(program): \(String(cString: strerror(errno)))") }
            // Close-on-exec, so only the dup2'd copy reaches the child (this tool spawns from one thread).
            _ = fcntl(pipeEnds[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(pipeEnds[1], F_SETFD, FD_CLOEXEC)
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDOUT_FILENO)
        } else {
            posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO)
        }
        if quiet { posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0) }
        let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] =
            ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }

        var pid: pid_t = 0
        let clock = ContinuousClock()
        let start = clock.now
        let spawned = program.contains("/")
            ? posix_spawn(&pid, program, &actions, nil, argv, envp)
            : posix_spawnp(&pid, program, &actions, nil, argv, envp)
        if capture { close(pipeEnds[1]) }
        guard spawned == 0 else {
            if capture { close(pipeEnds[0]) }
            throw Failure("cannot start \(program): \(String(cString: strerror(spawned)))")
        }
        // Read to the end before reaping, so a child with much to say never blocks on a full pipe.
        let captured = capture ? FileHandle(fileDescriptor: pipeEnds[0], closeOnDealloc: true).readDataToEndOfFile() : Data()
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 {
            guard errno == EINTR else { throw Failure("cannot wait for \(program): \(String(cString: strerror(errno)))") }
        }
        let wall = clock.now - start
        let cpu = Duration.seconds(Int64(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec))
            + Duration.microseconds(Int64(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec))
        let outcome = ChildOutcome(status: status, wallTime: wall, cpuTime: cpu, peakResidentKiB: Int(usage.ru_maxrss))
        return (outcome, String(decoding: captured, as: UTF8.self))
    }

    /// How a process with the `wait4` status `status` ended, decoded as
    /// `WIFEXITED`/`WEXITSTATUS`/`WTERMSIG` would (Swift does not import them).
    static func describe(status: Int32) -> String {
        status & 0x7F == 0 ? "exit status \((status >> 8) & 0xFF)" : "signal \(status & 0x7F)"
    }

    /// The running executable's absolute path, to start it again.
    static var currentExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}

extension Duration {
    var milliseconds: Double { Double(components.seconds) * 1_000 + Double(components.attoseconds) / 1e15 }
}
