import Foundation
import Testing
@testable import ParallaxImages

/// The checks every decoder shares (libjpeg/libpng on Linux, ImageIO on
/// Apple platforms), so both refuse the same files.
@Suite("Checks shared by the decoders")
struct DecodingChecksTests {
    @Test("the end-of-image marker: at the end, before padding, but not 4 KiB back, nor a stuffed FF 00")
    func endOfImage() {
        let body: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDB, 0x12, 0xFF, 0x00, 0x34]
        #expect(ImageFormat.jpegHasEndOfImage(body + [0xFF, 0xD9]))
        #expect(ImageFormat.jpegHasEndOfImage(Data(body + [0xFF, 0xD9] + [UInt8](repeating: 0, count: 100))))
        #expect(!ImageFormat.jpegHasEndOfImage(body))
        #expect(!ImageFormat.jpegHasEndOfImage(body + [0xFF, 0xD9] + [UInt8](repeating: 0x20, count: 4095)))
        #expect(ImageFormat.jpegHasEndOfImage(body + [0xFF, 0xD9] + [UInt8](repeating: 0x20, count: 4094)))
        #expect(!ImageFormat.jpegHasEndOfImage([0xFF, 0x00, 0xD9]))
        #expect(!ImageFormat.jpegHasEndOfImage([UInt8]()))
        #expect(!ImageFormat.jpegHasEndOfImage([0xD9]))
    }

    @Test("the pixel limit: empty sizes are corrupt, large ones and overflows too large")
    func pixelLimit() {
        let options = DecodingOptions(maximumPixelCount: 100)
        #expect(throws: ImageDecodingError.tooLarge(width: 11, height: 10, limit: 100)) {
            try options.checkPixelLimit(width: 11, height: 10)
        }
        #expect(throws: ImageDecodingError.tooLarge(width: Int.max, height: 2, limit: 100)) {
            try options.checkPixelLimit(width: Int.max, height: 2)
        }
        #expect(throws: ImageDecodingError.corrupt("the header gives an empty size 0 × 5")) {
            try options.checkPixelLimit(width: 0, height: 5)
        }
        #expect(throws: Never.self) { try options.checkPixelLimit(width: 10, height: 10) }
    }
}
