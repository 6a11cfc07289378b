#if canImport(UIKit)
import ParallaxHosting
import ParallaxImages
import ParallaxUIKit
import UIKit

/// A photo with its title. Conforming to `ParallaxCell` is the whole opt-in:
/// the controller moves the photo inside `parallaxView`.
final class PhotoCell: UICollectionViewCell, ParallaxCell {
    static let reuseIdentifier = "PhotoCell"

    let parallaxView = ParallaxImageView()
    private let titleLabel = UILabel()

    override init(frame: CGRect) {
        super.init(frame: frame)
        parallaxView.uncachedPlaceholder = PlaceholderArt.mountains
        parallaxView.translatesAutoresizingMaskIntoConstraints = false
        titleLabel.translatesAutoresizingMaskIntoConstraints = false
        titleLabel.adjustsFontForContentSizeCategory = true
        contentView.addSubview(parallaxView)
        contentView.addSubview(titleLabel)
        NSLayoutConstraint.activate([
            parallaxView.leadingAnchor.constraint(equalTo: contentView.leadingAnchor),
            parallaxView.trailingAnchor.constraint(equalTo: contentView.trailingAnchor),
            parallaxView.topAnchor.constraint(equalTo: contentView.topAnchor),
            parallaxView.bottomAnchor.constraint(equalTo: contentView.bottomAnchor),
            titleLabel.leadingAnchor.constraint(equalTo: contentView.leadingAnchor, constant: 8),
            titleLabel.trailingAnchor.constraint(lessThanOrEqualTo: contentView.trailingAnchor, constant: -8),
            titleLabel.bottomAnchor.constraint(equalTo: contentView.bottomAnchor, constant: -6),
        ])
        isAccessibilityElement = true
    }

    required init?(coder: NSCoder) {
        return nil
    }

    func show(_ id: ImageID, using requests: ImageRequester<ObjectIdentifier>) {
        parallaxView.setImage(id, using: requests)
        let title = (id.rawValue as NSString).deletingPathExtension
        // RolfHendriks' UICollectionView-Demo's outlined titles: white text with a dark outline, readable on any photo.
        titleLabel.attributedText = NSAttributedString(string: title, attributes: [
            .font: UIFont.preferredFont(forTextStyle: .headline),
            .foregroundColor: UIColor.white,
            .strokeColor: UIColor.black,
            .strokeWidth: -3.0,
        ])
        accessibilityLabel = title
    }

    override func prepareForReuse() {
        super.prepareForReuse()
        parallaxView.cancelImageRequest()
    }

    // RolfHendriks' UICollectionView-Demo's tap feedback: the photo dims while pressed.
    override var isHighlighted: Bool {
        didSet { parallaxView.alpha = isHighlighted ? 0.6 : 1 }
    }
}

/// The illustration shown while a photo downloads.
enum PlaceholderArt {
    @MainActor static let mountains: UIImage = {
        let size = CGSize(width: 120, height: 90)
        return UIGraphicsImageRenderer(size: size).image { context in
            UIColor(white: 0.22, alpha: 1).setFill()
            context.fill(CGRect(origin: .zero, size: size))
            let peaks = UIBezierPath()
            peaks.move(to: CGPoint(x: 10, y: 75))
            peaks.addLine(to: CGPoint(x: 45, y: 30))
            peaks.addLine(to: CGPoint(x: 65, y: 55))
            peaks.addLine(to: CGPoint(x: 80, y: 40))
            peaks.addLine(to: CGPoint(x: 110, y: 75))
            peaks.close()
            UIColor(white: 0.45, alpha: 1).setFill()
            peaks.fill()
            UIColor(white: 0.6, alpha: 1).setFill()
            UIBezierPath(ovalIn: CGRect(x: 82, y: 14, width: 14, height: 14)).fill()
        }
    }()
}
#endif
