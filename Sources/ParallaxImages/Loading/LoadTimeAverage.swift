/// How long a load has typically taken lately: an exponentially weighted
/// mean of load durations, each new one moving it a fifth of the way.
///
/// Written by the pipeline off the loader's actor and read synchronously
/// by surfaces (``ImageLoader/typicalLoadTime``), so it sits behind a lock
/// rather than in the actor. O(1) per record or read.
final class LoadTimeAverage: Sendable {
    /// How far each new duration moves the mean.
    static let weight = 0.2

    private let mean = Locked<Double?>(nil)

    /// An average with no load yet.
    init() {}

    /// The mean, `nil` before the first load.
    var value: Duration? { mean.withLock { $0 }.map { .seconds($0) } }

    /// Counts a load that took `duration`.
    func record(_ duration: Duration) {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        mean.withLock { mean in mean = mean.map { $0 + Self.weight * (seconds - $0) } ?? seconds }
    }
}
