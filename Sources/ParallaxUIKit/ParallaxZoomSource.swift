#if canImport(UIKit)
import ParallaxCore
import ParallaxHosting
import ParallaxImages
import ParallaxLayout
import UIKit

/// A detail view controller that a ``ParallaxZoomSource`` zooms into and
/// back out of: it says which item and photo it shows now and where it
/// draws the photo.
///
/// Adopt it on the view controller you push or present. As the user pages
/// to other photos, update ``zoomItem`` and ``zoomImageID``: the closing
/// zoom returns to the tile of the photo shown then.
@MainActor
public protocol ParallaxZoomDestination: UIViewController {
    /// The item of the grid whose photo the view controller shows now.
    var zoomItem: ItemIndex { get }
    /// The photo it shows now.
    var zoomImageID: ImageID { get }
    /// The photo's width ÷ height as the view controller draws it; `nil`
    /// while unknown (the tile's thumbnail is then taken for the whole photo).
    var zoomAspectRatio: CGFloat? { get }
    /// How far the grid may scroll to show the tile a zoom returns to:
    /// `DetailPaging.revealPolicy` (ParallaxHosting) for a detail view that
    /// pages.
    var zoomReveal: ZoomReveal { get }
    /// Where the whole photo is drawn, in the view's coordinates; `nil`
    /// (the default) for the photo fitted in the view's bounds. Its shape
    /// is the photo's when ``zoomAspectRatio`` is `nil`.
    var zoomPhotoFrame: CGRect? { get }
}

extension ParallaxZoomDestination {
    /// The photo fitted in the view's bounds.
    public var zoomPhotoFrame: CGRect? { nil }
}

/// The tiles of a collection view as the sources of a zoom transition to a
/// detail view: UIKit's `UIViewController.Transition.zoom` on iOS 18, from
/// each cell's ``ParallaxImageView``.
///
/// ```swift
/// let zoom = ParallaxZoomSource(collectionView: collectionView)
/// // when a tile is tapped:
/// let detail = PhotoViewController(…)                   // a ParallaxZoomDestination
/// if #available(iOS 18.0, *) { detail.preferredTransition = zoom.zoomTransition() }
/// navigationController?.pushViewController(detail, animated: true)
/// ```
///
/// The zoom starts from the picture as the tile draws it, not from the
/// cell: UIKit zooms from the parallax view (the tile's clip) and is given
/// the alignment rectangle ParallaxHosting's `ZoomSourceFrames` computes
/// from the picture's content frame (parallax offset and overscan
/// included) and the photo's shape: where the tile sits inside the photo
/// the detail view fits. So the photo lands on the tile's crop pixel for
/// pixel instead of the whole photo being squeezed into the cell.
///
/// The source view is found again every time UIKit asks (when presenting,
/// and again when dismissing), for the item the detail view shows *then*
/// (`ZoomSourceResolution`): a cell that scrolled away or was reused for
/// another photo is never used. When the item is off screen, the
/// collection view is first scrolled, without animation, by the least
/// amount that shows it (as ``ParallaxZoomDestination/zoomReveal`` allows),
/// and its cells are placed at once. When no tile can be used, no view is
/// returned and UIKit cross-fades.
///
/// Below iOS 18 there is no zoom transition: push or present the detail
/// view with UIKit's standard transition. ParallaxKit ships no hand-made
/// animator for it: one would take over the navigation controller's
/// delegate and lose the interactive swipe back unless it also drove the
/// gesture, and an app that wants one can draw ParallaxHosting's
/// `PhotoZoomTransition` frames in its own (a ``ParallaxImageView``'s
/// `zoomFrames(aspectRatio:)` gives the start, in its coordinates).
///
/// It holds the collection view weakly, so the transitions that hold it
/// keep nothing else alive. Complexity: O(1) per request,
/// besides UIKit's lookups and, at most once, a scroll and layout pass.
@MainActor
public final class ParallaxZoomSource {
    private let host: CollectionZoomHost

    /// Zoom sources among the cells of `collectionView` (cells conforming to
    /// ``ParallaxCell`` whose parallax view is a ``ParallaxImageView``).
    public init(collectionView: UICollectionView) {
        host = CollectionZoomHost(collectionView: collectionView)
    }

    /// The collection view, while it lives.
    public var collectionView: UICollectionView? { host.collectionView }

    /// The parallax view that can be the source for the item at `index`
    /// shown as `imageID`: the visible cell's, once it shows that photo,
    /// after scrolling as `reveal` allows. `nil` when none can be (the
    /// transition then cross-fades).
    public func sourceView(for index: ItemIndex, showing imageID: ImageID,
                           reveal: ZoomReveal = .ifHidden) -> ParallaxImageView? {
        ZoomSourceResolution.source(for: index, showing: imageID, in: host, reveal: reveal)
    }

    /// The source view for what `destination` shows now.
    public func sourceView(for destination: any ParallaxZoomDestination) -> ParallaxImageView? {
        sourceView(for: destination.zoomItem, showing: destination.zoomImageID, reveal: destination.zoomReveal)
    }

    /// The rectangle, in `destination`'s view coordinates, that a zoom maps
    /// onto `sourceView`: where the tile sits inside the destination's
    /// photo. `nil` when `sourceView` is not a ``ParallaxImageView`` or
    /// nothing lines up (UIKit then zooms the whole view).
    public func alignmentRect(for sourceView: UIView, in destination: any ParallaxZoomDestination) -> CGRect? {
        guard let view = sourceView as? ParallaxImageView else { return nil }
        if let photo = destination.zoomPhotoFrame {
            // The frame the photo is drawn in has its shape, when the destination does not say otherwise.
            let aspect = destination.zoomAspectRatio ?? (photo.height > 0 ? photo.width / photo.height : nil)
            return view.zoomFrames(aspectRatio: aspect).alignmentRect(inPhoto: photo)
        }
        let frames = view.zoomFrames(aspectRatio: destination.zoomAspectRatio)
        var bounds = destination.view.bounds
        if bounds.isEmpty, let window = sourceView.window { bounds = window.bounds }   // not laid out yet
        return frames.alignmentRect(fittingPhotoIn: bounds)
    }

    #if canImport(SwiftUICore) && os(iOS) && !targetEnvironment(macCatalyst)   // Xcode 16's SDKs: the zoom transition
    /// UIKit's zoom transition between the tiles and the
    /// ``ParallaxZoomDestination`` it is set on: the source view is found
    /// again each time UIKit asks, and the alignment rectangle lines the
    /// photo up with the tile's crop. `options` keeps its other settings
    /// (dimming, interactive dismissal); an alignment rectangle provider it
    /// already has answers when this one has none.
    @available(iOS 18.0, *)
    public func zoomTransition(options: UIViewController.Transition.ZoomOptions? = nil) -> UIViewController.Transition {
        // A copy: the caller's options object is left as it was.
        let options = (options?.copy() as? UIViewController.Transition.ZoomOptions) ?? UIViewController.Transition.ZoomOptions()
        let appAlignment = options.alignmentRectProvider
        // Held strongly by the transition: this object holds the collection view weakly, so nothing is kept alive.
        options.alignmentRectProvider = { context in
            guard let destination = context.zoomedViewController as? any ParallaxZoomDestination,
                  let rect = self.alignmentRect(for: context.sourceView, in: destination) else {
                return appAlignment?(context)
            }
            return rect
        }
        return .zoom(options: options) { context in
            guard let destination = context.zoomedViewController as? any ParallaxZoomDestination else { return nil }
            return self.sourceView(for: destination)
        }
    }
    #endif
}

extension ParallaxImageView: ZoomSourceView {
    /// The photo the view shows or loads (``imageID``).
    public var zoomImageID: ImageID? { imageID }

    /// The view's bounds: the tile's clip.
    public var zoomTileBounds: CGRect { bounds }

    /// Where the picture is drawn: the content view's frame from its model
    /// centre and size (the placement's content frame, even while an
    /// animation moves it).
    public var zoomContentFrame: CGRect {
        let size = contentView.bounds.size, centre = contentView.center
        return CGRect(x: centre.x - size.width / 2, y: centre.y - size.height / 2, width: size.width, height: size.height)
    }
}

/// A `UICollectionView` as `ZoomSourceResolution` sees it.
@MainActor
final class CollectionZoomHost: ZoomSourceHost {
    private(set) weak var collectionView: UICollectionView?

    init(collectionView: UICollectionView) {
        self.collectionView = collectionView
    }

    /// The parallax controller's axis, or vertical.
    var zoomAxis: ScrollAxis { collectionView?.parallaxController?.configuration.axis ?? .vertical }

    var zoomViewport: ScrollViewport {
        guard let collectionView else { return ScrollViewport(size: .zero) }
        return ScrollViewport(size: collectionView.bounds.size, contentOffset: collectionView.contentOffset,
                              insets: EdgeInsets(collectionView.adjustedContentInset))
    }

    var zoomContentSize: CGSize { collectionView?.contentSize ?? .zero }

    func zoomLayoutFrame(at index: ItemIndex) -> CGRect? {
        guard let collectionView, let path = indexPath(index, in: collectionView) else { return nil }
        return collectionView.layoutAttributesForItem(at: path)?.frame
    }

    func zoomSource(at index: ItemIndex) -> (view: ParallaxImageView, frame: CGRect)? {
        guard let collectionView, let path = indexPath(index, in: collectionView),
              let cell = collectionView.cellForItem(at: path) as? any ParallaxCell, !cell.isHidden,
              let view = cell.parallaxView as? ParallaxImageView else { return nil }
        return (view, view.convert(view.bounds, to: collectionView))
    }

    /// Scrolls without animation, lays the cells out and places their
    /// content at once, so the tile's content frame is the new one.
    func zoomScroll(to offset: CGPoint) {
        guard let collectionView else { return }
        collectionView.setContentOffset(offset, animated: false)
        collectionView.layoutIfNeeded()
        collectionView.parallaxController?.updateNow()
    }

    /// The index path of `index` if the collection view has that item (a
    /// path it does not have would raise an exception in some calls).
    private func indexPath(_ index: ItemIndex, in collectionView: UICollectionView) -> IndexPath? {
        guard index.section >= 0, index.section < collectionView.numberOfSections, index.item >= 0,
              index.item < collectionView.numberOfItems(inSection: index.section) else { return nil }
        return IndexPath(item: index.item, section: index.section)
    }
}
#endif
