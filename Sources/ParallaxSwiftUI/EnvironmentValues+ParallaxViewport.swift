#if canImport(SwiftUI)
#if canImport(CoreGraphics)
import CoreGraphics
#endif
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

private struct ParallaxViewportSizeKey: EnvironmentKey {
    static let defaultValue: CGSize? = nil
}
#endif
