/// What a cached thumbnail is: which picture, at which size, fitted how.
/// Two cells asking for the same key share one download and one decode.
public struct ThumbnailKey: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The picture.
    public var id: ImageID
    /// The thumbnail's pixel size and content mode.
    public var size: ThumbnailSize

    /// The thumbnail of `id` at `size`.
    public init(id: ImageID, size: ThumbnailSize) {
        self.id = id
        self.size = size
    }

    /// The key as `id @ size`, as in `beach.jpg @ 366×382 fill`.
    public var description: String { "\(id) @ \(size)" }
}
