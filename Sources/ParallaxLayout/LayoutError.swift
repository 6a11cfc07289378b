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

    public var description: String {
        switch self {
        case let .invalidLength(name, value, minimum, inclusive):
            return "\(name) must be a finite number \(inclusive ? "≥" : ">") \(minimum), got \(value)"
        case let .invalidCount(name, value, minimum):
            return "\(name) must be at least \(minimum), got \(value)"
        }
    }

    static func require(_ value: Double, _ name: String, atLeast minimum: Double = 0,
                        inclusive: Bool = true) throws(LayoutError) {
        let ok = value.isFinite && (inclusive ? value >= minimum : value > minimum)
        if !ok { throw .invalidLength(name: name, value: value, minimum: minimum, inclusive: inclusive) }
    }

    static func require(_ value: Int, _ name: String, atLeast minimum: Int) throws(LayoutError) {
        if value < minimum { throw .invalidCount(name: name, value: value, minimum: minimum) }
    }
}
