/// The checks of thumbnails the disk cache kept of photos on a server,
/// shown before their photo's version was asked
/// (``ImageLoader/KeptThumbnailCheck/afterShowing``): which photos are
/// being asked after, the thumbnails waiting for each answer, and the
/// answers so far.
///
/// A photo is asked after once, however many of its thumbnails (sizes)
/// were shown meanwhile; its answer stands for the loader's life (until a
/// reload or an erase), so a thumbnail read from disk again later is
/// judged without a request. A value owned by the loader.
///
/// Complexity: O(1) per thumbnail shown, O(k) per answer for the k
/// thumbnails that waited for it.
struct KeptThumbnailChecks {
    /// What to do about a kept thumbnail just shown.
    enum Decision: Equatable {
        /// Ask the photo's version: no one has yet.
        case ask
        /// Nothing yet: the photo's version is being asked, and this
        /// thumbnail is judged with the answer.
        case wait
        /// Nothing: it was made from the photo as it is now.
        case current
        /// Load it again: the photo is now at this version.
        case changed(to: String)
    }

    /// Each photo's version as its answer said.
    private var answers: [ImageID: String] = [:]
    /// The thumbnails shown of each photo being asked after, with the version each was made from.
    private var waiting: [ImageID: [(key: ThumbnailKey, version: String)]] = [:]

    /// Photos being asked after.
    var pendingCount: Int { waiting.count }

    /// Notes a thumbnail of `key` made from the photo's `version` shown.
    mutating func shown(_ key: ThumbnailKey, madeFrom version: String) -> Decision {
        if let answer = answers[key.id] { return answer == version ? .current : .changed(to: answer) }
        if waiting[key.id] != nil {
            waiting[key.id]?.append((key, version))
            return .wait
        }
        waiting[key.id] = [(key, version)]
        return .ask
    }

    /// Takes the answer for photo `id`: its version now, or `nil` if it
    /// could not be told (the server unreachable, no validator), which
    /// leaves what was shown. Returns the thumbnails that waited for it
    /// and were made from another version.
    mutating func answered(_ id: ImageID, version: String?) -> [ThumbnailKey] {
        let shown = waiting.removeValue(forKey: id) ?? []
        guard let version else { return [] }
        answers[id] = version
        return shown.filter { $0.version != version }.map(\.key)
    }

    /// Forgets every answer (the pictures were reloaded or erased).
    mutating func removeAll() {
        answers.removeAll()
        waiting.removeAll()
    }
}
