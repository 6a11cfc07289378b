#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

/// Where a photo is, frame by frame, while it zooms from its tile to a
/// detail view and back: the whole picture's frame and the part of it that
/// shows.
///
/// A parallax tile is where a naive zoom goes wrong. The picture inside the
/// cell is offset by the parallax and larger than the cell (overscan), and
/// a `fill` thumbnail shows only the centre of a photo of another shape.
/// Starting from the cell's frame makes the picture jump at the first
/// frame. This transition starts from the *content* frame: the whole photo
/// is placed so that its centre crop covers the tile's content frame
/// exactly (`scaleAspectFill` about the content frame's centre), and the
/// clip starts as the part of the tile that showed. At progress 0 the
/// frame is pixel for pixel the tile; at 1 the whole photo fits the
/// container; in between, the photo's frame and the clip move together
/// (linearly: easing is the animator's choice), so the picture never
/// slides inside its clip.
///
/// UIKit's zoom transition (iOS 18) and SwiftUI's matched transition
/// source take the same two rectangles; the gallery app draws them itself.
///
/// Complexity: O(1).
public struct PhotoZoomTransition: Sendable, Hashable {
    /// The whole photo's frame on the tile, in the container's coordinates:
    /// larger than the tile's content frame when the photo's shape differs.
    public var sourcePictureFrame: CGRect
    /// What showed of the photo on the tile: the tile's content frame
    /// within its clip (the cell), in the container's coordinates.
    public var sourceClip: CGRect
    /// The whole photo fitted in the container (``fittedFrame(aspectRatio:in:)``).
    public var destinationFrame: CGRect

    /// The transition for a tile whose picture was drawn in `contentFrame`
    /// (the parallax placement, overscan included) under the clip
    /// `tileClip` (the cell's frame), both in the container's coordinates,
    /// for a photo of `aspectRatio` (width ÷ height) fitted in `container`.
    /// A degenerate tile (empty, or no part of it visible) starts from its
    /// content frame's centre; a non-finite or non-positive aspect ratio
    /// counts as the content frame's own.
    public init(contentFrame: CGRect, tileClip: CGRect, aspectRatio: CGFloat, container: CGRect) {
        let content = contentFrame.standardized
        let aspect = aspectRatio.isFinite && aspectRatio > 0 ? aspectRatio
            : (content.height > 0 && content.width > 0 ? content.width / content.height : 1)
        sourcePictureFrame = Self.filledFrame(aspectRatio: aspect, covering: content)
        let visible = content.intersection(tileClip.standardized)
        sourceClip = visible.isNull || visible.isEmpty
            ? CGRect(x: content.midX, y: content.midY, width: 0, height: 0) : visible
        destinationFrame = Self.fittedFrame(aspectRatio: aspect, in: container)
    }

    /// The photo's frame and its clip at `progress` (0: on the tile, 1: in
    /// the detail view; clamped to 0…1). The clip ends as the fitted frame.
    public func frames(at progress: CGFloat) -> (picture: CGRect, clip: CGRect) {
        let t = progress.isFinite ? min(max(progress, 0), 1) : 1
        return (Self.interpolate(sourcePictureFrame, destinationFrame, t), Self.interpolate(sourceClip, destinationFrame, t))
    }

    /// The largest rectangle of `aspectRatio` inside `bounds`, centred
    /// (`scaleAspectFit`). Empty bounds give an empty rectangle at their centre.
    public static func fittedFrame(aspectRatio: CGFloat, in bounds: CGRect) -> CGRect {
        let bounds = bounds.standardized
        guard aspectRatio.isFinite, aspectRatio > 0, bounds.width > 0, bounds.height > 0 else {
            return CGRect(x: bounds.midX, y: bounds.midY, width: 0, height: 0)
        }
        let width = min(bounds.width, bounds.height * aspectRatio)
        let height = width / aspectRatio
        return CGRect(x: bounds.midX - width / 2, y: bounds.midY - height / 2, width: width, height: height)
    }

    /// The smallest rectangle of `aspectRatio` covering `rect`, centred on it
    /// (`scaleAspectFill`): the whole photo when its centre crop is `rect`.
    public static func filledFrame(aspectRatio: CGFloat, covering rect: CGRect) -> CGRect {
        let rect = rect.standardized
        guard aspectRatio.isFinite, aspectRatio > 0, rect.width > 0, rect.height > 0 else { return rect }
        let width = max(rect.width, rect.height * aspectRatio)
        let height = width / aspectRatio
        return CGRect(x: rect.midX - width / 2, y: rect.midY - height / 2, width: width, height: height)
    }

    // Spelled out: CGRect is only Equatable in Apple SDKs before iOS 18.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.sourcePictureFrame == rhs.sourcePictureFrame && lhs.sourceClip == rhs.sourceClip
            && lhs.destinationFrame == rhs.destinationFrame
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(rect: sourcePictureFrame)
        hasher.combine(rect: sourceClip)
        hasher.combine(rect: destinationFrame)
    }

    static func interpolate(_ a: CGRect, _ b: CGRect, _ t: CGFloat) -> CGRect {
        CGRect(x: a.minX + (b.minX - a.minX) * t, y: a.minY + (b.minY - a.minY) * t,
               width: a.width + (b.width - a.width) * t, height: a.height + (b.height - a.height) * t)
    }
}
