#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

/// Why a layout could not be built from its configuration.
///
/// Layouts validate their configuration once, when they are built, and
/// answer every later query without failing.
public enum LayoutError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A length that must be a finite number and at least `minimum`
    /// (or above it, when `inclusive` is false) was not.
    case invalidLength(name: String, value: Double, minimum: Double, inclusive: Bool)
    /// A count that must be at least `minimum` was not.
    case invalidCount(name: String, value: Int, minimum: Int)
    /// A count that must lie within `range` did not.
    case countOutsideRange(name: String, value: Int, range: ClosedRange<Int>)

    /// A sentence naming the value, what it must be and what it was, as in
    /// `spacing.width must be a finite number ≥ 0.0, got -8.0`.
    public var description: String {
        switch self {
        case let .invalidLength(name, value, minimum, inclusive):
            return "\(name) must be a finite number \(inclusive ? "≥" : ">") \(minimum), got \(value)"
        case let .invalidCount(name, value, minimum):
            return "\(name) must be at least \(minimum), got \(value)"
        case let .countOutsideRange(name, value, range):
            return "\(name) must be within \(range.lowerBound)...\(range.upperBound), got \(value)"
        }
    }

    static func require(_ value: Double, _ name: String, atLeast minimum: Double = 0,
                        inclusive: Bool = true) throws(LayoutError) {
        let ok = value.isFinite && (inclusive ? value >= minimum : value > minimum)
        if !ok { throw .invalidLength(name: name, value: value, minimum: minimum, inclusive: inclusive) }
    }

    /// Every edge of `insets` is a finite number ≥ 0.
    static func require(_ insets: EdgeInsets, _ name: String) throws(LayoutError) {
        try require(Double(insets.top), "\(name).top")
        try require(Double(insets.left), "\(name).left")
        try require(Double(insets.bottom), "\(name).bottom")
        try require(Double(insets.right), "\(name).right")
    }

    /// Both sides of `size` are finite numbers ≥ 0.
    static func require(_ size: CGSize, _ name: String) throws(LayoutError) {
        try require(Double(size.width), "\(name).width")
        try require(Double(size.height), "\(name).height")
    }

    static func require(_ value: Int, _ name: String, atLeast minimum: Int) throws(LayoutError) {
        if value < minimum { throw .invalidCount(name: name, value: value, minimum: minimum) }
    }
}

/// The adjustments a layout made while placing items, kept for the app to
/// report (layouts never log): the first 1,000, and how many in all.
struct DiagnosticLog: Sendable, Hashable {
    private(set) var entries: [LayoutDiagnostic] = []
    private(set) var count = 0

    mutating func record(_ diagnostic: LayoutDiagnostic) {
        count += 1
        if entries.count < 1000 { entries.append(diagnostic) }
    }
}
