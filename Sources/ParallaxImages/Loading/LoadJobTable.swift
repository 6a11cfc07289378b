/// The loader's jobs: the one under way for each key, and the cancelled
/// ones still winding down.
///
/// Owns the rule that makes merging safe: a cancelled job stays listed
/// under its key (so the loader is not idle while its task ends) but is
/// not *live*, so a new request starts a new job instead of joining it;
/// the new job then takes the key, and the cancelled one moves to the
/// winding-down list, by identifier, until its task finishes.
///
/// All operations are O(1) (dictionary lookups), apart from ``current``,
/// which hands out the key → job dictionary itself.
struct LoadJobTable {
    /// The job under way for each key, cancelled ones included.
    private(set) var current: [ThumbnailKey: LoadJob] = [:]
    /// Cancelled jobs that a newer job for the same key replaced in
    /// `current` while their tasks were still winding down, by identifier.
    private var windingDown: [UInt64: LoadJob] = [:]

    /// Keys being loaded now (cancelled work that has not yet ended
    /// included, work already replaced left out).
    var count: Int { current.count }

    /// Whether no job exists at all, winding down or not.
    var isEmpty: Bool { current.isEmpty && windingDown.isEmpty }

    /// The work under way for `key`, unless it was cancelled: the job a
    /// new request for `key` joins.
    func live(for key: ThumbnailKey) -> LoadJob? {
        guard let job = current[key], !job.isCancelled else { return nil }
        return job
    }

    /// The job for `key` if it is the one created `identifier`th (and not
    /// replaced since).
    func job(for key: ThumbnailKey, identifier: UInt64) -> LoadJob? {
        guard let job = current[key], job.identifier == identifier else { return nil }
        return job
    }

    /// Lists `job` as the work for `key`; a cancelled job it replaces winds down.
    mutating func insert(_ job: LoadJob, for key: ThumbnailKey) {
        if let replaced = current[key] { windingDown[replaced.identifier] = replaced }
        current[key] = job
    }

    /// Takes out the job created `identifier`th for `key`, which has
    /// finished, wherever it is listed; `nil` if it is not.
    mutating func removeFinished(_ key: ThumbnailKey, identifier: UInt64) -> LoadJob? {
        if let job = current[key], job.identifier == identifier {
            current[key] = nil
            return job
        }
        return windingDown.removeValue(forKey: identifier)
    }

    /// Moves the (cancelled) job for `key` to the winding-down list, leaving
    /// the key free.
    mutating func windDown(_ key: ThumbnailKey) {
        guard let job = current.removeValue(forKey: key) else { return }
        windingDown[job.identifier] = job
    }
}
