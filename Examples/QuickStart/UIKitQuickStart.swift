#if canImport(UIKit)
import ParallaxUIKit
import UIKit

/// A grid of photos whose pictures lag a little behind their cells as they
/// scroll. The cell opts in by conforming to ParallaxCell; one line attaches
/// the parallax controller.
final class PhotoGridCell: UICollectionViewCell, ParallaxCell {
    let parallaxView = ParallaxImageView()              // clips, sizes and moves the photo

    override init(frame: CGRect) {
        super.init(frame: frame)
        parallaxView.frame = contentView.bounds
        parallaxView.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        contentView.addSubview(parallaxView)
    }

    required init?(coder: NSCoder) { nil }
}

final class PhotoGridViewController: UICollectionViewController {
    var photos: [UIImage] = []

    init() { super.init(collectionViewLayout: ParallaxCollectionViewLayout.grid()) }   // or any layout
    required init?(coder: NSCoder) { nil }

    override func viewDidLoad() {
        super.viewDidLoad()
        collectionView.register(PhotoGridCell.self, forCellWithReuseIdentifier: "photo")
        ParallaxController.attach(to: collectionView)   // every visible ParallaxCell now moves
    }

    override func collectionView(_ view: UICollectionView, numberOfItemsInSection section: Int) -> Int {
        photos.count
    }

    override func collectionView(_ view: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        let cell = view.dequeueReusableCell(withReuseIdentifier: "photo", for: indexPath)
        (cell as? PhotoGridCell)?.parallaxView.setImage(photos[indexPath.item])
        return cell
    }
}
#endif
