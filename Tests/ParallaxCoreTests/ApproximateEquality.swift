import Foundation
import Testing
@testable import ParallaxCore

infix operator ≈: ComparisonPrecedence

/// Equal to within 1e-9: for values computed along different but exact paths.
func ≈ (a: CGFloat, b: CGFloat) -> Bool { abs(a - b) <= 1e-9 }
