import Foundation
import ParallaxImages
import ParallaxImagesHTTP
import ParallaxImagesHTTPTestSupport
import Testing

/// The transport against real nginx (Debian's, started by
/// `scripts/nginx-loopback.sh`, which installs it when missing and root).
///
/// Skipped, with the reason in the test log, when nginx is not installed and
/// cannot be installed: `.enabled(if:)` reports each test as skipped, never
/// as passed.
@Suite("CurlTransport against nginx",
       .enabled("needs nginx: installed by scripts/nginx-loopback.sh (apt-get, as root) when missing") {
           await NginxServer.isAvailable()
       })
struct NginxTransportTests {
    static let limit = 16 << 20

    /// nginx over a fresh folder, a transport, and cleanup whatever happens.
    func withNginx(hugeBytes: Int64? = nil,
                   _ body: (NginxServer, PhotoFolder, CurlTransport) async throws -> Void) async throws {
        let folder = try PhotoFolder(count: 8, hugeBytes: hugeBytes)
        defer { folder.remove() }
        let nginx = try await NginxServer.start(serving: folder.url)
        let transport = CurlTransport()
        do {
            try await body(nginx, folder, transport)
        } catch {
            await transport.shutdown()
            await nginx.stop()
            throw error
        }
        await transport.shutdown()
        await nginx.stop()
    }

    func request(_ nginx: NginxServer, _ path: String, method: HTTPTransportRequest.Method = .get,
                 range: ClosedRange<Int>? = nil, limit: Int = limit, timeout: TimeInterval = 20) -> HTTPTransportRequest {
        HTTPTransportRequest(url: URL(string: path, relativeTo: nginx.baseURL)!.absoluteURL, method: method,
                             byteRange: range, maximumBodySize: limit, timeout: timeout)
    }

    @Test func getReturnsTheWholeFile() async throws {
        try await withNginx { nginx, folder, transport in
            let response = try await transport.send(request(nginx, "photos/photo-3.jpg"))
            #expect(response.status == 200)
            #expect(response.body == (try folder.contents(of: "photo-3.jpg")))
            #expect(response[header: "Content-Length"] == String(response.body.count))
            #expect(response[header: "content-type"] == "image/jpeg")
        }
    }

    @Test func rangedGetReturns206WithTheSlice() async throws {
        try await withNginx { nginx, folder, transport in
            let response = try await transport.send(request(nginx, "photos/photo-2.jpg", range: 1000...66535))
            #expect(response.status == 206)
            #expect(response.body == (try folder.contents(of: "photo-2.jpg"))[1000...66535])
            #expect(response[header: "content-range"]?.hasPrefix("bytes 1000-66535/") == true)
            let entry = try await nginx.entry(for: "/photos/photo-2.jpg")
            #expect(entry.range == "bytes=1000-66535")
            #expect(entry.bodyBytesSent == 65536)
        }
    }

    @Test func headHasAnEmptyBodyAndTheLength() async throws {
        try await withNginx { nginx, folder, transport in
            let response = try await transport.send(request(nginx, "photos/photo-7.jpg", method: .head))
            #expect(response.status == 200)
            #expect(response.body.isEmpty)
            #expect(response[header: "content-length"] == String(try folder.contents(of: "photo-7.jpg").count))
            // A HEAD of a file over the limit is fine: there is no body.
            let small = try await transport.send(request(nginx, "photos/photo-7.jpg", method: .head, limit: 10))
            #expect(small.status == 200 && small.body.isEmpty)
        }
    }

    @Test func answeredConnectionsArePooled() async throws {
        try await withNginx { nginx, _, transport in
            for index in 0..<3 {
                let response = try await transport.send(request(nginx, "photos/photo-\(index).jpg?case=pool"))
                #expect(response.status == 200)
            }
            var connections: [Int] = []
            for index in 0..<3 {
                connections.append(try await nginx.entry(for: "/photos/photo-\(index).jpg?case=pool").connection)
            }
            #expect(Set(connections).count == 1, "one connection for three requests, one after another: \(connections)")
        }
    }

    /// https to a port that speaks plain HTTP: nginx answers the
    /// ClientHello with a 400 in clear text, which no TLS handshake survives.
    @Test func tlsFailureIsDescribed() async throws {
        try await withNginx { nginx, _, transport in
            let url = URL(string: "https://127.0.0.1:\(nginx.port)/photos/photo-0.jpg")!
            let result = await outcome(of: transport, HTTPTransportRequest(url: url, maximumBodySize: 1 << 20, timeout: 20))
            guard case .failure(.failed(let text)) = result else {
                Issue.record("expected .failed, got \(result)")
                return
            }
            print("https to plain HTTP: \(text)")
            #expect(text.hasPrefix("TLS handshake with 127.0.0.1 failed"), "\(text)")
        }
    }

    @Test func notFoundIsAnAnswer() async throws {
        try await withNginx { nginx, _, transport in
            let response = try await transport.send(request(nginx, "photos/missing.jpg"))
            #expect(response.status == 404)
        }
    }

    @Test func redirectIsReturnedNotFollowed() async throws {
        try await withNginx { nginx, _, transport in
            // nginx answers a folder without its slash with a 301 to it.
            let response = try await transport.send(request(nginx, "photos/album"))
            #expect(response.status == 301)
            #expect(response[header: "location"]?.hasSuffix("/photos/album/") == true)
            _ = try await nginx.entry(for: "/photos/album")
            let entries = nginx.logEntries()
            #expect(!entries.contains { $0.uri == "/photos/album/" }, "the redirect was followed: \(entries)")
        }
    }

    @Test func autoindexesAsJSONAndXML() async throws {
        try await withNginx { nginx, folder, transport in
            let json = try await transport.send(request(nginx, "json/"))
            #expect(json.status == 200)
            let listed = try JSONSerialization.jsonObject(with: json.body) as? [[String: Any]]
            let files = listed?.filter { $0["type"] as? String == "file" }.compactMap { $0["name"] as? String }
            #expect(Set(files ?? []) == Set(folder.names))
            #expect(listed?.contains { $0["name"] as? String == "album" && $0["type"] as? String == "directory" } == true)
            let xml = try await transport.send(request(nginx, "xml/"))
            #expect(xml.status == 200)
            #expect(String(decoding: xml.body, as: UTF8.self).contains("<file "))
        }
    }

    /// A 300 MB file refused by its Content-Length: nginx sends only what the
    /// socket buffers hold before the connection is closed.
    @Test func declaredLengthOverTheLimitIsRefusedAndTheConnectionClosed() async throws {
        let huge: Int64 = 300 << 20
        try await withNginx(hugeBytes: huge) { nginx, _, transport in
            let uri = "/photos/huge.jpg?case=refused"
            await #expect(throws: HTTPTransportError.tooLarge(declared: huge, limit: Self.limit)) {
                try await transport.send(request(nginx, String(uri.dropFirst())))
            }
            let entry = try await nginx.entry(for: uri)
            print("nginx after a refusal by Content-Length: \(entry)")
            // Loopback socket buffers take a few MB before nginx blocks; a
            // drained connection would show 300 MB.
            #expect(entry.bytesSent <= Int64(Self.limit + (8 << 20)), "\(entry)")
        }
    }

    /// Cancelling in the middle of a (rate-limited) 300 MB body: `.cancelled`
    /// at once, and nginx sees the connection close.
    @Test func cancellationClosesTheConnectionPromptly() async throws {
        let huge: Int64 = 300 << 20
        try await withNginx(hugeBytes: huge) { nginx, _, transport in
            let uri = "/slow/huge.jpg?case=cancel"
            let task = Task { await outcome(of: transport, request(nginx, String(uri.dropFirst()), limit: 400 << 20, timeout: 120)) }
            // The body trickles at 4 MB/s: after half a second it is under way
            // and has more than a minute to go.
            try await Task.sleep(for: .milliseconds(500))
            let cancelledAt = Date()
            let clock = ContinuousClock()
            let start = clock.now
            task.cancel()
            let result = await task.value
            let answered = clock.now - start
            #expect(throws: HTTPTransportError.cancelled) { try result.get() }
            print("cancellation answered after \(answered)")
            let entry = try await nginx.entry(for: uri)
            let closedAfter = entry.endedAt - cancelledAt.timeIntervalSince1970
            print("nginx after a cancel mid-body: \(entry); nginx ended the request \(closedAfter) s after the cancel")
            // Closed, not drained: at 4 MB/s the whole file would take 75 s more. How soon nginx noticed
            // is the benchmark's figure (scripts/bench-transport.sh), not a test's bound.
            #expect(entry.bytesSent < huge, "\(entry)")
        }
    }

    /// The source's situation: three endless answers beside eight photos,
    /// each `send` cancelled at its deadline as `HTTPImageSource` does (3 s
    /// for the endless ones; 30 s for the photos, which only turns a photo
    /// that never arrives into a failure: on a loaded machine they take
    /// longer, and `transport-measure` times them).
    @Test func endlessAnswersDoNotHoldUpPhotosOrMemory() async throws {
        try await withNginx { nginx, folder, transport in
            let hostile = try HostileServer(["/endless": .endless(), "/drip": .endless(bytesPerSecond: 1 << 20)])
            defer { hostile.stop() }
            let before = ProcessMemory.resident
            #expect(before > 0, "VmRSS not read from /proc/self/status")
            let sampler = ResidentPeak()
            let deadline = Duration.seconds(3)
            let photoDeadline = Duration.seconds(30)
            var requests: [(name: String, request: HTTPTransportRequest)] = []
            for index in 0..<3 {
                let path = index == 0 ? "drip" : "endless"
                requests.append((path, HTTPTransportRequest(url: hostile.baseURL.appendingPathComponent(path), maximumBodySize: Self.limit, timeout: 3)))
            }
            for name in folder.names {
                requests.append((name, request(nginx, "photos/\(name)", timeout: 30)))
            }
            let outcomes = await withTaskGroup(of: (String, Result<HTTPTransportResponse, HTTPTransportError>, Duration).self) { group in
                for (name, request) in requests {
                    let limit = name.hasSuffix(".jpg") ? photoDeadline : deadline
                    group.addTask {
                        let (result, took) = await sendWithDeadline(transport, request, deadline: limit)
                        return (name, result, took)
                    }
                }
                var outcomes: [(String, Result<HTTPTransportResponse, HTTPTransportError>, Duration)] = []
                for await outcome in group { outcomes.append(outcome) }
                return outcomes
            }
            // Other tests run beside this one, so this bounds them too.
            let growth = sampler.stop() - before
            for (name, result, took) in outcomes {
                switch name {
                case "endless", "drip":
                    #expect(throws: HTTPTransportError.self, "\(name) took \(took)") { try result.get() }
                    if case .failure(let error) = result {
                        #expect(error == .cancelled || error == .tooLarge(declared: nil, limit: Self.limit), "\(name): \(error)")
                    }
                default:
                    #expect((try? result.get())?.status == 200, "\(name): \(result) after \(took)")
                }
            }
            print("3 endless + 8 photos: resident memory peaked \(growth >> 20) MiB above its start; " +
                  outcomes.map { "\($0.0) \($0.2)" }.joined(separator: ", "))
            #expect(growth <= 150 << 20, "resident memory peaked \(growth >> 20) MiB above its start")
            // The endless connections are closed, not drained.
            let closed = await hostile.closedConnections(to: "/endless", count: 2)
            #expect(closed.allSatisfy { $0.bytesSent < 64 << 20 }, "\(closed)")
            _ = await hostile.closedConnections(to: "/drip", count: 1)
        }
    }
}

/// The transport against servers that misbehave (`HostileServer`).
@Suite("CurlTransport against hostile servers", .timeLimit(.minutes(5)))
struct HostileTransportTests {
    func request(_ server: HostileServer, _ path: String, limit: Int = 1 << 20, timeout: TimeInterval = 20) -> HTTPTransportRequest {
        HTTPTransportRequest(url: server.baseURL.appendingPathComponent(path), maximumBodySize: limit, timeout: timeout)
    }

    @Test func endlessBodyIsCutAtTheLimit() async throws {
        let server = try HostileServer(["/endless": .endless()])
        defer { server.stop() }
        try await CurlTransport.withTransport { transport in
            await #expect(throws: HTTPTransportError.tooLarge(declared: nil, limit: 1 << 20)) {
                try await transport.send(request(server, "endless"))
            }
        }
        let closed = await server.closedConnections(to: "/endless", count: 1)
        print("endless body cut at 1 MiB: the server sent \(closed[0].bytesSent) bytes")
        #expect(closed[0].bytesSent < 16 << 20)
    }

    @Test func hugeDeclaredLengthIsRefusedFromTheHead() async throws {
        let server = try HostileServer(["/huge": .claims(bytes: 10 << 30)])
        defer { server.stop() }
        try await CurlTransport.withTransport { transport in
            await #expect(throws: HTTPTransportError.tooLarge(declared: 10 << 30, limit: 1 << 20)) {
                try await transport.send(request(server, "huge"))
            }
        }
        let closed = await server.closedConnections(to: "/huge", count: 1)
        #expect(closed[0].bytesSent < 16 << 20)
    }

    @Test func answerCutShortSaysSo() async throws {
        let body = Data(repeating: 7, count: 100_000)
        let server = try HostileServer(["/short": .cutShort(body: body, sent: 30_000)])
        defer { server.stop() }
        try await CurlTransport.withTransport { transport in
            let result = await outcome(of: transport, request(server, "short"))
            guard case .failure(.cutShort(let received, let expected)) = result else {
                Issue.record("expected .cutShort, got \(result)")
                return
            }
            #expect(expected == 100_000)
            #expect(received <= 30_000)
        }
    }

    @Test func redirectFromAHostileServerIsNotFollowed() async throws {
        let server = try HostileServer(["/loop": .redirect(status: 302, location: "/loop")])
        defer { server.stop() }
        try await CurlTransport.withTransport { transport in
            let response = try await transport.send(request(server, "loop"))
            #expect(response.status == 302)
            #expect(response[header: "location"] == "/loop")
        }
        #expect(server.connections(to: "/loop").count == 1)
    }

    /// A 304 has no body whatever its Content-Length says: an answer, not
    /// one cut short.
    @Test func notModifiedIsAnAnswerWithoutABody() async throws {
        let server = try HostileServer(["/cached": .notModified(claims: 5_000)])
        defer { server.stop() }
        try await CurlTransport.withTransport { transport in
            let response = try await transport.send(request(server, "cached"))
            #expect(response.status == 304 && response.body.isEmpty)
            #expect(response[header: "content-length"] == "5000")
        }
    }

    @Test func refusedConnectionIsDescribedAndFast() async throws {
        // A port that was free a moment ago: bind, note, close.
        let server = try HostileServer([:])
        let port = server.port
        server.stop()
        let clock = ContinuousClock()
        let start = clock.now
        // A transport that retried refused connections would take the whole
        // connect timeout (60 s here) to say so.
        try await CurlTransport.withTransport(configuration: .init(connectTimeout: .seconds(60))) { transport in
            let url = URL(string: "http://127.0.0.1:\(port)/photo.jpg")!
            await #expect(throws: HTTPTransportError.failed("could not connect to 127.0.0.1:\(port) (connection refused)")) {
                try await transport.send(HTTPTransportRequest(url: url, maximumBodySize: 1 << 20, timeout: 20))
            }
        }
        print("a refused connection failed after \(clock.now - start)")
    }

    @Test func unknownHostIsDescribed() async throws {
        try await CurlTransport.withTransport { transport in
            let url = URL(string: "http://no-such-host.invalid/photo.jpg")!
            let result = await outcome(of: transport, HTTPTransportRequest(url: url, maximumBodySize: 1 << 20, timeout: 20))
            guard case .failure(.failed(let text)) = result else {
                Issue.record("expected .failed, got \(result)")
                return
            }
            print("an unknown host: \(text)")
            #expect(text.contains("no-such-host.invalid"), "\(text)")
            #expect(text.hasPrefix("host not found") || text.hasPrefix("could not connect"), "\(text)")
        }
    }

    @Test func backstopEndsARequestNobodyCancelled() async throws {
        let server = try HostileServer(["/silent": .silent])
        defer { server.stop() }
        let clock = ContinuousClock()
        let start = clock.now
        try await CurlTransport.withTransport(configuration: .init(backstopSlack: .milliseconds(300))) { transport in
            let result = await outcome(of: transport, request(server, "silent", timeout: 0.3))
            guard case .failure(.failed(let text)) = result else {
                Issue.record("expected .failed, got \(result)")
                return
            }
            #expect(text.contains("backstop"), "\(text)")
        }
        let took = clock.now - start
        // Never before the request's timeout and the slack; how soon after is not the test's to bound.
        #expect(took >= .milliseconds(600), "the backstop fired after \(took)")
        _ = await server.closedConnections(to: "/silent", count: 1)
    }

    /// More requests waiting on a silent server than the cooperative pool
    /// has threads: if any of them blocked a thread, the sentinel task could
    /// not run.
    @Test func waitingRequestsDoNotBlockTheCooperativePool() async throws {
        let server = try HostileServer(["/silent": .silent])
        defer { server.stop() }
        let count = ProcessInfo.processInfo.activeProcessorCount * 3 + 2
        let transport = CurlTransport(configuration: .init(maximumConnectionsPerHost: count))
        let tasks = (0..<count).map { _ in
            Task { await outcome(of: transport, request(server, "silent", timeout: 120)) }
        }
        // Every request is at the server, so every send is suspended waiting.
        await server.requests(to: "/silent", count: count)
        let sentinelRan = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let once = Once()
            // The sentinel runs on the cooperative pool ...
            Task.detached { if once.claim() { continuation.resume(returning: true) } }
            // ... and a Dispatch timer, off the pool, turns a blocked pool
            // into a failure instead of a hang.
            DispatchQueue.global().asyncAfter(deadline: .now() + 30) {
                if once.claim() { continuation.resume(returning: false) }
            }
        }
        #expect(sentinelRan, "a task could not run while \(count) requests waited (\(ProcessInfo.processInfo.activeProcessorCount) cores)")
        for task in tasks { task.cancel() }
        for task in tasks {
            let result = await task.value
            #expect(throws: HTTPTransportError.cancelled) { try result.get() }
        }
        let closed = await server.closedConnections(to: "/silent", count: count)
        #expect(closed.count == count)
        await transport.shutdown()
    }

    /// A gallery asks for 16 photos at once; the default transport opens
    /// six connections to the host, as browsers do, and the rest wait for
    /// one. More at once overflows a small server's listen queue
    /// (`python3 -m http.server` listens with a backlog of 5), and each
    /// dropped connect waits out the kernel's one-second SYN retransmit.
    @Test func theDefaultOpensSixConnectionsToAHost() async throws {
        let server = try HostileServer(["/silent": .silent])
        defer { server.stop() }
        let transport = CurlTransport()
        #expect(transport.configuration.maximumConnectionsPerHost == 6)
        let tasks = (0..<16).map { _ in
            Task { await outcome(of: transport, request(server, "silent", timeout: 120)) }
        }
        await server.requests(to: "/silent", count: 6)
        // The other ten are in libcurl's queue: a cancel ends them there.
        for task in tasks { task.cancel() }
        for task in tasks {
            let result = await task.value
            #expect(throws: HTTPTransportError.cancelled) { try result.get() }
        }
        let closed = await server.closedConnections(to: "/silent", count: 6)
        #expect(closed.count == 6)
        #expect(server.connections.count == 6, "\(server.connections.count) connections were opened")
        await transport.shutdown()
    }
}

/// The transport's own life: requests cancelled before they start, and
/// shutting down with requests waiting.
@Suite("CurlTransport's life", .timeLimit(.minutes(5)))
struct CurlTransportLifeTests {
    @Test func aRequestCancelledBeforeItIsSentNeverReachesTheServer() async throws {
        let server = try HostileServer(["/photo": .body(Data("photo".utf8)), "/after": .body(Data("after".utf8))])
        defer { server.stop() }
        try await CurlTransport.withTransport { transport in
            let cancelled = await Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return await outcome(of: transport, HTTPTransportRequest(url: server.baseURL.appendingPathComponent("photo"),
                                                                       maximumBodySize: 1 << 20, timeout: 20))
            }.value
            #expect(throws: HTTPTransportError.cancelled) { try cancelled.get() }
            // A request sent after it reaches the server, and the cancelled one never did.
            let after = try await transport.send(HTTPTransportRequest(url: server.baseURL.appendingPathComponent("after"),
                                                                      maximumBodySize: 1 << 20, timeout: 20))
            #expect(after.body == Data("after".utf8))
        }
        #expect(server.connections(to: "/photo").isEmpty)
    }

    @Test func shutdownEndsTheRequestsStillWaitingAndRefusesNewOnes() async throws {
        let server = try HostileServer(["/silent": .silent])
        defer { server.stop() }
        let transport = CurlTransport()
        let request = HTTPTransportRequest(url: server.baseURL.appendingPathComponent("silent"), maximumBodySize: 1 << 20, timeout: 120)
        let waiting = (0..<3).map { _ in Task { await outcome(of: transport, request) } }
        await server.requests(to: "/silent", count: 3)
        await transport.shutdown()
        for task in waiting {
            let result = await task.value
            #expect(throws: HTTPTransportError.cancelled) { try result.get() }
        }
        #expect(await server.closedConnections(to: "/silent", count: 3).count == 3)
        await #expect(throws: HTTPTransportError.failed("the transport has been shut down")) {
            try await transport.send(request)
        }
    }
}

/// Claimed once, from any thread.
final class Once: @unchecked Sendable {
    private let lock = NSLock()
    private var claimed = false

    func claim() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if claimed { return false }
        claimed = true
        return true
    }
}
