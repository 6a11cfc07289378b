import Foundation

/// What carries one HTTP request for ``HTTPImageSource``: a GET or a HEAD
/// out, one answer (or why not) back.
///
/// The source owns every policy (deadlines, retries, redirects, which URLs
/// may be asked for) and a transport owns only the bytes on the wire, so a
/// transport is small and a source behaves the same over any of them. Two
/// exist: ``URLSessionTransport`` (Foundation; the default, and the right
/// one on Apple platforms) and, for Linux, where swift-corelibs-foundation's
/// `URLSession` can neither stop a transfer it has given up on nor keep off
/// the cooperative thread pool, a libcurl transport in the apps'
/// package (`ParallaxImagesHTTP`), which keeps this package free of
/// dependencies.
///
/// A transport keeps these promises, which the source relies on:
/// - **No redirects followed.** A 3xx is returned as it is, with its
///   `Location`; the source decides whether to follow it.
/// - **Bounded memory.** A declared `Content-Length` over
///   ``HTTPTransportRequest/maximumBodySize`` throws
///   ``HTTPTransportError/tooLarge(declared:limit:)`` before any of the body
///   is read; a body that grows past the limit is cut there. Either way the
///   connection is closed (never drained), so the server stops sending.
/// - **Prompt cancellation.** When the calling task is cancelled the
///   transport throws ``HTTPTransportError/cancelled`` soon after and closes
///   the connection. The source's deadline works by cancelling.
/// - **No blocking** of a thread of Swift's cooperative pool, which every
///   actor in the process shares.
/// - A HEAD answer has an empty body whatever its `Content-Length` says.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the server's answer, whatever its status.
    /// - Throws: ``HTTPTransportError``.
    func send(_ request: HTTPTransportRequest) async throws(HTTPTransportError) -> HTTPTransportResponse
}

/// One request as a transport sends it.
public struct HTTPTransportRequest: Sendable, Hashable {
    /// The methods the image pipeline uses.
    public enum Method: String, Sendable, Hashable {
        case get = "GET"
        case head = "HEAD"
    }

    /// Where to send it (http or https).
    public var url: URL
    /// `GET` or `HEAD`.
    public var method: Method
    /// The bytes asked for (a `Range: bytes=a-b` header), or `nil` for all.
    public var byteRange: ClosedRange<Int>?
    /// The largest body accepted, in bytes (at least 1).
    public var maximumBodySize: Int
    /// The source's deadline for the whole answer, in seconds. The source
    /// enforces it by cancelling; a transport may set its own timeout a
    /// little later as a backstop, never earlier.
    public var timeout: TimeInterval

    /// A request as given.
    public init(url: URL, method: Method = .get, byteRange: ClosedRange<Int>? = nil,
                maximumBodySize: Int, timeout: TimeInterval) {
        self.url = url
        self.method = method
        self.byteRange = byteRange
        self.maximumBodySize = maximumBodySize
        self.timeout = timeout
    }

    /// The `Range` header value for ``byteRange``: `bytes=0-65535`.
    public var rangeHeader: String? {
        byteRange.map { "bytes=\($0.lowerBound)-\($0.upperBound)" }
    }
}

/// One answer as a transport received it.
public struct HTTPTransportResponse: Sendable, Hashable {
    /// The HTTP status code.
    public var status: Int
    /// The header fields by lowercased name; a field sent more than once is
    /// joined with ", " as RFC 9110 §5.3 allows.
    public var headers: [String: String]
    /// The whole body (empty for HEAD).
    public var body: Data

    /// An answer as given; `headers`' names are lowercased here.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        var lowered: [String: String] = [:]
        for (name, value) in headers {
            let key = name.lowercased()
            lowered[key] = lowered[key].map { "\($0), \(value)" } ?? value
        }
        self.headers = lowered
        self.body = body
    }

    /// The value of the header field `name` (any case), if sent.
    public subscript(header name: String) -> String? { headers[name.lowercased()] }
}

/// Why a transport brought no answer.
public enum HTTPTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The calling task was cancelled.
    case cancelled
    /// The answer is, or would be, over the size limit: its declared
    /// `Content-Length` (`declared`), or a body that kept coming (`nil`).
    case tooLarge(declared: Int64?, limit: Int)
    /// The connection ended before the declared length arrived.
    case cutShort(received: Int, expected: Int64?)
    /// Anything else, in words a person understands ("could not connect
    /// (connection refused)", "TLS handshake failed: …").
    case failed(String)

    public var description: String {
        switch self {
        case .cancelled:
            return "cancelled"
        case .tooLarge(let declared?, let limit):
            return "the answer would be \(ByteCountText.bytes(declared)), over the \(ByteCountText.bytes(Int64(limit))) limit (maximumBodySize)"
        case .tooLarge(nil, let limit):
            return "the answer went past the \(ByteCountText.bytes(Int64(limit))) limit (maximumBodySize) without ending"
        case .cutShort(let received, let expected?):
            return "the answer was cut short: the connection closed after \(received) of \(expected) bytes"
        case .cutShort(let received, nil):
            return "the answer was cut short: the connection closed after \(received) bytes"
        case .failed(let text):
            return text
        }
    }
}

/// Byte counts for messages.
enum ByteCountText {
    /// "64 MiB", "10 GiB", "1.5 KiB", "512 bytes".
    static func bytes(_ count: Int64) -> String {
        let units: [(Int64, String)] = [(1 << 40, "TiB"), (1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")]
        for (size, unit) in units where count >= size {
            let value = Double(count) / Double(size)
            return value == value.rounded() ? "\(Int64(value)) \(unit)" : String(format: "%.1f %@", value, unit)
        }
        return count == 1 ? "1 byte" : "\(count) bytes"
    }
}
