#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import ParallaxImages

/// A temporary folder of files for nginx to serve: `count` "photos"
/// (deterministic bytes, 100 KiB to about 1 MiB, named `photo-N.jpg`), a
/// folder `album` holding `cover.jpg`, and,
/// when asked, `huge.jpg`, a sparse file of `hugeBytes` (as `truncate -s`
/// makes: it takes no disk).
public struct PhotoFolder: Sendable {
    public let url: URL
    public let names: [String]

    public init(count: Int = 8, hugeBytes: Int64? = nil) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-http-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        var names: [String] = []
        for index in 0..<count {
            let name = "photo-\(index).jpg"
            try Self.bytes(count: 100 * 1024 + index * 128 * 1024, seed: UInt64(index + 1)).write(to: url.appendingPathComponent(name))
            names.append(name)
        }
        self.names = names
        // A folder, for nginx's redirect of `/photos/album` to `/photos/album/`.
        let album = url.appendingPathComponent("album")
        try FileManager.default.createDirectory(at: album, withIntermediateDirectories: true)
        try Self.bytes(count: 1000, seed: 99).write(to: album.appendingPathComponent("cover.jpg"))
        if let hugeBytes {
            let path = url.appendingPathComponent("huge.jpg").path
            guard FileManager.default.createFile(atPath: path, contents: nil),
                  truncate(path, off_t(hugeBytes)) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
            }
        }
    }

    /// The bytes of `name` in the folder.
    public func contents(of name: String) throws -> Data {
        try Data(contentsOf: url.appendingPathComponent(name))
    }

    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    /// `count` bytes from a seeded xorshift generator.
    static func bytes(count: Int, seed: UInt64) -> Data {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        var bytes = [UInt8](repeating: 0, count: count)
        for index in 0..<count {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            bytes[index] = UInt8(truncatingIfNeeded: state)
        }
        return Data(bytes)
    }
}

/// This process's memory, from /proc/self/status (Linux).
public enum ProcessMemory {
    /// Resident set size now (`VmRSS`), in bytes; 0 where unknown.
    public static var resident: Int64 { field("VmRSS:") }
    /// Peak resident set size (`VmHWM`), in bytes; 0 where unknown.
    public static var peakResident: Int64 { field("VmHWM:") }

    private static func field(_ name: String) -> Int64 {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            // "VmRSS:\t   12345 kB"
            let kilobytes = line.dropFirst(name.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Int64($0) } ?? 0
            return kilobytes * 1024
        }
        return 0
    }
}

/// `transport.send(request)` as a `Result` (a `Task` cannot carry a typed
/// error), for tasks that a test cancels.
public func outcome(of transport: some HTTPTransport, _ request: HTTPTransportRequest) async -> Result<HTTPTransportResponse, HTTPTransportError> {
    do {
        return .success(try await transport.send(request))
    } catch {
        return .failure(error)
    }
}

/// Runs `send` in a task cancelled at `deadline`, as `HTTPImageSource`
/// enforces its deadline: the outcome and how long it took.
public func sendWithDeadline(_ transport: some HTTPTransport, _ request: HTTPTransportRequest,
                             deadline: Duration) async -> (Result<HTTPTransportResponse, HTTPTransportError>, Duration) {
    let clock = ContinuousClock()
    let start = clock.now
    let task = Task { await outcome(of: transport, request) }
    let timer = Task {
        try await Task.sleep(for: deadline)
        task.cancel()
    }
    let result = await task.value
    timer.cancel()
    return (result, clock.now - start)
}

/// The highest resident set size seen while it runs: a thread (off the
/// cooperative pool) reads VmRSS every 5 ms until ``stop()``.
public final class ResidentPeak: @unchecked Sendable {
    private let condition = NSCondition()
    private var peak: Int64 = 0
    private var running = true
    private var finished = false

    public init() {
        peak = ProcessMemory.resident
        Thread.detachNewThread { [self] in
            while true {
                let now = ProcessMemory.resident
                condition.lock()
                peak = max(peak, now)
                if !running {
                    finished = true
                    condition.broadcast()
                    condition.unlock()
                    return
                }
                condition.unlock()
                usleep(5000)
            }
        }
    }

    /// Stops sampling (after one last reading) and returns the peak, in bytes.
    public func stop() -> Int64 {
        condition.lock()
        defer { condition.unlock() }
        running = false
        while !finished { condition.wait() }
        return peak
    }
}
