import Foundation
import ParallaxImages
@testable import ParallaxLibraryIndex

/// A fresh folder for one test's index files, removed when released.
final class ScratchFolder: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("library-index-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The index file inside, and the library root it is for (a folder beside it).
    var index: URL { url.appendingPathComponent("library.sqlite") }
    var root: URL {
        let root = url.appendingPathComponent("Pictures")
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        return root
    }

    /// The index, writing in small transactions so that writes of a few
    /// thousand rows take several.
    func open() throws -> LibraryIndex { try LibraryIndex(at: index, root: root, rowsPerTransaction: 700) }
}

/// SplitMix64 (Steele, Lea and Flood), so the random inputs are the same on every run.
struct TestGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

enum Fixtures {
    /// A listed photo `n` of a made-up library, in a nested folder.
    static func file(_ n: Int, size: Int64? = nil) -> ListedFile {
        ListedFile(id: ImageID("\(2000 + n % 25)/\(String(format: "%02d", n % 12 + 1))-trip/IMG_\(n).jpg"),
                   stamp: FileStamp(size: size ?? Int64(1_000_000 + n), modificationNanoseconds: 1_600_000_000_000_000_000 + Int64(n) * 1_000_003,
                                    inode: UInt64(10_000 + n)))
    }

    /// Metadata with every field set, varied by `n`.
    static func metadata(_ n: Int) -> PhotoMetadata {
        let orientations = ImageOrientation.allCases, formats = ImageFormat.allCases, sources = CaptureDate.Source.allCases
        return PhotoMetadata(
            header: ImageHeader(format: formats[n % formats.count], storedWidth: 4032 + n, storedHeight: 3024,
                                orientation: orientations[n % orientations.count]),
            captureDate: CaptureDate(date: Date(timeIntervalSince1970: 1_500_000_000.25 + Double(n) * 3600),
                                     hasUTCOffset: n % 2 == 0, source: sources[n % sources.count]))
    }

    /// Writes `bytes` at `url`, replacing whatever is there (and SQLite's companions).
    static func overwrite(_ url: URL, with bytes: [UInt8]) throws {
        for suffix in IndexFile.companions { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        try Data(bytes).write(to: url)
    }
}
