#if canImport(SwiftUI)
#if canImport(CoreGraphics)
import CoreGraphics
#endif
import ParallaxCore
import SwiftUI

/// An image that fills its frame and moves against it while a scroll view
/// scrolls it past: the photo cell of a parallax list or grid.
///
/// Give it a frame and put it in a `ScrollView`:
///
///     ScrollView {
///         LazyVStack {
///             ForEach(photos) { photo in
///                 ParallaxImage(Image(photo.name))
///                     .frame(height: 220)
///             }
///         }
///     }
///     .parallaxScrollContainer()      // needed before iOS 17 only
///
/// The image is scaled to fill the content frame of the core's
/// `ParallaxPlacement` (the item plus the overscan the effect needs: `2P`
/// longer for `.depth(maxOffset: P)`, viewport-long for `.window`), centred
/// on the view, moved by the placement's offset and clipped to the view's
/// bounds, so no edge of the picture ever shows. Decode pictures at that
/// content size (`ParallaxScroller.placement(forItemFrame:in:)` gives it
/// for a cell's frame) times the screen scale: it never changes while
/// scrolling.
///
/// It follows the environment: no motion under Reduce Motion (the picture
/// keeps its size), anchors mirrored for horizontal scrolling right to left.
/// On iOS 17, macOS 14, tvOS 17 and later the motion is a visual effect,
/// evaluated at render time without state or layout. Before that the view
/// reads its frame in the coordinate space of
/// ``SwiftUI/View/parallaxScrollContainer()``, which the scroll view then
/// needs; without it the picture stays at rest.
public struct ParallaxImage: View {
    /// `nil` for a picture that could not be made (an empty `PixelImage`):
    /// the view then shows nothing.
    private let image: Image?
    private let effect: ParallaxEffect
    private let axis: ScrollAxis
    private let intensity: CGFloat

    @Environment(\.accessibilityReduceMotion) private var reduceMotion
    @Environment(\.layoutDirection) private var layoutDirection
    @Environment(\.parallaxViewportSize) private var viewportSize
    @Environment(\.parallaxObscuredInsets) private var obscuredInsets

    /// An image that fills the view with parallax.
    ///
    /// - Parameters:
    ///   - image: the picture; it is made resizable and scaled to fill.
    ///   - effect: how the picture moves; depth of 30 pt by default.
    ///   - axis: the axis the scroll view scrolls along.
    ///   - intensity: multiplies the motion (1 as designed, 0 none).
    public init(_ image: Image, effect: ParallaxEffect = .default, axis: ScrollAxis = .vertical, intensity: CGFloat = 1) {
        self.init(optionalImage: image, effect: effect, axis: axis, intensity: intensity)
    }

    /// The designated initializer: also takes no image at all.
    init(optionalImage image: Image?, effect: ParallaxEffect, axis: ScrollAxis, intensity: CGFloat) {
        self.image = image
        self.effect = effect
        self.axis = axis
        self.intensity = intensity
    }

    /// The picture scaled to fill the placement's content frame, moved by its
    /// offset and clipped to the view's bounds.
    public var body: some View {
        let scroller = ParallaxScroller(effect: effect, axis: axis, intensity: intensity,
                                        environmentDirection: layoutDirection, reduceMotion: reduceMotion)
        #if canImport(SwiftUI, _version: 5.0)
        if #available(iOS 17, macOS 14, tvOS 17, visionOS 1, *) {
            let obscured = obscuredInsets
            GeometryReader { proxy in
                // Depth content depends on the item alone; only a window
                // effect reads the scroll view here, for its size.
                let viewport = scroller.contentSizeDependsOnViewport
                    ? scroller.window(proxy.bounds(of: .scrollView(axis: axis.swiftUIAxis)), obscured: obscured) : nil
                let item = CGRect(origin: .zero, size: proxy.size)
                picture(sized: scroller.placement(forMeasuredFrame: item, in: viewport).contentSize, in: proxy.size)
                    .visualEffect { content, geometry in
                        let offset = scroller.placement(of: geometry, obscured: obscured).offset
                        return content.offset(x: offset.x, y: offset.y)
                    }
            }
            .clipped()
            .contentShape(Rectangle())                           // taps and VoiceOver: the frame, not the overscan
            .environment(\.layoutDirection, .leftToRight)     // as in `measuredBody`
        } else {
            measuredBody(scroller)
        }
        #else
        measuredBody(scroller)
        #endif
    }

    /// The view before iOS 17: the frame in the container's coordinate
    /// space, read on every scroll, positions the picture.
    private func measuredBody(_ scroller: ParallaxScroller) -> some View {
        GeometryReader { proxy in
            let placement = scroller.placement(
                forMeasuredFrame: proxy.frame(in: ParallaxScrollContainer.coordinateSpace),
                in: scroller.window(viewportSize.map { CGRect(origin: .zero, size: $0) }, obscured: obscuredInsets))
            picture(sized: placement.contentSize, in: proxy.size)
                .offset(x: placement.offset.x, y: placement.offset.y)
        }
        .clipped()
        .contentShape(Rectangle())
        // Placed left to right, like the frames the placement comes from
        // (the core mirrors right-to-left anchors itself).
        .environment(\.layoutDirection, .leftToRight)
    }

    /// The picture scaled to fill `contentSize`, centred on the item of
    /// `itemSize`: the placement's content frame before its offset, whose
    /// centre is the item's centre.
    private func picture(sized contentSize: CGSize, in itemSize: CGSize) -> some View {
        image?
            .resizable()
            .scaledToFill()
            .frame(width: contentSize.width, height: contentSize.height)
            .frame(width: itemSize.width, height: itemSize.height)
    }
}
#endif
