// ParallaxImagesHTTP: an `HTTPTransport` for `HTTPImageSource` over
// AsyncHTTPClient (SwiftNIO), for Linux.
//
// Why this module lives in the apps' package (`Apps/`), and not beside
// `HTTPImageSource` in the library or in a package of its own:
//
// - The root package has no dependencies at all, so a user of the library
//   (an iOS app, above all, where Foundation's `URLSession` is the right
//   transport) resolves and builds nothing but ParallaxKit. Putting
//   AsyncHTTPClient there, even behind a separate product, would make every
//   such user resolve SwiftNIO, swift-nio-ssl, swift-nio-http2 and the rest:
//   SwiftPM resolves a package's whole dependency graph, used or not.
// - The apps' package already carries Linux-only dependencies (SDL2,
//   swift-argument-parser) and is where the one Linux client of the
//   transport, the gallery, lives, so the transport adds no new kind of
//   cost there; it is a `.library` product, so another Linux app can depend
//   on `Apps/` by path or URL and use it.
// - A package of its own would be one more `Package.swift`, one more
//   resolution and one more build of SwiftNIO in CI (the apps would depend
//   on it by path and build it again in their own `.build`), for one file.
//
// Why it exists: swift-corelibs-foundation's `URLSession` on Linux can
// neither stop a transfer it has given up on (a refused 300 MB answer was
// still sent in full, 55 times; an endless body drained 4.5 GB after the
// cut) nor keep off the cooperative thread pool (its threads were seen
// blocked in `DispatchQueue.sync`). AsyncHTTPClient streams the body with
// back-pressure on SwiftNIO's own event-loop threads, and closes the
// connection when a request is cancelled or its body dropped.
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import ParallaxImages

/// An ``HTTPTransport`` over AsyncHTTPClient, keeping every promise of the
/// protocol:
///
/// - **No redirects followed** (`redirectConfiguration: .disallow`): a 3xx
///   comes back as a response with its `Location`.
/// - **Bounded memory.** The body is read as a stream with back-pressure
///   (SwiftNIO reads the socket only when the previous piece has been
///   taken), its bytes counted; a declared `Content-Length` over
///   `maximumBodySize` throws `.tooLarge(declared:limit:)` as soon as the
///   head arrives, and a body that passes the limit throws
///   `.tooLarge(declared: nil, limit:)` on the piece that passes it. So at
///   most the limit plus one read buffer (SwiftNIO's, at most 64 KiB by
///   default) is held.
/// - **The connection is closed, never drained,** when an answer is refused
///   or the calling task cancelled: the request is cancelled in
///   AsyncHTTPClient, which closes an HTTP/1.1 connection mid-answer (on
///   HTTP/2 it resets the stream). A connection that ended its answer
///   cleanly goes back to the pool for the next request to the same host.
/// - **Prompt cancellation:** cancelling the task running ``send(_:)``
///   throws `.cancelled` at once, whatever the request was doing
///   (connecting, waiting for a head, reading a body).
/// - **No blocking:** all I/O happens on SwiftNIO's event-loop threads
///   (`MultiThreadedEventLoopGroup.singleton`, one thread per core); a
///   sending task only ever suspends.
/// - A deadline backstop: the source enforces `request.timeout` by
///   cancelling; should it not, the transport gives up by itself
///   ``Configuration/backstopSlack`` after it.
///
/// Lifetime: an instance owns an `HTTPClient`, which must be shut down.
/// Either make one and call ``shutdown()`` when done (before it is released;
/// in debug builds AsyncHTTPClient traps if a client is released while
/// running), use ``withTransport(configuration:_:)``, which does so, or use
/// ``shared``, which lives until the process exits and is never shut down
/// (as `HTTPClient.shared`).
public final class AsyncHTTPClientTransport: HTTPTransport, Sendable {
    /// How the transport's client is set up.
    public struct Configuration: Sendable, Hashable {
        /// Connections kept open at once to one host (HTTP/1.1). A gallery
        /// downloads up to 16 photos at once; requests over this number wait
        /// for a connection.
        public var maximumConnectionsPerHost: Int
        /// How long an unused pooled connection stays open.
        public var idleTimeout: Duration
        /// The longest wait for a TCP (and TLS) connection.
        public var connectTimeout: Duration
        /// How long after `request.timeout` the transport gives up by itself
        /// if the caller has not cancelled it by then.
        public var backstopSlack: Duration

        /// The defaults: 16 connections per host, 60 s idle, 10 s to
        /// connect, a backstop 1 s after the request's own deadline.
        public init(maximumConnectionsPerHost: Int = 16, idleTimeout: Duration = .seconds(60),
                    connectTimeout: Duration = .seconds(10), backstopSlack: Duration = .seconds(1)) {
            self.maximumConnectionsPerHost = maximumConnectionsPerHost
            self.idleTimeout = idleTimeout
            self.connectTimeout = connectTimeout
            self.backstopSlack = backstopSlack
        }
    }

    /// A transport for the whole process, never shut down (its client's
    /// threads and pooled connections end with the process). ``shutdown()``
    /// does nothing to it.
    public static let shared = AsyncHTTPClientTransport(configuration: Configuration(), isShared: true)

    /// The configuration it was made with.
    public let configuration: Configuration
    private let client: HTTPClient
    private let isShared: Bool

    /// A transport with its own client (and connection pool) on SwiftNIO's
    /// shared event-loop threads. Call ``shutdown()`` when done with it.
    public convenience init(configuration: Configuration = Configuration()) {
        self.init(configuration: configuration, isShared: false)
    }

    private init(configuration: Configuration, isShared: Bool) {
        self.configuration = configuration
        self.isShared = isShared
        var settings = HTTPClient.Configuration()
        settings.redirectConfiguration = .disallow
        settings.decompression = .disabled
        settings.timeout = HTTPClient.Configuration.Timeout(connect: Self.timeAmount(configuration.connectTimeout))
        var pool = HTTPClient.Configuration.ConnectionPool(
            idleTimeout: Self.timeAmount(configuration.idleTimeout),
            concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, configuration.maximumConnectionsPerHost))
        // A refused connection fails the request at once; the source decides
        // whether to retry (AsyncHTTPClient would otherwise retry until the
        // connect timeout).
        pool.retryConnectionEstablishment = false
        settings.connectionPool = pool
        client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: settings)
    }

    /// Runs `body` with a new transport and shuts it down afterwards,
    /// whether `body` returned or threw.
    @discardableResult
    public static func withTransport<Result: Sendable>(
        configuration: Configuration = Configuration(),
        _ body: (AsyncHTTPClientTransport) async throws -> Result
    ) async throws -> Result {
        let transport = AsyncHTTPClientTransport(configuration: configuration)
        let result: Swift.Result<Result, any Error>
        do { result = .success(try await body(transport)) } catch { result = .failure(error) }
        try await transport.shutdown()
        return try result.get()
    }

    /// Closes the pooled connections and cancels requests still running
    /// (they throw). Call it once, when done; nothing for ``shared``.
    public func shutdown() async throws {
        guard !isShared else { return }
        try await client.shutdown()
    }

    // MARK: Sending

    public func send(_ request: HTTPTransportRequest) async throws(HTTPTransportError) -> HTTPTransportResponse {
        if Task.isCancelled { throw .cancelled }
        let backstop = Self.duration(seconds: request.timeout) + configuration.backstopSlack
        let outcome: Swift.Result<HTTPTransportResponse, HTTPTransportError> = await withTaskGroup(
            of: Swift.Result<HTTPTransportResponse, HTTPTransportError>?.self
        ) { group in
            group.addTask { await self.exchange(request) }
            group.addTask {
                // Returns nil when cancelled (the exchange won, or the caller gave up).
                do { try await Task.sleep(for: backstop) } catch { return nil }
                return .failure(.failed("no complete answer from \(request.url.host ?? "the server") within \(Self.seconds(backstop)) s (the transport's backstop deadline)"))
            }
            var first: Swift.Result<HTTPTransportResponse, HTTPTransportError>?
            while let next = await group.next() {
                if let next, first == nil {
                    first = next
                    group.cancelAll()
                }
            }
            return first ?? .failure(.cancelled)
        }
        // A task cancelled while the answer was being read gets `.cancelled`,
        // whatever the request ended with.
        if Task.isCancelled { throw .cancelled }
        return try outcome.get()
    }

    /// One request and its answer, with the failure described.
    private func exchange(_ request: HTTPTransportRequest) async -> Swift.Result<HTTPTransportResponse, HTTPTransportError> {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = request.method == .head ? .HEAD : .GET
        if let range = request.rangeHeader { outgoing.headers.add(name: "Range", value: range) }
        let limit = max(1, request.maximumBodySize)
        var declared: Int64?
        var received = 0
        var headArrived = false
        do {
            // AsyncHTTPClient's own deadline covers the head only, and is set
            // after the backstop in `send`, which covers everything.
            let response = try await client.execute(
                outgoing, deadline: .now() + Self.timeAmount(Self.duration(seconds: request.timeout) + configuration.backstopSlack * 2))
            headArrived = true
            var headers: [String: String] = [:]
            for (name, value) in response.headers {
                let key = name.lowercased()
                headers[key] = headers[key].map { "\($0), \(value)" } ?? value
            }
            let status = Int(response.status.code)
            if request.method == .head {
                // A HEAD answer's Content-Length describes a GET's body; there
                // is none. Reading the (empty) end keeps the connection pooled.
                for try await _ in response.body {}
                return .success(HTTPTransportResponse(status: status, headers: headers))
            }
            declared = headers["content-length"].flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
            if let declared, declared > Int64(limit) {
                // Returning drops `response`, whose body was never read:
                // AsyncHTTPClient then cancels the request and closes the
                // connection instead of draining it.
                return .failure(.tooLarge(declared: declared, limit: limit))
            }
            var body = Data()
            if let declared { body.reserveCapacity(Int(declared)) }
            for try await piece in response.body {
                guard received + piece.readableBytes <= limit else {
                    // Leaving the loop ends the iteration: AsyncHTTPClient
                    // cancels the request and closes the connection.
                    return .failure(.tooLarge(declared: nil, limit: limit))
                }
                received += piece.readableBytes
                piece.withUnsafeReadableBytes { bytes in
                    if let start = bytes.bindMemory(to: UInt8.self).baseAddress { body.append(start, count: bytes.count) }
                }
            }
            // A cancelled iteration ends without an error.
            if Task.isCancelled { return .failure(.cancelled) }
            if let declared, Int64(received) < declared {
                return .failure(.cutShort(received: received, expected: declared))
            }
            return .success(HTTPTransportResponse(status: status, headers: headers, body: body))
        } catch {
            if Task.isCancelled || Self.isCancellation(error) { return .failure(.cancelled) }
            if headArrived, Self.isConnectionEnd(error) {
                return .failure(.cutShort(received: received, expected: declared))
            }
            return .failure(.failed(Self.describe(error, url: request.url)))
        }
    }

    // MARK: Errors in words

    static func isCancellation(_ error: any Error) -> Bool {
        if error is CancellationError { return true }
        if let error = error as? HTTPClientError, error == .cancelled { return true }
        return false
    }

    /// Whether `error` means the connection ended before the answer did.
    static func isConnectionEnd(_ error: any Error) -> Bool {
        if let error = error as? HTTPClientError {
            return error == .remoteConnectionClosed || error == .bodyLengthMismatch || error == .uncleanShutdown
        }
        if let error = error as? IOError {
            return [ECONNRESET, EPIPE, ECONNABORTED].contains(error.errnoCode)
        }
        if let error = error as? ChannelError { return error == .eof || error == .ioOnClosedChannel || error == .alreadyClosed }
        if let error = error as? HTTPParserError { return error == .invalidEOFState }
        if let error = error as? NIOSSLError, case .uncleanShutdown = error { return true }
        return false
    }

    /// What went wrong, in words a person understands.
    static func describe(_ error: any Error, url: URL) -> String {
        let host = url.host ?? "the server"
        let port = url.port.map { ":\($0)" } ?? ""
        if let error = error as? NIOConnectionError {
            if let dns = error.dnsAError ?? error.dnsAAAAError, error.connectionErrors.isEmpty {
                return "host not found: \(host) (\(dns))"
            }
            if let first = error.connectionErrors.first {
                return "could not connect to \(host)\(port) (\(reason(first.error)))"
            }
            return "could not connect to \(host)\(port) (no address to try)"
        }
        if error is NIOSSLError || error is BoringSSLError || error is NIOSSLExtraError {
            return "TLS handshake with \(host) failed: \(error)"
        }
        if let error = error as? HTTPClientError {
            switch error {
            case .connectTimeout: return "could not connect to \(host)\(port) (timed out)"
            case .tlsHandshakeTimeout: return "TLS handshake with \(host) timed out"
            case .deadlineExceeded, .readTimeout: return "no answer from \(host) in time (the transport's backstop deadline)"
            case .remoteConnectionClosed: return "\(host) closed the connection before answering"
            case .invalidURL, .emptyHost, .emptyScheme: return "not a URL this transport can fetch: \(url.absoluteString)"
            case .alreadyShutdown: return "the transport has been shut down"
            default:
                return "HTTP request to \(host) failed: \(error)"
            }
        }
        if let error = error as? IOError {
            if [ECONNREFUSED, EHOSTUNREACH, ENETUNREACH].contains(error.errnoCode) {
                return "could not connect to \(host)\(port) (\(reason(error)))"
            }
            return "connection to \(host)\(port) failed (\(reason(error)))"
        }
        if let error = error as? HTTPParserError { return "\(host) sent an answer that is not valid HTTP (\(error))" }
        return "request to \(host) failed: \(error)"
    }

    /// "connection refused", "host unreachable", … for socket errors.
    static func reason(_ error: any Error) -> String {
        guard let error = error as? IOError else { return "\(error)" }
        switch error.errnoCode {
        case ECONNREFUSED: return "connection refused"
        case ECONNRESET: return "connection reset"
        case ETIMEDOUT: return "timed out"
        case EHOSTUNREACH: return "host unreachable"
        case ENETUNREACH: return "network unreachable"
        default: return String(cString: strerror(error.errnoCode))
        }
    }

    // MARK: Time

    /// `seconds` as a duration: none for zero, negative or NaN, and at most
    /// 10⁹ s (about 32 years) for anything longer, infinity included.
    static func duration(seconds: TimeInterval) -> Duration {
        guard seconds > 0 else { return .zero }
        return .nanoseconds(Int64(min(seconds, 1e9) * 1e9))
    }

    static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return String(format: "%.1f", Double(seconds) + Double(attoseconds) / 1e18)
    }
}
