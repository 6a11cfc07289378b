#if canImport(UIKit)
import ParallaxCore
import ParallaxHosting
import ParallaxImages
import ParallaxLayout
import UIKit

/// Loading that follows the scroll view, with any layout.
extension ParallaxController {
    /// Makes the image pipeline follow this scroll view: on every frame in
    /// which the viewport reaches other items or a fling starts, the
    /// viewport's ranges (on screen, where the fling lands, ahead and
    /// behind: ParallaxHosting's `LoadingRanges`) are planned and handed to
    /// `loading`'s loader, for the thumbnails each cell's
    /// ``ParallaxImageView`` will ask for (the effect's content size at the
    /// screen's scale, for a parallax view that fills its cell).
    ///
    /// Any layout is planned: a ``ParallaxCollectionViewLayout`` from its
    /// own layout and landing offset; a flow, compositional or custom
    /// layout from `layoutAttributesForElements(in:)` over the rectangles
    /// ahead of the viewport (`LookAheadRegion`), and a table from its rows'
    /// rectangles, with the landing zone predicted from the pan gesture's
    /// velocity at release. No prefetch data source is taken: the app's own
    /// `prefetchDataSource` keeps working beside this.
    ///
    /// `imageID` names the photo of an item (`nil`: none). It is given
    /// `owner`, which is held weakly: write it without capturing `self`, and
    /// the view controller that owns the scroll view is never kept alive
    /// by its own controller (once `owner` is gone, nothing is named):
    ///
    /// ```swift
    /// controller.followLoading(ViewportLoading(loader: loader), owner: self) { owner, index in
    ///     owner.photos[index.item].id
    /// }
    /// ```
    ///
    /// Requests for what is on screen go on through ``ParallaxImageView``
    /// as before; the plan ranks them, preloads what the user is about to
    /// see and lowers what was scrolled past.
    public func followLoading<Owner: AnyObject>(_ loading: ViewportLoading, owner: Owner,
                                                imageID: @escaping @MainActor (Owner, ItemIndex) -> ImageID?) {
        follow(loading, naming: ItemImageNaming(owner: owner, imageID))
    }

    /// Makes the image pipeline follow this scroll view, naming photos with
    /// `imageID`, which the controller keeps as long as the scroll view
    /// lives.
    ///
    /// - Important: the scroll view keeps its controller, so a closure that
    ///   captures the view controller owning the scroll view strongly keeps
    ///   it alive for ever. Capture only what it needs (`[store]`), or
    ///   `[weak self]`, or use ``followLoading(_:owner:imageID:)``, which
    ///   cannot leak.
    public func followLoading(_ loading: ViewportLoading, imageID: @escaping @MainActor (ItemIndex) -> ImageID?) {
        // The loading object is the owner: it lives exactly as long as the controller follows it.
        follow(loading, naming: ItemImageNaming(owner: loading) { _, index in imageID(index) })
    }

    /// Stops planning loading; work under way goes on.
    public func stopFollowingLoading() {
        loading = nil
        naming = nil
    }

    private func follow(_ loading: ViewportLoading, naming: ItemImageNaming) {
        self.loading = loading
        self.naming = naming
        loading.invalidate()
        wake(.loading)
    }

    /// Plans loading after a pass. O(visible items) when nothing new is
    /// planned; O(items in the look-ahead region) when a plan is made.
    func planLoading() {
        guard let loading, let naming, let scrollView else { return }
        if !scrollView.isDecelerating, !scrollView.isTracking { fling = nil }
        if let collectionView = scrollView as? UICollectionView,
           let parallaxLayout = collectionView.collectionViewLayout as? ParallaxCollectionViewLayout,
           let layout = parallaxLayout.state.layout {
            planParallaxLayout(layout, of: parallaxLayout, in: collectionView, loading: loading, naming: naming)
            return
        }
        let items: (CGRect) -> [(ItemIndex, CGRect)]
        let counts: [Int]
        switch scrollView {
        case let collectionView as UICollectionView:
            let layout = collectionView.collectionViewLayout
            counts = (0..<collectionView.numberOfSections).map { collectionView.numberOfItems(inSection: $0) }
            items = { rect in
                (layout.layoutAttributesForElements(in: rect) ?? []).compactMap { attributes in
                    guard attributes.representedElementCategory == .cell else { return nil }
                    return (ItemIndex(item: attributes.indexPath.item, section: attributes.indexPath.section), attributes.frame)
                }
            }
        case let tableView as UITableView:
            counts = (0..<tableView.numberOfSections).map { tableView.numberOfRows(inSection: $0) }
            items = { rect in
                (tableView.indexPathsForRows(in: rect) ?? []).map {
                    (ItemIndex(item: $0.row, section: $0.section), tableView.rectForRow(at: $0))
                }
            }
        default:
            return                                   // a plain scroll view has no items to plan
        }
        let axis = configuration.axis
        let offset = axis.main(scrollView.contentOffset)
        let motion = fling?.motion(at: offset, isDecelerating: scrollView.isDecelerating) ?? .resting(at: offset)
        let visible = scrollView.bounds
        func snapshot(_ rects: [CGRect]) -> ItemSnapshotLayout {
            ItemSnapshotLayout(axis: axis, contentSize: scrollView.contentSize, itemCounts: counts,
                               items: rects.flatMap(items))
        }
        // The viewport's items alone say whether a plan is due; only then is the whole region read.
        guard loading.needsPlan(layout: snapshot([visible]), visibleRect: visible, motion: motion) else { return }
        let region = LookAheadRegion(visibleRect: visible, contentSize: scrollView.contentSize, axis: axis, motion: motion,
                                     direction: loading.direction(at: offset), ranges: loading.ranges)
        let placer = self.placer
        let scale = max(scrollView.traitCollection.displayScale, 1)
        loading.update(layout: snapshot(region.rects), visibleRect: visible, motion: motion) { index, frame in
            Self.thumbnail(for: index, shownAt: frame, placer: placer, scale: scale, naming: naming)
        }
    }

    private func planParallaxLayout(_ layout: any ItemLayout, of parallaxLayout: ParallaxCollectionViewLayout,
                                    in collectionView: UICollectionView, loading: ViewportLoading,
                                    naming: ItemImageNaming) {
        // During a pinch the frames shown are the pinch's, not the resting layout's: the visible cells
        // ask for their own pictures, and the plan is made again for the count the pinch rests on.
        if parallaxLayout.columnPinch?.isActive == true {
            loading.invalidate()
            return
        }
        let placer = self.placer
        let scale = max(collectionView.traitCollection.displayScale, 1)
        loading.update(layout: layout, visibleRect: parallaxLayout.layoutRect(of: collectionView.bounds),
                       motion: parallaxLayout.motion(of: collectionView)) { index, frame in
            Self.thumbnail(for: index, shownAt: parallaxLayout.shownFrame(of: frame), placer: placer, scale: scale,
                           naming: naming)
        }
    }

    private static func thumbnail(for index: ItemIndex, shownAt frame: CGRect, placer: ParallaxScroller.Placer,
                                  scale: CGFloat, naming: ItemImageNaming) -> ThumbnailKey? {
        let contentSize = placer.placement(forItemFrame: frame).contentSize
        guard let id = naming.imageID(for: index),
              let size = try? ThumbnailSize(points: contentSize, scale: scale, mode: .fill) else { return nil }
        return ThumbnailKey(id: id, size: size)
    }
}
#endif
