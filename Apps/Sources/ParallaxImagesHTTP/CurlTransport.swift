// ParallaxImagesHTTP: an `HTTPTransport` for `HTTPImageSource` over
// libcurl, for Linux.
//
// Why this module lives in the apps' package (`Apps/`), and not beside
// `HTTPImageSource` in the library: the root package has no dependencies at
// all, so a user of the library (an iOS app, above all, where Foundation's
// `URLSession` is the right transport) links nothing but ParallaxKit and
// the system's frameworks. The apps' package already links Debian's C
// libraries (SDL2, SQLite), and holds the one Linux client of the transport,
// the gallery; the transport is a `.library` product, so another Linux app
// can depend on `Apps/` by path or URL and use it.
//
// Why it exists: swift-corelibs-foundation's `URLSession` on Linux can
// neither stop a transfer it has given up on (a refused 300 MB answer was
// still sent in full, 55 times; an endless body drained 4.5 GB after the
// cut) nor keep off the cooperative thread pool (its threads were seen
// blocked in `DispatchQueue.sync`). libcurl itself, which that `URLSession`
// is built on, can do both when driven directly.
//
// Why libcurl and not AsyncHTTPClient, which this transport replaced:
// both keep every promise below (the same tests pass on both), but
// AsyncHTTPClient brought 21 packages into the apps' build, SwiftNIO,
// swift-nio-ssl (BoringSSL, 406 C++ files) and swift-nio-http2 among them:
// a clean build of the apps and their tests took 411 s on a 2-core
// machine with them and 129 s without, and `make test` 17 minutes against
// its 10-minute budget. libcurl is a Debian library, built
// once by Debian, with the system's OpenSSL, HTTP/2 (nghttp2), proxies
// from the environment, and a threaded resolver.
import CCurl
import Foundation
import ParallaxImages

/// An ``HTTPTransport`` over libcurl, keeping every promise of the protocol:
///
/// - **No redirects followed**: a 3xx comes back as a response with its
///   `Location`. Only `http` and `https` URLs are fetched.
/// - **Bounded memory.** A declared `Content-Length` over
///   `maximumBodySize` throws `.tooLarge(declared:limit:)` as soon as the
///   head has arrived, and a body that passes the limit throws
///   `.tooLarge(declared: nil, limit:)` on the piece that passes it. So at
///   most the limit plus one receive buffer (libcurl's, 16 KiB) is held.
/// - **The connection is closed, never drained,** when an answer is refused
///   or the calling task cancelled: the transfer is taken off libcurl's
///   multi handle mid-answer, which closes an HTTP/1.1 connection (on
///   HTTP/2 it resets the stream). A connection whose answer ended cleanly
///   goes back to the pool for the next request to the same host.
/// - **Prompt cancellation:** cancelling the task running ``send(_:)``
///   throws `.cancelled` as soon as the transport's thread has taken the
///   transfer off the wire, whatever it was doing (resolving, connecting,
///   waiting for a head, reading a body).
/// - **No blocking:** every transfer runs on the transport's own thread
///   (``CurlTransferLoop``, one libcurl multi handle); a sending task only
///   ever suspends.
/// - A deadline backstop: the source enforces `request.timeout` by
///   cancelling; should it not, libcurl gives up by itself
///   ``Configuration/backstopSlack`` after it.
///
/// Lifetime: an instance owns its thread and connection pool until it is
/// released or ``shutdown()`` is called; ``shared`` lives until the process
/// exits.
public final class CurlTransport: HTTPTransport, Sendable {
    /// How the transport's connections are managed.
    public struct Configuration: Sendable, Hashable {
        /// Connections open at once to one host (HTTP/1.1); requests over
        /// this number wait in libcurl's queue for one. Six, as browsers
        /// open: a gallery asks for up to 16 photos at once, and 16 connects
        /// in a burst overflow a small server's listen queue
        /// (`python3 -m http.server` listens with a backlog of 5). Each
        /// dropped connect then waits out the kernel's one-second SYN
        /// retransmit, which made a second launch over the disk cache take
        /// 1.25 s instead of 0.13 s.
        public var maximumConnectionsPerHost: Int
        /// How long an unused pooled connection may be reused.
        public var idleTimeout: Duration
        /// The longest wait for a TCP (and TLS) connection.
        public var connectTimeout: Duration
        /// How long after `request.timeout` the transport gives up by itself
        /// if the caller has not cancelled it by then.
        public var backstopSlack: Duration

        /// The defaults: 6 connections per host, 60 s idle, 10 s to
        /// connect, a backstop 1 s after the request's own deadline.
        public init(maximumConnectionsPerHost: Int = 6, idleTimeout: Duration = .seconds(60),
                    connectTimeout: Duration = .seconds(10), backstopSlack: Duration = .seconds(1)) {
            self.maximumConnectionsPerHost = maximumConnectionsPerHost
            self.idleTimeout = idleTimeout
            self.connectTimeout = connectTimeout
            self.backstopSlack = backstopSlack
        }
    }

    /// A transport for the whole process, never shut down (its thread and
    /// pooled connections end with the process). ``shutdown()`` does
    /// nothing to it.
    public static let shared = CurlTransport(configuration: Configuration(), isShared: true)

    /// The configuration it was made with.
    public let configuration: Configuration
    private let loop: CurlTransferLoop?
    private let isShared: Bool

    /// A transport with its own thread and connection pool.
    public convenience init(configuration: Configuration = Configuration()) {
        self.init(configuration: configuration, isShared: false)
    }

    private init(configuration: Configuration, isShared: Bool) {
        self.configuration = configuration
        self.isShared = isShared
        loop = CurlTransferLoop(configuration: configuration)
    }

    deinit {
        loop?.stop()
    }

    /// Runs `body` with a new transport and shuts it down afterwards,
    /// whether `body` returned or threw.
    @discardableResult
    public static func withTransport<Result: Sendable>(
        configuration: Configuration = Configuration(),
        _ body: (CurlTransport) async throws -> Result
    ) async throws -> Result {
        let transport = CurlTransport(configuration: configuration)
        let result: Swift.Result<Result, any Error>
        do { result = .success(try await body(transport)) } catch { result = .failure(error) }
        await transport.shutdown()
        return try result.get()
    }

    /// Cancels the requests still running (they throw `.cancelled`), closes
    /// the pooled connections and returns once the transport's thread has
    /// ended; requests sent later fail. Nothing for ``shared``.
    public func shutdown() async {
        guard !isShared, let loop else { return }
        loop.stop()
        await loop.waitUntilStopped()
    }

    // MARK: Sending

    public func send(_ request: HTTPTransportRequest) async throws(HTTPTransportError) -> HTTPTransportResponse {
        if Task.isCancelled { throw .cancelled }
        guard let loop else {
            throw .failed("request to \(request.url.host ?? "the server") failed: \(Self.unavailability)")
        }
        guard let transfer = CurlTransfer(request, configuration: configuration) else {
            throw .failed("request to \(request.url.host ?? "the server") failed: libcurl could not start it (out of memory)")
        }
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                transfer.continuation = continuation
                loop.start(transfer)
            }
        } onCancel: {
            loop.cancel(transfer)
        }
        // A task cancelled while the answer was being read gets `.cancelled`,
        // whatever the request ended with.
        if Task.isCancelled { throw .cancelled }
        return try outcome.get()
    }

    // MARK: Helpers shared with the transfer and the loop

    /// Loads libcurl and runs its global set-up, once per process, before
    /// the first handle (thread-safe in the libcurl Debian ships, but it
    /// must come first). `false` when libcurl could not be loaded or set
    /// up (``unavailability`` says why): then no libcurl function may be
    /// called.
    static func initializeLibcurlOnce() -> Bool { libcurlInitialized }
    private static let libcurlInitialized: Bool = pk_curl_load() == 1
        && pk_curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    /// Why no request can be sent, when libcurl is not there to send it.
    static var unavailability: String {
        let failure = String(cString: pk_curl_load_failure())
        return failure.isEmpty ? "libcurl could not be set up (curl_global_init or curl_multi_init failed)" : failure
    }

    /// When libcurl gives up on `request` by itself: its timeout plus the slack.
    static func backstop(for request: HTTPTransportRequest, _ configuration: Configuration) -> Duration {
        duration(seconds: request.timeout) + configuration.backstopSlack
    }

    /// "connection refused", "host unreachable", … for a socket's `errno`.
    static func reason(errno number: Int32) -> String {
        switch number {
        case ECONNREFUSED: return "connection refused"
        case ECONNRESET: return "connection reset"
        case ETIMEDOUT: return "timed out"
        case EHOSTUNREACH: return "host unreachable"
        case ENETUNREACH: return "network unreachable"
        default: return String(cString: strerror(number))
        }
    }

    /// `seconds` as a duration: none for zero, negative or NaN, and at most
    /// 10⁹ s (about 32 years) for anything longer, infinity included.
    static func duration(seconds: TimeInterval) -> Duration {
        guard seconds > 0 else { return .zero }
        return .nanoseconds(Int64(min(seconds, 1e9) * 1e9))
    }

    /// `duration` in whole milliseconds, at least 1 (libcurl reads 0 as "no limit").
    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) * 1_000 + Int(attoseconds / 1_000_000_000_000_000))
    }

    /// "1.3" for 1.3 s.
    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return String(format: "%.1f", Double(seconds) + Double(attoseconds) / 1e18)
    }
}
