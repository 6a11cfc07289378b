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
    /// The thumbnail's key.
    public var key: ThumbnailKey
    /// The thumbnail: premultiplied RGBA, upright, at the key's size (a
    /// `fit` thumbnail may be shorter on one side).
    public var image: PixelImage
    /// Where it came from, which tells a surface how to show it arriving.
    public var origin: ImageOrigin

    /// The thumbnail `image` for `key`, from `origin`.
    public init(key: ThumbnailKey, image: PixelImage, origin: ImageOrigin) {
        self.key = key
        self.image = image
        self.origin = origin
    }
}

/// Why a thumbnail could not be loaded.
public enum ImageLoadingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The source could not deliver the picture's bytes.
    case source(ImageSourceError)
    /// The bytes could not be made into a thumbnail.
    case decoding(ImageDecodingError)
    /// The request was cancelled, or everything was erased under it.
    case cancelled

    /// The underlying error's sentence, or `cancelled`.
    public var description: String {
        switch self {
        case .source(let error): return error.description
        case .decoding(let error): return error.description
        case .cancelled: return "cancelled"
        }
    }
}
