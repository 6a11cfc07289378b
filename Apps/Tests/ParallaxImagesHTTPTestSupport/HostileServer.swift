#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A tiny HTTP/1.1 server on 127.0.0.1 that misbehaves on purpose, for the
/// transport's tests and measurements (nginx plays the well-behaved server).
///
/// Each path answers as its ``Behaviour`` says (404 for an unknown path),
/// always with `Connection: close`. One thread accepts and each connection
/// gets its own thread (blocking sockets: none of this touches Swift's
/// cooperative pool). For every connection it records the path, the bytes
/// it managed to send and when the client closed the connection
/// (``connections``), which is how the tests see that a refused or cancelled
/// answer is not drained. ``stop()`` (and `deinit`) closes everything and
/// waits for the threads.
public final class HostileServer: Sendable {
    public enum Behaviour: Sendable {
        /// 200 with this body and its Content-Length.
        case body(Data)
        /// Reads the request and never answers; waits for the client to close.
        case silent
        /// 200 without Content-Length, then bytes for as long as the client
        /// reads: as fast as it reads, or `bytesPerSecond`.
        case endless(bytesPerSecond: Int? = nil)
        /// 200 declaring `bytes` of body, then zeros for as long as the client reads.
        case claims(bytes: Int64)
        /// 200 declaring all of `body`, sending its first `sent` bytes, then closing.
        case cutShort(body: Data, sent: Int)
        /// A `status` (301, 302, …) to `location`.
        case redirect(status: Int, location: String)
        /// 304 Not Modified, declaring the `bytes` of the body a 200 would
        /// have, and (as HTTP says a 304 does) sending none.
        case notModified(claims: Int)
    }

    /// What happened on one connection.
    public struct Connection: Sendable, Hashable {
        public var path: String
        /// Body and head bytes the kernel accepted from the server.
        public var bytesSent: Int64
        /// When the request arrived, and when the server saw the client
        /// close (or gave up writing), on `ContinuousClock`.
        public var requestAt: ContinuousClock.Instant
        public var closedAt: ContinuousClock.Instant?
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public let port: UInt16
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }
    private let engine: Engine

    /// Serves `routes` (path with its leading `/`) on a free port.
    public init(_ routes: [String: Behaviour]) throws {
        let (listener, port) = try Self.makeListener()
        self.port = port
        engine = Engine(listener: listener, routes: routes)
        engine.start()
    }

    deinit { engine.stop() }

    /// Closes the listener and every connection, and waits for the threads.
    public func stop() { engine.stop() }

    /// Every connection so far, in the order requests arrived.
    public var connections: [Connection] {
        let all: [Connection] = engine.locked { Array($0.connections.values) }
        return all.sorted { (a: Connection, b: Connection) in a.requestAt < b.requestAt }
    }

    /// Connections that read a request for `path`.
    public func connections(to path: String) -> [Connection] { connections.filter { $0.path == path } }

    /// Returns once `count` connections for `path` have been closed by the
    /// client: awaited, never polled (the server's threads wake it as they
    /// record a close), so a loaded machine makes it slower, never failed.
    public func closedConnections(to path: String, count: Int) async -> [Connection] {
        await engine.wait { state in
            state.connections.values.filter { $0.path == path && $0.closedAt != nil }.count >= count
        }
        return connections(to: path).filter { $0.closedAt != nil }
    }

    /// Returns once `count` requests for `path` have arrived (awaited, as above).
    public func requests(to path: String, count: Int) async {
        await engine.wait { state in state.connections.values.filter { $0.path == path }.count >= count }
    }

    // MARK: Socket

    private static func makeListener() throws -> (Int32, UInt16) {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure(description: "socket(): \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard bound == 0, named == 0, listen(fd, 128) == 0 else {
            let text = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: "bind/listen on 127.0.0.1: \(text)")
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    /// The state and the threads.
    private final class Engine: @unchecked Sendable {
        struct State {
            var connections: [Int: Connection] = [:]
            var open: Set<Int32> = []
            var stopping = false
            var threads = 0
        }
        let listener: Int32
        let routes: [String: Behaviour]
        private let condition = NSCondition()
        private var state = State()
        private var nextID = 0

        init(listener: Int32, routes: [String: Behaviour]) {
            self.listener = listener
            self.routes = routes
        }

        /// Who waits for the record to reach a state (``wait(until:)``).
        private var waiters: [(satisfied: (State) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []

        /// Runs `body` on the record, then wakes the waiters it satisfied.
        func locked<T>(_ body: (inout State) -> T) -> T {
            condition.lock()
            let result = body(&state)
            var ready: [CheckedContinuation<Void, Never>] = []
            waiters.removeAll { waiter in
                guard waiter.satisfied(state) else { return false }
                ready.append(waiter.continuation)
                return true
            }
            condition.unlock()
            for continuation in ready { continuation.resume() }
            return result
        }

        /// Returns once `satisfied` holds for the record (at once if it does).
        func wait(until satisfied: @escaping (State) -> Bool) async {
            await withCheckedContinuation { continuation in
                condition.lock()
                if satisfied(state) {
                    condition.unlock()
                    continuation.resume()
                } else {
                    waiters.append((satisfied, continuation))
                    condition.unlock()
                }
            }
        }

        func start() {
            locked { $0.threads += 1 }
            Thread.detachNewThread { self.acceptLoop() }
        }

        func stop() {
            let open: Set<Int32>? = locked { state in
                guard !state.stopping else { return nil }
                state.stopping = true
                return state.open
            }
            guard let open else { return }
            shutdown(listener, Int32(SHUT_RDWR))
            for fd in open { shutdown(fd, Int32(SHUT_RDWR)) }
            condition.lock()
            while state.threads > 0 { condition.wait() }
            condition.unlock()
            close(listener)
        }

        private func threadEnded() {
            condition.lock()
            state.threads -= 1
            condition.broadcast()
            condition.unlock()
        }

        private func acceptLoop() {
            defer { threadEnded() }
            while true {
                let fd = accept(listener, nil, nil)
                if fd < 0 {
                    if errno == EINTR { continue }
                    return
                }
                let accepted: Bool = locked { state in
                    guard !state.stopping else { return false }
                    state.open.insert(fd)
                    state.threads += 1
                    return true
                }
                guard accepted else {
                    close(fd)
                    return
                }
                Thread.detachNewThread { self.serve(fd) }
            }
        }

        private func serve(_ fd: Int32) {
            defer {
                locked { _ = $0.open.remove(fd) }
                close(fd)
                threadEnded()
            }
            guard let path = readRequest(fd) else { return }
            let id: Int = locked { state in
                nextID += 1
                state.connections[nextID] = Connection(path: path, bytesSent: 0, requestAt: .now, closedAt: nil)
                return nextID
            }
            let closed = answer(fd, id: id, behaviour: routes[path])
            if closed {
                locked { $0.connections[id]?.closedAt = .now }
            }
        }

        /// Reads up to the end of the head; the path, without its query.
        private func readRequest(_ fd: Int32) -> String? {
            var head = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !head.containsHeadEnd {
                let count = recv(fd, &buffer, buffer.count, 0)
                guard count > 0 else { return nil }
                head += buffer[..<count]
                if head.count > 65536 { return nil }
            }
            let line = String(decoding: head.prefix { $0 != 13 }, as: UTF8.self)
            let parts = line.split(separator: " ")
            guard parts.count >= 2 else { return nil }
            return String(parts[1].split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0])
        }

        /// Answers; true when it ended because the client closed (or reset).
        private func answer(_ fd: Int32, id: Int, behaviour: Behaviour?) -> Bool {
            func emit(_ bytes: [UInt8]) -> Bool {
                var offset = 0
                while offset < bytes.count {
                    let count = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    if count < 0, errno == EINTR { continue }
                    guard count > 0 else { return false }
                    offset += count
                    locked { $0.connections[id]?.bytesSent += Int64(count) }
                }
                return true
            }
            func head(_ status: String, _ fields: [String]) -> [UInt8] {
                Array((["HTTP/1.1 \(status)"] + fields + ["Connection: close", "", ""]).joined(separator: "\r\n").utf8)
            }
            /// Zeros until a write fails: the client closed.
            func forever(bytesPerSecond: Int? = nil) -> Bool {
                let chunk = [UInt8](repeating: 0, count: bytesPerSecond.map { max(1, min(65536, $0 / 20)) } ?? 65536)
                while emit(chunk) {
                    if let rate = bytesPerSecond {
                        usleep(useconds_t(1_000_000 * chunk.count / max(1, rate)))
                    }
                }
                return true
            }
            /// Blocks until the client closes (recv returns 0 or fails).
            func awaitClose() -> Bool {
                var byte: UInt8 = 0
                while true {
                    let count = recv(fd, &byte, 1, 0)
                    if count < 0, errno == EINTR { continue }
                    if count <= 0 { return true }
                }
            }
            switch behaviour {
            case nil:
                let body = Array("not found".utf8)
                _ = emit(head("404 Not Found", ["Content-Length: \(body.count)"]) + body)
                return false
            case .body(let data):
                guard emit(head("200 OK", ["Content-Length: \(data.count)", "Content-Type: image/jpeg"]) + data) else { return true }
                return false
            case .silent:
                return awaitClose()
            case .endless(let rate):
                guard emit(head("200 OK", ["Content-Type: image/jpeg"])) else { return true }
                return forever(bytesPerSecond: rate)
            case .claims(let bytes):
                guard emit(head("200 OK", ["Content-Length: \(bytes)", "Content-Type: image/jpeg"])) else { return true }
                return forever()
            case .cutShort(let data, let sent):
                _ = emit(head("200 OK", ["Content-Length: \(data.count)", "Content-Type: image/jpeg"]) + data.prefix(sent))
                return false
            case .redirect(let status, let location):
                _ = emit(head("\(status) Moved", ["Location: \(location)", "Content-Length: 0"]))
                return false
            case .notModified(let bytes):
                _ = emit(head("304 Not Modified", ["Content-Length: \(bytes)"]))
                return false
            }
        }
    }
}

private extension [UInt8] {
    var containsHeadEnd: Bool {
        guard count >= 4 else { return false }
        for index in 0...(count - 4) where self[index] == 13 && self[index + 1] == 10 && self[index + 2] == 13 && self[index + 3] == 10 {
            return true
        }
        return false
    }
}
