import Foundation
import ParallaxCore
import Testing
@testable import ParallaxImages

#if canImport(CParallaxCodecs)
@Suite("The platform decoder")
struct PlatformDecoderTests {
    @Test("on Linux the loader's default decoder is the libjpeg/libpng one, and it decodes")
    func linuxDefault() async throws {
        #expect(PlatformImageDecoder.self == CodecImageDecoder.self)
        let photo = try #require(PixelImage(width: 16, height: 8, filledWith: (10, 200, 30, 255)).pngData())
        let loader = ImageLoader(source: InMemoryImageSource(images: [(ImageID("a.png"), photo)]))
        let loaded = try await loader.image(for: ThumbnailKey(id: "a.png", size: try ThumbnailSize(width: 4, height: 2)))
        let pixel = try #require(loaded.image.pixel(x: 1, y: 1))
        #expect(loaded.image.width == 4 && loaded.image.height == 2)
        #expect((pixel.r, pixel.g, pixel.b) == (10, 200, 30))
    }
}
#else
@Suite("The platform decoder")
struct PlatformDecoderTests {
    @Test("on Apple platforms the loader's default decoder is ImageIO's")
    func appleDefault() {
        #expect(PlatformImageDecoder.self == ImageIODecoder.self)
    }
}
#endif
