#if os(Linux)
import Foundation
import ParallaxImages

/// The decode paths the benchmark compares.
enum DecoderPath: String, Sendable, CaseIterable {
    /// `CodecImageDecoder()`: DCT-scaled JPEG decode, progressive scans cut short.
    case parallaxKit
    /// `CodecImageDecoder(options: .reference)`: full decode of every scan, then resize.
    case reference
    /// The fast path with smooth ("fancy") chroma upsampling, measured in
    /// process only: the figures behind leaving it off by default.
    case smoothChroma

    var decoder: CodecImageDecoder {
        switch self {
        case .parallaxKit: return CodecImageDecoder()
        case .reference: return CodecImageDecoder(options: .reference)
        case .smoothChroma: return CodecImageDecoder(options: DecodingOptions(usesSmoothUpsampling: true))
        }
    }

    /// The hidden subcommand that runs ``ChildWorkload`` with this path.
    var childSubcommand: String {
        switch self {
        case .parallaxKit: return "--child"
        case .reference: return "--child-reference"
        case .smoothChroma: return "--child-smooth-chroma"
        }
    }
}

/// The work of one measured child process (`--child MODE FILE…` or
/// `--child-reference MODE FILE…`): read each file and make its thumbnail,
/// once, as `vipsthumbnail` does for the files it is given. The
/// thumbnails are dropped (vips writes its own to disk); nothing is printed
/// unless a file fails.
enum ChildWorkload {
    static func run(path: DecoderPath, arguments: [String]) -> Int32 {
        guard let modeName = arguments.first, let mode = BenchmarkMode(rawValue: modeName) else {
            FileHandle.standardError.write(Data("thumbnail-benchmark: \(path.childSubcommand) needs fit or fill, then files\n".utf8))
            return 2
        }
        let decoder = path.decoder
        let size = mode.size
        var producedBytes = 0
        for file in arguments.dropFirst() {
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: file))
                let thumbnail = try decoder.thumbnail(from: data, size: size)
                producedBytes &+= thumbnail.image.byteCount
            } catch {
                FileHandle.standardError.write(Data("thumbnail-benchmark: \(file): \(error)\n".utf8))
                return 1
            }
        }
        // Uses the result, so no optimiser can decide the work is unobservable.
        if producedBytes == 0, arguments.count > 1 {
            FileHandle.standardError.write(Data("thumbnail-benchmark: no thumbnail produced\n".utf8))
            return 1
        }
        return 0
    }
}
#endif
