import Foundation

/// Pictures held in memory: synthetic galleries, tests, and the backing
/// store of the simulated server.
public struct InMemoryImageSource: ImageSource {
    public let images: [(id: ImageID, data: Data)]
    private let index: [ImageID: Int]

    public init(images: [(id: ImageID, data: Data)]) {
        self.images = images
        var index: [ImageID: Int] = [:]
        for (position, image) in images.enumerated() where index[image.id] == nil { index[image.id] = position }
        self.index = index
    }

    public func imageIDs() async throws(ImageSourceError) -> [ImageID] { images.map(\.id) }

    public func data(for id: ImageID) async throws(ImageSourceError) -> Data {
        guard let position = index[id] else { throw .notFound(id) }
        return images[position].data
    }

    public func isStoredLocally(_ id: ImageID) async -> Bool { true }

    /// A checksum of the bytes held (computed on each call: these sets are small).
    public func fingerprint(for id: ImageID) async -> String? {
        guard let position = index[id] else { return nil }
        let data = images[position].data
        return "memory \(data.count) " + String(fnv1a64([UInt8](data)), radix: 16)
    }
}
