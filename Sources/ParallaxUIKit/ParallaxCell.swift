#if canImport(UIKit)
import ParallaxCore
import UIKit

/// A cell (or a section header or footer, or any view in a plain scroll
/// view) that shows parallax.
///
/// The opt-in is the conformance: a ``ParallaxController`` gives every
/// visible conforming view its placement and never touches any other.
/// This is Kurutepe's one-method protocol (`updateWithParallaxOffset:`,
/// Kurutepe's parallax post), typed: instead of an offset to interpret, the cell names the
/// view that shows its moving content, and the controller sizes and moves
/// the content inside it.
///
/// ```swift
/// final class PhotoCell: UICollectionViewCell, ParallaxCell {
///     let parallaxView = ParallaxImageView()
///     // add parallaxView to contentView and pin it to the edges
/// }
/// ```
@MainActor
public protocol ParallaxCell: UIView {
    /// The kind of view that shows the moving content: ``ParallaxView``, or
    /// ``ParallaxImageView`` for photos from the pipeline.
    associatedtype ParallaxContentView: ParallaxView

    /// The view whose bounds the effect is measured on and whose content it
    /// moves. It clips its content, so no edge of the photo ever shows.
    var parallaxView: ParallaxContentView { get }
}
#endif
