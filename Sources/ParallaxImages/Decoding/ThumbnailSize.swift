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

    /// The thumbnail's width in pixels, in `1...maximumSide`.
    public let width: Int
    /// The thumbnail's height in pixels, in `1...maximumSide`.
    public let height: Int
    /// How the picture is fitted into `width × height`.
    public let mode: ContentMode

    /// A thumbnail of `width × height` pixels.
    /// - Throws: ``ThumbnailSizeError`` unless both sides are in
    ///   `1...maximumSide`.
    public init(width: Int, height: Int, mode: ContentMode = .fill) throws(ThumbnailSizeError) {
        guard (1...Self.maximumSide).contains(width), (1...Self.maximumSide).contains(height) else {
            throw ThumbnailSizeError(width: Double(width), height: Double(height))
        }
        self.width = width
        self.height = height
        self.mode = mode
    }

    /// The thumbnail for a view of `points` at `scale` pixels per point
    /// (sides rounded up, so the image is never upscaled on screen).
    /// - Throws: ``ThumbnailSizeError`` for zero, negative, NaN or enormous
    ///   sizes.
    public init(points: CGSize, scale: CGFloat = 1, mode: ContentMode = .fill) throws(ThumbnailSizeError) {
        let w = points.width * scale, h = points.height * scale
        guard w.isFinite, h.isFinite, w >= 0.5, h >= 0.5,
              w <= CGFloat(Self.maximumSide), h <= CGFloat(Self.maximumSide) else {
            throw ThumbnailSizeError(width: Double(w), height: Double(h))
        }
        try self.init(width: Int(w.rounded(.up)), height: Int(h.rounded(.up)), mode: mode)
    }

    /// The size and mode, as in `366×382 fill`.
    public var description: String { "\(width)×\(height) \(mode.rawValue)" }
}

/// A thumbnail size that cannot be made: a side that is zero, negative,
/// not a number, or larger than ``ThumbnailSize/maximumSide`` pixels. The
/// sides are kept as requested (in pixels), NaN and infinity included, so
/// the message shows what the caller actually asked for.
public struct ThumbnailSizeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The requested width in pixels.
    public var width: Double
    /// The requested height in pixels.
    public var height: Double

    /// An error for a requested `width × height` pixels.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// Says which size was asked for and what is allowed.
    public var description: String {
        "\(Self.format(width)) × \(Self.format(height)) pixels is not a usable thumbnail size "
            + "(each side must be 1 to \(ThumbnailSize.maximumSide) pixels)"
    }

    private static func format(_ value: Double) -> String {
        value.isFinite && value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
    }
}
