import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Pictures served over HTTP: an index file lists the names, and each
/// picture's bytes live at `baseURL/<name>`.
///
/// `GET baseURL/indexPath` returns the names, one per line (blank lines
/// and surrounding whitespace are ignored). `GET baseURL/<id>` returns the
/// encoded bytes of `id`; the id is percent-encoded as a single path
/// component, so a `/`, `?`, `#` or space in a name never changes which
/// URL is asked for.
///
/// Each request attempt has `timeout` seconds to deliver its whole answer.
/// Transport errors (no connection, a dropped connection, a timeout) and
/// the answers that mean "try again later" (HTTP 5xx, 408, 429) are retried
/// up to `maximumAttempts` attempts in all, waiting `retryDelay`, then twice
/// that, and so on between attempts. Any other 4xx is final at once: 404
/// and 410 become ``ImageSourceError/notFound(_:)``. A cancelled task stops
/// its transfer and any wait between attempts and throws
/// ``ImageSourceError/cancelled``.
///
/// The source keeps nothing on the device, so ``isStoredLocally(_:)`` is
/// always `false`: every picture is fetched over the network and may be slow.
public struct HTTPImageSource: ImageSource {
    /// The folder on the server that holds the index and the pictures.
    public let baseURL: URL
    /// The index file's path relative to `baseURL` (may contain `/`).
    public let indexPath: String
    /// How long one attempt may take, from sending the request to the last
    /// byte of the answer. Raise it for large files on slow links.
    public let timeout: TimeInterval
    /// Attempts per request, the first one included (at least 1).
    public let maximumAttempts: Int
    /// The wait before the second attempt; each later wait doubles it.
    public let retryDelay: TimeInterval

    private let connection: Connection

    /// - Parameters:
    ///   - baseURL: The folder on the server; a missing trailing `/` is implied.
    ///   - indexPath: The index file, relative to `baseURL`.
    ///   - timeout: Seconds one attempt may take; must be positive.
    ///   - maximumAttempts: Attempts per request, the first one included;
    ///     values below 1 count as 1.
    ///   - retryDelay: Seconds to wait before the first retry; doubles for
    ///     each later one.
    ///   - session: The session to load through. `nil` makes a private
    ///     ephemeral session with no cache, no cookies kept and the timeout
    ///     applied. A session passed in is used as it is and never
    ///     invalidated by the source.
    public init(baseURL: URL, indexPath: String = "index.txt", timeout: TimeInterval = 10,
                maximumAttempts: Int = 3, retryDelay: TimeInterval = 0.2, session: URLSession? = nil) {
        precondition(timeout > 0 && timeout.isFinite, "HTTPImageSource: timeout must be a positive number of seconds")
        self.baseURL = baseURL
        self.indexPath = indexPath
        self.timeout = timeout
        self.maximumAttempts = max(1, maximumAttempts)
        self.retryDelay = retryDelay.isFinite ? max(0, retryDelay) : 0
        if let session {
            connection = Connection(session: session, ownsSession: false)
        } else {
            connection = Connection(session: Self.makeSession(timeout: timeout), ownsSession: true)
        }
    }

    // MARK: ImageSource

    public func imageIDs() async throws(ImageSourceError) -> [ImageID] {
        let path = indexPath.drop(while: { $0 == "/" })
        guard let encoded = String(path).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed),
              let url = Self.url(baseURL, appendingEncodedPath: encoded) else {
            throw .unavailable("cannot form the image index URL from \(baseURL.absoluteString) and \"\(indexPath)\"")
        }
        let body: Data
        do {
            body = try await fetch(url)
        } catch {
            switch error {
            case .cancelled:
                throw .cancelled
            case .status(let status) where status == 404 || status == 410:
                throw .unavailable("there is no image index at \(url.absoluteString) (HTTP \(status)); check the base URL and the index path")
            case .status(let status):
                throw .unavailable("the image index at \(url.absoluteString) answered HTTP \(status)")
            case .exhausted(let reason):
                throw .unavailable("could not load the image index from \(url.absoluteString) (\(reason), \(attemptsText)); check that the server is running and reachable")
            }
        }
        return Self.parseIndex(body)
    }

    public func data(for id: ImageID) async throws(ImageSourceError) -> Data {
        guard let url = url(for: id) else {
            throw .transferFailed(id, "cannot form a URL for it under \(baseURL.absoluteString)")
        }
        do {
            return try await fetch(url)
        } catch {
            switch error {
            case .cancelled:
                throw .cancelled
            case .status(let status) where status == 404 || status == 410:
                throw .notFound(id)
            case .status(let status):
                throw .transferFailed(id, "\(url.absoluteString) answered HTTP \(status)")
            case .exhausted(let reason):
                throw .transferFailed(id, "\(reason) (\(url.absoluteString), \(attemptsText))")
            }
        }
    }

    public func isStoredLocally(_ id: ImageID) async -> Bool { false }

    // MARK: URLs and the index

    /// Where the bytes of `id` live: `baseURL` plus the id as one
    /// percent-encoded path component (`/` becomes `%2F`; `.` and `..` are
    /// encoded so they cannot climb out of the folder).
    func url(for id: ImageID) -> URL? {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove("/")
        guard var component = id.rawValue.addingPercentEncoding(withAllowedCharacters: allowed),
              !component.isEmpty else { return nil }
        if component == "." || component == ".." {
            component = String(repeating: "%2E", count: component.count)
        }
        return Self.url(baseURL, appendingEncodedPath: component)
    }

    /// `base` with an already percent-encoded relative path added to its
    /// path, keeping any query; the base path is treated as a folder.
    static func url(_ base: URL, appendingEncodedPath encodedPath: String) -> URL? {
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: true) else { return nil }
        var path = components.percentEncodedPath
        if !path.hasSuffix("/") { path += "/" }
        components.percentEncodedPath = path + encodedPath
        components.fragment = nil
        return components.url
    }

    /// The names in an index file: one per line, trimmed, blank lines
    /// skipped. Bytes that are not UTF-8 are replaced rather than rejected.
    static func parseIndex(_ body: Data) -> [ImageID] {
        var text = String(decoding: body, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        return text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .map { ImageID($0) }
    }

    // MARK: Transfer with retries

    /// Why `fetch` gave up.
    enum FetchFailure: Error {
        /// The task was cancelled.
        case cancelled
        /// A final (non-retryable) HTTP status.
        case status(Int)
        /// Every attempt failed; the text describes the last failure.
        case exhausted(String)
    }

    private var attemptsText: String {
        maximumAttempts == 1 ? "1 attempt" : "\(maximumAttempts) attempts"
    }

    /// GETs `url`, retrying transport errors and retryable statuses with
    /// exponential backoff. Returns the body of the first 2xx answer.
    func fetch(_ url: URL) async throws(FetchFailure) -> Data {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData)
        request.httpMethod = "GET"
        // Foundation's own (idle) timeout is only a backstop; the deadline
        // in `attempt` is the real one (see `foundationTimeout`).
        request.timeoutInterval = Self.foundationTimeout(timeout)

        var lastFailure = "no attempt made"
        for attempt in 1...maximumAttempts {
            if attempt > 1 { try await pause(beforeAttempt: attempt) }
            if Task.isCancelled { throw .cancelled }
            let reply: Reply
            do {
                reply = try await self.attempt(request)
            } catch {
                if Task.isCancelled { throw .cancelled }
                lastFailure = Self.describe(error)
                continue
            }
            guard let status = reply.status, !(200..<300).contains(status) else { return reply.body }
            guard Self.isRetryable(status) else { throw .status(status) }
            lastFailure = "HTTP \(status)"
        }
        throw .exhausted(lastFailure)
    }

    /// Whether an HTTP status means "try again later".
    static func isRetryable(_ status: Int) -> Bool {
        status == 408 || status == 429 || (500..<600).contains(status)
    }

    /// Waits `retryDelay · 2^(attempt − 2)` seconds (capped at a minute);
    /// cancellation ends the wait at once.
    private func pause(beforeAttempt attempt: Int) async throws(FetchFailure) {
        let seconds = min(retryDelay * Double(1 << min(attempt - 2, 16)), 60)
        guard seconds > 0 else { return }
        do {
            try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
        } catch {
            throw .cancelled
        }
    }

    /// What one attempt brought back. `status` is nil for non-HTTP answers.
    struct Reply: Sendable {
        var body: Data
        var status: Int?
    }

    /// The attempt's deadline passed.
    struct DeadlineExceeded: Error {
        var seconds: TimeInterval
    }

    /// One request, raced against `timeout`: whichever finishes first wins
    /// and the other is cancelled (cancelling the transfer cancels its
    /// `URLSessionTask`). Cancelling the calling task cancels both.
    private func attempt(_ request: URLRequest) async throws -> Reply {
        let session = connection.session
        let timeout = timeout
        return try await withThrowingTaskGroup(of: Reply.self) { group in
            group.addTask {
                let (body, response) = try await session.data(for: request)
                return Reply(body: body, status: (response as? HTTPURLResponse)?.statusCode)
            }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(timeout * 1_000_000_000))
                throw DeadlineExceeded(seconds: timeout)
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw DeadlineExceeded(seconds: timeout) }
            return first
        }
    }

    /// A short text for a failed attempt, for error messages.
    static func describe(_ error: any Error) -> String {
        if let deadline = error as? DeadlineExceeded {
            return "no complete answer within \(deadline.seconds) s"
        }
        guard let urlError = error as? URLError else { return String(describing: error) }
        switch urlError.code {
        case .timedOut: return "timed out"
        case .cannotConnectToHost: return "could not connect"
        case .cannotFindHost, .dnsLookupFailed: return "host not found"
        case .networkConnectionLost: return "connection lost"
        case .notConnectedToInternet: return "not connected to the internet"
        case .badServerResponse: return "malformed answer"
        case .secureConnectionFailed: return "TLS connection failed"
        default: return "URL error \(urlError.code.rawValue)"
        }
    }

    // MARK: Session

    /// The timeout handed to Foundation. swift-corelibs-foundation (Linux)
    /// converts it with `Int(seconds) * 1000` milliseconds, so anything
    /// under one second becomes an immediate timeout and fractions are
    /// dropped; the value is therefore rounded up to whole seconds, at
    /// least 1, and the precise deadline is enforced by `attempt`.
    static func foundationTimeout(_ seconds: TimeInterval) -> TimeInterval {
        max(1, seconds.rounded(.up))
    }

    /// An ephemeral session that never answers from a cache: the source
    /// promises nothing is stored locally, and retries must reach the server.
    static func makeSession(timeout: TimeInterval) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = foundationTimeout(timeout)
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        return URLSession(configuration: configuration)
    }

    /// Owns the session so a session the source made itself is invalidated
    /// (its resources released) once the last copy of the source is gone.
    /// `URLSession` is `Sendable` (on Linux as `@unchecked Sendable` in
    /// swift-corelibs-foundation), so this class is checked `Sendable`.
    private final class Connection: Sendable {
        let session: URLSession
        let ownsSession: Bool

        init(session: URLSession, ownsSession: Bool) {
            self.session = session
            self.ownsSession = ownsSession
        }

        deinit {
            if ownsSession { session.finishTasksAndInvalidate() }
        }
    }
}
