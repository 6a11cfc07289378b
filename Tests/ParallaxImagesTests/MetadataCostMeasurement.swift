import Foundation
import Testing
@testable import ParallaxImages

/// What a photo's header and capture date cost: the median over the files
/// of `PARALLAX_MEASURE_METADATA` (a folder; cycled to 1000 reads), printed,
/// not asserted (tests never depend on the machine's speed). Run in a
/// release build: `PARALLAX_MEASURE_METADATA=DIR swift test -c release
/// -Xswiftc -enable-testing --filter MetadataCostMeasurement`.
@Suite("Metadata cost", .enabled(if: ProcessInfo.processInfo.environment["PARALLAX_MEASURE_METADATA"] != nil))
struct MetadataCostMeasurement {
    @Test func headerAndDateOfAThousandFiles() throws {
        let folder = URL(fileURLWithPath: ProcessInfo.processInfo.environment["PARALLAX_MEASURE_METADATA"]!)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().filter { !$0.hasPrefix(".") }
        let files = try names.map { try Data(contentsOf: folder.appendingPathComponent($0)) }
        let clock = ContinuousClock()
        func nanoseconds(_ duration: Duration) -> Double { Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9 }
        // In memory: the first 64 KB in hand, and the ranges the date reader asks for cut from the file.
        var parse: [Double] = [], extraReads = 0
        var byFormat: [String: [Double]] = [:]
        for index in 0..<1000 {
            let file = files[index % files.count]
            let first = file.prefix(64 << 10)
            let elapsed = clock.measure {
                _ = try? ImageHeader.read(from: first)
                guard let format = ImageFormat(sniffing: first) else { return }
                var reader = CaptureDateReader(format: format, firstBytes: first, fileLength: file.count)
                for _ in 0...CaptureDateReader.maximumReads {
                    guard case .needsBytes(let range) = reader.read() else { break }
                    extraReads += 1
                    let start = min(range.lowerBound, file.count), end = min(range.upperBound, file.count)
                    reader.add(file.subdata(in: start..<end), at: range.lowerBound)
                }
            }
            parse.append(nanoseconds(elapsed))
            byFormat[(names[index % files.count] as NSString).pathExtension, default: []].append(nanoseconds(elapsed))
        }
        // From the disk (warm page cache): the folder source's header read and its date read, each opening the file.
        var disk: [Double] = []
        for index in 0..<1000 {
            let name = names[index % names.count]
            let path = Array(folder.appendingPathComponent(name).path.utf8CString)
            let elapsed = clock.measure {
                _ = FolderImageSource.readHeader(at: path, id: ImageID(name))
                _ = FolderImageSource.readCaptureDate(at: path, id: ImageID(name))
            }
            disk.append(nanoseconds(elapsed))
        }
        // The same from one opening of each file.
        var once: [Double] = []
        for index in 0..<1000 {
            let name = names[index % names.count]
            let path = Array(folder.appendingPathComponent(name).path.utf8CString)
            once.append(nanoseconds(clock.measure { _ = FolderImageSource.readHeaderAndCaptureDate(at: path, id: ImageID(name)) }))
        }
        func summary(_ values: [Double]) -> String {
            let sorted = values.sorted()
            return String(format: "median %.1f µs, p90 %.1f µs, max %.1f µs", sorted[sorted.count / 2] / 1000, sorted[sorted.count * 9 / 10] / 1000, sorted.last! / 1000)
        }
        for (format, values) in byFormat.sorted(by: { $0.key < $1.key }) { print("metadata cost, parse, \(format): \(summary(values))") }
        print("metadata cost over \(files.count) files cycled to 1000: parse \(summary(parse)) (\(extraReads) extra ranges); with file reads \(summary(disk)); one opening \(summary(once))")
    }
}
