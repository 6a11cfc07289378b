#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation

/// How a picture is fitted into a thumbnail's box.
public enum ContentMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Fill the box, cropping the centre of the picture to its aspect ratio
    /// (a cell's image, `UIView.ContentMode.scaleAspectFill`).
    case fill
    /// Fit inside the box, keeping the whole picture; the thumbnail is as
    /// large as fits, so one side may be shorter than the box.
    case fit
}

/// The exact pixel size a thumbnail is made for, and how the picture is
/// fitted into it: the image pipeline never decodes more pixels than this
/// needs.
public struct ThumbnailSize: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The largest side a thumbnail may have.
    public static let maximumSide = 16_384

    public let width: Int
    public let height: Int
    public let mode: ContentMode

    /// A thumbnail of `width × height` pixels.
    /// - Throws: ``ImageDecodingError/invalidTargetSize(width:height:)``
    ///   unless both sides are in `1...maximumSide`.
    public init(width: Int, height: Int, mode: ContentMode = .fill) throws(ImageDecodingError) {
        guard (1...Self.maximumSide).contains(width), (1...Self.maximumSide).contains(height) else {
            throw .invalidTargetSize(width: width, height: height)
        }
        self.width = width
        self.height = height
        self.mode = mode
    }

    /// The thumbnail for a view of `points` at `scale` pixels per point
    /// (sides rounded up, so the image is never upscaled on screen).
    /// - Throws: ``ImageDecodingError/invalidTargetSize(width:height:)`` for
    ///   zero, negative, NaN or enormous sizes.
    public init(points: CGSize, scale: CGFloat = 1, mode: ContentMode = .fill) throws(ImageDecodingError) {
        let w = points.width * scale, h = points.height * scale
        guard w.isFinite, h.isFinite, w >= 0.5, h >= 0.5,
              w <= CGFloat(Self.maximumSide), h <= CGFloat(Self.maximumSide) else {
            throw .invalidTargetSize(width: w.isFinite ? Int(max(min(w, 1e9), -1e9)) : -1,
                                     height: h.isFinite ? Int(max(min(h, 1e9), -1e9)) : -1)
        }
        try self.init(width: Int(w.rounded(.up)), height: Int(h.rounded(.up)), mode: mode)
    }

    public var description: String { "\(width)×\(height) \(mode.rawValue)" }
}
