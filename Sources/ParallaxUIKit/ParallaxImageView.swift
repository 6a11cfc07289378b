#if canImport(UIKit)
import ParallaxCore
import ParallaxHosting
import ParallaxImages
import UIKit

/// A ``ParallaxView`` that shows a photo from the image pipeline, decoded at
/// exactly the size it is shown at (the overscan the effect needs included,
/// times the screen scale), and safe in reused cells.
///
/// ```swift
/// cell.parallaxView.setImage(photoID, using: requests)   // in cellForItemAt
/// ```
///
/// While the photo loads the view shows its preview when one is known (given
/// with ``setImage(_:preview:using:)`` from the app's model, listed by the
/// source, or made by the loader from an earlier decode), else a
/// placeholder: ``uncachedPlaceholder`` when it must be downloaded, black
/// when it is stored on the device; the photo then cross-fades in over 0.25 s. A memory-cache hit appears at
/// once. The request is made when the view knows its content size (its
/// first placement, or its layout outside a controlled scroll view) and
/// again only when that size changes (rotation, a grid ↔ list switch): the
/// current photo then stays until the sharper one arrives. A reused view
/// never shows the photo it was asked for before: `ImageRequester` checks
/// every result against the view's current request.
@MainActor
public final class ParallaxImageView: ParallaxView {
    /// The image view that moves. Its content mode is aspect fill.
    public let imageView: UIImageView

    /// Shown while a photo downloads (RolfHendriks' UICollectionView-Demo's illustration).
    public var uncachedPlaceholder: UIImage?
    /// The background while a stored photo decodes, and behind everything.
    public var placeholderColor: UIColor = .black
    /// The background when a photo failed to load.
    public var failureColor: UIColor = .darkGray

    /// Why the current photo failed to load, if it did.
    public private(set) var failureMessage: String?

    /// The photo the view was last asked to show (``setImage(_:preview:using:)``),
    /// shown or loading; `nil` once cleared. A reused view names its new
    /// photo, so a zoom transition never takes it for the old one.
    public var imageID: ImageID? { requestedID }

    private var requestedID: ImageID?
    private var requests: ImageRequester<ObjectIdentifier>?
    private var currentKey: ThumbnailKey?
    /// What `currentKey` was made from: the content size in points and the screen scale.
    private var requestedPoints = CGSize.zero
    private var requestedScale: CGFloat = 0
    /// The photo on screen now, if any (a placeholder or failure is none).
    private var shownID: ImageID?

    /// An empty view: an aspect-fill image view on the placeholder colour.
    public init() {
        let imageView = UIImageView()
        imageView.contentMode = .scaleAspectFill
        self.imageView = imageView
        super.init(contentView: imageView)
        backgroundColor = placeholderColor
    }

    /// Not supported: the view is made in code. Returns `nil`.
    public required init?(coder: NSCoder) {
        return nil
    }

    /// Shows `image` directly, outside the pipeline (cancels any request).
    public func setImage(_ image: UIImage?) {
        cancelImageRequest()
        imageView.image = image
    }

    /// Shows the photo `id`, loaded through `requests` at the size it is
    /// shown at, with `preview` (a ThumbHash from the app's model, such as
    /// `.thumbHash(photo.thumbhash)`) until it arrives: the hash is filed in
    /// the loader's previews, so every view of the photo shows it. `nil`
    /// clears the view.
    public func setImage(_ id: ImageID?, preview: ImagePreview? = nil, using requests: ImageRequester<ObjectIdentifier>) {
        if let id, let hash = preview?.hash, requests.loader.previews.hash(for: id) != hash {
            requests.loader.previews.insert(hash, for: id)
        }
        if id != requestedID || requests !== self.requests {
            cancelImageRequest()
            requestedID = id
            MemoryWarnings.shared.watch(requests.loader)          // O(1); a loader already watched stays as it is
            self.requests = requests
        }
        requestIfNeeded()
    }

    /// Asks for the current photo again (after a failure: RolfHendriks' UICollectionView-Demo retries
    /// a photo when its error tile is tapped).
    public func retryImage() {
        requests?.cancel(ObjectIdentifier(self))        // a fresh request: placeholder first, not a resize
        currentKey = nil
        failureMessage = nil
        requestIfNeeded()
    }

    /// Forgets the current request: nothing it loads will be shown. Call
    /// from the cell's `prepareForReuse()`.
    public func cancelImageRequest() {
        requests?.cancel(ObjectIdentifier(self))
        requests = nil
        requestedID = nil
        currentKey = nil
        shownID = nil
        failureMessage = nil
        imageView.image = nil
        backgroundColor = placeholderColor
    }

    /// Applies `placement` (see ``ParallaxView/apply(_:)``), then asks for the
    /// photo again if the content size it is shown at changed.
    public override func apply(_ placement: ParallaxPlacement) {
        super.apply(placement)
        requestIfNeeded()
    }

    /// Lays the content out, then asks for the photo once its size is known,
    /// or again if it changed.
    public override func layoutSubviews() {
        super.layoutSubviews()
        requestIfNeeded()
    }

    /// Drops the request when the view leaves its window (the photo stays),
    /// and asks again, without a placeholder, when it is back.
    public override func didMoveToWindow() {
        super.didMoveToWindow()
        guard window != nil else {
            // Off screen (and perhaps about to go away: a view's identifier may be reused by the next
            // view allocated): its request is dropped. The photo stays; back in a window it asks again,
            // as a resize of the photo it shows, so no placeholder flashes over it.
            requests?.cancel(ObjectIdentifier(self))
            currentKey = nil
            return
        }
        requestIfNeeded()
    }

    private func requestIfNeeded() {
        // Outside a window the screen scale is not known yet: asking now could decode twice.
        guard window != nil, let id = requestedID, let requests else { return }
        // Under a controller, wait for the exact placement: its content size includes the overscan.
        let contentSize: CGSize
        if let placement = placementForCurrentSize {
            contentSize = placement.contentSize
        } else if let controller = enclosingParallaxController {
            // Asks the controller's next frame for the placement (a cell that appeared without the scroll
            // view moving, after a programmatic scroll or a reload, say).
            controller.setNeedsUpdate()
            return
        } else {
            contentSize = bounds.size
        }
        let scale = max(traitCollection.displayScale, 1)
        // Called on every pass: when nothing changed, a comparison and a lookup, no key is made. Asks
        // again when the requests forgot this view (a reset, an erase under it).
        if let currentKey, currentKey.id == id, contentSize == requestedPoints, scale == requestedScale,
           requests.key(for: ObjectIdentifier(self)) == currentKey { return }
        guard let size = try? ThumbnailSize(points: contentSize, scale: scale, mode: .fill) else { return }
        let key = ThumbnailKey(id: id, size: size)
        requestedPoints = contentSize
        requestedScale = scale
        guard key != currentKey || requests.key(for: ObjectIdentifier(self)) == nil else { return }
        currentKey = key
        requests.load(key, into: ObjectIdentifier(self), replacing: shownID) { [weak self] display in
            self?.show(display, of: id, scale: scale)
        }
    }

    private func show(_ display: ImageDisplay, of id: ImageID, scale: CGFloat) {
        failureMessage = nil
        shownID = nil
        switch display {
        case .placeholder(.preview(let pixels)):
            // Scaled up smoothly by the image view (linear filtering), aspect fill like the photo.
            backgroundColor = placeholderColor
            imageView.image = pixels.makeCGImage().map { UIImage(cgImage: $0, scale: 1, orientation: .up) }
        case .placeholder(.uncached):
            backgroundColor = placeholderColor
            imageView.image = uncachedPlaceholder
        case .placeholder(.cached):
            backgroundColor = placeholderColor
            imageView.image = nil
        case .image(let pixels, let fadeDuration):
            guard let cgImage = pixels.makeCGImage() else {
                show(.failure("the thumbnail could not be converted for display"), of: id, scale: scale)
                return
            }
            let image = UIImage(cgImage: cgImage, scale: scale, orientation: .up)
            shownID = id
            backgroundColor = placeholderColor
            if fadeDuration > 0 {
                UIView.transition(with: imageView, duration: fadeDuration, options: [.transitionCrossDissolve, .allowUserInteraction]) {
                    self.imageView.image = image
                }
            } else {
                imageView.image = image
            }
        case .failure(let message):
            failureMessage = message
            backgroundColor = failureColor
            imageView.image = nil
        }
    }
}
#endif
