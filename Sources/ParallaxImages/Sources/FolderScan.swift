/// What a scan of a photo folder tree tells as it walks
/// (``FolderImageSource/scan(readingFileStatus:inBackground:waitingAfterFirstBatchFor:)``): the photos in batches,
/// then a report of what else it found and what it could not read.
public enum FolderScan {
    /// One step of a scan.
    public enum Event: Sendable, Equatable {
        /// Photos found since the last batch, in the walk's order.
        case photos([ListedPhoto])
        /// The walk is over (or was stopped by a limit); nothing follows.
        case finished(Report)
        /// The folder itself cannot be read; nothing follows.
        case failed(ImageSourceError)
    }

    /// What a finished scan found besides photos, and what it could not read.
    public struct Report: Sendable, Equatable {
        /// Photos listed (every ``Event/photos(_:)`` batch together).
        public var photoCount = 0
        /// Videos found and not shown (`mov`, `mp4`, `m4v`, …).
        public var videoCount = 0
        /// Other files found and not shown: sidecars (`xmp`, `aae`, `thm`),
        /// documents, pipes, anything that is neither photo nor video.
        public var otherFileCount = 0
        /// Folders read, the root included.
        public var folderCount = 0
        /// The first ``maximumProblemsKept`` problems, in the walk's order.
        public var problems: [Problem] = []
        /// Every problem, including those past ``maximumProblemsKept``.
        public var problemCount = 0
        /// Whether every folder was read: `false` when a limit stopped the
        /// walk or a folder could not be read (see ``problems``).
        public var isComplete = true
        /// Whether the batches came in tree order (folder by folder, names
        /// by their bytes, as ``FolderImageSource/imageIDs()`` returns
        /// them): `false` when photos reached only through a link to a
        /// folder came after the rest.
        public var isInTreeOrder = true

        /// How many problems a report keeps (it counts them all).
        public static let maximumProblemsKept = 1_000

        /// An empty report.
        public init() {}

        /// A line for a status bar or HUD naming what is not shown, such as
        /// "12 videos and 3 other files not shown", or `nil` when everything
        /// found is shown.
        public var notShownSummary: String? {
            var parts: [String] = []
            if videoCount > 0 { parts.append(videoCount == 1 ? "1 video" : "\(videoCount) videos") }
            if otherFileCount > 0 { parts.append(otherFileCount == 1 ? "1 other file" : "\(otherFileCount) other files") }
            return parts.isEmpty ? nil : parts.joined(separator: " and ") + " not shown"
        }

        mutating func record(_ problem: Problem) {
            problemCount += 1
            if problems.count < Self.maximumProblemsKept { problems.append(problem) }
            if problem.kind.leavesPhotosOut { isComplete = false }
        }
    }

    /// Something in the tree the scan did not follow or could not read,
    /// with where it is.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// What went wrong.
        public enum Kind: Sendable, Hashable {
            /// A folder that cannot be read (the reason from the system);
            /// everything else is listed.
            case unreadableFolder(String)
            /// A link to a folder the link is in: following it would never end.
            case linkLoop
            /// A link to a folder already listed under another path: its
            /// photos are listed once, there.
            case linkToListedFolder
            /// A link that leads outside the folder the user named: never followed.
            case linkOutsideFolder
            /// A link to nothing.
            case danglingLink
            /// A folder nested deeper than the limit (at most
            /// ``FolderImageSource/maximumDepth`` folders below the root): not read.
            case tooDeep(limit: Int)
            /// The walk stopped at the limit of photos
            /// (``FolderImageSource/maximumPhotoCount``); the rest is not listed.
            case tooManyPhotos(limit: Int)
            /// A server's listing stopped at the limit of folders (each is a
            /// request: ``HTTPImageSource/maximumFolderCount``); the rest is not read.
            case tooManyFolders(limit: Int)

            /// Whether photos may be missing from the listing because of this.
            var leavesPhotosOut: Bool {
                switch self {
                case .unreadableFolder, .tooDeep, .tooManyPhotos, .tooManyFolders: return true
                case .linkLoop, .linkToListedFolder, .linkOutsideFolder, .danglingLink: return false
                }
            }
        }

        /// The path relative to the folder, spelled as photo IDs are (`""`
        /// for the folder itself).
        public let path: String
        /// What went wrong there.
        public let kind: Kind

        /// A problem of `kind` at `path`.
        public init(path: String, kind: Kind) {
            self.path = path
            self.kind = kind
        }

        /// A sentence for a log or a status line, such as
        /// "2024/old: the folder cannot be read (Permission denied)".
        public var description: String {
            let place = path.isEmpty ? "the photo folder" : path
            switch kind {
            case .unreadableFolder(let reason): return "\(place): the folder cannot be read (\(reason))"
            case .linkLoop: return "\(place): a link back to a folder it is in, not followed"
            case .linkToListedFolder: return "\(place): a link to a folder listed already, not listed twice"
            case .linkOutsideFolder: return "\(place): a link out of the photo folder, not followed"
            case .danglingLink: return "\(place): a link to nothing"
            case .tooDeep(let limit): return "\(place): nested deeper than \(limit) folders, not read"
            case .tooManyPhotos(let limit): return "\(place): the listing stopped at \(limit) photos"
            case .tooManyFolders(let limit): return "\(place): the listing stopped at \(limit) folders"
            }
        }
    }
}
