/// The work for one thumbnail key, shared by everyone who asked for it:
/// one download and one decode however many requests wait.
///
/// Owns the requests waiting for the result (each a continuation, under
/// the identifier the loader gave the request), the work's current
/// priority, and its task. Merging is the loader's: a request for a key
/// whose job is live joins it, raising its priority if it is more urgent.
///
/// Owned and mutated by ``ImageLoader`` only (a class so that the job
/// table, the task's completion and cancellation all see one job).
final class LoadJob {
    /// How a waiting request receives the result.
    typealias Continuation = CheckedContinuation<Result<LoadedImage, ImageLoadingError>, Never>

    /// Unique, and increasing with the time the job was created: the
    /// slot queues serve older jobs first among equals.
    let identifier: UInt64
    /// The loader's epoch when the job started; a result from an earlier
    /// epoch (before a reload or erase) is delivered but never cached.
    let epoch: Int
    /// How urgently the work is wanted: the most urgent request that
    /// joined it, or what the last plan said.
    var priority: LoadPriority
    /// The pipeline run doing the work.
    var task: Task<Void, Never>?
    /// Whether its thumbnail replaces one shown already (a kept thumbnail
    /// found out of date): the loader announces it when it comes.
    var replacesShownThumbnail = false
    /// Cancelled work stays listed until it winds down; new requests must
    /// not join it.
    private(set) var isCancelled = false
    /// The requests waiting for the result, by request identifier.
    private var waiters: [UInt64: Continuation] = [:]

    /// A job created `identifier`th, at `priority`, in the loader's `epoch`.
    init(identifier: UInt64, priority: LoadPriority, epoch: Int) {
        self.identifier = identifier
        self.priority = priority
        self.epoch = epoch
    }

    /// Whether no request waits for the result (prefetched or planned work).
    var hasNoWaiters: Bool { waiters.isEmpty }

    /// Adds a request waiting for the result.
    func addWaiter(_ request: UInt64, _ continuation: Continuation) {
        waiters[request] = continuation
    }

    /// Takes out a request (it was cancelled), returning its continuation
    /// for the caller to resume; `nil` if it was not waiting here.
    func removeWaiter(_ request: UInt64) -> Continuation? {
        waiters.removeValue(forKey: request)
    }

    /// Takes out every waiting request, to deliver the result to.
    func takeWaiters() -> [Continuation] {
        defer { waiters.removeAll() }
        return Array(waiters.values)
    }

    /// Whether, under ``ImageLoader/ScrollAwayPolicy/cancel``, the last
    /// request leaving ends the work: only work that no plan still wants
    /// (on screen, or outside every range). A plan put work behind, ahead
    /// or landing on purpose, and decides about it.
    var endsWithItsLastRequest: Bool { priority.range == .visible || priority.range == .outside }

    /// Marks the job cancelled and cancels its task. Removing it from the
    /// slot queues is the loader's part.
    func cancel() {
        isCancelled = true
        task?.cancel()
    }
}
