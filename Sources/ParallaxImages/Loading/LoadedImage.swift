/// Where a loaded thumbnail came from, so a surface can pick how to show
/// it arriving (RolfHendriks' UICollectionView-Demo: an illustration while a picture downloads, black
/// while a stored one decodes, then a 0.25 s cross-fade).
public enum ImageOrigin: String, Sendable, Hashable, Codable {
    /// Already decoded, in the memory cache: show it at once.
    case memory
    /// From this device: the thumbnail disk cache, or a source that had it
    /// stored locally.
    case disk
    /// Downloaded.
    case network
}

/// A thumbnail ready to show.
public struct LoadedImage: Sendable, Hashable {
    public var key: ThumbnailKey
    public var image: PixelImage
    public var origin: ImageOrigin

    public init(key: ThumbnailKey, image: PixelImage, origin: ImageOrigin) {
        self.key = key
        self.image = image
        self.origin = origin
    }
}

/// Why a thumbnail could not be loaded.
public enum ImageLoadingError: Error, Sendable, Hashable, CustomStringConvertible {
    case source(ImageSourceError)
    case decoding(ImageDecodingError)
    /// The request was cancelled, or everything was erased under it.
    case cancelled

    public var description: String {
        switch self {
        case .source(let error): return error.description
        case .decoding(let error): return error.description
        case .cancelled: return "cancelled"
        }
    }
}
