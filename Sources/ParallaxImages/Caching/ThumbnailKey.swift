/// What a cached thumbnail is: which picture, at which size, fitted how.
/// Two cells asking for the same key share one download and one decode.
public struct ThumbnailKey: Sendable, Hashable, Codable, CustomStringConvertible {
    public var id: ImageID
    public var size: ThumbnailSize

    public init(id: ImageID, size: ThumbnailSize) {
        self.id = id
        self.size = size
    }

    public var description: String { "\(id) @ \(size)" }
}
