#if os(Linux)
import ParallaxImages

/// The two thumbnails the issue asks for.
enum BenchmarkMode: String, Sendable, CaseIterable {
    /// The whole picture inside 400 × 400 (longest side 400 px).
    case fit
    /// 400 × 400, the centre cropped to a square.
    case fill

    /// The side of the box, in pixels.
    static let side = 400

    var title: String {
        switch self {
        case .fit: return "Fit in \(Self.side) px"
        case .fill: return "Fill \(Self.side) × \(Self.side)"
        }
    }

    /// The size handed to `CodecImageDecoder.thumbnail(from:size:)`.
    var size: ThumbnailSize {
        // 400 × 400 is always a valid size: the initialiser cannot throw here.
        switch self {
        case .fit: return try! ThumbnailSize(width: Self.side, height: Self.side, mode: .fit)
        case .fill: return try! ThumbnailSize(width: Self.side, height: Self.side, mode: .fill)
        }
    }
}
#endif
