import Foundation

/// An executable run to its end, as the tests of the apps' commands run one:
/// its standard output and error read while it runs (so an output larger
/// than a pipe holds cannot stall it), its exit awaited as an event (no
/// polling), and `timeout` only turning a hang into a failure.
package struct FinishedProcess: Sendable {
    /// The exit status (a signal's number when it was killed).
    package var status: Int32
    /// Everything it wrote to standard output and standard error.
    package var output: Data, errors: Data
    /// From its start to its exit.
    package var duration: Duration

    /// Runs `executable` with `arguments` (in `directory`, with `environment`
    /// when given) and returns once it has exited, or has been stopped after
    /// `timeout` seconds.
    package static func run(_ executable: URL, arguments: [String], directory: URL? = nil,
                            environment: [String: String]? = nil, timeout: TimeInterval) throws -> FinishedProcess {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        let clock = ContinuousClock(), start = clock.now
        try process.run()
        let output = PipeReader(out.fileHandleForReading), errors = PipeReader(err.fileHandleForReading)
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            exited.wait()
        }
        let duration = clock.now - start
        return FinishedProcess(status: process.terminationStatus, output: output.wait(), errors: errors.wait(),
                               duration: duration)
    }
}

/// Reads a pipe to its end on a thread of its own.
private final class PipeReader: @unchecked Sendable {
    // Written once by the reading thread before `done` is signalled; read only after waiting on it.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
