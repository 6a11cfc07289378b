import Foundation

/// An arrangement of the timeline being made on a background task
/// (``PhotoTimeline/ArrangementJob``), while the frames go on showing the
/// last one: a frame takes it once it is made (``take()``, O(1)), never
/// waits for it.
///
/// Made with it: each photo's position (``PhotoTimeline/Arrangement/positions(count:)``,
/// O(n) too), for the photos the job covers.
final class ArrangementInFlight: @unchecked Sendable {
    /// The order and grouping it is made in.
    let sort: PhotoSort, grouping: PhotoGrouping
    /// The made arrangement and its positions.
    typealias Made = (arrangement: PhotoTimeline.Arrangement, positions: [Int32])

    private let lock = NSLock()
    private var made: Made?
    private var task: Task<Void, Never>?

    /// Starts making `job`'s arrangement. The job is the task's alone, so
    /// its snapshot of the timeline (100,000 IDs at 100,000 photos, each
    /// released) is let go on the task's thread, not in a frame.
    init(_ job: consuming PhotoTimeline.ArrangementJob) {
        sort = job.sort
        grouping = job.grouping
        task = Task.detached(priority: .userInitiated) { [self, job] in
            let arrangement = job.make()
            let positions = arrangement.positions(count: job.count)
            lock.withLock { made = (arrangement, positions) }
        }
    }

    /// The arrangement, once made.
    func take() -> Made? {
        lock.withLock { made }
    }

    /// Returns once the arrangement is made (tests, and whoever must not go on without it).
    func finished() async {
        await lock.withLock { task }?.value
    }
}
