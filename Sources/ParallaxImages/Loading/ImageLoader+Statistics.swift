extension ImageLoader {
    /// Counters for a diagnostics overlay (a HUD) or logs: what the loader
    /// has done so far, and what it is doing now.
    public struct Statistics: Sendable, Hashable {
        /// Every counter at zero.
        public init() {}

        /// Requests answered from the memory cache.
        public var memoryHits = 0
        /// Loads answered from the thumbnail disk cache.
        public var diskHits = 0
        /// Pictures fetched from a source that did not have them stored locally.
        public var downloads = 0
        /// Thumbnails decoded.
        public var decodes = 0
        /// Loads that failed (other than by cancellation).
        public var failures = 0
        /// Loads cancelled.
        public var cancellations = 0
        /// Keys being loaded now.
        public var jobsInFlight = 0
        /// Downloads running now, urgent ones included.
        public var downloadsInFlight = 0
        /// Decodes running now.
        public var decodesInFlight = 0
        /// Loads waiting for a download slot.
        public var downloadsWaiting = 0
        /// Loads waiting for a decode slot.
        public var decodesWaiting = 0
        /// Thumbnails on their way to the disk cache.
        public var pendingDiskWrites = 0
        /// Times the loader gave the memory its decodes had freed back to
        /// the system (Linux): idle after decoding (see
        /// ``Configuration/returnsMemoryWhenIdle``) or asked to by
        /// ``ImageLoader/relieve(_:)``.
        public var memoryReturns = 0
        /// Thumbnails the disk cache kept of photos on a server that were
        /// shown, found out of date by the check after, and replaced
        /// (``KeptThumbnailCheck/afterShowing``).
        public var keptThumbnailsReplaced = 0
        /// Photos on a server whose version is being asked, to check the
        /// kept thumbnails shown of them.
        public var keptThumbnailChecksInFlight = 0
    }
}

extension ImageLoader.Statistics {
    /// Counts the result of one job: a disk hit, a decode (and a download
    /// if the picture came over the network), a cancellation or a failure.
    mutating func count(_ result: Result<LoadOutput, ImageLoadingError>) {
        switch result {
        case .success(let output):
            if output.wasDecoded {
                decodes += 1
                if output.loaded.origin == .network { downloads += 1 }
            } else {
                diskHits += 1
            }
        case .failure(.cancelled):
            cancellations += 1
        case .failure:
            failures += 1
        }
    }
}
