#if canImport(UIKit)
import ParallaxCore
import ParallaxHosting
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
final class GalleryViewController: UIViewController, UICollectionViewDataSource, UICollectionViewDelegate {
    private let store: PhotoStore
    private var isList = false
    private lazy var collectionView = UICollectionView(frame: .zero, collectionViewLayout: Self.layout(list: false))
    private let messageLabel = UILabel()

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
        // A photo that failed to load is retried when tapped.
        guard let cell = collectionView.cellForItem(at: indexPath) as? PhotoCell,
              cell.parallaxView.failureMessage != nil else { return }
        cell.parallaxView.retryImage()
    }
}
#endif
