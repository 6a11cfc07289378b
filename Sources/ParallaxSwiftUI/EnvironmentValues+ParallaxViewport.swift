#if canImport(SwiftUI)
#if canImport(CoreGraphics)
import CoreGraphics
#endif
import ParallaxCore
import SwiftUI

extension EnvironmentValues {
    /// The size of the scroll view around this view, published by
    /// ``SwiftUI/View/parallaxScrollContainer()``; `nil` outside one, or
    /// before it has been measured.
    ///
    /// Parallax views read it before iOS 17, together with their frame in
    /// ``ParallaxScrollContainer/coordinateSpace``, to know the viewport.
    var parallaxViewportSize: CGSize? {
        get { self[ParallaxViewportSizeKey.self] }
        set { self[ParallaxViewportSizeKey.self] = newValue }
    }
}

extension EnvironmentValues {
    /// The edges of the scroll view that its safe area covers (bars, the
    /// notch), published by ``SwiftUI/View/parallaxScrollContainer()``:
    /// the effect is measured against the rest, as in UIKit.
    var parallaxObscuredInsets: ParallaxCore.EdgeInsets {
        get { self[ParallaxObscuredInsetsKey.self] }
        set { self[ParallaxObscuredInsetsKey.self] = newValue }
    }
}

private struct ParallaxObscuredInsetsKey: EnvironmentKey {
    static let defaultValue = ParallaxCore.EdgeInsets.zero
}

private struct ParallaxViewportSizeKey: EnvironmentKey {
    static let defaultValue: CGSize? = nil
}
#endif
