#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Debian's nginx serving a folder on 127.0.0.1, started and stopped by
/// `scripts/nginx-loopback.sh` (which installs nginx-light first when it is
/// missing and this is root, as on a fresh CI machine).
///
/// ``start(serving:)`` returns once nginx accepts connections: the script
/// exits only then, after printing the port, the access log and the master's
/// pid, and its exit is what this awaits (no sleeping). ``stop()`` stops
/// nginx and removes its temporary prefix; `deinit` sends SIGTERM if
/// ``stop()`` was not called.
///
/// URLs: `/photos/NAME` (files and an HTML autoindex), `/json/`, `/xml/`
/// (the autoindex as JSON or XML) and `/slow/NAME` (rate-limited, 4 MB/s),
/// all over the same folder. Add a query
/// (`?case=cancel`) to tell requests for the same file apart in the log:
/// nginx ignores it when serving and logs it in `$request_uri`.
public final class NginxServer: Sendable {
    /// Why nginx did not start.
    public enum StartError: Error, CustomStringConvertible {
        /// nginx is not installed and could not be installed (not root, no
        /// apt, no network).
        case unavailable(String)
        /// It is installed but did not start.
        case failed(String)

        public var description: String {
            switch self {
            case .unavailable(let why): return "nginx is unavailable: \(why)"
            case .failed(let why): return "nginx did not start: \(why)"
            }
        }
    }

    /// One line of the access log (`scripts/nginx-loopback.sh` gives the format).
    public struct LogEntry: Sendable, Hashable, CustomStringConvertible {
        /// When the request ended (`$msec`, seconds since 1970).
        public var endedAt: Double
        public var method: String
        /// `$request_uri`: path and query as sent.
        public var uri: String
        public var status: Int
        /// `$body_bytes_sent`: bytes of body handed to the kernel.
        public var bodyBytesSent: Int64
        /// `$bytes_sent`: all bytes sent for the request, head included.
        public var bytesSent: Int64
        /// `$request_time`, seconds.
        public var requestTime: Double
        /// `$connection`, the connection's serial number.
        public var connection: Int
        /// `$http_range`, or nil.
        public var range: String?

        public var description: String {
            "\(method) \(uri) \(status) sent \(bytesSent) bytes (body \(bodyBytesSent)) in \(requestTime) s"
        }

        init?(line: Substring) {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 9, let endedAt = Double(fields[0]), let status = Int(fields[3]),
                  let body = Int64(fields[4]), let bytes = Int64(fields[5]), let time = Double(fields[6]),
                  let connection = Int(fields[7]) else { return nil }
            self.endedAt = endedAt
            method = String(fields[1])
            uri = String(fields[2])
            self.status = status
            bodyBytesSent = body
            bytesSent = bytes
            requestTime = time
            self.connection = connection
            range = fields[8] == "-" ? nil : String(fields[8])
        }
    }

    public let port: Int
    /// `http://127.0.0.1:PORT/`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }
    public let accessLog: URL
    public let prefix: String
    public let pid: pid_t
    private let stopped = Flag()

    /// `scripts/nginx-loopback.sh`, found from this file's place in the checkout.
    public static let script: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/nginx-loopback.sh")

    private init(port: Int, accessLog: URL, prefix: String, pid: pid_t) {
        self.port = port
        self.accessLog = accessLog
        self.prefix = prefix
        self.pid = pid
    }

    deinit {
        if stopped.set() {
            kill(pid, SIGTERM)
        }
    }

    /// Whether nginx is installed, or could be installed now (the script's
    /// `check`, which installs it when it is missing and this is root). The
    /// first call does the work; later calls return its answer.
    public static func isAvailable() async -> Bool {
        await availability.value.available
    }

    /// Why nginx is unavailable, for a skipped test's message.
    public static func unavailability() async -> String? {
        let answer = await availability.value
        return answer.available ? nil : answer.output
    }

    private static let availability = Task<(available: Bool, output: String), Never> {
        let answer: (available: Bool, output: String)
        do {
            let (status, output) = try await run(["check"])
            answer = (status == 0, output)
        } catch {
            answer = (false, "\(error)")
        }
        if !answer.available {
            // The script said why on standard error; say what follows.
            FileHandle.standardError.write(Data("NginxServer: nginx is unavailable, so the tests that need it are skipped (\(script.lastPathComponent) check: \(answer.output.isEmpty ? "see its message above" : answer.output))\n".utf8))
        }
        return answer
    }

    /// Starts nginx over `folder` on a free port (or `port`).
    public static func start(serving folder: URL, port: Int? = nil) async throws(StartError) -> NginxServer {
        let status: Int32, output: String
        do {
            (status, output) = try await run(["start", folder.path] + (port.map { [String($0)] } ?? []))
        } catch {
            throw .failed("could not run \(script.path): \(error)")
        }
        if status == 3 { throw .unavailable("\(script.lastPathComponent) exited with status 3 (see its message above)") }
        var values: [String: String] = [:]
        var ready = false
        for line in output.split(separator: "\n") {
            if line == "ready" { ready = true }
            if let equals = line.firstIndex(of: "=") {
                values[String(line[..<equals])] = String(line[line.index(after: equals)...])
            }
        }
        guard status == 0, ready, let port = values["port"].flatMap(Int.init), let log = values["log"],
              let prefix = values["prefix"], let pid = values["pid"].flatMap({ pid_t($0) }) else {
            throw .failed("\(script.lastPathComponent) exited with status \(status), printing \(output.debugDescription)")
        }
        return NginxServer(port: port, accessLog: URL(fileURLWithPath: log), prefix: prefix, pid: pid)
    }

    /// Stops nginx (open connections are closed), awaiting its exit, and
    /// removes its prefix. Safe to call more than once.
    public func stop() async {
        guard stopped.set() else { return }
        _ = try? await Self.run(["stop", prefix])
    }

    /// The access log so far, in order.
    public func logEntries() -> [LogEntry] {
        guard let text = try? String(contentsOf: accessLog, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap(LogEntry.init(line:))
    }

    /// The first log entry whose URI is `uri`, once nginx has written it
    /// (when the request ends). Reads the log every 10 ms; throws after
    /// `limit`, which only turns a request that never ends into a failure.
    public func entry(for uri: String, limit: Duration = .seconds(60)) async throws -> LogEntry {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        while true {
            if let entry = logEntries().first(where: { $0.uri == uri }) { return entry }
            guard clock.now < deadline else {
                throw StartError.failed("no access-log line for \(uri) within \(limit); the log holds \(logEntries())")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Runs the script with `arguments` and returns its exit status and
    /// standard output once it has exited. Its standard error goes to ours,
    /// so that apt's and nginx's messages show in the test log.
    private static func run(_ arguments: [String]) async throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script.path] + arguments
        // Standard output goes to a file, not a pipe, so that nothing here
        // waits for the end of a pipe that a process the script leaves
        // running might hold (the script also closes every descriptor but
        // the standard three before starting nginx, for the same reason).
        let outputURL = FileManager.default.temporaryDirectory.appendingPathComponent("nginx-loopback-\(UUID().uuidString).out")
        guard FileManager.default.createFile(atPath: outputURL.path, contents: nil) else {
            throw StartError.failed("could not create \(outputURL.path)")
        }
        defer { try? FileManager.default.removeItem(at: outputURL) }
        let output = try FileHandle(forWritingTo: outputURL)
        defer { try? output.close() }
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            // Called on a Foundation thread once the script has exited.
            process.terminationHandler = { process in
                continuation.resume(returning: process.terminationStatus)
            }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        let text = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
        return (status, text)
    }
}

/// A flag set once, from any thread.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    /// Sets the flag; true if this call set it.
    func set() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if value { return false }
        value = true
        return true
    }
}
