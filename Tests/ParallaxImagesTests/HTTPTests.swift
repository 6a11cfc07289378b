import Foundation
import Testing
@testable import ParallaxImages

/// `HTTPImageSource` against a `LoopbackHTTPServer` on 127.0.0.1. Retry
/// waits are shortened to 10 ms so the whole suite stays around a few
/// seconds. Deadlines and retry waits that a test is about run on a
/// `ManualClock`, so what happens when is decided by the test, not by how
/// busy the machine is; every test has a time limit that fails it rather
/// than letting it hang.
/// The HTTP suites run one test at a time, beside the rest of the tests
/// running in parallel: swift-corelibs-foundation's sessions share a work
/// queue, and an endless answer flowing through one of them (the
/// hostile-server tests) slows every other session's requests by seconds.
@Suite("HTTP", .serialized)
enum HTTPTests {}

extension HTTPTests {
    @Suite("HTTP image source", .timeLimit(.minutes(5)))
    struct HTTPImageSourceTests {
        /// A source for `server` with fast retries.
        func makeSource(_ server: LoopbackHTTPServer, timeout: TimeInterval = 5, attempts: Int = 3,
                        retryDelay: TimeInterval = 0.01, clock: any Clock<Duration> = ContinuousClock()) throws -> HTTPImageSource {
            try HTTPImageSource(baseURL: server.baseURL, timeout: timeout, maximumAttempts: attempts, retryDelay: retryDelay,
                                clock: clock)
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
            let server = try LoopbackHTTPServer(routes: ["/photo.jpg": photo, "/a b#1?;%c.jpg": odd])
            defer { server.stop() }
            let source = try makeSource(server)
            #expect(try await source.data(for: "photo.jpg") == photo)
            // Space, '#', '?', ';' and '%' stay inside the one name.
            #expect(try await source.data(for: "a b#1?;%c.jpg") == odd)
            #expect(source.url(for: "a b#1?;%c.jpg")?.absoluteString == "\(server.baseURL.absoluteString)a%20b%231%3F%3B%25c.jpg")
            // A '/' separates folders (a manifest's nested library), each part encoded on its own.
            #expect(source.url(for: "a b/c.jpg")?.absoluteString == "\(server.baseURL.absoluteString)a%20b/c.jpg")
            #expect(source.url(for: "a/../c.jpg") == nil && source.url(for: "a%2Fc.jpg") == nil)
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
            let server = try LoopbackHTTPServer(routes: ["/slow.jpg": Data("late".utf8)], delays: ["/slow.jpg": 30])
            defer { server.stop() }
            let clock = ManualClock()
            let source = try makeSource(server, timeout: 0.5, attempts: 2, retryDelay: 0, clock: clock)
            let load = Task { try await source.data(for: "slow.jpg") }
            // Each attempt's deadline, and nothing else, ends it: the server would answer in 30 s.
            for attempt in 1...2 {
                await clock.waitForSleep(of: .milliseconds(500))
                await server.waitForRequests(attempt, to: "/slow.jpg")
                clock.advance(by: .milliseconds(500))
            }
            let error = try await #require(throws: ImageSourceError.self) { try await load.value }
            guard case .transferFailed(let id, let reason) = error else {
                Issue.record("expected transferFailed, got \(error)")
                return
            }
            #expect(id == "slow.jpg")
            #expect(reason.hasPrefix("no complete answer within 0.5 s"), "\(reason)")
            #expect(server.requestCount(for: "/slow.jpg") == 2)
        }

        /// The deadline on the wall clock, the default: never early, and the
        /// reason names it (how late it may come depends on the machine's load,
        /// which the suite's time limit bounds).
        @Test func theWallClockDeadlineIsNeverEarly() async throws {
            let server = try LoopbackHTTPServer(routes: ["/slow.jpg": Data("late".utf8)], delays: ["/slow.jpg": 30])
            defer { server.stop() }
            let start = ContinuousClock.now
            let error = try await #require(throws: ImageSourceError.self) {
                try await makeSource(server, timeout: 0.6, attempts: 1).data(for: "slow.jpg")
            }
            let elapsed = ContinuousClock.now - start
            #expect(elapsed >= .milliseconds(590))
            guard case .transferFailed(_, let reason) = error else {
                Issue.record("expected transferFailed, got \(error)")
                return
            }
            // Foundation's own timeout (2 s here) is the backstop when the machine is so busy that the
            // deadline's task could not run in time; it may only explain a failure that came that late.
            if reason.hasPrefix("timed out") {
                #expect(elapsed >= .milliseconds(1_900), "Foundation's backstop after \(elapsed), before its own 2 s")
            } else {
                #expect(reason.hasPrefix("no complete answer within 0.6 s"), "\(reason)")
            }
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
            // The server would answer after 30 s and the deadline never passes: only the cancellation can end it.
            let server = try LoopbackHTTPServer(routes: ["/slow.jpg": Data("late".utf8)], delays: ["/slow.jpg": 30])
            defer { server.stop() }
            let source = try makeSource(server, clock: ManualClock())
            let task = Task { try await source.data(for: "slow.jpg") }
            await server.waitForRequests(1, to: "/slow.jpg")
            task.cancel()
            await #expect(throws: ImageSourceError.cancelled) { try await task.value }
        }

        @Test func cancellingStopsTheWaitBetweenAttempts() async throws {
            let server = try LoopbackHTTPServer(routes: ["/down.jpg": Data()], failFirst: ["/down.jpg": 10])
            defer { server.stop() }
            let clock = ManualClock()
            let source = try makeSource(server, retryDelay: 10, clock: clock)
            let task = Task { try await source.data(for: "down.jpg") }
            await clock.waitForSleep(of: .seconds(10))          // the backoff after the first 503
            task.cancel()
            await #expect(throws: ImageSourceError.cancelled) { try await task.value }
            #expect(server.requestCount(for: "/down.jpg") == 1)
        }

        @Test func retryableStatuses() {
            for status in [408, 429, 500, 502, 503, 504] { #expect(HTTPRetryPolicy.isRetryable(status)) }
            for status in [400, 401, 403, 404, 410, 301] { #expect(!HTTPRetryPolicy.isRetryable(status)) }
        }
    }

    /// `HTTPImageSource` against servers that misbehave on purpose: each case
    /// must end at its deadline or before, hold no more than the size limit,
    /// and say what happened in one sentence. Deadlines run on a `ManualClock`
    /// unless a test says otherwise: a case that must end without reaching its
    /// deadline cannot pass by reaching it, however slow the machine.
    @Suite("HTTP image source against hostile servers", .timeLimit(.minutes(5)))
    struct HostileHTTPServerTests {
        func source(_ server: LoopbackHTTPServer, timeout: TimeInterval = 5, attempts: Int = 1,
                    maximumBodySize: Int = 1 << 20, maximumRetryAfter: TimeInterval = 10,
                    clock: any Clock<Duration> = ManualClock()) throws -> HTTPImageSource {
            try HTTPImageSource(baseURL: server.baseURL, timeout: timeout, maximumAttempts: attempts, retryDelay: 0.01,
                                maximumBodySize: maximumBodySize, maximumRetryAfter: maximumRetryAfter, clock: clock)
        }

        /// The reason of a `transferFailed` for `id`.
        func failure(_ source: HTTPImageSource, _ id: ImageID) async -> String {
            await failure(of: Task { try await source.data(for: id) }, id)
        }

        /// The reason `load`, a load of `id`, ended in `transferFailed`.
        func failure(of load: Task<Data, any Error>, _ id: ImageID) async -> String {
            do {
                _ = try await load.value
                Issue.record("\(id) loaded from a hostile server")
                return ""
            } catch {
                guard case .transferFailed(let failed, let reason) = error as? ImageSourceError, failed == id else {
                    Issue.record("expected transferFailed(\(id)), got \(error)")
                    return ""
                }
                return reason
            }
        }

        @Test func aServerThatNeverAnswersFailsAtTheDeadlineEveryTime() async throws {
            let server = try LoopbackHTTPServer()
            server.hostile = ["/x.jpg": .silent]
            defer { server.stop() }
            // Deadlines on, between and off Foundation's whole seconds, several times each: Foundation's own
            // timeout (on the wall clock) must never end the attempt before the deadline does, nor after it.
            var attempt = 0
            for timeout in [0.6, 1.0, 1.5] {
                for _ in 0..<3 {
                    attempt += 1
                    let clock = ManualClock()
                    let source = try source(server, timeout: timeout, clock: clock)
                    let load = Task { try await source.data(for: "x.jpg") }
                    await clock.waitForSleep(of: .seconds(timeout))
                    await server.waitForRequests(attempt, to: "/x.jpg")
                    clock.advance(by: .seconds(timeout) - .milliseconds(1))
                    #expect(clock.remainingSleeps == [.milliseconds(1)], "the deadline has not passed yet")
                    clock.advance(by: .milliseconds(1))
                    let reason = await failure(of: load, "x.jpg")
                    #expect(reason.hasPrefix("no complete answer within \(HTTPImageSource.seconds(timeout))"), "\(reason)")
                }
            }
        }

        @Test func aBodyThatNeverEndsStopsAtTheSizeLimit() async throws {
            let server = try LoopbackHTTPServer()
            server.hostile = ["/endless.jpg": .endless]
            defer { server.stop() }
            // The 30 s deadline never passes on the manual clock: only the size limit can end the answer.
            let reason = await failure(try source(server, timeout: 30, attempts: 3, maximumBodySize: 4 << 20), "endless.jpg")
            #expect(reason.hasPrefix("the answer went past the 4 MiB limit (maximumBodySize) without ending"), "\(reason)")
            #expect(server.requestCount(for: "/endless.jpg") == 1, "an answer over the limit is not retried")
        }

        @Test func aHugeContentLengthIsRefusedFromTheHeader() async throws {
            let server = try LoopbackHTTPServer()
            server.hostile = ["/huge.jpg": .claims(bytes: 10 << 30)]
            defer { server.stop() }
            let reason = await failure(try source(server, timeout: 30, attempts: 3, maximumBodySize: 64 << 20), "huge.jpg")
            #expect(reason.hasPrefix("the answer would be 10 GiB, over the 64 MiB limit (maximumBodySize)"), "\(reason)")
            #expect(server.requestCount(for: "/huge.jpg") == 1)
        }

        @Test func aRedirectLoopIsNamedAndNotRetried() async throws {
            let server = try LoopbackHTTPServer()
            server.hostile = ["/loop.jpg": .redirectLoop]
            defer { server.stop() }
            let reason = await failure(try source(server, attempts: 3), "loop.jpg")
            #expect(reason.hasPrefix("the server redirects in a loop (more than \(HTTPImageSource.maximumRedirects) redirects)"), "\(reason)")
            // One attempt's redirects and no retry: Foundation on Linux follows up to 16 itself before giving up,
            // three attempts would make about 50 requests.
            #expect(server.requestCount(for: "/loop.jpg") <= 20)
        }

        @Test func retryAfterIsHonouredUpToItsCap() async throws {
            let body = Data("patience".utf8)
            let server = try LoopbackHTTPServer(routes: ["/busy.jpg": body, "/away.jpg": body],
                                                failFirst: ["/busy.jpg": 1, "/away.jpg": 1])
            server.retryAfter = ["/busy.jpg": "1", "/away.jpg": "120"]
            defer { server.stop() }
            let clock = ManualClock()
            let busy = try source(server, attempts: 2, clock: clock)
            let load = Task { try await busy.data(for: "busy.jpg") }
            await clock.waitForSleep(of: .seconds(1))             // the second the server asked for, not the 10 ms backoff
            #expect(server.requestCount(for: "/busy.jpg") == 1)
            clock.advance(by: .seconds(1))
            #expect(try await load.value == body)
            #expect(server.requestCount(for: "/busy.jpg") == 2)
            // Over the cap: the request ends at once, without waiting (the manual clock never moves here).
            let reason = await failure(try source(server, attempts: 2, maximumRetryAfter: 5), "away.jpg")
            #expect(reason.hasPrefix("HTTP 503, and the server asks to retry after 120 s, longer than the 5 s this source waits"), "\(reason)")
            #expect(server.requestCount(for: "/away.jpg") == 1)
            #expect(HTTPRetryPolicy.retryAfterSeconds("Wed, 21 Oct 2015 07:28:00 GMT",
                                                      now: Date(timeIntervalSince1970: 1_445_412_470)) == 10)
            #expect(HTTPRetryPolicy.retryAfterSeconds("soon") == nil && HTTPRetryPolicy.retryAfterSeconds("-3") == nil)
        }

        @Test func anAbsurdRetryAfterEndsTheRequestWithAMessage() async throws {
            let body = Data("never".utf8)
            let server = try LoopbackHTTPServer(routes: ["/int-max.jpg": body, "/digits.jpg": body],
                                                failFirst: ["/int-max.jpg": 1, "/digits.jpg": 1])
            server.retryAfter = ["/int-max.jpg": "9223372036854775807", "/digits.jpg": String(repeating: "9", count: 400)]
            defer { server.stop() }
            for name: ImageID in ["int-max.jpg", "digits.jpg"] {
                let reason = await failure(try source(server, attempts: 2, maximumRetryAfter: 5), name)
                #expect(reason.hasPrefix("HTTP 503, and the server asks to retry after 1000000000 s"), "\(reason)")
            }
            #expect(HTTPRetryPolicy.retryAfterSeconds("9223372036854775808") == HTTPRetryPolicy.longestWait)
            #expect(HTTPImageSource.seconds(.infinity) == "inf s" && HTTPImageSource.seconds(-.nan).hasSuffix(" s"))
            #expect(HTTPImageSource.seconds(9.3e18) == "9.3e+18 s" && HTTPImageSource.seconds(2.5) == "2.5 s")
        }

        @Test func theFingerprintIsTheETagFromAHeadRequestAndChangesWithTheBytes() async throws {
            let server = try LoopbackHTTPServer(routes: ["/a.jpg": Data("first".utf8)])
            defer { server.stop() }
            let source = try source(server)
            let first = try #require(await source.fingerprint(for: "a.jpg"))
            #expect(first.hasPrefix("etag \""), "\(first)")
            #expect(server.requestCount(for: "/a.jpg") == 1)
            #expect(await source.fingerprint(for: "a.jpg") == first)
            server.routes = ["/a.jpg": Data("edited".utf8)]
            #expect(await source.fingerprint(for: "a.jpg") != first)
            #expect(await source.fingerprint(for: "missing.jpg") == nil)
        }

        @Test func aWeakETagIsTheSameVersionAsItsStrongTwin() {
            func version(_ headers: [String: String]) -> String? {
                HTTPImageSource.validator(of: HTTPTransportResponse(status: 200, headers: headers))
            }
            #expect(version(["etag": "W/\"5f3-1a\""]) == version(["etag": "\"5f3-1a\""]))
            #expect(version(["etag": " W/\"5f3-1a\" "]) == "etag \"5f3-1a\"")
            #expect(version(["etag": "\"5f3-1a\""]) != version(["etag": "\"5f3-1b\""]))
            #expect(version(["last-modified": "Tue, 24 Nov 2026 10:00:00 GMT", "content-length": "12"])
                    == "modified Tue, 24 Nov 2026 10:00:00 GMT length 12")
            #expect(version(["etag": ""]) == nil && version([:]) == nil)
        }

        @Test func anHTMLFolderListingIsAnIndex() throws {
            // What `python3 -m http.server` writes for a folder, with a subfolder, a text file and a query link.
            let listing = """
                <!DOCTYPE HTML>
                <html lang="en"><head><title>Directory listing for /</title></head><body>
                <ul>
                <li><a href="a%20photo.jpg">a photo.jpg</a></li>
                <li><a href="B.PNG">B.PNG</a></li>
                <li><a href="notes.txt">notes.txt</a></li>
                <li><a href="sub/">sub/</a></li>
                <li><a href='c.jpeg'>c.jpeg</a></li>
                <li><a href="?C=M;O=A">sort</a></li>
                <li><a href="http://elsewhere/x.jpg">x</a></li>
                <li><a href="a%20photo.jpg">again</a></li>
                <li><a href = "./d&amp;e.jpg">Apache's way</a></li>
                <li><a href="f&#39;s.png">numeric</a></li>
                </ul></body></html>
                """
            #expect(try HTTPIndex.parse(Data(listing.utf8), isJSONPath: false).names == ["a photo.jpg", "B.PNG", "c.jpeg", "d&e.jpg", "f's.png"])
            #expect(HTTPIndex.decodingCharacterReferences(Array("a &amp b &#x41;&bogus; &".utf8)) == "a &amp b A&bogus; &")
            #expect(try HTTPIndex.parse(Data("one.jpg\n\n two.png \n".utf8), isJSONPath: false).names == ["one.jpg", "two.png"])
        }

        @Test func anAnswerCutShortSaysSo() async throws {
            let server = try LoopbackHTTPServer()
            server.hostile = ["/cut.jpg": .cutShort(body: Data(count: 100_000), sent: 1_000)]
            defer { server.stop() }
            let reason = await failure(try source(server), "cut.jpg")
            #expect(reason.hasPrefix("the answer was cut short: the connection closed after"), "\(reason)")
            #expect(reason.contains("of 100000 bytes"), "\(reason)")
        }

        @Test func aResetConnectionAndADrippingServerEndClearly() async throws {
            let server = try LoopbackHTTPServer()
            server.hostile = ["/reset.jpg": .reset, "/drip.jpg": .drip(body: Data(count: 2_000), chunk: 10, interval: 0.1)]
            defer { server.stop() }
            // The reset ends the attempt by itself (the manual clock never moves).
            let reset = await failure(try source(server, timeout: 3), "reset.jpg")
            #expect(!reset.contains("URL error") && !reset.isEmpty && !reset.hasPrefix("no complete answer"), "\(reset)")
            // A byte now and then never satisfies the deadline.
            let clock = ManualClock()
            let dripping = try source(server, timeout: 1, clock: clock)
            let load = Task { try await dripping.data(for: "drip.jpg") }
            await clock.waitForSleep(of: .seconds(1))
            await server.waitForRequests(1, to: "/drip.jpg")
            clock.advance(by: .seconds(1))
            let drip = await failure(of: load, "drip.jpg")
            #expect(drip.hasPrefix("no complete answer within 1 s"), "\(drip)")
        }

        @Test func badSettingsThrowInsteadOfTrapping() {
            let base = URL(string: "http://127.0.0.1:9/")!
            for timeout in [0, -1, .nan, .infinity, 1e9] as [TimeInterval] {
                #expect(throws: ImageSourceError.self) { try HTTPImageSource(baseURL: base, timeout: timeout) }
            }
            #expect(throws: ImageSourceError.unavailable("the largest HTTP answer must be at least 1 byte, not 0")) {
                try HTTPImageSource(baseURL: base, maximumBodySize: 0)
            }
            #expect(ByteCountText.bytes(10 << 30) == "10 GiB" && ByteCountText.bytes(1536) == "1.5 KiB")
        }
    }
}
