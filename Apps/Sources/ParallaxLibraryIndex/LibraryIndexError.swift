/// Why an index file was not used as found, and was rebuilt empty instead.
package enum IndexRebuildReason: Sendable, Hashable, CustomStringConvertible {
    /// The file is not an SQLite database (garbage, or the start of one cut short).
    case notADatabase(String)
    /// SQLite found the database damaged (a truncated file, a bad page).
    case damaged(String)
    /// An SQLite database of some other application (its `application_id`).
    case foreign(applicationID: Int32)
    /// Ours, in a layout a newer build wrote (its `user_version`).
    case newerLayout(Int32)
    /// Ours, in a layout an older build wrote.
    case olderLayout(Int32)
    /// Ours, for another library root (a copied cache folder, or two roots
    /// whose names hash alike).
    case otherLibrary(String)
    /// Another gallery on the same index rebuilt it while this one had it
    /// open: this one moved to the new file.
    case rebuiltElsewhere

    package var description: String {
        switch self {
        case .notADatabase(let message): "not an SQLite database (\(message))"
        case .damaged(let message): "damaged (\(message))"
        case .foreign(let id): "another application's database (application_id \(id))"
        case .newerLayout(let version): "written by a newer ParallaxKit (layout \(version))"
        case .olderLayout(let version): "written by an older ParallaxKit (layout \(version))"
        case .otherLibrary(let root): "the index of another library (\(root))"
        case .rebuiltElsewhere: "rebuilt by another gallery"
        }
    }
}

/// How ``LibraryIndex`` found its file when it opened it.
package enum IndexOpening: Sendable, Hashable, CustomStringConvertible {
    /// There was none (or an empty file): a new, empty index.
    case created
    /// Ours, for this library: its records are the library as last seen.
    case reopened
    /// Unusable: moved aside (the same name with `.unusable` added) and
    /// replaced by a new, empty index.
    case rebuilt(IndexRebuildReason)

    package var description: String {
        switch self {
        case .created: "created"
        case .reopened: "reopened"
        case .rebuilt(let reason): "rebuilt: the file was \(reason)"
        }
    }
}

/// Why the index could not do what it was asked.
package enum LibraryIndexError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file cannot be opened, read or written (no permission, no space,
    /// an I/O error, another gallery holding a lock past the busy timeout):
    /// the gallery goes on without an index.
    case unavailable(String)
    /// The file was found unusable while in use and the index is now a new,
    /// empty one (this call did nothing): list the library again.
    case rebuilt(IndexRebuildReason)

    package var description: String {
        switch self {
        case .unavailable(let message): "the library index cannot be used: \(message)"
        case .rebuilt(let reason): "the library index was rebuilt empty: the file was \(reason)"
        }
    }
}
