#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation

// CoreGraphics' CGPoint, CGSize and CGRect are Hashable in swift-corelibs-foundation
// but only Equatable in Apple SDKs before iOS 18, so the geometry value types
// that store them spell out their Hashable conformance with these helpers.
// `package`, not public: they are the toolkit's own plumbing, not API.
// Equal values hash equally: `-0.0 == 0.0` and both hash the same in Double.

extension Hasher {
    package mutating func combine(point: CGPoint) {
        combine(point.x)
        combine(point.y)
    }

    package mutating func combine(size: CGSize) {
        combine(size.width)
        combine(size.height)
    }

    package mutating func combine(rect: CGRect) {
        combine(point: rect.origin)
        combine(size: rect.size)
    }
}
