#if canImport(UIKit)
import ParallaxHosting
import ParallaxImages
import ParallaxLayout
import ParallaxUIKit
import UIKit

/// What the detail view shows before its photo arrives: the tile's
/// thumbnail (the photo's centre crop) and the size of the frame the tile
/// drew it in (its parallax content frame), whose shape the crop has.
struct DetailThumbnail {
    var image: UIImage
    var contentSize: CGSize
}

/// One photo, fitted to the screen, opened from a tile with UIKit's zoom
/// transition (iOS 18) and paged with a swipe left or right.
///
/// The first frame is never blank: the tile's thumbnail is drawn at its
/// place in the fitted photo (so the zoom starts exactly on the tile) until
/// the photo arrives at the screen's size, through the same `ImageLoader`,
/// and cross-fades in. A photo paged to shows what is at hand first (the
/// screen-sized photo from memory, its neighbours being loaded ahead; or
/// its preview) and black only if nothing is. Paging updates `zoomItem`,
/// so the closing zoom returns to the tile of the photo shown then, after
/// the grid scrolled to it.
final class PhotoDetailViewController: UIViewController, ParallaxZoomDestination {
    private let store: PhotoStore
    private var paging: DetailPaging
    /// The photo's width ÷ height when known (its header, or the loaded photo).
    private var aspectRatio: CGFloat?
    private var thumbnail: DetailThumbnail?

    private let photoFrameView = UIView()
    private let previewView = UIImageView()
    private let cropView = UIImageView()
    private let photoView = UIImageView()
    private var loadTask: Task<Void, Never>?

    init(store: PhotoStore, paging: DetailPaging, aspectRatio: CGFloat?, thumbnail: DetailThumbnail?) {
        self.store = store
        self.paging = paging
        self.aspectRatio = aspectRatio
        self.thumbnail = thumbnail
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) {
        return nil
    }

    // MARK: ParallaxZoomDestination

    var zoomItem: ItemIndex { paging.current }
    var zoomImageID: ImageID { photoID(at: paging.current) ?? "" }
    var zoomAspectRatio: CGFloat? { aspectRatio }
    var zoomReveal: ZoomReveal { paging.revealPolicy }
    /// Where `layOutPhoto()` put the photo (it is fitted in the bounds).
    var zoomPhotoFrame: CGRect? { photoFrameView.frame.isEmpty ? nil : photoFrameView.frame }

    // MARK: Views

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .black
        photoFrameView.clipsToBounds = true
        for imageView in [previewView, cropView, photoView] {
            // The crop is laid out at its exact shape; the whole photo and its preview keep theirs while the
            // frame may still have the thumbnail's (the photo's shape not known yet).
            imageView.contentMode = imageView === cropView ? .scaleToFill : .scaleAspectFit
            photoFrameView.addSubview(imageView)
        }
        view.addSubview(photoFrameView)
        for direction in [UISwipeGestureRecognizer.Direction.left, .right] {
            let swipe = UISwipeGestureRecognizer(target: self, action: #selector(swiped(_:)))
            swipe.direction = direction
            view.addGestureRecognizer(swipe)
        }
        isAccessibilityElement = false
        photoFrameView.isAccessibilityElement = true
        photoFrameView.accessibilityCustomActions = [
            UIAccessibilityCustomAction(name: "Next photo", target: self, selector: #selector(nextPhoto)),
            UIAccessibilityCustomAction(name: "Previous photo", target: self, selector: #selector(previousPhoto)),
        ]
        show(paging.current)
    }

    override func viewDidDisappear(_ animated: Bool) {
        super.viewDidDisappear(animated)
        if isMovingFromParent { loadTask?.cancel() }
    }

    /// A rotation: the photo is loaded again at the new size (the one shown stays until it arrives).
    override func viewWillTransition(to size: CGSize, with coordinator: any UIViewControllerTransitionCoordinator) {
        super.viewWillTransition(to: size, with: coordinator)
        loadTask?.cancel()
        loadTask = nil
    }

    override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        layOutPhoto()
        if loadTask == nil { loadPhoto() }               // once the size to load at is known
    }

    /// The photo fitted in the bounds at its shape (while that is unknown,
    /// the thumbnail's, as the zoom takes it), with the thumbnail at the
    /// part of the photo it shows: its centre crop.
    private func layOutPhoto() {
        let frames = thumbnail.map {
            ZoomSourceFrames(tileFrame: .zero, contentFrame: CGRect(origin: .zero, size: $0.contentSize), aspectRatio: aspectRatio)
        }
        let aspect = frames?.aspectRatio ?? aspectRatio ?? view.bounds.width / max(view.bounds.height, 1)
        photoFrameView.frame = PhotoZoomTransition.fittedFrame(aspectRatio: aspect, in: view.bounds)
        let bounds = photoFrameView.bounds
        previewView.frame = bounds
        photoView.frame = bounds
        cropView.frame = frames?.contentUnitRect.map { ZoomSourceFrames.rect(unit: $0, in: bounds) } ?? bounds
    }

    // MARK: Paging

    @objc private func swiped(_ swipe: UISwipeGestureRecognizer) {
        page(forward: swipe.direction == .left)
    }

    @objc private func nextPhoto() -> Bool { page(forward: true) }

    @objc private func previousPhoto() -> Bool { page(forward: false) }

    /// Shows the next (or previous) photo; `false` at the end.
    @discardableResult
    private func page(forward: Bool) -> Bool {
        guard forward ? paging.pageForward() : paging.pageBackward() else { return false }
        // The tile's thumbnail belonged to the photo the view opened with; the closing zoom asks for the
        // new item's tile itself (ParallaxZoomSource), scrolling the grid to it.
        thumbnail = nil
        aspectRatio = store.knownAspectRatio(of: zoomImageID)
        show(paging.current)
        view.setNeedsLayout()
        loadTask?.cancel()
        loadTask = nil
        return true
    }

    /// Shows what is at hand for `index` at once: the thumbnail, the
    /// screen-sized photo if it is in memory, and the preview.
    private func show(_ index: ItemIndex) {
        let id = zoomImageID
        photoFrameView.accessibilityLabel = (id.rawValue as NSString).deletingPathExtension
        cropView.image = thumbnail?.image
        previewView.image = store.loader.previews.image(for: id)?.makeCGImage().map { UIImage(cgImage: $0) }
        photoView.image = nil
        if let key = photoKey(for: id), let pixels = store.loader.memoryCache.image(for: key) {
            photoView.image = image(from: pixels)
        }
    }

    /// Loads the shown photo at the screen's size, then its neighbours
    /// ahead, so paging finds them in memory.
    private func loadPhoto() {
        let id = zoomImageID
        guard view.bounds.width > 0, let key = photoKey(for: id) else { return }
        let neighbours = [paging.next, paging.previous].compactMap { $0.flatMap(photoID(at:)) }.compactMap(photoKey(for:))
        loadTask = Task { [weak self, store] in
            if self?.aspectRatio == nil, let aspect = await store.aspectRatio(of: id) {
                self?.setAspectRatio(aspect, for: id)
            }
            guard let loaded = try? await store.loader.image(for: key, priority: .visible) else { return }
            await store.loader.prefetch(neighbours)
            self?.reveal(loaded.image, for: id, fading: loaded.origin != .memory)
        }
    }

    private func setAspectRatio(_ aspect: CGFloat, for id: ImageID) {
        guard id == zoomImageID else { return }
        aspectRatio = aspect
        UIView.animate(withDuration: 0.25) { self.layOutPhoto() }
    }

    private func reveal(_ pixels: PixelImage, for id: ImageID, fading: Bool) {
        guard id == zoomImageID, let image = image(from: pixels) else { return }
        if aspectRatio == nil { setAspectRatio(image.size.width / max(image.size.height, 1), for: id) }
        // A photo already shown (a resize after a rotation) is replaced without a fade.
        let fade = fading && photoView.image == nil
        UIView.transition(with: photoView, duration: fade ? 0.25 : 0, options: .transitionCrossDissolve) {
            self.photoView.image = image
        }
    }

    // MARK: Helpers

    private func photoID(at index: ItemIndex) -> ImageID? {
        store.photos.indices.contains(index.item) ? store.photos[index.item] : nil
    }

    /// The photo fitted in the screen, at the screen's scale.
    private func photoKey(for id: ImageID) -> ThumbnailKey? {
        let scale = max(traitCollection.displayScale, 1)
        guard let size = try? ThumbnailSize(points: view.bounds.size, scale: scale, mode: .fit) else { return nil }
        return ThumbnailKey(id: id, size: size)
    }

    private func image(from pixels: PixelImage) -> UIImage? {
        pixels.makeCGImage().map { UIImage(cgImage: $0, scale: max(traitCollection.displayScale, 1), orientation: .up) }
    }
}
#endif
