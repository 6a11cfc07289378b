#if os(Linux)
/// The few statistics the report needs.
enum Statistics {
    /// The median of `values` (the mean of the middle two for an even
    /// count); zero for none.
    static func median(_ values: [Duration]) -> Duration {
        guard !values.isEmpty else { return .zero }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    /// The median of `values`; zero for none.
    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    /// The arithmetic mean of `values`; zero for none.
    static func mean(_ values: [Double]) -> Double {
        values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
    }
}
#endif
