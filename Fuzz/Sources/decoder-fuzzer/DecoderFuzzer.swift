import Foundation
import ParallaxImages

/// libFuzzer's entry point for the Swift decoder: any bytes, with a
/// thumbnail size and options chosen by the input's last three bytes (the
/// whole input is the file, so a seed corpus of real images works as is:
/// trailing bytes after an image's end are ignored by every format). The decoder must
/// return a thumbnail of exactly that size or throw `ImageDecodingError`;
/// anything else (a trap, a sanitizer report, a hang, a leak) is a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func decoderFuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    guard count >= 3 else { return 0 }
    let width = Int(bytes[count - 3]) % 96 + 1, height = Int(bytes[count - 2]) % 96 + 1, flags = bytes[count - 1]
    let data = Data(bytes: bytes, count: count)
    var options = flags & 1 == 0 ? DecodingOptions() : .reference
    options.requiresCompleteFile = flags & 2 == 0
    // Small budgets, so a hostile header is refused instead of timing out the fuzzer.
    options.maximumDecodeBytes = 64 << 20
    options.maximumPixelCount = 40_000_000
    options.maximumScanCount = 100
    guard let size = try? ThumbnailSize(width: width, height: height, mode: flags & 4 == 0 ? .fill : .fit) else { return 0 }
    do {
        let thumbnail = try CodecImageDecoder(options: options).thumbnail(from: data, size: size)
        let image = thumbnail.image
        if size.mode == .fill, image.width != width || image.height != height { fatalError("wrong size \(image.width)×\(image.height)") }
        if image.width > width || image.height > height || image.pixels.count != image.width * image.height * 4 {
            fatalError("inconsistent thumbnail \(image.width)×\(image.height)")
        }
    } catch {
        _ = error.description
    }
    return 0
}
