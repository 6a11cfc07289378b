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
/// evaluated at render time without state or layout: the picture is laid
/// out from the item alone, and a window effect's viewport-long content is
/// reached by scaling it there. Before that the view
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
    @Environment(\.parallaxPin) private var pin
    @Environment(\.parallaxZoomSource) private var zoomSource

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
    /// offset and clipped to the view's bounds: one accessibility element
    /// the size of that frame.
    public var body: some View {
        let scroller = ParallaxScroller(effect: effect, axis: axis, intensity: intensity,
                                        environmentDirection: layoutDirection, reduceMotion: reduceMotion)
        #if canImport(SwiftUI, _version: 5.0)
        if #available(iOS 17, macOS 14, tvOS 17, visionOS 1, *) {
            let obscured = obscuredInsets, pin = self.pin
            GeometryReader { proxy in
                // Laid out from the item alone, so layout never depends on the scroll position: depth
                // content is the item plus its overscan; a window effect's viewport-long content is
                // reached at render time below, by scaling, where the viewport is read.
                let laidOut = scroller.placement(forMeasuredFrame: CGRect(origin: .zero, size: proxy.size), in: nil)
                    .contentSize
                picture(sized: laidOut, in: proxy.size)
                    .visualEffect { content, geometry in
                        let placement = pin.map { scroller.placement(pinnedAt: $0, obscured: obscured) }
                            ?? scroller.placement(of: geometry, obscured: obscured)
                        return content
                            .scaleEffect(fillingScale(from: laidOut, to: placement.contentSize))
                            .offset(x: placement.offset.x, y: placement.offset.y)
                    }
            }
            .clipped()
            .contentShape(Rectangle())                           // taps: the frame, not the overscan
            .accessibilityElement(children: .combine)            // VoiceOver: the frame too, never a neighbour's
            .environment(\.layoutDirection, .leftToRight)     // as in `measuredBody`
        } else {
            measuredBody(scroller)
        }
        #else
        measuredBody(scroller)
        #endif
    }

    /// The view before iOS 17: the frame in the container's coordinate
    /// space, read in layout as the scroll view moves (a `GeometryReader`,
    /// no state), positions the picture.
    private func measuredBody(_ scroller: ParallaxScroller) -> some View {
        GeometryReader { proxy in
            let placement = pin.map { scroller.placement(pinnedAt: $0, obscured: obscuredInsets) }
                ?? scroller.placement(
                    forMeasuredFrame: proxy.frame(in: ParallaxScrollContainer.coordinateSpace),
                    in: scroller.window(viewportSize.map { CGRect(origin: .zero, size: $0) }, obscured: obscuredInsets))
            picture(sized: placement.contentSize, in: proxy.size)
                .offset(x: placement.offset.x, y: placement.offset.y)
        }
        .clipped()
        .contentShape(Rectangle())
        .accessibilityElement(children: .combine)
        // Placed left to right, like the frames the placement comes from
        // (the core mirrors right-to-left anchors itself).
        .environment(\.layoutDirection, .leftToRight)
    }

    /// The picture scaled to fill `contentSize`, centred on the item of
    /// `itemSize`: the placement's content frame before its offset, whose
    /// centre is the item's centre. That frame is the zoom transition's
    /// source, if one is asked for (``SwiftUI/View/parallaxZoomSource(id:in:)``).
    private func picture(sized contentSize: CGSize, in itemSize: CGSize) -> some View {
        image?
            .resizable()
            .scaledToFill()
            .frame(width: contentSize.width, height: contentSize.height)
            .modifier(ParallaxZoomSourceMarker(tag: zoomSource))
            .frame(width: itemSize.width, height: itemSize.height)
    }
}

/// The uniform scale that makes a picture filling `laidOut` fill
/// `target` as well (both centred on the item): 1 when they are equal,
/// as for depth, which is laid out at its content size.
private func fillingScale(from laidOut: CGSize, to target: CGSize) -> CGFloat {
    guard laidOut.width > 0, laidOut.height > 0 else { return 1 }
    let scale = max(target.width / laidOut.width, target.height / laidOut.height)
    return scale.isFinite && scale > 0 ? scale : 1
}
#endif
