// The library index's figures at scale (by hand, in a release build):
//
//   swift build --package-path Apps -c release --product library-index-measure
//   Apps/.build/release/library-index-measure [COUNT]
//
// writes COUNT (default 100,000) photos to a new index in a temporary
// folder, as a first launch would (listing, then metadata), and times
// reopening it, reading every record in date order, reconciling with an
// unchanged listing, and SQLite's quick_check. Wall-clock times on a
// shared machine vary with its load; the CPU times beside them less so.
import Foundation
import ParallaxImages
import ParallaxLibraryIndex

let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 100_000 : 100_000
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("library-index-measure-\(getpid())")
defer { if ProcessInfo.processInfo.environment["KEEP_INDEX"] == nil { try? FileManager.default.removeItem(at: folder) } }
let file = folder.appendingPathComponent("library.sqlite"), root = folder

/// The CPU time this process has used, in milliseconds: on a machine other
/// work keeps busy, closer to what the work costs than the time it took.
func cpuMilliseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
}

/// Runs `body` and prints how long it took and the CPU time it used, in milliseconds.
@discardableResult
func timed<T>(_ label: String, _ body: () async throws -> T) async rethrows -> T {
    let clock = ContinuousClock()
    let start = clock.now, cpuStart = cpuMilliseconds()
    let result = try await body()
    let elapsed = start.duration(to: clock.now)
    let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    print(label.padding(toLength: 44, withPad: " ", startingAt: 0),
          String(format: "%9.1f ms  (CPU %7.1f ms)", ms, cpuMilliseconds() - cpuStart))
    return result
}

/// Photo `n` of a made-up library of nested folders, as a walk lists it.
func listedFile(_ n: Int) -> ListedFile {
    let folder = "\(2000 + n % 25)/\(String(format: "%02d", n % 12 + 1))-trip"
    let modified: Int64 = 1_600_000_000_000_000_000 + Int64(n) * 1_000_003
    return ListedFile(id: ImageID("\(folder)/IMG_\(n).jpg"),
                      stamp: FileStamp(size: Int64(2_000_000 + n), modificationNanoseconds: modified, inode: UInt64(1_000 + n)))
}
let listed = (0..<count).map(listedFile)

/// When the first batch arrived.
final class FirstBatch: @unchecked Sendable {
    private let lock = NSLock()
    private var first: ContinuousClock.Instant?
    var time: ContinuousClock.Instant? { lock.withLock { first } }
    func arrived(_ now: ContinuousClock.Instant) { lock.withLock { if first == nil { first = now } } }
}
let header = ImageHeader(format: .jpeg, storedWidth: 4032, storedHeight: 3024, orientation: .right)
let metadata = listed.enumerated().map { n, file -> (file: ListedFile, metadata: PhotoMetadata) in
    // Capture dates in another order than the names, so reading sorts for real.
    let taken = 1_400_000_000 + Double((n &* 7919) % count) * 60
    return (file: file, metadata: PhotoMetadata(header: header, captureDate: CaptureDate(date: Date(timeIntervalSince1970: taken), hasUTCOffset: true, source: .exifOriginal)))
}
print("library index, \(count) photos")
do {
    do {
        let index = try await timed("open (create)") { try LibraryIndex(at: file, root: root) }
        try await timed("upsert \(count) listed files") { try await index.upsert(listed) }
        try await timed("record \(count) metadata") { try await index.recordMetadata(metadata) }
        try await timed("upsert \(count) unchanged (no-op)") { try await index.upsert(listed) }
    }
    let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
    print("file size".padding(toLength: 44, withPad: " ", startingAt: 0), String(format: "%9.1f MB", Double(size) / 1e6))
    let index = try await timed("reopen") { try LibraryIndex(at: file, root: root) }
    var records: [LibraryRecord] = []
    for run in 1...(ProcessInfo.processInfo.environment["RUNS"].flatMap { Int($0) } ?? 5) {
        records = try await timed("records() in date order, run \(run)") { try await index.records() }
    }
    // The first screen's records from the batched read: the time to the first batch.
    let clock = ContinuousClock()
    for run in 1...3 {
        let start = clock.now
        let first = FirstBatch()
        try await index.records(batchSize: 500) { batch in first.arrived(clock.now) }
        let elapsed = (first.time ?? clock.now) - start
        print("first 500 of records(batchSize:), run \(run)".padding(toLength: 44, withPad: " ", startingAt: 0),
              String(format: "%9.2f ms", Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000))
    }
    let reconciliation = await timed("reconcile with an unchanged listing") {
        Reconciliation(indexed: records, listed: listed)
    }
    precondition(reconciliation.isEmpty && records.count == count)
    precondition(records == records.sorted(by: LibraryRecord.precedes))
    try await timed("quick_check") { try await index.verify() }
} catch {
    print("library-index-measure: \(error)")
    exit(1)
}
