#if canImport(UIKit)
import ParallaxCore
import ParallaxHosting
import ParallaxImages
import ParallaxLayout
import ParallaxSwiftUI
import ParallaxUIKit
import SwiftUI
import UIKit

/// RolfHendriks' UICollectionView-Demo's photo browser: a grid and a list of the same photos that
/// switch into each other keeping the photo you were looking at, depth
/// parallax in every cell, snapping, and a simulated server you can reload
/// or erase to watch placeholders and cross-fades.
///
/// Everything ParallaxKit adds is in `viewDidLoad`: a ParallaxKit layout
/// for the collection view and one line to attach a parallax controller.
/// A tapped photo opens in a `PhotoDetailViewController` with UIKit's zoom
/// transition on iOS 18 (`ParallaxZoomSource`: from the picture as the
/// tile draws it, and back to the tile of the photo shown when it closes),
/// with the standard push before.
final class GalleryViewController: UIViewController, UICollectionViewDataSource, UICollectionViewDelegate {
    private let store: PhotoStore
    private var isList = false
    private lazy var collectionView = UICollectionView(frame: .zero, collectionViewLayout: Self.layout(list: false))
    private let messageLabel = UILabel()
    private lazy var zoomSource = ParallaxZoomSource(collectionView: collectionView)
    /// Set while a tapped photo's header is read, so a second tap opens nothing.
    private var isOpening = false

    init(store: PhotoStore) {
        self.store = store
        super.init(nibName: nil, bundle: nil)
        title = "Photos"
    }

    required init?(coder: NSCoder) {
        return nil
    }

    private static func layout(list: Bool) -> ParallaxCollectionViewLayout {
        list ? .list() : .grid()
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .black
        collectionView.backgroundColor = .black
        collectionView.dataSource = self
        collectionView.delegate = self
        collectionView.register(PhotoCell.self, forCellWithReuseIdentifier: PhotoCell.reuseIdentifier)
        collectionView.frame = view.bounds
        collectionView.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        view.addSubview(collectionView)

        let parallax = ParallaxController.attach(to: collectionView, effect: .gridDefault)
        // Loading follows the viewport: what is on screen and where a fling lands load first. The closure
        // is given this view controller (held weakly), so it captures nothing and cannot keep it alive.
        parallax.followLoading(ViewportLoading(loader: store.loader), owner: self) { owner, index in
            owner.store.photos.indices.contains(index.item) ? owner.store.photos[index.item] : nil
        }

        messageLabel.textColor = .lightGray
        messageLabel.numberOfLines = 0
        messageLabel.textAlignment = .center
        messageLabel.frame = view.bounds.insetBy(dx: 24, dy: 0)
        messageLabel.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        view.addSubview(messageLabel)

        navigationItem.leftBarButtonItem = UIBarButtonItem(
            title: "List", style: .plain, target: self, action: #selector(toggleLayout))
        navigationItem.rightBarButtonItem = UIBarButtonItem(
            image: UIImage(systemName: "ellipsis.circle"), menu: UIMenu(children: [
                UIAction(title: "Reload from server", image: UIImage(systemName: "arrow.clockwise")) { [weak self] _ in
                    self?.reload(erasing: false)
                },
                UIAction(title: "Erase everything", image: UIImage(systemName: "trash"), attributes: .destructive) {
                    [weak self] _ in self?.reload(erasing: true)
                },
                UIAction(title: "SwiftUI version", image: UIImage(systemName: "swift")) { [weak self] _ in
                    self?.showSwiftUIScreen()
                },
            ]))

        Task {
            await store.loadPhotoList()
            messageLabel.text = store.problem
            collectionView.reloadData()
        }
    }

    /// Grid ↔ list. The new layout keeps the first visible photo in place
    /// (ParallaxCollectionViewLayout's place keeping), and the effect
    /// switches to the list's stronger default.
    @objc private func toggleLayout() {
        isList.toggle()
        navigationItem.leftBarButtonItem?.title = isList ? "Grid" : "List"
        collectionView.parallaxController?.configuration.effect = isList ? .listDefault : .gridDefault
        collectionView.setCollectionViewLayout(Self.layout(list: isList), animated: true)
    }

    private func reload(erasing: Bool) {
        Task {
            if erasing { await store.eraseAll() } else { await store.reloadAll() }
            collectionView.reloadData()
        }
    }

    private func showSwiftUIScreen() {
        // Made here, before the screen's first frame, so photos already in memory show in that frame.
        let loading = ParallaxImageLoading(loader: store.loader)
        let screen = UIHostingController(rootView: SwiftUIGalleryScreen(photos: store.photos, loading: loading))
        screen.title = "SwiftUI"
        navigationController?.pushViewController(screen, animated: true)
    }

    // MARK: UICollectionViewDataSource

    func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
        store.photos.count
    }

    func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        let cell = collectionView.dequeueReusableCell(withReuseIdentifier: PhotoCell.reuseIdentifier, for: indexPath)
        if let cell = cell as? PhotoCell, store.photos.indices.contains(indexPath.item) {
            cell.show(store.photos[indexPath.item], using: store.requests)
        }
        return cell
    }

    // MARK: UICollectionViewDelegate

    func collectionView(_ collectionView: UICollectionView, didSelectItemAt indexPath: IndexPath) {
        collectionView.deselectItem(at: indexPath, animated: true)
        guard let cell = collectionView.cellForItem(at: indexPath) as? PhotoCell else { return }
        // A photo that failed to load is retried when tapped.
        if cell.parallaxView.failureMessage != nil {
            cell.parallaxView.retryImage()
            return
        }
        open(ItemIndex(item: indexPath.item, section: indexPath.section), from: cell)
    }

    /// Opens the photo of `index` in the detail view, zooming from `cell`'s
    /// picture. The photo's shape is read first (its header, once), so the
    /// zoom lines the photo up with the tile's crop.
    private func open(_ index: ItemIndex, from cell: PhotoCell) {
        guard !isOpening, let id = cell.parallaxView.imageID,
              let paging = DetailPaging(opening: index, itemCounts: [store.photos.count]) else { return }
        isOpening = true
        Task {
            let aspectRatio = await store.aspectRatio(of: id)
            isOpening = false
            guard view.window != nil else { return }            // the user left the grid meanwhile
            // The cell may have been reused while the header was read: its thumbnail only if it still shows the photo.
            let tile = cell.parallaxView
            let thumbnail = tile.imageID == id ? tile.imageView.image.map {
                DetailThumbnail(image: $0, contentSize: tile.zoomContentFrame.size)
            } : nil
            let detail = PhotoDetailViewController(store: store, paging: paging, aspectRatio: aspectRatio,
                                                   thumbnail: thumbnail)
            #if canImport(SwiftUICore)                // Xcode 16's SDKs: UIKit's zoom transition
            if #available(iOS 18.0, *) {
                detail.preferredTransition = zoomSource.zoomTransition()
            }
            #endif
            navigationController?.pushViewController(detail, animated: true)
        }
    }
}
#endif
