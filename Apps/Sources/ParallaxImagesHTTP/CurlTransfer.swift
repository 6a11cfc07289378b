import CCurl
import Foundation
import ParallaxImages

/// One request on a libcurl easy handle: the options it is sent with, the
/// head and body as they arrive, and what it ended with.
///
/// Owned by ``CurlTransferLoop``: made on the caller's side, then touched
/// only on the loop's thread (the callbacks run inside
/// `curl_multi_perform` there) until its outcome is handed back once.
///
/// The body limit is kept here, in the callbacks: a declared
/// `Content-Length` over ``HTTPTransportRequest/maximumBodySize`` stops the
/// transfer when the head ends, and a body that grows past it stops on the
/// piece that passes it. libcurl then closes the connection rather than
/// reading the rest, so at most the limit plus one receive buffer (16 KiB)
/// is ever held.
final class CurlTransfer: @unchecked Sendable {
    let request: HTTPTransportRequest
    /// The libcurl handle, made in ``init(_:configuration:)``, cleaned up in
    /// `deinit`.
    let handle: UnsafeMutableRawPointer
    /// Where the continuation of the waiting `send` is kept until the
    /// outcome is known. Set before the transfer is started; resumed once,
    /// by whoever ends the transfer (the loop, or a cancellation that comes
    /// before the loop took it).
    var continuation: CheckedContinuation<Result<HTTPTransportResponse, HTTPTransportError>, Never>?
    /// Where the transfer is in its life; read and written under the loop's lock.
    var phase: Phase = .new

    enum Phase {
        /// Made, not yet handed to the loop.
        case new
        /// Handed to the loop, not yet on the multi handle.
        case queued
        /// On the multi handle.
        case running
        /// Its outcome was handed back.
        case ended
        /// Cancelled before the loop took it: it never reaches the wire.
        case cancelledEarly
    }

    /// Marks the transfer ended and gives its continuation, to be resumed
    /// once by the caller (under the loop's lock).
    func takeContinuation() -> CheckedContinuation<Result<HTTPTransportResponse, HTTPTransportError>, Never>? {
        phase = .ended
        defer { continuation = nil }
        return continuation
    }

    private let limit: Int
    /// When libcurl gives up by itself (CURLOPT_TIMEOUT_MS).
    private let backstop: Duration
    private var status = 0
    private var headers: [String: String] = [:]
    private var headEnded = false
    private var declared: Int64?
    private var body = Data()
    /// Why the transfer was stopped from a callback, if it was.
    private var refusal: HTTPTransportError?
    /// libcurl's own words for the last error (CURLOPT_ERRORBUFFER).
    private let errorBuffer: UnsafeMutablePointer<CChar>

    /// A transfer of `request`, its handle set up for it; `nil` when libcurl
    /// cannot make a handle (out of memory).
    init?(_ request: HTTPTransportRequest, configuration: CurlTransport.Configuration) {
        guard let handle = pk_curl_easy_init() else { return nil }
        self.request = request
        self.handle = handle
        limit = max(1, request.maximumBodySize)
        backstop = CurlTransport.backstop(for: request, configuration)
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        configure(configuration)
    }

    deinit {
        pk_curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    private func configure(_ configuration: CurlTransport.Configuration) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        _ = pk_curl_easy_setopt_string(handle, CURLOPT_URL, request.url.absoluteString)
        // Only the web's two schemes, whatever the URL says (never file:, ftp:, …).
        _ = pk_curl_easy_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = pk_curl_easy_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0)
        // The loop has many transfers on one thread: no signals (a DNS timeout
        // would raise SIGALRM in another thread's code).
        _ = pk_curl_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        _ = pk_curl_easy_setopt_string(handle, CURLOPT_USERAGENT, "ParallaxKit (libcurl)")
        if request.method == .head { _ = pk_curl_easy_setopt_long(handle, CURLOPT_NOBODY, 1) }
        if let range = request.byteRange {
            _ = pk_curl_easy_setopt_string(handle, CURLOPT_RANGE, "\(range.lowerBound)-\(range.upperBound)")
        }
        _ = pk_curl_easy_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, CurlTransport.milliseconds(configuration.connectTimeout))
        // The backstop behind the source's deadline, which works by cancelling.
        _ = pk_curl_easy_setopt_long(handle, CURLOPT_TIMEOUT_MS, CurlTransport.milliseconds(backstop))
        _ = pk_curl_easy_setopt_long(handle, CURLOPT_MAXAGE_CONN, max(1, CurlTransport.milliseconds(configuration.idleTimeout) / 1000))
        _ = pk_curl_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer)
        _ = pk_curl_easy_setopt_callback(handle, CURLOPT_HEADERFUNCTION, curlHeaderLine)
        _ = pk_curl_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, context)
        _ = pk_curl_easy_setopt_callback(handle, CURLOPT_WRITEFUNCTION, curlBodyPiece)
        _ = pk_curl_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
    }

    // MARK: Receiving (on the loop's thread)

    /// One line of the head (or a trailer), CRLF included. Returns the
    /// length taken; anything else stops the transfer.
    fileprivate func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) -> Int {
        let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            // A status line starts an answer: a 1xx, or a proxy's, comes before the real one.
            status = line.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) } ?? 0
            headers = [:]
            headEnded = false
            declared = nil
        } else if line.isEmpty {
            guard !headEnded, status >= 200 else { return bytes.count }
            headEnded = true
            guard request.method == .get else { return bytes.count }
            declared = headers["content-length"].flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
            if let declared, declared > Int64(limit) {
                refusal = .tooLarge(declared: declared, limit: limit)
                return 0
            }
            if let declared { body.reserveCapacity(Int(declared)) }
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { "\($0), \(value)" } ?? value
        }
        return bytes.count
    }

    /// A piece of the body. Returns its length when taken, 0 to stop.
    fileprivate func receiveBodyPiece(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard refusal == nil else { return 0 }
        guard body.count + bytes.count <= limit else {
            refusal = .tooLarge(declared: nil, limit: limit)
            return 0
        }
        body.append(contentsOf: bytes)
        return bytes.count
    }

    // MARK: The outcome

    /// What the transfer ended with, libcurl having finished it with `code`.
    func outcome(_ code: CURLcode) -> Result<HTTPTransportResponse, HTTPTransportError> {
        if let refusal { return .failure(refusal) }
        let received = body.count
        switch code {
        case CURLE_OK:
            // A 204 or 304 has no body, whatever its Content-Length says.
            if request.method == .get, status != 204, status != 304, let declared, Int64(received) < declared {
                return .failure(.cutShort(received: received, expected: declared))
            }
            return .success(HTTPTransportResponse(status: status, headers: headers,
                                                  body: request.method == .head ? Data() : body))
        case CURLE_PARTIAL_FILE:
            return .failure(.cutShort(received: received, expected: declared))
        case CURLE_RECV_ERROR where headEnded, CURLE_SEND_ERROR where headEnded, CURLE_GOT_NOTHING where headEnded:
            // The connection ended after the head, before the answer did.
            return .failure(.cutShort(received: received, expected: declared))
        default:
            return .failure(.failed(describe(code)))
        }
    }

    /// What went wrong, in words a person understands.
    private func describe(_ code: CURLcode) -> String {
        let url = request.url
        let host = url.host ?? "the server"
        let port = url.port.map { ":\($0)" } ?? ""
        let detail = String(cString: errorBuffer)
        let words = detail.isEmpty ? String(cString: pk_curl_easy_strerror(code)) : detail
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST:
            return "host not found: \(host) (\(words))"
        case CURLE_COULDNT_CONNECT:
            return "could not connect to \(host)\(port) (\(osReason() ?? words))"
        case CURLE_OPERATION_TIMEDOUT:
            if !wasConnected {
                return "could not connect to \(host)\(port) (timed out)"
            }
            return "no complete answer from \(host) within \(CurlTransport.seconds(backstop)) s (the transport's backstop deadline)"
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
             CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
             CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_CRL_BADFILE, CURLE_SSL_SHUTDOWN_FAILED, CURLE_USE_SSL_FAILED:
            return "TLS handshake with \(host) failed: \(words)"
        case CURLE_GOT_NOTHING:
            return "\(host) closed the connection before answering"
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR:
            return "connection to \(host)\(port) failed (\(osReason() ?? words))"
        case CURLE_WEIRD_SERVER_REPLY:
            return "\(host) sent an answer that is not valid HTTP (\(words))"
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            return "not a URL this transport can fetch: \(url.absoluteString)"
        case CURLE_OUT_OF_MEMORY:
            return "request to \(host) failed: out of memory"
        default:
            return "request to \(host) failed: \(words)"
        }
    }

    /// Whether a connection was made (libcurl's connect time is set once it is).
    private var wasConnected: Bool {
        var connectTime: curl_off_t = 0
        _ = pk_curl_easy_getinfo_off_t(handle, CURLINFO_CONNECT_TIME_T, &connectTime)
        return connectTime > 0
    }

    /// "connection refused", "host unreachable", … from the socket's error.
    private func osReason() -> String? {
        var number = 0
        _ = pk_curl_easy_getinfo_long(handle, CURLINFO_OS_ERRNO, &number)
        return number == 0 ? nil : CurlTransport.reason(errno: Int32(number))
    }
}

// The callbacks libcurl calls, on the loop's thread; `context` is the transfer.

private let curlHeaderLine: curl_write_callback = { buffer, size, count, context in
    guard let buffer, let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.receiveHeaderLine(UnsafeRawBufferPointer(start: buffer, count: size * count))
}

private let curlBodyPiece: curl_write_callback = { buffer, size, count, context in
    guard let buffer, let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.receiveBodyPiece(UnsafeRawBufferPointer(start: buffer, count: size * count))
}
