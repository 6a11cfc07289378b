import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Pictures served over HTTP: an index file lists the names, and each
/// picture's bytes live at `baseURL/<name>`.
///
/// `GET baseURL/indexPath` returns a JSON manifest that lists the names
/// with each picture's size where the server knows it (``ImageManifest``:
/// then every tile has its shape before any picture is fetched), or the
/// names one per line (blank lines
/// and surrounding whitespace are ignored), or an HTML folder listing
/// (`indexPath: ""` with `python3 -m http.server`, nginx's `autoindex` and
/// the like), whose JPEG and PNG links are taken. `GET baseURL/<id>` returns the
/// encoded bytes of `id`; the id is percent-encoded as a single path
/// component, so a `/`, `?`, `#` or space in a name never changes which
/// URL is asked for.
///
/// A broken or hostile server costs bounded time and memory and ends in one
/// clear sentence, as curl's and URLSession's own limits intend:
/// - **Time**: each attempt has `timeout` seconds to deliver its whole
///   answer, enforced by the source itself (a server that accepts and never
///   answers, or drips a byte a second, fails at the deadline every time).
/// - **Memory**: an answer may be at most ``maximumBodySize`` bytes; a
///   larger `Content-Length` is refused from the header, and a body that
///   keeps coming is cut off at the limit. Nothing is retried after that.
/// - **Retries**: transport errors (no connection, a dropped or reset
///   connection, an answer cut short, a timeout) and the answers that mean
///   "try again later" (HTTP 5xx, 408, 429) are retried up to
///   `maximumAttempts` attempts in all, waiting `retryDelay`, then twice
///   that, and so on; a `Retry-After` is honoured up to
///   ``maximumRetryAfter`` seconds, and a longer one ends the request at
///   once with a message saying so. What cannot succeed is not retried:
///   any other 4xx (404 and 410 become ``ImageSourceError/notFound(_:)``),
///   a redirect loop, an answer over the size limit.
/// - A cancelled task stops its transfer and any wait between attempts
///   and throws ``ImageSourceError/cancelled``.
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
    /// The largest answer accepted, in bytes: 64 MiB by default, room for a
    /// 50-megapixel JPEG or a large PNG, and a bound on what one request can
    /// make the process hold.
    public let maximumBodySize: Int
    /// The longest `Retry-After` waited for, in seconds (10 by default).
    public let maximumRetryAfter: TimeInterval
    /// Redirects followed per attempt before calling it a loop (10, as
    /// browsers give up after about 20 and curl after 50 only on request).
    public static let maximumRedirects = 10

    private let connection: Connection
    /// The headers the last index read stated, when it was a manifest;
    /// shared by copies of the source, as its connection is.
    private let statedHeaders = Locked<[ImageID: ImageHeader]>([:])
    /// Sleeps on the clock deadlines and retry waits are measured on.
    private let sleep: @Sendable (Duration) async throws -> Void

    /// - Parameters:
    ///   - baseURL: The folder on the server; a missing trailing `/` is implied.
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
    ///   - configuration: The session settings to load with (headers,
    ///     proxies, TLS). The source makes its own session from them, so it
    ///     can watch every answer's size as it arrives. `nil`: an ephemeral
    ///     configuration with no cache.
    ///   - clock: What the deadline of each attempt and the waits between
    ///     attempts are measured on: the wall clock, or a test's manual
    ///     clock. Foundation's own timeout stays on the wall clock as a
    ///     backstop a second or more past the deadline.
    /// - Throws: ``ImageSourceError/unavailable(_:)`` for a timeout that is
    ///   not a positive, finite number of seconds, or a body size below 1.
    public init(baseURL: URL, indexPath: String = "index.txt", timeout: TimeInterval = 10,
                maximumAttempts: Int = 3, retryDelay: TimeInterval = 0.2, maximumBodySize: Int = 64 << 20,
                maximumRetryAfter: TimeInterval = 10,
                configuration: URLSessionConfiguration? = nil,
                clock: any Clock<Duration> = ContinuousClock()) throws(ImageSourceError) {
        guard timeout.isFinite, timeout > 0, timeout <= 86_400 else {
            throw .unavailable("the HTTP timeout must be a number of seconds above 0 and at most 86,400, not \(timeout)")
        }
        guard maximumBodySize >= 1 else {
            throw .unavailable("the largest HTTP answer must be at least 1 byte, not \(maximumBodySize)")
        }
        self.baseURL = baseURL
        self.indexPath = indexPath
        self.timeout = timeout
        self.maximumAttempts = max(1, maximumAttempts)
        self.retryDelay = retryDelay.isFinite ? max(0, retryDelay) : 0
        self.maximumBodySize = maximumBodySize
        self.maximumRetryAfter = maximumRetryAfter.isFinite ? max(0, maximumRetryAfter) : 0
        connection = Connection(configuration: configuration ?? Self.defaultConfiguration(timeout: timeout))
        self.sleep = sleeper(on: clock)
    }

    // MARK: ImageSource

    /// The names the index at `baseURL/indexPath` lists, in its order: a
    /// JSON manifest (``ImageManifest``), whose stated sizes then answer
    /// ``header(for:)`` without a request; or one name per line; or the
    /// JPEG and PNG links of an HTML folder listing.
    /// - Throws: ``ImageSourceError/unavailable(_:)`` saying what went wrong
    ///   (no index there, an HTTP error, no answer after every attempt), or
    ///   ``ImageSourceError/cancelled``.
    public func imageIDs() async throws(ImageSourceError) -> [ImageID] {
        let path = indexPath.drop(while: { $0 == "/" })
        guard let encoded = String(path).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed),
              let url = Self.url(baseURL, appendingEncodedPath: encoded) else {
            throw .unavailable("cannot form the image index URL from \(baseURL.absoluteString) and \"\(indexPath)\"")
        }
        let body: Data
        do {
            body = try await fetch(url).body
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
            case .final(let reason):
                throw .unavailable("could not load the image index from \(url.absoluteString): \(reason)")
            }
        }
        if ImageManifest.looksLikeJSON(body) {
            do throws(ImageManifest.ParseError) {
                let manifest = try ImageManifest(json: body)
                statedHeaders.withLock { $0 = manifest.headers }
                return manifest.imageIDs
            } catch {
                // A text list whose first name starts with "[" is still a list; a .json index is not.
                if URL(fileURLWithPath: indexPath).pathExtension.lowercased() == "json" {
                    throw .unavailable("the image index at \(url.absoluteString) cannot be read: \(error)")
                }
            }
        }
        statedHeaders.withLock { $0 = [:] }
        return Self.parseIndex(body)
    }

    /// The bytes at `baseURL/<id>` (see ``versionedData(for:)``).
    /// - Throws: ``ImageSourceError/notFound(_:)`` for HTTP 404 or 410,
    ///   ``ImageSourceError/transferFailed(_:_:)`` for any other failure, or
    ///   ``ImageSourceError/cancelled``.
    public func data(for id: ImageID) async throws(ImageSourceError) -> Data {
        try await versionedData(for: id).data
    }

    /// The bytes of `id` with the `ETag` (or `Last-Modified`) of the very
    /// answer that brought them.
    public func versionedData(for id: ImageID) async throws(ImageSourceError) -> (data: Data, fingerprint: String?) {
        guard let url = url(for: id) else {
            throw .transferFailed(id, "cannot form a URL for it under \(baseURL.absoluteString)")
        }
        do {
            let reply = try await fetch(url)
            return (reply.body, reply.validator)
        } catch {
            throw sourceError(error, id: id, url: url)
        }
    }

    /// What a failed fetch of `id` at `url` means to a caller of the source.
    private func sourceError(_ failure: FetchFailure, id: ImageID, url: URL) -> ImageSourceError {
        switch failure {
        case .cancelled: return .cancelled
        case .status(let status) where status == 404 || status == 410: return .notFound(id)
        case .status(let status): return .transferFailed(id, "\(url.absoluteString) answered HTTP \(status)")
        case .exhausted(let reason): return .transferFailed(id, "\(reason) (\(url.absoluteString), \(attemptsText))")
        case .final(let reason): return .transferFailed(id, "\(reason) (\(url.absoluteString))")
        }
    }

    /// The header of `id`: as the index stated it when the index is a
    /// manifest that gives its size (``ImageManifest``), without a request;
    /// else from the first bytes of its answer: a GET with a
    /// `Range` of 64 KiB, then 256 KiB and 1 MiB if the frame header lies
    /// behind large metadata. A server that ignores ranges answers with the
    /// whole picture, which is read instead.
    /// - Throws: ``ImageSourceError/notFound(_:)`` for HTTP 404 or 410,
    ///   ``ImageSourceError/unreadable(_:_:)`` when the bytes have no
    ///   readable header, ``ImageSourceError/transferFailed(_:_:)`` or
    ///   ``ImageSourceError/cancelled`` as ``data(for:)`` does.
    public func header(for id: ImageID) async throws(ImageSourceError) -> ImageHeader {
        if let listed = statedHeaders.withLock({ $0[id] }) { return listed }
        guard let url = url(for: id) else {
            throw .transferFailed(id, "cannot form a URL for it under \(baseURL.absoluteString)")
        }
        for length in [64 << 10, 256 << 10, 1 << 20] {
            let reply: Reply
            do {
                reply = try await fetch(url, range: 0...(length - 1))
            } catch {
                throw sourceError(error, id: id, url: url)
            }
            // 200: the server sent the whole picture; 206: the range asked for, or less at the end.
            let whole = reply.status != 206 || reply.body.count < length
            do throws(ImageDecodingError) {
                if let header = try ImageHeader.read(from: reply.body) { return header }
            } catch {
                throw .unreadable(id, "has no readable header: \(error)")
            }
            if whole { throw .unreadable(id, "ends before its frame header (\(reply.body.count) bytes)") }
        }
        throw .unreadable(id, "has no frame header in its first megabyte")
    }

    /// How many pictures the last index read gave the size of: a manifest's
    /// sized entries (their ``header(for:)`` costs no request); 0 for a
    /// manifest without sizes, a list of names, a folder listing, or before
    /// the index is read.
    public var listedSizeCount: Int { statedHeaders.withLock { $0.count } }

    /// The headers the last index read stated: a manifest's sized entries.
    public func listedHeaders() async -> [ImageID: ImageHeader] { statedHeaders.withLock { $0 } }

    /// Always `false`: the source keeps nothing on the device.
    public func isStoredLocally(_ id: ImageID) async -> Bool { false }

    /// The picture's `ETag` (or, without one, its `Last-Modified` and
    /// `Content-Length`), from one `HEAD` request with this source's
    /// deadline and no retry (a failure only means the disk cache is
    /// skipped, and the download that follows retries); `nil` if the server
    /// gives neither or cannot be reached.
    public func fingerprint(for id: ImageID) async -> String? {
        guard let url = url(for: id) else { return nil }
        return try? await fetch(url, method: "HEAD", attempts: 1).validator
    }

    /// `true`: a fingerprint costs a `HEAD` request, so the loader gives it a
    /// download slot.
    public var fingerprintNeedsRequest: Bool { true }

    /// What identifies the version of an answer's body: its strong or weak
    /// `ETag`, else its `Last-Modified` with its length.
    static func validator(of response: HTTPURLResponse) -> String? {
        if let tag = response.value(forHTTPHeaderField: "ETag"), !tag.isEmpty { return "etag \(tag)" }
        guard let modified = response.value(forHTTPHeaderField: "Last-Modified"), !modified.isEmpty else { return nil }
        return "modified \(modified) length \(response.value(forHTTPHeaderField: "Content-Length") ?? "?")"
    }

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

    /// The names in an index: a text file of one name per line (trimmed,
    /// blank lines skipped), or an HTML folder listing such as
    /// `python3 -m http.server` and most web servers write, whose links to
    /// JPEG and PNG files in the same folder are taken, in order. Bytes
    /// that are not UTF-8 are replaced rather than rejected.
    static func parseIndex(_ body: Data) -> [ImageID] {
        var text = String(decoding: body, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let opening = text.prefix(512).lowercased()
        if opening.contains("<!doctype html") || opening.contains("<html") { return parseListing(text) }
        return text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .map { ImageID($0) }
    }

    /// The pictures an HTML folder listing links to: `href` values that
    /// name a file in the folder itself (relative, optionally `./`; no
    /// scheme, subfolder or query) with a JPEG or PNG extension, with HTML
    /// character references and percent-escapes decoded, each once.
    static func parseListing(_ html: String) -> [ImageID] {
        var names: [ImageID] = [], seen: Set<String> = []
        var rest = html[...]
        while let range = rest.range(of: "href", options: .caseInsensitive) {
            rest = rest[range.upperBound...].drop(while: \.isWhitespace)
            guard rest.first == "=" else { continue }
            rest = rest.dropFirst().drop(while: \.isWhitespace)
            guard let quote = rest.first, quote == "\"" || quote == "'" else { continue }
            rest = rest.dropFirst()
            guard let end = rest.firstIndex(of: quote) else { break }
            var link = decodingCharacterReferences(String(rest[..<end]))
            rest = rest[end...]
            if link.hasPrefix("./") { link.removeFirst(2) }
            guard !link.contains("/"), !link.contains(":"), !link.contains("?"), !link.hasPrefix("#"),
                  let name = link.removingPercentEncoding, !name.isEmpty,
                  FolderImageSource.extensions.contains(URL(fileURLWithPath: name).pathExtension.lowercased()),
                  seen.insert(name).inserted else { continue }
            names.append(ImageID(name))
        }
        return names
    }

    /// `text` with HTML's character references decoded: the five named ones
    /// listings use (`&amp;` and the like) and numeric ones (`&#39;`, `&#x27;`).
    static func decodingCharacterReferences(_ text: String) -> String {
        guard text.contains("&") else { return text }
        let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
        var result = "", rest = text[...]
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let afterAmpersand = rest.index(after: ampersand)
            guard let semicolon = rest[afterAmpersand...].prefix(10).firstIndex(of: ";") else {
                result += "&"
                rest = rest[afterAmpersand...]
                continue
            }
            let entity = String(rest[afterAmpersand..<semicolon])
            var decoded: String?
            if let value = named[entity] {
                decoded = value
            } else if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                decoded = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
            } else if entity.hasPrefix("#") {
                decoded = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
            }
            if let decoded {
                result += decoded
                rest = rest[rest.index(after: semicolon)...]
            } else {
                result += "&"
                rest = rest[afterAmpersand...]
            }
        }
        return result + rest
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
        /// Something no retry can fix (a redirect loop, an answer over the
        /// size limit, a `Retry-After` too long to wait for), described.
        case final(String)
    }

    private var attemptsText: String {
        maximumAttempts == 1 ? "1 attempt" : "\(maximumAttempts) attempts"
    }

    /// GETs (or HEADs) `url`, retrying transport errors and retryable
    /// statuses with exponential backoff (or the server's `Retry-After`).
    /// Returns the first 2xx answer.
    func fetch(_ url: URL, method: String = "GET", attempts: Int? = nil,
               range: ClosedRange<Int>? = nil) async throws(FetchFailure) -> Reply {
        let maximumAttempts = max(1, attempts ?? self.maximumAttempts)
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData)
        request.httpMethod = method
        if let range { request.setValue("bytes=\(range.lowerBound)-\(range.upperBound)", forHTTPHeaderField: "Range") }
        // Foundation's own (idle) timeout is only a backstop; the deadline
        // in `Transfers` is the real one (see `foundationTimeout`).
        request.timeoutInterval = Self.foundationTimeout(timeout)

        var lastFailure = "no attempt made"
        var serverWait: TimeInterval?
        for attempt in 1...maximumAttempts {
            if attempt > 1 { try await pause(beforeAttempt: attempt, atLeast: serverWait) }
            serverWait = nil
            if Task.isCancelled { throw .cancelled }
            let reply: Reply
            do {
                reply = try await connection.transfers.run(request, on: connection.session, timeout: timeout,
                                                           sleep: sleep, maximumBodySize: maximumBodySize)
            } catch {
                switch error {
                case .cancelled: throw .cancelled
                case .tooLarge, .redirectLoop: throw .final(error.description)
                case .deadline, .cutShort, .transport: lastFailure = error.description
                }
                if Task.isCancelled { throw .cancelled }
                continue
            }
            guard let status = reply.status, !(200..<300).contains(status) else { return reply }
            guard Self.isRetryable(status) else { throw .status(status) }
            lastFailure = "HTTP \(status)"
            if let retryAfter = reply.retryAfter, attempt < maximumAttempts {
                guard retryAfter <= maximumRetryAfter else {
                    throw .final("HTTP \(status), and the server asks to retry after \(Self.seconds(retryAfter)), longer than the \(Self.seconds(maximumRetryAfter)) this source waits")
                }
                serverWait = retryAfter
            }
        }
        throw .exhausted(lastFailure)
    }

    /// Whether an HTTP status means "try again later".
    static func isRetryable(_ status: Int) -> Bool {
        status == 408 || status == 429 || (500..<600).contains(status)
    }

    /// Waits `retryDelay · 2^(attempt − 2)` seconds (capped at a minute), or
    /// what the server asked for if that is longer; cancellation ends the
    /// wait at once.
    private func pause(beforeAttempt attempt: Int, atLeast serverWait: TimeInterval?) async throws(FetchFailure) {
        let backoff = min(retryDelay * Double(1 << min(attempt - 2, 16)), 60)
        // At most `longestWait`, so the nanoseconds below always fit.
        let seconds = min(max(backoff, serverWait ?? 0), Self.longestWait)
        guard seconds > 0 else { return }
        do {
            try await sleep(.seconds(seconds))
        } catch {
            throw .cancelled
        }
    }

    /// What one attempt brought back. `status` is nil for non-HTTP answers.
    struct Reply: Sendable {
        var body: Data
        var status: Int?
        /// The `Retry-After` of the answer, in seconds from now.
        var retryAfter: TimeInterval?
        /// The version of the body (``HTTPImageSource/validator(of:)``).
        var validator: String?
    }

    /// The longest wait this source can express, in seconds (about 31
    /// years): a `Retry-After` beyond it counts as this long, so a hostile
    /// header can never overflow a conversion to nanoseconds or integers.
    static let longestWait: TimeInterval = 1e9

    /// Seconds for a message: "2 s", "0.5 s"; any value, even not finite.
    static func seconds(_ value: TimeInterval) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return String(format: "%g s", value) }
        return value == value.rounded() ? "\(Int64(value)) s" : String(format: "%.1f s", value)
    }

    /// The seconds a `Retry-After` value asks for: a number of seconds, or
    /// an HTTP date (RFC 9110 §10.2.3); `nil` if it is neither. Values over
    /// ``longestWait`` (however many digits) count as ``longestWait``.
    static func retryAfterSeconds(_ value: String, now: Date = Date()) -> TimeInterval? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            // Double parses any number of digits without overflow.
            return min(Double(text) ?? longestWait, longestWait)
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: text) else { return nil }
        return min(max(date.timeIntervalSince(now), 0), longestWait)
    }

    // MARK: Session

    /// The timeout handed to Foundation. swift-corelibs-foundation (Linux)
    /// converts it with `Int(seconds) * 1000` milliseconds, so anything
    /// under one second becomes an immediate timeout and fractions are
    /// dropped; the value is therefore rounded up to whole seconds, at
    /// least 1, plus one more so it never fires together with the source's
    /// own deadline, which is the one that counts.
    static func foundationTimeout(_ seconds: TimeInterval) -> TimeInterval {
        max(1, seconds.rounded(.up)) + 1
    }

    /// An ephemeral configuration that never answers from a cache: the
    /// source promises nothing is stored locally, and retries must reach
    /// the server.
    static func defaultConfiguration(timeout: TimeInterval) -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = foundationTimeout(timeout)
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        return configuration
    }

    /// Owns the session (and its delegate), invalidating it once the last
    /// copy of the source is gone. `URLSession` is `Sendable` (on Linux as
    /// `@unchecked Sendable` in swift-corelibs-foundation).
    private final class Connection: Sendable {
        let session: URLSession
        let transfers: Transfers

        init(configuration: URLSessionConfiguration) {
            transfers = Transfers()
            session = URLSession(configuration: configuration, delegate: transfers, delegateQueue: nil)
        }

        deinit {
            // Off the caller's thread: swift-corelibs-foundation may wait for the session's own queue
            // here, and the last copy of a source is often dropped on a thread of Swift's cooperative pool.
            let session = self.session
            DispatchQueue.global(qos: .utility).async { session.invalidateAndCancel() }
        }
    }
}
