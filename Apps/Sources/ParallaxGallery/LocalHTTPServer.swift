// Linux only, like the rest of the gallery's SDL side: Foundation's Process does not exist on iOS.
#if canImport(CSDL2)
import Foundation

/// `python3 -m http.server` serving a folder on a free loopback port: the
/// real HTTP server the session benchmark and the gallery's tests show
/// photos from (`parallax-gallery --server` works with any server that
/// lists a folder or serves an index file).
package final class LocalHTTPServer: @unchecked Sendable {
    /// The folder's URL on the server.
    package let url: URL
    private let process: Process

    /// Starts the server over `directory` and waits (up to `timeout`
    /// seconds) until it says where it listens.
    /// - Throws: ``Failure`` if python3 cannot start or never says so.
    package init(serving directory: URL, timeout: TimeInterval = 10) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // -u: unbuffered, so the "Serving HTTP on … port N" line arrives at once. Port 0: any free one.
        process.arguments = ["python3", "-u", "-m", "http.server", "--bind", "127.0.0.1", "--directory", directory.path, "0"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw Failure(reason: "python3 could not be started: \(error.localizedDescription)")
        }
        let port = Self.readPort(from: output.fileHandleForReading, timeout: timeout)
        guard let port, let url = URL(string: "http://127.0.0.1:\(port)/") else {
            kill(process.processIdentifier, SIGKILL)
            throw Failure(reason: "python3 -m http.server did not say which port it listens on within \(Int(timeout)) s")
        }
        self.process = process
        self.url = url
    }

    deinit { stop() }

    /// Stops the server. SIGKILL, not `terminate()`'s SIGTERM: a child
    /// started from a thread that blocks signals (Swift's test runner, the
    /// main thread under Dispatch) inherits the block and would ignore it.
    package func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Why the server could not be started.
    package struct Failure: Error, CustomStringConvertible {
        package var reason: String
        package var description: String { reason }
    }

    /// Reads lines until one says "port N", or the time runs out.
    private static func readPort(from handle: FileHandle, timeout: TimeInterval) -> Int? {
        let found = Locked<Int?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var text = ""
            while true {
                let chunk = handle.availableData
                guard !chunk.isEmpty else { break }
                text += String(decoding: chunk, as: UTF8.self)
                if let range = text.range(of: #"port (\d+)"#, options: .regularExpression),
                   let port = Int(text[range].dropFirst(5)) {
                    found.set(port)
                    break
                }
            }
            done.signal()
        }
        _ = done.wait(timeout: .now() + timeout)
        return found.value
    }
}

/// A value behind a lock, for the server's start-up handshake.
private final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value { lock.lock(); defer { lock.unlock() }; return stored }
    func set(_ value: Value) { lock.lock(); stored = value; lock.unlock() }
}
#endif
