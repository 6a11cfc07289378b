import Foundation
#if canImport(CParallaxCodecs)
import CParallaxCodecs
#elseif canImport(ImageIO)
import CoreGraphics
import ImageIO
#endif

/// How ``DiskImageCache`` stores a thumbnail's pixels.
///
/// Chosen by measurement (BENCHMARKS.md, "Disk cache entry formats"): a
/// JPEG at quality 90 takes about a tenth of the raw pixels' bytes, so the
/// default 150 MB cache holds several thousand grid thumbnails instead of
/// a few hundred, and reading one back (a one-to-one decode, no scaling)
/// still takes well under a millisecond, far inside a frame. Thumbnails
/// with any transparency are always stored raw: JPEG has no alpha.
public enum ThumbnailEntryFormat: Sendable, Hashable, CustomStringConvertible {
    /// Premultiplied RGBA as decoded: exact, 4 bytes a pixel.
    case raw
    /// Opaque thumbnails as JPEG at `quality` (1–100); others raw.
    case jpeg(quality: Int)

    /// What ``DiskImageCache`` uses unless told otherwise.
    public static let `default` = ThumbnailEntryFormat.jpeg(quality: 90)

    /// The format's name, as in `JPEG q90`.
    public var description: String {
        switch self {
        case .raw: return "raw RGBA"
        case .jpeg(let quality): return "JPEG q\(quality)"
        }
    }

    /// The code stored in an entry's header for its pixels' encoding.
    enum Encoding: UInt8 {
        case raw = 0
        case jpeg = 1
    }

    /// `image` encoded for storage, and how; raw when this format or this
    /// platform cannot do better, or the picture has transparency.
    func encode(_ image: PixelImage) -> (encoding: Encoding, bytes: [UInt8]) {
        guard case .jpeg(let quality) = self, Self.isOpaque(image),
              let jpeg = Self.jpegBytes(image, quality: min(max(quality, 1), 100)) else {
            return (.raw, image.pixels)
        }
        return (.jpeg, jpeg)
    }

    /// The pixels of a stored payload, which must come out `width × height`.
    static func decode(_ payload: [UInt8], encoding: Encoding, width: Int, height: Int) -> PixelImage? {
        switch encoding {
        case .raw:
            guard payload.count == width * height * 4 else { return nil }
            return PixelImage(width: width, height: height, pixels: payload)
        case .jpeg:
            // The thumbnail path at exactly the stored size (`.fit` into its own box: a one-to-one copy, no
            // resampling), with smooth chroma, as the encoder's 4:2:0 chroma asks for.
            guard let size = try? ThumbnailSize(width: width, height: height, mode: .fit),
                  let decoded = try? entryDecoder.thumbnail(from: Data(payload), size: size),
                  decoded.image.width == width, decoded.image.height == height else { return nil }
            return decoded.image
        }
    }

    /// The decoder of JPEG entries. On Linux it has a budget of its own: an
    /// entry is at most a thumbnail, and a cache read on the file threads
    /// must never wait behind the large photo decodes the shared budget
    /// holds back.
    private static let entryDecoder: PlatformImageDecoder = {
        let options = DecodingOptions(usesScaledDecoding: false, usesSmoothUpsampling: true)
        #if canImport(CParallaxCodecs)
        return CodecImageDecoder(options: options, memoryBudget: DecodingMemoryBudget(byteLimit: 1 << 30))
        #else
        return PlatformImageDecoder(options: options)
        #endif
    }()

    private static func isOpaque(_ image: PixelImage) -> Bool {
        image.pixels.withUnsafeBufferPointer { pixels in
            var index = 3
            while index < pixels.count {
                if pixels[index] != 255 { return false }
                index += 4
            }
            return true
        }
    }

    private static func jpegBytes(_ image: PixelImage, quality: Int) -> [UInt8]? {
        #if canImport(CParallaxCodecs)
        var rgb = [UInt8](repeating: 0, count: image.width * image.height * 3)
        image.pixels.withUnsafeBufferPointer { rgba in
            rgb.withUnsafeMutableBufferPointer { rgb in
                for pixel in 0..<(image.width * image.height) {
                    rgb[pixel * 3] = rgba[pixel * 4]
                    rgb[pixel * 3 + 1] = rgba[pixel * 4 + 1]
                    rgb[pixel * 3 + 2] = rgba[pixel * 4 + 2]
                }
            }
        }
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        let status = rgb.withUnsafeBufferPointer {
            pk_jpeg_encode_rgb($0.baseAddress, Int32(image.width), Int32(image.height), Int32(quality), 0, nil, 0, &output, &size)
        }
        guard status == PK_OK, let output else { return nil }
        defer { pk_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
        #elseif canImport(ImageIO)
        guard let cgImage = image.makeCGImage() else { return nil }
        let data = NSMutableData()
        guard let destination = CGImageDestinationCreateWithData(data as CFMutableData, "public.jpeg" as CFString, 1, nil) else {
            return nil
        }
        CGImageDestinationAddImage(destination, cgImage,
                                   [kCGImageDestinationLossyCompressionQuality: Double(quality) / 100] as CFDictionary)
        guard CGImageDestinationFinalize(destination) else { return nil }
        return [UInt8](data as Data)
        #else
        return nil
        #endif
    }
}
