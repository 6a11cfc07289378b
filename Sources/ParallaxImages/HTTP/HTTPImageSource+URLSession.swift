// On Linux with the package's `LinuxURLSession` trait only (on by default),
// as URLSessionTransport.
#if canImport(Darwin) || LinuxURLSession
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPImageSource {
    /// A source whose requests go through a ``URLSessionTransport`` of its
    /// own: the usual one on Apple platforms.
    ///
    /// - Parameters:
    ///   - baseURL: The folder on the server (http or https); a missing
    ///     trailing `/` is implied.
    ///   - indexPath: The index file, relative to `baseURL`; `""` for the
    ///     server's listing of the folder itself.
    ///   - timeout: Seconds one attempt may take; a positive, finite number.
    ///   - maximumAttempts: Attempts per request, the first one included;
    ///     values below 1 count as 1.
    ///   - retryDelay: Seconds to wait before the first retry; doubles for
    ///     each later one (negative or not finite: 0).
    ///   - maximumBodySize: The largest answer accepted, in bytes; at least 1.
    ///   - maximumRetryAfter: The longest `Retry-After` honoured, in seconds
    ///     (negative or not finite: 0, so any `Retry-After` ends the request).
    ///   - redirects: Which redirects to follow; same origin by default.
    ///   - configuration: The session settings (headers, proxies, TLS);
    ///     `nil`: ephemeral, with no cache, since retries must reach the
    ///     server.
    ///   - clock: What the deadline of each attempt and the waits between
    ///     attempts are measured on: the wall clock, or a test's manual clock.
    /// - Throws: ``ImageSourceError/unavailable(_:)`` for a base URL that is
    ///   not http or https, a timeout that is not a positive, finite number
    ///   of seconds, or a body size below 1.
    public init(baseURL: URL, indexPath: String = "index.txt", timeout: TimeInterval = 10,
                maximumAttempts: Int = 3, retryDelay: TimeInterval = 0.2, maximumBodySize: Int = 64 << 20,
                maximumRetryAfter: TimeInterval = 10, redirects: HTTPRedirectPolicy = .sameOrigin,
                configuration: URLSessionConfiguration? = nil,
                clock: any Clock<Duration> = ContinuousClock()) throws(ImageSourceError) {
        try self.init(baseURL: baseURL, indexPath: indexPath, timeout: timeout, maximumAttempts: maximumAttempts,
                      retryDelay: retryDelay, maximumBodySize: maximumBodySize, maximumRetryAfter: maximumRetryAfter,
                      redirects: redirects, transport: URLSessionTransport(configuration: configuration), clock: clock)
    }
}
#endif
