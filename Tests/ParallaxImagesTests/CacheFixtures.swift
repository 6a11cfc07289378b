import Foundation
import Testing
@testable import ParallaxImages

func key(_ id: String, _ side: Int = 4, _ mode: ContentMode = .fill) -> ThumbnailKey {
    ThumbnailKey(id: ImageID(id), size: try! ThumbnailSize(width: side, height: side, mode: mode))
}

func solidImage(_ side: Int, _ value: UInt8) -> PixelImage {
    PixelImage(width: side, height: side, filledWith: (value, value, value, 255))
}

func temporaryDirectory() -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("parallaxkit-tests-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
