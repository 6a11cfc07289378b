import Foundation
import ParallaxImages

/// `count` pictures made by cycling through a smaller source's pictures:
/// a thousand-photo gallery from the 49 real photos, for the benchmark.
public struct RepeatingImageSource: ImageSource {
    public let base: any ImageSource
    public let count: Int

    public init(base: any ImageSource, count: Int) {
        self.base = base
        self.count = max(count, 0)
    }

    public func imageIDs() async throws(ImageSourceError) -> [ImageID] {
        let ids = try await base.imageIDs()
        guard !ids.isEmpty else { return [] }
        return (0..<count).map { ImageID("\($0)__\(ids[$0 % ids.count].rawValue)") }
    }

    public func data(for id: ImageID) async throws(ImageSourceError) -> Data {
        guard let separator = id.rawValue.range(of: "__") else { throw .notFound(id) }
        return try await base.data(for: ImageID(String(id.rawValue[separator.upperBound...])))
    }

    public func isStoredLocally(_ id: ImageID) async -> Bool { true }
}
