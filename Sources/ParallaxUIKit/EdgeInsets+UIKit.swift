#if canImport(UIKit)
import ParallaxCore
import UIKit

extension EdgeInsets {
    /// UIKit's insets, edge for edge (both are physical: top, left,
    /// bottom, right).
    init(_ insets: UIEdgeInsets) {
        self.init(top: insets.top, left: insets.left, bottom: insets.bottom, right: insets.right)
    }
}
#endif
