import Foundation

/// One request of an ``HTTPImageSource``, from sending it to the answer
/// its caller gets: retries with exponential backoff or the server's
/// `Retry-After`, the deadline of each attempt, and the redirects the
/// source's policy allows, each checked before it is followed. The index,
/// the folder listings, the photos and their headers all go through here.
extension HTTPImageSource {
    /// Why `fetch` gave up.
    enum FetchFailure: Error {
        /// The task was cancelled.
        case cancelled
        /// A final (non-retryable) HTTP status.
        case status(Int)
        /// Every attempt failed; the text describes the last failure.
        case exhausted(String)
        /// Something no retry can fix (a redirect loop or a refused
        /// redirect, an answer over the size limit, a `Retry-After` too
        /// long to wait for), described.
        case final(String)
    }

    /// What one request brought back. `status` is the final answer's.
    struct Reply: Sendable {
        var body: Data
        var status: Int
        /// The `Retry-After` of the answer, in seconds from now.
        var retryAfter: TimeInterval?
        /// The version of the body (``HTTPImageSource/validator(of:)``).
        var validator: String?
    }

    /// GETs (or HEADs) `url`, retrying what may pass with exponential
    /// backoff (or the server's `Retry-After`). Returns the first 2xx answer.
    func fetch(_ url: URL, method: HTTPTransportRequest.Method = .get, attempts: Int? = nil,
               range: ClosedRange<Int>? = nil) async throws(FetchFailure) -> Reply {
        let maximumAttempts = max(1, attempts ?? retries.maximumAttempts)
        let request = HTTPTransportRequest(url: url, method: method, byteRange: range,
                                           maximumBodySize: maximumBodySize, timeout: timeout)
        var lastFailure = "no attempt made"
        var serverWait: TimeInterval?
        for attempt in 1...maximumAttempts {
            if attempt > 1 {
                let seconds = retries.wait(beforeAttempt: attempt, serverWait: serverWait)
                if seconds > 0 {
                    do { try await sleep(.seconds(seconds)) } catch { throw .cancelled }
                }
            }
            serverWait = nil
            if Task.isCancelled { throw .cancelled }
            let response: HTTPTransportResponse
            do {
                response = try await racingDeadline(timeout, sleep: sleep) { [self] () throws(HTTPAttemptFailure) in
                    try await self.following(request)
                }
            } catch {
                if Task.isCancelled { throw .cancelled }
                switch error {
                case .cancelled, .transport(.cancelled): throw .cancelled
                default: break
                }
                guard error.isRetryable else { throw .final(error.description) }
                lastFailure = error.description
                continue
            }
            let reply = Reply(body: response.body, status: response.status,
                              retryAfter: response[header: "Retry-After"].flatMap { HTTPRetryPolicy.retryAfterSeconds($0) },
                              validator: Self.validator(of: response))
            guard !(200..<300).contains(reply.status) else { return reply }
            guard HTTPRetryPolicy.isRetryable(reply.status) else { throw .status(reply.status) }
            lastFailure = "HTTP \(reply.status)"
            if let retryAfter = reply.retryAfter, attempt < maximumAttempts {
                guard retryAfter <= retries.maximumRetryAfter else {
                    throw .final("HTTP \(reply.status), and the server asks to retry after \(Self.seconds(retryAfter)), longer than the \(Self.seconds(retries.maximumRetryAfter)) this source waits")
                }
                serverWait = retryAfter
            }
        }
        throw .exhausted(lastFailure)
    }

    /// One attempt: `request`, and the redirects the policy allows, each
    /// checked before it is followed.
    private func following(_ request: HTTPTransportRequest) async throws(HTTPAttemptFailure) -> HTTPTransportResponse {
        var request = request
        for _ in 0...Self.maximumRedirects {
            let response: HTTPTransportResponse
            do {
                response = try await transport.send(request)
            } catch {
                throw .transport(error)
            }
            guard [301, 302, 303, 307, 308].contains(response.status), let location = response[header: "Location"] else {
                return response
            }
            guard let target = URL(string: location.trimmingCharacters(in: .whitespaces), relativeTo: request.url)?.absoluteURL else {
                throw .redirectRefused("the server redirected to \"\(location.prefix(200))\", which is not a URL")
            }
            if let refusal = redirectPolicy.refusal(of: target, base: baseURL) { throw .redirectRefused(refusal) }
            request.url = target
        }
        throw .redirectLoop(Self.maximumRedirects)
    }

    /// Seconds for a message: "2 s", "0.5 s"; any value, even not finite.
    static func seconds(_ value: TimeInterval) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return String(format: "%g s", value) }
        return value == value.rounded() ? "\(Int64(value)) s" : String(format: "%.1f s", value)
    }
}
