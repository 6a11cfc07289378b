import Foundation

/// Frame times for the HUD and the benchmark: frames per second and the
/// 50th/99th percentile of the last frames.
package struct FrameStatistics: Sendable {
    private var times: [Double] = []
    private let window: Int
    package private(set) var count = 0

    package init(window: Int = 240) { self.window = max(window, 1) }

    /// Records one frame that took `seconds`.
    package mutating func record(_ seconds: Double) {
        count += 1
        times.append(seconds)
        if times.count > window { times.removeFirst(times.count - window) }
    }

    /// The `fraction` percentile (0…1) of the recorded frame times, in seconds.
    package func percentile(_ fraction: Double) -> Double {
        guard !times.isEmpty else { return 0 }
        let sorted = times.sorted()
        let index = min(max(Int((Double(sorted.count - 1) * fraction).rounded()), 0), sorted.count - 1)
        return sorted[index]
    }

    /// Frames per second over the recorded frames.
    package var framesPerSecond: Double {
        let total = times.reduce(0, +)
        return total > 0 ? Double(times.count) / total : 0
    }
}
