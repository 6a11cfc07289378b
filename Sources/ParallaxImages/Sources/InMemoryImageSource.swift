import Foundation

/// Pictures held in memory: synthetic galleries, tests, and the backing
/// store of the simulated server.
public struct InMemoryImageSource: ImageSource {
    /// The pictures in display order, each name with its encoded bytes. A
    /// name listed twice serves its first bytes.
    public let images: [(id: ImageID, data: Data)]
    private let index: [ImageID: Int]

    /// A source serving `images`, in that order.
    public init(images: [(id: ImageID, data: Data)]) {
        self.images = images
        var index: [ImageID: Int] = [:]
        for (position, image) in images.enumerated() where index[image.id] == nil { index[image.id] = position }
        self.index = index
    }

    /// The names, in the order given (repeats included).
    public func imageIDs() async throws(ImageSourceError) -> [ImageID] { images.map(\.id) }

    /// The bytes of the first picture named `id`.
    /// - Throws: ``ImageSourceError/notFound(_:)`` for a name not in the set.
    public func data(for id: ImageID) async throws(ImageSourceError) -> Data {
        guard let position = index[id] else { throw .notFound(id) }
        return images[position].data
    }

    /// Always `true`: the bytes are in memory.
    public func isStoredLocally(_ id: ImageID) async -> Bool { true }

    /// A checksum of the bytes held (computed on each call: these sets are small).
    public func fingerprint(for id: ImageID) async -> String? {
        guard let position = index[id] else { return nil }
        let data = images[position].data
        return "memory \(data.count) " + String(fnv1a64([UInt8](data)), radix: 16)
    }
}
