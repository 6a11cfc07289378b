#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

/// A photo zoomed and panned in a detail view: where it is on screen, and
/// which part of it at what resolution must be decoded to show it sharp.
///
/// The zoom is relative to the fitted photo (``scale`` 1: the whole photo
/// fits the bounds, centred) up to ``maximumScale``, which shows each of
/// the photo's pixels as `2 × 2` screen pixels (or the fitted size, for a
/// photo smaller than the screen). Where the zoomed photo is smaller than
/// the bounds along an axis it is centred on that axis; where it is larger
/// it always covers them (no empty margin is ever panned into view), as
/// `UIScrollView` and Apple Photos behave.
///
/// What to decode (``sharpRegion(margin:)``) is the visible part,
/// grown by a margin so small pans need no new decode, at the screen's
/// pixel density, never beyond the photo's own pixels: with
/// `ImageDecoding.image(from:region:)` a zoom into a 100-megapixel photo
/// decodes a screenful, not the photo.
///
/// Complexity: O(1) for everything.
public struct PictureZoom: Sendable, Hashable {
    /// The photo's size in pixels, upright.
    public let pictureSize: CGSize
    /// The detail view's bounds, in points.
    public private(set) var bounds: CGRect
    /// Screen pixels per point.
    public let screenScale: CGFloat
    /// The zoom relative to the fitted photo, in `1...maximumScale`.
    public private(set) var scale: CGFloat = 1
    /// The point of the photo shown at the bounds' centre, as fractions of
    /// its width and height.
    public private(set) var center = CGPoint(x: 0.5, y: 0.5)

    /// A photo of `pictureSize` pixels fitted in `bounds` (points) on a
    /// screen of `screenScale` pixels per point. A degenerate size counts as
    /// one pixel a side; a degenerate scale as 1.
    public init(pictureSize: CGSize, bounds: CGRect, screenScale: CGFloat = 1) {
        self.pictureSize = CGSize(width: pictureSize.width.isFinite ? max(pictureSize.width, 1) : 1,
                                  height: pictureSize.height.isFinite ? max(pictureSize.height, 1) : 1)
        self.bounds = bounds.standardized
        self.screenScale = screenScale.isFinite && screenScale > 0 ? screenScale : 1
    }

    /// The whole photo fitted in the bounds: its frame at scale 1.
    public var fittedFrame: CGRect {
        PhotoZoomTransition.fittedFrame(aspectRatio: pictureSize.width / pictureSize.height, in: bounds)
    }

    /// The scale at which one photo pixel is one screen pixel (1:1).
    public var oneToOneScale: CGFloat {
        let fitted = fittedFrame.width * screenScale
        return fitted > 0 ? pictureSize.width / fitted : 1
    }

    /// The largest scale: two screen pixels per photo pixel, at least 1.
    public var maximumScale: CGFloat { max(1, oneToOneScale * 2) }

    /// Whether the whole photo is shown fitted.
    public var isFitted: Bool { scale <= 1 }

    /// The whole photo's frame on screen, in points.
    public var frame: CGRect {
        let fitted = fittedFrame
        let width = fitted.width * scale, height = fitted.height * scale
        return CGRect(x: bounds.midX - center.x * width, y: bounds.midY - center.y * height, width: width, height: height)
    }

    /// Zooms to `newScale` (clamped) keeping the photo point under `point`
    /// (in the bounds' coordinates) where it is, as a pinch or a wheel does.
    public mutating func zoom(to newScale: CGFloat, about point: CGPoint) {
        guard newScale.isFinite, point.x.isFinite, point.y.isFinite else { return }
        let old = frame
        guard old.width > 0, old.height > 0 else { return }
        let anchor = CGPoint(x: (point.x - old.minX) / old.width, y: (point.y - old.minY) / old.height)
        scale = min(max(newScale, 1), maximumScale)
        let fitted = fittedFrame
        let width = fitted.width * scale, height = fitted.height * scale
        // The origin that keeps `anchor` under `point`, as a centre.
        let origin = CGPoint(x: point.x - anchor.x * width, y: point.y - anchor.y * height)
        center = CGPoint(x: (bounds.midX - origin.x) / width, y: (bounds.midY - origin.y) / height)
        clampCenter()
    }

    /// Zooms by `factor` about `point` (``zoom(to:about:)``).
    public mutating func zoom(by factor: CGFloat, about point: CGPoint) {
        zoom(to: scale * factor, about: point)
    }

    /// Moves the photo by `translation` points (with the finger), as far as
    /// it can go without showing an empty margin.
    public mutating func pan(by translation: CGSize) {
        let current = frame
        guard translation.width.isFinite, translation.height.isFinite, current.width > 0, current.height > 0 else { return }
        center.x -= translation.width / current.width
        center.y -= translation.height / current.height
        clampCenter()
    }

    /// The bounds changed (the window was resized): the same scale and
    /// centre, clamped.
    public mutating func resize(to newBounds: CGRect) {
        bounds = newBounds.standardized
        scale = min(max(scale, 1), maximumScale)
        clampCenter()
    }

    /// The part of the photo on screen, as fractions of its width and
    /// height (empty when none is).
    public var visibleRegion: CGRect {
        let current = frame
        let visible = current.intersection(bounds)
        guard !visible.isNull, !visible.isEmpty, current.width > 0, current.height > 0 else { return .zero }
        return CGRect(x: (visible.minX - current.minX) / current.width, y: (visible.minY - current.minY) / current.height,
                      width: visible.width / current.width, height: visible.height / current.height)
    }

    /// The screen pixels each photo pixel covers now (1: 1:1).
    public var screenPixelsPerPhotoPixel: CGFloat { frame.width * screenScale / pictureSize.width }

    /// What to decode to show the photo sharp at this zoom: the visible
    /// part grown by `margin` (a fraction of its size on each side, clamped
    /// to the photo) as fractions of the photo, and the pixels it needs (the
    /// screen's density, never more than the photo's own pixels). `nil`
    /// while the photo is fitted: the screen-size picture is sharp then.
    public func sharpRegion(margin: CGFloat = 0.25) -> (rect: CGRect, pixelWidth: Int, pixelHeight: Int)? {
        guard !isFitted else { return nil }
        let visible = visibleRegion
        guard visible.width > 0, visible.height > 0 else { return nil }
        let grow = margin.isFinite ? max(margin, 0) : 0
        let grown = visible.insetBy(dx: -visible.width * grow, dy: -visible.height * grow)
            .intersection(CGRect(x: 0, y: 0, width: 1, height: 1))
        let density = min(screenPixelsPerPhotoPixel, 1)
        let pixelWidth = max(1, Int((grown.width * pictureSize.width * density).rounded(.up)))
        let pixelHeight = max(1, Int((grown.height * pictureSize.height * density).rounded(.up)))
        return (grown, pixelWidth, pixelHeight)
    }

    /// Whether a decoded region (`rect`, fractions of the photo, decoded at
    /// `pixelWidth` pixels across) shows what is on screen now as sharp as
    /// the screen can: it covers the visible part and has at least the
    /// screen's density there (or the photo's own pixels).
    public func isSharp(with rect: CGRect, pixelWidth: Int) -> Bool {
        let visible = visibleRegion
        guard rect.width > 0, visible.width > 0 else { return false }
        let slack: CGFloat = 1e-9
        guard rect.minX <= visible.minX + slack, rect.minY <= visible.minY + slack,
              rect.maxX >= visible.maxX - slack, rect.maxY >= visible.maxY - slack else { return false }
        let density = CGFloat(pixelWidth) / (rect.width * pictureSize.width)
        return density >= min(screenPixelsPerPhotoPixel, 1) * 0.99
    }

    // Spelled out: CGRect, CGSize and CGPoint are only Equatable in Apple SDKs before iOS 18.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.pictureSize == rhs.pictureSize && lhs.bounds == rhs.bounds && lhs.screenScale == rhs.screenScale
            && lhs.scale == rhs.scale && lhs.center == rhs.center
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(size: pictureSize)
        hasher.combine(rect: bounds)
        hasher.combine(screenScale)
        hasher.combine(scale)
        hasher.combine(point: center)
    }

    private mutating func clampCenter() {
        let current = frame
        center.x = Self.clamp(center.x, length: current.width, visible: bounds.width)
        center.y = Self.clamp(center.y, length: current.height, visible: bounds.height)
    }

    /// A centre that shows no margin: 0.5 when the photo is no longer than
    /// the visible length, else within the half-screen from either edge.
    private static func clamp(_ value: CGFloat, length: CGFloat, visible: CGFloat) -> CGFloat {
        guard length > visible, length > 0 else { return 0.5 }
        let half = visible / 2 / length
        return min(max(value.isFinite ? value : 0.5, half), 1 - half)
    }
}
