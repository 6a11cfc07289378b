#if canImport(UIKit)
import ParallaxHosting
import ParallaxImages
import ParallaxUIKit
import UIKit

/// Loading that follows the scroll view, with a flow layout: what is on
/// screen, where a fling lands and two screens ahead load first. The
/// closure that names a photo is given the view controller (held weakly),
/// so it never captures `self` and the view controller is released.
final class PhotoFlowViewController: UICollectionViewController {
    struct Photo { let id: ImageID }
    var photos: [Photo] = []
    let loader: ImageLoader

    init(loader: ImageLoader) {
        self.loader = loader
        super.init(collectionViewLayout: UICollectionViewFlowLayout())
    }

    required init?(coder: NSCoder) { nil }

    override func viewDidLoad() {
        super.viewDidLoad()
        let parallax = ParallaxController.attach(to: collectionView)
        parallax.followLoading(ViewportLoading(loader: loader), owner: self) { owner, index in
            owner.photos[index.item].id
        }
    }
}
#endif
