#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore
import ParallaxImages

/// Where a zoom transition between a parallax tile and a detail view starts
/// and ends: the tile's picture as it is drawn, and where the tile lies
/// inside the detail view's photo.
///
/// A tile's picture is its photo's centre crop, drawn in the placement's
/// content frame (offset by the parallax, larger than the tile by the
/// overscan) and clipped to the tile. A zoom that starts from the tile's
/// frame and squeezes the whole detail view into it shows the wrong part
/// of the photo, at the wrong shape, in its first frame. These frames
/// start it from the content frame instead:
/// - ``contentFrame`` is the source rectangle: the region of the photo the
///   tile draws;
/// - ``pictureFrame`` is the whole photo on the tile, of which the content
///   frame is the centre crop (`scaleAspectFill` about its centre);
/// - ``alignmentRect(inPhoto:)`` is where the tile sits inside the photo
///   fitted in the detail view: what UIKit's zoom transition asks its
///   `alignmentRectProvider` for. The zoom then maps that rectangle onto the
///   tile, with one scale for both axes, so the detail view's photo lands
///   pixel for pixel on the tile's picture, the rest of it clipped away by
///   the tile.
///
/// All rectangles share one coordinate space, whichever the caller uses
/// (the tile's own bounds, a window): only their relations matter.
///
/// Complexity: O(1).
public struct ZoomSourceFrames: Sendable, Hashable {
    /// The tile: the clip the picture shows through (the cell, or the
    /// parallax view filling it).
    public var tileFrame: CGRect
    /// The source rectangle: where the tile draws its picture (the
    /// parallax placement's content frame, overscan and offset included).
    public var contentFrame: CGRect
    /// The whole photo on the tile: its shape, covering ``contentFrame``
    /// about its centre.
    public var pictureFrame: CGRect
    /// The photo's width ÷ height the frames were made for.
    public var aspectRatio: CGFloat

    /// The frames of a tile `tileFrame` whose picture is drawn in
    /// `contentFrame`, for a photo of `aspectRatio` (width ÷ height). An
    /// unknown (`nil`), non-finite or non-positive aspect ratio counts as
    /// the content frame's own: the tile then shows the whole photo, as it
    /// does when its thumbnail is all that is known.
    public init(tileFrame: CGRect, contentFrame: CGRect, aspectRatio: CGFloat?) {
        let content = contentFrame.standardized
        self.tileFrame = tileFrame.standardized
        self.contentFrame = content
        let given = aspectRatio ?? .nan
        let own = content.width > 0 && content.height > 0 ? content.width / content.height : 1
        self.aspectRatio = given.isFinite && given > 0 ? given : own
        pictureFrame = PhotoZoomTransition.filledFrame(aspectRatio: self.aspectRatio, covering: content)
    }

    /// Hashes the three rectangles and the aspect ratio, the values `==`
    /// compares (spelled out: CGRect is only Equatable in Apple SDKs before
    /// iOS 18).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rect: tileFrame)
        hasher.combine(rect: contentFrame)
        hasher.combine(rect: pictureFrame)
        hasher.combine(aspectRatio)
    }

    /// The part of the tile its picture covers: all of the tile whenever
    /// the picture is placed by a parallax placement (its overscan covers
    /// the tile). `nil` when they do not meet.
    public var visibleFrame: CGRect? {
        let visible = contentFrame.intersection(tileFrame)
        return visible.isNull || visible.isEmpty ? nil : visible
    }

    /// ``contentFrame`` in unit coordinates of the whole photo (0 to 1 on
    /// each axis, from its top left): the crop the tile's thumbnail holds.
    /// A detail view that shows that thumbnail before the photo arrives
    /// draws it at this part of the photo's frame
    /// (``rect(unit:in:)``), so nothing moves when the photo replaces it.
    /// `nil` for an empty picture.
    public var contentUnitRect: CGRect? { Self.unitRect(of: contentFrame, in: pictureFrame) }

    /// ``tileFrame`` in unit coordinates of the whole photo. `nil` for an
    /// empty picture.
    public var tileUnitRect: CGRect? { Self.unitRect(of: tileFrame, in: pictureFrame) }

    /// Where the tile sits inside the photo shown at `photoFrame` (the whole
    /// photo fitted in the detail view, in the detail view's coordinates):
    /// the rectangle a zoom transition maps onto the tile. It has the
    /// tile's shape, so the zoom scales both axes alike and the photo is
    /// never squashed. `nil` when the tile or the photo is empty, or nothing
    /// of the picture shows on the tile: the caller then lets the
    /// transition choose (UIKit zooms the whole view).
    public func alignmentRect(inPhoto photoFrame: CGRect) -> CGRect? {
        let photo = photoFrame.standardized
        guard visibleFrame != nil, tileFrame.width > 0, tileFrame.height > 0, photo.width > 0, photo.height > 0,
              let unit = tileUnitRect else { return nil }
        return Self.rect(unit: unit, in: photo)
    }

    /// ``alignmentRect(inPhoto:)`` for a detail view of `bounds` that fits
    /// the whole photo in them (`scaleAspectFit`, centred).
    public func alignmentRect(fittingPhotoIn bounds: CGRect) -> CGRect? {
        alignmentRect(inPhoto: PhotoZoomTransition.fittedFrame(aspectRatio: aspectRatio, in: bounds))
    }

    /// The transition drawn by hand (``PhotoZoomTransition``) from this
    /// tile to the photo fitted in `container`, all in the same coordinates.
    public func transition(fittingIn container: CGRect) -> PhotoZoomTransition {
        PhotoZoomTransition(contentFrame: contentFrame, tileClip: tileFrame, aspectRatio: aspectRatio,
                            container: container)
    }

    /// `rect` in unit coordinates of `frame` (0 to 1 across it); `nil` when
    /// `frame` is empty or anything is not finite.
    public static func unitRect(of rect: CGRect, in frame: CGRect) -> CGRect? {
        let frame = frame.standardized, rect = rect.standardized
        guard frame.width > 0, frame.height > 0, frame.width.isFinite, frame.height.isFinite,
              rect.minX.isFinite, rect.minY.isFinite, rect.width.isFinite, rect.height.isFinite else { return nil }
        return CGRect(x: (rect.minX - frame.minX) / frame.width, y: (rect.minY - frame.minY) / frame.height,
                      width: rect.width / frame.width, height: rect.height / frame.height)
    }

    /// The rectangle at `unit` (unit coordinates, as ``unitRect(of:in:)``
    /// gives them) of `frame`.
    public static func rect(unit: CGRect, in frame: CGRect) -> CGRect {
        let frame = frame.standardized
        return CGRect(x: frame.minX + unit.minX * frame.width, y: frame.minY + unit.minY * frame.height,
                      width: unit.width * frame.width, height: unit.height * frame.height)
    }
}

/// A view that can be the source of a zoom transition: a parallax tile that
/// says which photo it shows and where it draws it.
///
/// UIKit's `ParallaxImageView` is one; tests use fakes. A view reused for
/// another photo answers that photo's identifier, so a zoom returning to a
/// photo never lands on a tile that shows another one
/// (``ZoomSourceResolution``).
@MainActor
public protocol ZoomSourceView: AnyObject {
    /// The photo the view shows or is loading now; `nil` when it shows
    /// none.
    var zoomImageID: ImageID? { get }
    /// The tile's bounds, in the view's own coordinates.
    var zoomTileBounds: CGRect { get }
    /// Where the view draws its picture (its parallax placement's content
    /// frame), in the view's own coordinates.
    var zoomContentFrame: CGRect { get }
}

extension ZoomSourceView {
    /// The view's ``ZoomSourceFrames`` in its own coordinates, for a photo
    /// of `aspectRatio` (`nil`: the content frame's shape).
    public func zoomFrames(aspectRatio: CGFloat?) -> ZoomSourceFrames {
        ZoomSourceFrames(tileFrame: zoomTileBounds, contentFrame: zoomContentFrame, aspectRatio: aspectRatio)
    }
}
