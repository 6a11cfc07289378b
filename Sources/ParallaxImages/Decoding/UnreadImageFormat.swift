import Foundation

/// Image formats recognised by their first bytes only to be refused by
/// name: a user whose GIF shows as an error tile is told it is a GIF, not
/// that the data is unknown. ``CodecImageDecoder`` throws
/// ``ImageDecodingError/unsupportedVariant(_:)`` with ``description``.
///
/// Why these are not decoded: GIFs are animations more than photos; TIFFs
/// come from scanners and raw converters, and libtiff would add a sixth
/// codec for them; BMP is rare in photo libraries; and JPEG XL, which
/// Debian 12's libjxl 0.7 could decode (docs/decoding.md), would first need
/// an ``ImageFormat`` case of its own.
enum UnreadImageFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case gif, tiff, bmp, jpegXL

    /// The format of `data` if it is one of these, else `nil`.
    ///
    /// Complexity: O(1): at most the first 12 bytes are read.
    init?(sniffing data: Data) {
        let head = Array(data.prefix(12))
        func starts(_ signature: [UInt8]) -> Bool { head.starts(with: signature) }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) {
            self = .gif
        } else if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) {
            self = .tiff
        } else if starts([0x42, 0x4D]), head.count >= 6 {
            self = .bmp
        } else if starts([0xFF, 0x0A]) || starts([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) {
            self = .jpegXL
        } else {
            return nil
        }
    }

    /// The format named for an error message ("a GIF image (this decoder
    /// reads JPEG, PNG, WebP, HEIF and AVIF)").
    var description: String {
        let name: String
        switch self {
        case .gif: name = "a GIF image"
        case .tiff: name = "a TIFF image"
        case .bmp: name = "a BMP image"
        case .jpegXL: name = "a JPEG XL image"
        }
        return name + " (this decoder reads JPEG, PNG, WebP, HEIF and AVIF)"
    }
}
