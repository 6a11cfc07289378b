#if canImport(SwiftUI)
import ParallaxHosting

/// One layer of a ``LayeredParallaxBackground``, as the view builder that
/// draws it sees it: which layer (`index`, 0 at the bottom), how fast it
/// moves (`speed`, after intensity and Reduce Motion), the size to draw its
/// art at (`contentSize`: the layer's content extent along the axis, or one
/// loop period plus a viewport when it loops; the viewport across it), and
/// the loop period when it loops (draw one period, then a copy of its first
/// viewport: the background wraps the offset so the seam never shows).
/// Not the offset: the background moves the art itself, so the art is not
/// built again while scrolling.
public typealias ParallaxBackgroundLayer = LayerArt
#endif
