#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A tiny HTTP/1.1 server on 127.0.0.1, for tests only.
///
/// It serves `GET` (and `HEAD`) from an in-memory routes table keyed by the
/// percent-decoded request path, leading `/` included (`"/index.txt"`,
/// `"/a b.jpg"`): 200 with `Content-Length` for a known path, 404
/// otherwise, and `Connection: close` after every answer. The kernel picks
/// a free port (bind to port 0); only the loopback address is ever bound,
/// so nothing outside the machine can reach it.
///
/// Test hooks, all changeable while the server runs:
/// - `failFirst[path] = n`: answer 503 to the first `n` requests for `path`
///   before serving it normally (for retries);
/// - `responseDelay` / `delays[path]`: wait before answering (for
///   timeouts and cancellation); `stop()` cuts the wait short;
/// - `requestCount(for:)`: how many requests each path received, failed
///   and delayed ones included;
/// - `retryAfter[path]`: the `Retry-After` value sent with its 503s;
/// - `hostile[path]`: misbehave on purpose (see ``Hostility``): never
///   answer, answer forever, claim a huge length, drip, redirect in a
///   loop, cut the answer short, or reset the connection.
///
/// One thread accepts connections and each connection gets its own thread,
/// so a delayed request never holds up the others. `stop()` (called by
/// `deinit` too) closes the listening socket, shuts down open connections
/// and waits for every thread to finish, so the server never outlives the
/// test that made it. The threads hold the internal `Engine`, never the
/// server itself, which is what lets `deinit` run and stop them.
final class LoopbackHTTPServer: Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Ways to answer badly, as broken or hostile servers do.
    enum Hostility: Sendable {
        /// Reads the request and never answers (until the server stops).
        case silent
        /// 200 with no Content-Length, then bytes for as long as the client reads.
        case endless
        /// 200 claiming `bytes` of body, then zeros for as long as the client reads.
        case claims(bytes: Int64)
        /// 200 with `body`, sent `chunk` bytes at a time, `interval` seconds apart.
        case drip(body: Data, chunk: Int, interval: TimeInterval)
        /// 302 to the same path, every time.
        case redirectLoop
        /// 200 declaring all of `body`, sending its first `sent` bytes, then closing.
        case cutShort(body: Data, sent: Int)
        /// Closes the connection with a TCP reset instead of answering.
        case reset
        /// 302 to `location`, as given (another origin, another scheme…).
        case redirect(to: String)
    }

    /// The port the kernel chose.
    let port: UInt16
    private let engine: Engine

    /// `http://127.0.0.1:<port>/`.
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    /// Binds to 127.0.0.1 on a free port and starts serving at once.
    init(routes: [String: Data] = [:], failFirst: [String: Int] = [:],
         responseDelay: TimeInterval = 0, delays: [String: TimeInterval] = [:]) throws {
        let (listener, port) = try Self.makeListener()
        self.port = port
        engine = Engine(listener: listener)
        engine.withState { state in
            state.routes = routes
            state.failFirst = failFirst
            state.responseDelay = responseDelay
            state.delays = delays
        }
        engine.start()
    }

    deinit { engine.stop() }

    /// Stops accepting, shuts down open connections, waits for all server
    /// threads and closes the socket. Safe to call more than once.
    func stop() { engine.stop() }

    var routes: [String: Data] {
        get { engine.withState { $0.routes } }
        set { engine.withState { $0.routes = newValue } }
    }

    var failFirst: [String: Int] {
        get { engine.withState { $0.failFirst } }
        set { engine.withState { $0.failFirst = newValue } }
    }

    /// Seconds to wait before every answer unless `delays` names the path.
    var responseDelay: TimeInterval {
        get { engine.withState { $0.responseDelay } }
        set { engine.withState { $0.responseDelay = newValue } }
    }

    var hostile: [String: Hostility] {
        get { engine.withState { $0.hostile } }
        set { engine.withState { $0.hostile = newValue } }
    }

    var retryAfter: [String: String] {
        get { engine.withState { $0.retryAfter } }
        set { engine.withState { $0.retryAfter = newValue } }
    }

    /// Whether `Range: bytes=A-B` requests get a 206 with that slice (the
    /// default), or the whole body with a 200, as a server without range
    /// support answers.
    var honoursRanges: Bool {
        get { engine.withState { $0.honoursRanges } }
        set { engine.withState { $0.honoursRanges = newValue } }
    }

    /// The `Range` headers received, by path, in order.
    func ranges(for path: String) -> [String] { engine.withState { $0.ranges[path, default: []] } }

    /// Per-path waits before answering; override `responseDelay`.
    var delays: [String: TimeInterval] {
        get { engine.withState { $0.delays } }
        set { engine.withState { $0.delays = newValue } }
    }

    /// Requests received for `path` (percent-decoded, leading `/`).
    func requestCount(for path: String) -> Int {
        engine.withState { $0.requestCounts[path, default: 0] }
    }

    /// Requests received, by path.
    var requestCounts: [String: Int] { engine.withState { $0.requestCounts } }

    /// Every request target received, as sent (percent-encoded), in order:
    /// the server's access log.
    var requestedTargets: [String] { engine.withState { $0.targets } }

    /// Returns once `count` requests for `path` have arrived: the server's
    /// thread wakes the waiter as it counts the request (an event, not a
    /// poll, so a slow machine only takes longer).
    func waitForRequests(_ count: Int, to path: String) async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let ready = engine.withState { state -> Bool in
                guard state.requestCounts[path, default: 0] < count else { return true }
                state.requestWaiters.append((path, count, waiter))
                return false
            }
            if ready { waiter.resume() }
        }
    }

    // MARK: Socket setup

    private static func makeListener() throws -> (Int32, UInt16) {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure(description: "socket() failed: \(errnoText())") }
        var yes: Int32 = 1
        guard setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            let text = errnoText()
            close(fd)
            throw Failure(description: "setsockopt(SO_REUSEADDR) failed: \(text)")
        }

        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0                                             // the kernel picks
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian) // 127.0.0.1 only
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let text = errnoText()
            close(fd)
            throw Failure(description: "bind(127.0.0.1:0) failed: \(text)")
        }

        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0, listen(fd, 16) == 0 else {
            let text = errnoText()
            close(fd)
            throw Failure(description: "getsockname/listen failed: \(text)")
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }
}

private func errnoText() -> String {
    String(cString: strerror(errno))
}

/// The state and threads behind a `LoopbackHTTPServer`.
///
/// `@unchecked Sendable`: every mutable property is reached only through
/// `withState`, under `lock`; `listener` is immutable, and the socket
/// calls made on it from several threads are safe for the kernel.
private final class Engine: @unchecked Sendable {
    struct State {
        var routes: [String: Data] = [:]
        var failFirst: [String: Int] = [:]
        var responseDelay: TimeInterval = 0
        var delays: [String: TimeInterval] = [:]
        var requestCounts: [String: Int] = [:]
        /// Every request target as it arrived (still percent-encoded), in order.
        var targets: [String] = []
        var hostile: [String: LoopbackHTTPServer.Hostility] = [:]
        var retryAfter: [String: String] = [:]
        var honoursRanges = true
        var ranges: [String: [String]] = [:]
        var isStopped = false
        var isClosed = false
        /// Connections being served, so `stop()` can shut them down.
        var clients: Set<Int32> = []
        /// Who waits for a number of requests to a path.
        var requestWaiters: [(path: String, count: Int, waiter: CheckedContinuation<Void, Never>)] = []
    }

    private let lock = NSLock()
    private var state = State()
    private let listener: Int32
    /// The accept thread and every connection thread are in this group
    /// while they run; `stop()` waits for it, which is the join.
    private let threads = DispatchGroup()

    init(listener: Int32) {
        self.listener = listener
    }

    func withState<T>(_ body: (inout State) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }

    func start() {
        threads.enter()
        let thread = Thread { [self] in
            acceptLoop()
            threads.leave()
        }
        thread.name = "LoopbackHTTPServer accept"
        thread.start()
    }

    func stop() {
        let alreadyStopped = withState { state -> Bool in
            if state.isStopped { return true }
            state.isStopped = true
            // Shut down (not close) under the lock: a connection thread
            // removes its socket under the same lock before closing it, so
            // a descriptor number reused elsewhere is never touched here.
            shutdown(listener, Int32(SHUT_RDWR))
            for client in state.clients { shutdown(client, Int32(SHUT_RDWR)) }
            return false
        }
        guard !alreadyStopped else { return }
        // Accept polls every 50 ms and delays wait in 10 ms slices, so this
        // returns quickly; the bound only guards against a wedged thread.
        _ = threads.wait(timeout: .now() + 5)
        withState { state in
            if !state.isClosed {
                state.isClosed = true
                close(listener)
            }
        }
    }

    private var isStopped: Bool { withState { $0.isStopped } }

    // MARK: Accepting

    private func acceptLoop() {
        while !isStopped {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 50)
            guard ready > 0 else { continue }               // timeout or EINTR: check isStopped
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }             // a stop (EINVAL) or a transient error
            let accepted = withState { state -> Bool in
                guard !state.isStopped else { return false }
                state.clients.insert(client)
                return true
            }
            guard accepted else {
                close(client)
                break
            }
            threads.enter()
            let thread = Thread { [self] in
                serve(client)
                withState { _ = $0.clients.remove(client) }
                close(client)
                threads.leave()
            }
            thread.name = "LoopbackHTTPServer connection"
            thread.start()
        }
    }

    // MARK: Serving

    private func serve(_ client: Int32) {
        #if canImport(Darwin)
        var yes: Int32 = 1
        setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
        // A client that never finishes its request cannot hold the thread.
        var limit = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))

        guard let head = readRequestHead(client) else { return }
        let requestLine = head.split(separator: "\r\n", maxSplits: 1).first.map(String.init) ?? ""
        let parts = requestLine.split(separator: " ")
        guard parts.count >= 2 else {
            respond(client, status: 400, reason: "Bad Request", body: Data(), includeBody: true)
            return
        }
        let method = String(parts[0])
        let target = parts[1].split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let path = target.removingPercentEncoding ?? target

        // `Range: bytes=A-B`, the only form HTTPImageSource sends.
        let range = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("range:") }
            .map { String($0.dropFirst("range:".count)).trimmingCharacters(in: .whitespaces) }
        var woken: [CheckedContinuation<Void, Never>] = []
        let (body, failing, delay, hostility, retryAfter, honoursRanges) = withState { state in
            state.requestCounts[path, default: 0] += 1
            let counted = state.requestCounts[path, default: 0]
            state.requestWaiters.removeAll { waiting in
                guard waiting.path == path, waiting.count <= counted else { return false }
                woken.append(waiting.waiter)
                return true
            }
            state.targets.append(String(parts[1]))
            if let range { state.ranges[path, default: []].append(range) }
            var failing = false
            if let remaining = state.failFirst[path], remaining > 0 {
                state.failFirst[path] = remaining - 1
                failing = true
            }
            return (state.routes[path], failing, state.delays[path] ?? state.responseDelay, state.hostile[path],
                    state.retryAfter[path], state.honoursRanges)
        }
        for waiter in woken { waiter.resume() }
        if let hostility {
            misbehave(client, hostility, target: target)
            return
        }

        if delay > 0 {
            guard wait(seconds: delay) else { return }       // stopped while waiting: hang up
        }
        let includeBody = method != "HEAD"
        if failing {
            respond(client, status: 503, reason: "Service Unavailable", body: Data("try again\n".utf8), includeBody: includeBody,
                    extraHeaders: retryAfter.map { "Retry-After: \($0)\r\n" } ?? "")
        } else if let body, let range, honoursRanges, let slice = Self.slice(of: body, range: range) {
            let contentRange = "Content-Range: bytes \(slice.lowerBound)-\(slice.upperBound - 1)/\(body.count)\r\n"
            respond(client, status: 206, reason: "Partial Content", body: body.subdata(in: slice), includeBody: includeBody,
                    extraHeaders: contentRange)
        } else if let body {
            respond(client, status: 200, reason: "OK", body: body, includeBody: includeBody)
        } else {
            respond(client, status: 404, reason: "Not Found", body: Data("not found\n".utf8), includeBody: includeBody)
        }
    }

    /// The bytes `bytes=A-B` asks for within `body`, `nil` for another form.
    private static func slice(of body: Data, range: String) -> Range<Int>? {
        guard range.hasPrefix("bytes=") else { return nil }
        let bounds = range.dropFirst("bytes=".count).split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Int(bounds[0]), let last = Int(bounds[1]), first <= last,
              first < body.count else { return nil }
        return first..<min(last + 1, body.count)
    }

    /// Reads up to the blank line that ends the request head (requests
    /// here have no body). Nil if the client hung up first or sent > 64 KiB.
    private func readRequestHead(_ client: Int32) -> String? {
        let terminator = Data([13, 10, 13, 10])            // CR LF CR LF
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while received.count < 65_536 {
            let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            let searchStart = max(0, received.count - 3)     // the terminator may straddle reads
            received.append(contentsOf: buffer[0..<count])
            if received.range(of: terminator, in: searchStart..<received.count) != nil {
                return String(decoding: received, as: UTF8.self)
            }
        }
        return nil
    }

    /// Sleeps `seconds` in short slices; false if the server stopped meanwhile.
    private func wait(seconds: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if isStopped { return false }
            usleep(10_000)
        }
        return !isStopped
    }

    private func respond(_ client: Int32, status: Int, reason: String, body: Data, includeBody: Bool,
                         extraHeaders: String = "") {
        // A strong ETag of the body, as most servers send: what HTTPImageSource's fingerprint reads.
        let tag = status == 200 ? "ETag: \"\(body.count)-\(String(UInt(bitPattern: body.hashValue), radix: 16))\"\r\n" : ""
        let head = "HTTP/1.1 \(status) \(reason)\r\n"
            + "Content-Length: \(body.count)\r\n"
            + "Content-Type: application/octet-stream\r\n"
            + tag
            + extraHeaders
            + "Connection: close\r\n"
            + "\r\n"
        var message = Data(head.utf8)
        if includeBody { message.append(body) }
        _ = sendAll(client, message)
        shutdown(client, Int32(SHUT_WR))
    }

    /// Sends all of `data`; false once the client has gone or the server stopped.
    private func sendAll(_ client: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                if isStopped { return false }
                #if canImport(Glibc)
                let sent = send(client, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                #else
                let sent = send(client, raw.baseAddress! + offset, raw.count - offset, 0)
                #endif
                if sent < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) { continue }
                guard sent > 0 else { return false }         // the client went away
                offset += sent
            }
            return true
        }
    }

    private func misbehave(_ client: Int32, _ hostility: LoopbackHTTPServer.Hostility, target: String) {
        // Sends that block on a client that stopped reading give up every 100 ms to check for a stop.
        var limit = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        let zeros = Data(count: 65_536)
        switch hostility {
        case .silent:
            _ = wait(seconds: 3600)
        case .endless:
            guard sendAll(client, Data("HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\nConnection: close\r\n\r\n".utf8)) else { return }
            while sendAll(client, zeros) {}
        case .claims(let bytes):
            guard sendAll(client, Data("HTTP/1.1 200 OK\r\nContent-Length: \(bytes)\r\nConnection: close\r\n\r\n".utf8)) else { return }
            var left = bytes
            while left > 0, sendAll(client, zeros.prefix(Int(min(left, Int64(zeros.count))))) { left -= Int64(zeros.count) }
        case .drip(let body, let chunk, let interval):
            guard sendAll(client, Data("HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8)) else { return }
            var offset = 0
            while offset < body.count {
                let end = min(offset + max(chunk, 1), body.count)
                guard sendAll(client, body.subdata(in: offset..<end)), wait(seconds: interval) else { return }
                offset = end
            }
            shutdown(client, Int32(SHUT_WR))
        case .redirectLoop:
            _ = sendAll(client, Data("HTTP/1.1 302 Found\r\nLocation: \(target)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
            shutdown(client, Int32(SHUT_WR))
        case .cutShort(let body, let sent):
            let head = "HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
            _ = sendAll(client, Data(head.utf8) + body.prefix(sent))
            shutdown(client, Int32(SHUT_RDWR))
        case .redirect(let location):
            _ = sendAll(client, Data("HTTP/1.1 302 Found\r\nLocation: \(location)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
            shutdown(client, Int32(SHUT_WR))
        case .reset:
            var option = linger(l_onoff: 1, l_linger: 0)        // closing now sends a reset
            setsockopt(client, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        }
    }
}
