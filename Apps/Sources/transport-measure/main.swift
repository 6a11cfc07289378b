// transport-measure: what CurlTransport does on the wire, against
// real nginx (scripts/nginx-loopback.sh) and a hostile loopback server.
// Build it in release mode and run it by hand (scripts/measure-transport.sh);
// it is not part of `make test`. Prints a Markdown report on standard output.
//
//   1. 3 endless answers + 8 photos at once, each `send` cancelled at a 10 s
//      deadline as HTTPImageSource does: each deadline's real duration, the
//      photos' times, peak resident memory. Twice: endless at full speed
//      (cut at the 64 MiB limit) and dripping at 1 MiB/s (cut by the deadline).
//   2. A 300 MB file refused by its Content-Length: time to refuse, then
//      nginx's $bytes_sent and when nginx ended the request.
//   3. A 300 MB body cancelled in the middle: the same figures.
import Foundation
import ParallaxImages
import ParallaxImagesHTTP
import ParallaxImagesHTTPTestSupport

// HTTPImageSource's default maximumBodySize, or MEASURE_LIMIT_MIB.
let limit = (Int(ProcessInfo.processInfo.environment["MEASURE_LIMIT_MIB"] ?? "") ?? 64) << 20
let deadlineSeconds = Double(ProcessInfo.processInfo.environment["MEASURE_DEADLINE"] ?? "") ?? 10
let clock = ContinuousClock()

func seconds(_ duration: Duration) -> Double {
    let (whole, atto) = duration.components
    return Double(whole) + Double(atto) / 1e18
}

func format(_ value: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", value) }

func mib(_ bytes: Int64) -> String { String(format: "%.1f MiB", Double(bytes) / 1_048_576) }

func outcomeText(_ result: Result<HTTPTransportResponse, HTTPTransportError>) -> String {
    switch result {
    case .success(let response): return "\(response.status), \(response.body.count) bytes"
    case .failure(let error): return "\(error)"
    }
}

func endlessBesidePhotos(transport: CurlTransport, nginx: NginxServer, folder: PhotoFolder,
                         endless: HostileServer.Behaviour, label: String) async throws -> String {
    let hostile = try HostileServer(["/endless": endless])
    defer { hostile.stop() }
    let deadline = Duration.seconds(deadlineSeconds)
    var requests: [(String, HTTPTransportRequest)] = []
    for index in 0..<3 {
        requests.append(("endless \(index + 1)", HTTPTransportRequest(url: hostile.baseURL.appendingPathComponent("endless"),
                                                                        maximumBodySize: limit, timeout: deadlineSeconds)))
    }
    for name in folder.names {
        requests.append((name, HTTPTransportRequest(url: nginx.baseURL.appendingPathComponent("photos/\(name)"),
                                                    maximumBodySize: limit, timeout: deadlineSeconds)))
    }
    let residentBefore = ProcessMemory.resident
    let sampler = ResidentPeak()
    let outcomes = await withTaskGroup(of: (String, Result<HTTPTransportResponse, HTTPTransportError>, Duration).self) { group in
        for (name, request) in requests {
            group.addTask {
                let (result, took) = await sendWithDeadline(transport, request, deadline: deadline)
                return (name, result, took)
            }
        }
        var outcomes: [(String, Result<HTTPTransportResponse, HTTPTransportError>, Duration)] = []
        for await outcome in group { outcomes.append(outcome) }
        return outcomes.sorted { $0.0 < $1.0 }
    }
    let peak = sampler.stop()
    let closed = await hostile.closedConnections(to: "/endless", count: 3)
    var text = "### 3 endless (\(label)) + 8 photos, \(format(deadlineSeconds, 0)) s deadline, \(limit >> 20) MiB limit\n\n"
    text += "| request | outcome | time (s) | vs deadline |\n|---|---|---:|---:|\n"
    for (name, result, took) in outcomes {
        let ratio = seconds(took) / deadlineSeconds
        text += "| \(name) | \(outcomeText(result)) | \(format(seconds(took))) | \(format(ratio * 100, 1)) % |\n"
    }
    let sentByEndless = closed.map { mib($0.bytesSent) }.joined(separator: ", ")
    let closeLag = closed.compactMap { connection in connection.closedAt.map { seconds($0 - connection.requestAt) } }
    text += "\nServer side: the endless connections were closed after \(closeLag.map { format($0) }.joined(separator: ", ")) s"
    text += " having sent \(sentByEndless).\n"
    text += "Resident memory: \(mib(residentBefore)) before, peak \(mib(peak)) during (read every 5 ms), \(mib(ProcessMemory.resident)) after.\n\n"
    return text
}

func refusals(transport: CurlTransport, nginx: NginxServer, runs: Int) async throws -> String {
    var text = "### 300 MB file refused by Content-Length (limit \(limit >> 20) MiB), \(runs) runs\n\n"
    text += "| run | client: send to refusal (ms) | nginx $bytes_sent | nginx $request_time (s) | nginx ended after the refusal (ms) |\n|---|---:|---:|---:|---:|\n"
    for run in 1...runs {
        let uri = "/photos/huge.jpg?measure=refuse-\(run)"
        let request = HTTPTransportRequest(url: URL(string: "\(nginx.baseURL.absoluteString)\(uri.dropFirst())")!, maximumBodySize: limit, timeout: 30)
        let start = clock.now
        let result = await sendWithDeadline(transport, request, deadline: .seconds(60)).0
        let refusedAt = Date().timeIntervalSince1970
        let took = clock.now - start
        guard case .failure(.tooLarge) = result else { throw MeasureError("expected a refusal, got \(outcomeText(result))") }
        let entry = try await nginx.entry(for: uri)
        text += "| \(run) | \(format(seconds(took) * 1000, 1)) | \(entry.bytesSent) (\(mib(entry.bytesSent))) | \(format(entry.requestTime)) | \(format((entry.endedAt - refusedAt) * 1000, 0)) |\n"
    }
    return text + "\n"
}

func cancellations(transport: CurlTransport, nginx: NginxServer, location: String, after: Duration, runs: Int) async throws -> String {
    var text = "### 300 MB body (`/\(location)/`) cancelled \(Int(seconds(after) * 1000)) ms after the request, \(runs) runs\n\n"
    text += "| run | client: cancel to `.cancelled` (ms) | nginx $bytes_sent | nginx $request_time (s) | nginx ended after the cancel (ms) |\n|---|---:|---:|---:|---:|\n"
    for run in 1...runs {
        let uri = "/\(location)/huge.jpg?measure=cancel-\(run)"
        let request = HTTPTransportRequest(url: URL(string: "\(nginx.baseURL.absoluteString)\(uri.dropFirst())")!, maximumBodySize: 400 << 20, timeout: 120)
        let task = Task { await outcome(of: transport, request) }
        try await Task.sleep(for: after)
        let cancelledAt = Date().timeIntervalSince1970
        let start = clock.now
        task.cancel()
        let result = await task.value
        let took = clock.now - start
        guard case .failure(.cancelled) = result else { throw MeasureError("expected .cancelled, got \(outcomeText(result))") }
        let entry = try await nginx.entry(for: uri)
        text += "| \(run) | \(format(seconds(took) * 1000, 2)) | \(entry.bytesSent) (\(mib(entry.bytesSent))) | \(format(entry.requestTime)) | \(format((entry.endedAt - cancelledAt) * 1000, 0)) |\n"
    }
    return text + "\n"
}

struct MeasureError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

let folder = try PhotoFolder(count: 8, hugeBytes: 300 << 20)
defer { folder.remove() }
let nginx: NginxServer
do {
    nginx = try await NginxServer.start(serving: folder.url)
} catch {
    FileHandle.standardError.write(Data("transport-measure: \(error)\n".utf8))
    exit(3)
}
let transport = CurlTransport()
var report = "## CurlTransport on the wire\n\n"
report += "nginx \(nginx.baseURL.absoluteString) over 8 photos (100 KiB to 1 MiB) and a sparse 300 MB file; resident memory at start \(mib(ProcessMemory.resident)).\n\n"
do {
    report += try await endlessBesidePhotos(transport: transport, nginx: nginx, folder: folder,
                                            endless: .endless(bytesPerSecond: 1 << 20), label: "dripping at 1 MiB/s")
    report += try await endlessBesidePhotos(transport: transport, nginx: nginx, folder: folder,
                                            endless: .endless(), label: "at full speed")
    report += try await refusals(transport: transport, nginx: nginx, runs: 5)
    report += try await cancellations(transport: transport, nginx: nginx, location: "photos", after: .milliseconds(50), runs: 5)
    report += try await cancellations(transport: transport, nginx: nginx, location: "slow", after: .milliseconds(500), runs: 3)
    report += "Peak resident memory of the whole run (VmHWM): \(mib(ProcessMemory.peakResident)).\n"
} catch {
    report += "\n**Stopped:** \(error)\n"
}
await transport.shutdown()
await nginx.stop()
print(report)
