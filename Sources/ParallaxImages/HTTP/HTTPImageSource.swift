import Foundation

/// Pictures served over HTTP: an index lists the names, and each
/// picture's bytes live at `baseURL/<name>`.
///
/// `GET baseURL/indexPath` returns a JSON manifest that lists the names
/// with each picture's size where the server knows it (``ImageManifest``:
/// then every tile has its shape before any picture is fetched), or the
/// names one per line, or a folder listing (`indexPath: ""`): the HTML of
/// nginx's and Apache's `autoindex` or `python3 -m http.server`, or nginx's
/// `autoindex_format json` and `xml`, whose photo files are taken, and
/// the listings of the folders under it (a nested library: see
/// `HTTPImageSource+Folders.swift`). An
/// index that is none of these is one clear error. `GET baseURL/<id>`
/// returns the encoded bytes of `id`.
///
/// Everything a server says is treated as written by someone who wants the
/// gallery to crash, leak or fetch what it should not:
/// - **Only under the base URL.** A name must be a relative path under it:
///   a file name, or (in a JSON manifest, for a nested library) folders and
///   a file name joined by `/`, each part a single name as written and after
///   percent-decoding (no `\`, `..`, NUL, encoded `/`, no URL of its own);
///   other names are refused with the reason (``refusedNames``) and never
///   requested. URLs are formed by appending each part as one encoded
///   segment, and checked to stay under the base.
/// - **Redirects** are followed only to the base URL's origin, unless the
///   ``HTTPRedirectPolicy`` names more; never to another scheme; at most
///   ``maximumRedirects`` per attempt.
/// - **Time**: each attempt has `timeout` seconds to deliver its whole
///   answer (redirects included), enforced by the source itself: at the
///   deadline the caller is answered and the transfer cancelled.
/// - **Memory**: an answer may be at most ``maximumBodySize`` bytes; a
///   larger `Content-Length` is refused from the header, and a body that
///   keeps coming is cut off at the limit. Nothing is retried after that.
/// - **Retries**: transport errors, deadlines, answers cut short and the
///   statuses that mean "try again later" (5xx, 408, 429) are retried up to
///   `maximumAttempts` attempts in all, waiting `retryDelay`, then twice
///   that, and so on; a `Retry-After` is honoured up to
///   ``maximumRetryAfter`` seconds, and a longer one ends the request at
///   once with a message saying so. Any other 4xx is final (404 and 410
///   become ``ImageSourceError/notFound(_:)``).
/// - A cancelled task stops its transfer and any wait between attempts
///   and throws ``ImageSourceError/cancelled``.
///
/// Every request goes through one path (`HTTPImageSource+Transfer.swift`:
/// retries, deadlines, redirects), and its bytes through an
/// ``HTTPTransport``: Foundation's ``URLSessionTransport`` when the
/// initializer is given none; on Linux, the apps' package offers one on
/// libcurl that cancels transfers for real. On Linux, `URLSessionTransport`
/// and that initializer come with the package's `LinuxURLSession` trait, on
/// by default: `URLSession` is in FoundationNetworking there, which links
/// libcurl and 25 libraries more, loaded at every start of a program that
/// links it (14-17 ms here), so a program that brings its own transport turns
/// the trait off.
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
    /// The largest answer accepted, in bytes: 64 MiB by default, room for a
    /// 50-megapixel JPEG or a large PNG, and a bound on what one request can
    /// make the process hold.
    public let maximumBodySize: Int
    /// Which redirects are followed (``HTTPRedirectPolicy/sameOrigin`` by default).
    public let redirectPolicy: HTTPRedirectPolicy
    /// Redirects followed per attempt before calling it a loop (10, as
    /// browsers give up after about 20 and curl after 50 only on request).
    public static let maximumRedirects = 10

    let retries: HTTPRetryPolicy
    let transport: any HTTPTransport
    /// What the last index read said beyond the names (a manifest's sizes,
    /// refused names); shared by copies of the source.
    private let lastIndex = Locked(HTTPIndex())
    /// Sleeps on the clock deadlines and retry waits are measured on.
    let sleep: @Sendable (Duration) async throws -> Void

    /// Attempts per request, the first one included (at least 1).
    public var maximumAttempts: Int { retries.maximumAttempts }
    /// The wait before the second attempt; each later wait doubles it.
    public var retryDelay: TimeInterval { retries.delay }
    /// The longest `Retry-After` waited for, in seconds (10 by default).
    public var maximumRetryAfter: TimeInterval { retries.maximumRetryAfter }

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
    ///   - transport: What carries the requests.
    ///   - clock: What the deadline of each attempt and the waits between
    ///     attempts are measured on: the wall clock, or a test's manual clock.
    /// - Throws: ``ImageSourceError/unavailable(_:)`` for a base URL that is
    ///   not http or https, a timeout that is not a positive, finite number
    ///   of seconds, or a body size below 1.
    public init(baseURL: URL, indexPath: String = "index.txt", timeout: TimeInterval = 10,
                maximumAttempts: Int = 3, retryDelay: TimeInterval = 0.2, maximumBodySize: Int = 64 << 20,
                maximumRetryAfter: TimeInterval = 10, redirects: HTTPRedirectPolicy = .sameOrigin,
                transport: any HTTPTransport,
                clock: any Clock<Duration> = ContinuousClock()) throws(ImageSourceError) {
        guard HTTPRedirectPolicy.origin(of: baseURL) != nil else {
            throw .unavailable("the server URL must be an http or https URL with a host, not \(baseURL.absoluteString)")
        }
        guard timeout.isFinite, timeout > 0, timeout <= 86_400 else {
            throw .unavailable("the HTTP timeout must be a number of seconds above 0 and at most 86,400, not \(timeout)")
        }
        guard maximumBodySize >= 1 else {
            throw .unavailable("the largest HTTP answer must be at least 1 byte, not \(maximumBodySize)")
        }
        self.baseURL = baseURL
        self.indexPath = indexPath
        self.timeout = timeout
        self.maximumBodySize = maximumBodySize
        self.redirectPolicy = redirects
        retries = HTTPRetryPolicy(maximumAttempts: max(1, maximumAttempts),
                                  delay: retryDelay.isFinite ? max(0, retryDelay) : 0,
                                  maximumRetryAfter: maximumRetryAfter.isFinite ? max(0, maximumRetryAfter) : 0)
        self.transport = transport
        self.sleep = sleeper(on: clock)
    }

    // MARK: ImageSource

    /// The names the index at `baseURL/indexPath` lists, in its order (see
    /// the type's description for the formats); a manifest's stated sizes
    /// then answer ``header(for:)`` without a request. Names that are not a
    /// relative path under the base URL are left out and listed in ``refusedNames``.
    /// - Throws: ``ImageSourceError/unavailable(_:)`` saying what went wrong
    ///   (no index there, an HTTP error, no answer after every attempt, an
    ///   answer that is not an index, only refused names), or
    ///   ``ImageSourceError/cancelled``.
    public func imageIDs() async throws(ImageSourceError) -> [ImageID] {
        try await imageIDs(onBatch: { _ in })
    }

    /// ``imageIDs()``, handing out a nested library's names folder by
    /// folder as the listings are read (the top folder's first, then in the
    /// order of the result), so that a gallery can show the first photos
    /// before the last folder is listed. A manifest, a list of names or a
    /// folder without sub-folders comes whole: `batch` is not called.
    public func imageIDs(onBatch batch: (ArraySlice<ImageID>) -> Void) async throws(ImageSourceError) -> [ImageID] {
        let path = indexPath.drop(while: { $0 == "/" })
        guard let encoded = String(path).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed),
              let url = HTTPPhotoName.url(baseURL, appendingEncodedPath: encoded) else {
            throw .unavailable("cannot form the image index URL from \(baseURL.absoluteString) and \"\(indexPath)\"")
        }
        let body: Data
        do {
            body = try await fetch(url).body
        } catch {
            throw HTTPFailureText.indexError(error, url: url, attempts: retries.attemptsText)
        }
        var index: HTTPIndex
        do throws(HTTPIndex.Failure) {
            index = try HTTPIndex.parse(body, isJSONPath: FileNameExtension.of(indexPath) == "json")
        } catch {
            throw .unavailable("the image index at \(url.absoluteString) \(error.reason)")
        }
        if path.isEmpty, !index.folders.isEmpty {
            index = try await addingSubfolders(to: index, batch: batch)   // a nested library: its folders' listings too
        } else {
            index.report.folderCount = 1
            index.report.photoCount = index.names.count
        }
        lastIndex.withLock { $0 = index }
        if index.names.isEmpty, let first = index.refused.first {
            throw .unavailable("the image index at \(url.absoluteString) names no photo that can be fetched safely: all \(index.refusedCount) names were refused (the first, \"\(first.name.prefix(80))\", is \(first.reason))")
        }
        return index.names
    }

    /// A name the index gave that the source will not request, and why.
    public struct RefusedName: Sendable, Hashable {
        /// The name as the index gave it (percent-decoded where the index encodes).
        public var name: String
        /// Why it is not a relative path under the base URL.
        public var reason: String
    }

    /// The names the last index read gave that are not a relative path
    /// under the base URL (the first 1,000), each with why; empty when all
    /// were fine or before the index is read.
    public var refusedNames: [RefusedName] { lastIndex.withLock { $0.refused } }

    /// How many names the last index read refused (``refusedNames`` keeps the first 1,000).
    public var refusedNameCount: Int { lastIndex.withLock { $0.refusedCount } }

    /// What the last index read found beside the photos: the folders read
    /// under a folder listing and those that could not be (by path), the
    /// videos and other files the listings named. Empty before the index
    /// is read.
    public var listingReport: FolderScan.Report { lastIndex.withLock { $0.report } }

    /// The bytes at `baseURL/<id>` (see ``versionedData(for:)``).
    /// - Throws: ``ImageSourceError/notFound(_:)`` for HTTP 404 or 410,
    ///   ``ImageSourceError/transferFailed(_:_:)`` for any other failure
    ///   (a refused name without any request), or ``ImageSourceError/cancelled``.
    public func data(for id: ImageID) async throws(ImageSourceError) -> Data {
        try await versionedData(for: id).data
    }

    /// The bytes of `id` with the `ETag` (or `Last-Modified`) of the very
    /// answer that brought them.
    public func versionedData(for id: ImageID) async throws(ImageSourceError) -> (data: Data, fingerprint: String?) {
        let url = try url(checking: id)
        do {
            let reply = try await fetch(url)
            return (reply.body, reply.validator)
        } catch {
            throw HTTPFailureText.photoError(error, id: id, url: url, attempts: retries.attemptsText)
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
        if let listed = lastIndex.withLock({ $0.headers[id] }) { return listed }
        let url = try url(checking: id)
        for length in [64 << 10, 256 << 10, 1 << 20] {
            let reply: Reply
            do {
                reply = try await fetch(url, range: 0...(length - 1))
            } catch {
                throw HTTPFailureText.photoError(error, id: id, url: url, attempts: retries.attemptsText)
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
    public var listedSizeCount: Int { lastIndex.withLock { $0.headers.count } }

    /// The headers the last index read stated: a manifest's sized entries.
    public func listedHeaders() async -> [ImageID: ImageHeader] { lastIndex.withLock { $0.headers } }

    /// The previews the last index read gave: a manifest's `thumbhash` entries.
    public func listedPreviews() async -> [ImageID: ThumbHash] { lastIndex.withLock { $0.previews } }

    /// Always `false`: the source keeps nothing on the device.
    public func isStoredLocally(_ id: ImageID) async -> Bool { false }

    /// The picture's `ETag` (or, without one, its `Last-Modified` and
    /// `Content-Length`), from one `HEAD` request with this source's
    /// deadline and no retry (a failure only means the disk cache is
    /// skipped, and the download that follows retries); `nil` if the server
    /// gives neither or cannot be reached.
    public func fingerprint(for id: ImageID) async -> String? {
        guard let url = url(for: id) else { return nil }
        return try? await fetch(url, method: .head, attempts: 1).validator
    }

    /// `true`: a fingerprint costs a `HEAD` request, so the loader gives it a
    /// download slot.
    public var fingerprintNeedsRequest: Bool { true }

    // MARK: URLs

    /// Where the bytes of `id` live: `baseURL` plus the id's parts, each
    /// a percent-encoded path segment; `nil` when the id is refused.
    func url(for id: ImageID) -> URL? {
        HTTPPhotoName.url(for: id.rawValue, under: baseURL)
    }

    /// ``url(for:)``, or the reason it is refused as the source's error.
    private func url(checking id: ImageID) throws(ImageSourceError) -> URL {
        if let reason = HTTPPhotoName.refusal(of: id.rawValue) {
            throw .transferFailed(id, "not requested: the name is \(reason), and only files under \(baseURL.absoluteString) are fetched")
        }
        guard let url = url(for: id) else {
            throw .transferFailed(id, "cannot form a URL for it under \(baseURL.absoluteString)")
        }
        return url
    }

    /// What identifies the version of an answer's body: its strong or weak
    /// `ETag`, else its `Last-Modified` with its length. A weak tag counts
    /// as its strong twin (RFC 9110's weak comparison, which is what "has
    /// this photo changed" asks): a server that marks a `GET`'s tag weak
    /// and not its `HEAD`'s (nginx does when it compresses the body) would
    /// otherwise have every kept thumbnail found out of date.
    static func validator(of response: HTTPTransportResponse) -> String? {
        if var tag = response[header: "ETag"]?.trimmingCharacters(in: .whitespaces), !tag.isEmpty {
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return "etag \(tag)"
        }
        guard let modified = response[header: "Last-Modified"], !modified.isEmpty else { return nil }
        return "modified \(modified) length \(response[header: "Content-Length"] ?? "?")"
    }
}
