import Foundation
import ParallaxImages

/// `count` pictures made by cycling through a smaller source's pictures:
/// a thousand-photo gallery from the 49 real photos, for the benchmark.
/// Given the base pictures' previews, it lists them as a photo server's
/// manifest would (each repeated name with its picture's).
package struct RepeatingImageSource: ImageSource {
    package let base: any ImageSource
    package let count: Int
    /// Previews of the base's pictures, listed beside the base's own.
    package let basePreviews: [ImageID: ThumbHash]

    package init(base: any ImageSource, count: Int, basePreviews: [ImageID: ThumbHash] = [:]) {
        self.base = base
        self.count = max(count, 0)
        self.basePreviews = basePreviews
    }

    package func imageIDs() async throws(ImageSourceError) -> [ImageID] {
        let ids = try await base.imageIDs()
        guard !ids.isEmpty else { return [] }
        return (0..<count).map { ImageID("\($0)__\(ids[$0 % ids.count].rawValue)") }
    }

    package func data(for id: ImageID) async throws(ImageSourceError) -> Data {
        guard let original = Self.original(of: id) else { throw .notFound(id) }
        return try await base.data(for: original)
    }

    package func isStoredLocally(_ id: ImageID) async -> Bool {
        guard let original = Self.original(of: id) else { return false }
        return await base.isStoredLocally(original)
    }

    package func fingerprint(for id: ImageID) async -> String? {
        guard let original = Self.original(of: id) else { return nil }
        return await base.fingerprint(for: original)
    }

    /// The base picture's header: its first bytes, not the whole picture.
    package func header(for id: ImageID) async throws(ImageSourceError) -> ImageHeader {
        guard let original = Self.original(of: id) else { throw .notFound(id) }
        return try await base.header(for: original)
    }

    package func headerAndCaptureDate(for id: ImageID) async throws(ImageSourceError) -> (header: ImageHeader, date: CaptureDate?) {
        guard let original = Self.original(of: id) else { throw .notFound(id) }
        return try await base.headerAndCaptureDate(for: original)
    }

    /// The base's listed headers, under every repeated name.
    package func listedHeaders() async -> [ImageID: ImageHeader] {
        await repeated(await base.listedHeaders())
    }

    /// The base's listed previews and ``basePreviews``, under every repeated name.
    package func listedPreviews() async -> [ImageID: ThumbHash] {
        await repeated(await base.listedPreviews().merging(basePreviews) { listed, _ in listed })
    }

    /// What `listed` says of each base picture, under every name that repeats it.
    private func repeated<Value: Sendable>(_ listed: [ImageID: Value]) async -> [ImageID: Value] {
        guard !listed.isEmpty, let ids = try? await base.imageIDs(), !ids.isEmpty else { return [:] }
        var values: [ImageID: Value] = [:]
        for index in 0..<count {
            let original = ids[index % ids.count]
            if let value = listed[original] { values[ImageID("\(index)__\(original.rawValue)")] = value }
        }
        return values
    }

    package func embeddedThumbnail(for id: ImageID) async -> EmbeddedThumbnail? {
        guard let original = Self.original(of: id) else { return nil }
        return await base.embeddedThumbnail(for: original)
    }

    package var fingerprintNeedsRequest: Bool { base.fingerprintNeedsRequest }

    package func versionedData(for id: ImageID) async throws(ImageSourceError) -> (data: Data, fingerprint: String?) {
        guard let original = Self.original(of: id) else { throw .notFound(id) }
        return try await base.versionedData(for: original)
    }

    /// The base picture a repeated id shows.
    private static func original(of id: ImageID) -> ImageID? {
        guard let separator = id.rawValue.range(of: "__") else { return nil }
        return ImageID(String(id.rawValue[separator.upperBound...]))
    }
}
