import Foundation

/// The JPEG and PNG files of a folder on this device (local photos), in
/// name order. Everything is stored locally, so surfaces show the "cached"
/// placeholder while these decode.
public struct FolderImageSource: ImageSource {
    /// The folder read.
    public let directory: URL
    /// File name extensions taken as pictures (lower case).
    public static let extensions: Set<String> = ["jpg", "jpeg", "png"]

    public init(directory: URL) {
        self.directory = directory
    }

    /// - Throws: ``ImageSourceError/unavailable(_:)`` with a clear message
    ///   when the folder does not exist or cannot be read.
    public func imageIDs() async throws(ImageSourceError) -> [ImageID] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .unavailable("there is no photo folder at \(directory.path)")
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw .unavailable("the photo folder \(directory.path) cannot be read: \(error.localizedDescription)")
        }
        let pictures = names.filter { name in
            !name.hasPrefix(".") && Self.extensions.contains(URL(fileURLWithPath: name).pathExtension.lowercased())
        }
        return pictures.sorted().map { ImageID($0) }
    }

    public func data(for id: ImageID) async throws(ImageSourceError) -> Data {
        guard !id.rawValue.contains("/"), id.rawValue != "..", !id.rawValue.isEmpty else { throw .notFound(id) }
        let url = directory.appendingPathComponent(id.rawValue)
        // A blocking read, so on the pipeline's file threads rather than Swift's cooperative pool.
        let read = await BlockingWorkQueue.fileIO.run { () -> Result<Data, ImageSourceError> in
            do {
                return .success(try Data(contentsOf: url))
            } catch {
                return .failure(FileManager.default.fileExists(atPath: url.path)
                    ? .transferFailed(id, "unreadable: \(error.localizedDescription)") : .notFound(id))
            }
        }
        switch read {
        case .success(let data): return data
        case .failure(let error): throw error
        }
    }

    public func isStoredLocally(_ id: ImageID) async -> Bool { true }
}

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
}
