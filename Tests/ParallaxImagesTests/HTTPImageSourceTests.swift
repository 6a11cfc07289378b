import Foundation
import Testing
@testable import ParallaxImages

/// `HTTPImageSource` against a `LoopbackHTTPServer` on 127.0.0.1. Retry
/// waits are shortened to 10 ms so the whole suite stays around a few
/// seconds; the timeout and cancellation tests bound their own durations.
@Suite("HTTP image source")
struct HTTPImageSourceTests {
    /// A source for `server` with fast retries.
    func makeSource(_ server: LoopbackHTTPServer, timeout: TimeInterval = 5, attempts: Int = 3,
                retryDelay: TimeInterval = 0.01) -> HTTPImageSource {
        HTTPImageSource(baseURL: server.baseURL, timeout: timeout, maximumAttempts: attempts, retryDelay: retryDelay)
    }

    @Test func indexIsParsedOneNamePerLineSkippingBlankLines() async throws {
        let index = "a.jpg\n\nb.jpg\r\n   \nc d.png\n\n"
        let server = try LoopbackHTTPServer(routes: ["/index.txt": Data(index.utf8)])
        defer { server.stop() }
        let ids = try await makeSource(server).imageIDs()
        #expect(ids == ["a.jpg", "b.jpg", "c d.png"])
        #expect(server.requestCount(for: "/index.txt") == 1)
    }

    @Test func indexPathIsRelativeToTheBaseURL() async throws {
        let server = try LoopbackHTTPServer(routes: ["/gallery/v2/list.txt": Data("x.jpg\n".utf8)])
        defer { server.stop() }
        let base = try #require(URL(string: "gallery", relativeTo: server.baseURL)?.absoluteURL)
        let ids = try await HTTPImageSource(baseURL: base, indexPath: "v2/list.txt").imageIDs()
        #expect(ids == ["x.jpg"])
    }

    @Test func bytesArriveExactlyAndNamesAreEncodedAsOnePathComponent() async throws {
        let photo = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) })
        let odd = Data("odd".utf8)
        let server = try LoopbackHTTPServer(routes: ["/photo.jpg": photo, "/a b#1?/c.jpg": odd])
        defer { server.stop() }
        let source = makeSource(server)
        #expect(try await source.data(for: "photo.jpg") == photo)
        // Space, '#', '?' and '/' stay inside the one name.
        #expect(try await source.data(for: "a b#1?/c.jpg") == odd)
        #expect(source.url(for: "a b#1?/c.jpg")?.absoluteString == "\(server.baseURL.absoluteString)a%20b%231%3F%2Fc.jpg")
        #expect(await source.isStoredLocally("photo.jpg") == false)
    }

    @Test func missingImageIsNotFoundWithoutRetrying() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        await #expect(throws: ImageSourceError.notFound("missing.jpg")) {
            try await makeSource(server).data(for: "missing.jpg")
        }
        #expect(server.requestCount(for: "/missing.jpg") == 1)
    }

    @Test func transientFailuresAreRetried() async throws {
        let body = Data("third time lucky".utf8)
        let server = try LoopbackHTTPServer(routes: ["/flaky.jpg": body], failFirst: ["/flaky.jpg": 2])
        defer { server.stop() }
        #expect(try await makeSource(server, attempts: 3).data(for: "flaky.jpg") == body)
        #expect(server.requestCount(for: "/flaky.jpg") == 3)
    }

    @Test func persistentFailureGivesTransferFailedAfterTheLastAttempt() async throws {
        let server = try LoopbackHTTPServer(routes: ["/down.jpg": Data("never".utf8)], failFirst: ["/down.jpg": 10])
        defer { server.stop() }
        let error = try await #require(throws: ImageSourceError.self) {
            try await makeSource(server, attempts: 3).data(for: "down.jpg")
        }
        guard case let .transferFailed(id, reason) = error else {
            Issue.record("expected transferFailed, got \(error)")
            return
        }
        #expect(id == "down.jpg")
        #expect(reason.contains("503"))
        #expect(server.requestCount(for: "/down.jpg") == 3)
    }

    @Test func silentServerTimesOutPerAttempt() async throws {
        let server = try LoopbackHTTPServer(routes: ["/slow.jpg": Data("late".utf8)], delays: ["/slow.jpg": 2])
        defer { server.stop() }
        let start = ContinuousClock.now
        let error = try await #require(throws: ImageSourceError.self) {
            try await makeSource(server, timeout: 0.5, attempts: 2).data(for: "slow.jpg")
        }
        let elapsed = ContinuousClock.now - start
        guard case .transferFailed(let id, _) = error else {
            Issue.record("expected transferFailed, got \(error)")
            return
        }
        #expect(id == "slow.jpg")
        // Two 0.5 s attempts; waiting out the delay even once would take 2 s.
        #expect(elapsed >= .milliseconds(900))
        #expect(elapsed < .milliseconds(3_500))      // well under the 2 × 2 s the server would take; loose for a loaded machine
        #expect(server.requestCount(for: "/slow.jpg") == 2)
    }

    @Test func unreachableServerMakesTheIndexUnavailable() async throws {
        let server = try LoopbackHTTPServer()
        let baseURL = server.baseURL
        server.stop()                                    // nothing listens on that port any more
        let error = try await #require(throws: ImageSourceError.self) {
            try await HTTPImageSource(baseURL: baseURL, timeout: 2, retryDelay: 0.01).imageIDs()
        }
        guard case .unavailable(let message) = error else {
            Issue.record("expected unavailable, got \(error)")
            return
        }
        #expect(message.contains("\(baseURL.absoluteString)index.txt"))
    }

    @Test func missingIndexIsUnavailable() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let error = try await #require(throws: ImageSourceError.self) { try await makeSource(server).imageIDs() }
        guard case .unavailable(let message) = error else {
            Issue.record("expected unavailable, got \(error)")
            return
        }
        #expect(message.contains("404"))
    }

    @Test func cancellingStopsATransferPromptly() async throws {
        let server = try LoopbackHTTPServer(routes: ["/slow.jpg": Data("late".utf8)], delays: ["/slow.jpg": 2])
        defer { server.stop() }
        let source = makeSource(server)
        let start = ContinuousClock.now
        let task = Task { try await source.data(for: "slow.jpg") }
        try await Task.sleep(for: .milliseconds(200))
        task.cancel()
        await #expect(throws: ImageSourceError.cancelled) { try await task.value }
        #expect(ContinuousClock.now - start < .seconds(1))
    }

    @Test func cancellingStopsTheWaitBetweenAttempts() async throws {
        let server = try LoopbackHTTPServer(routes: ["/down.jpg": Data()], failFirst: ["/down.jpg": 10])
        defer { server.stop() }
        let source = makeSource(server, retryDelay: 10)
        let start = ContinuousClock.now
        let task = Task { try await source.data(for: "down.jpg") }
        try await Task.sleep(for: .milliseconds(200))
        task.cancel()
        await #expect(throws: ImageSourceError.cancelled) { try await task.value }
        #expect(ContinuousClock.now - start < .seconds(1))
        #expect(server.requestCount(for: "/down.jpg") == 1)
    }

    @Test func retryableStatuses() {
        for status in [408, 429, 500, 502, 503, 504] { #expect(HTTPImageSource.isRetryable(status)) }
        for status in [400, 401, 403, 404, 410, 301] { #expect(!HTTPImageSource.isRetryable(status)) }
    }
}
