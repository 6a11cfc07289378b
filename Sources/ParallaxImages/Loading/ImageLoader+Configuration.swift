import Foundation

extension ImageLoader {
    /// What happens to work whose item left every range.
    public enum ScrollAwayPolicy: Sendable, Hashable {
        /// Finish it at the lowest priority and cache the result (RolfHendriks' UICollectionView-Demo).
        case keepDownloading
        /// Cancel it, once no request waits for it.
        case cancel
    }

    /// In which order waiting work is served.
    public enum Ordering: Sendable, Hashable {
        /// Most urgent first, then oldest first; urgent work never waits
        /// for a download slot. The default.
        case priority
        /// Oldest first, whatever the priority, and every download waits
        /// for a slot: a plain first-come-first-served queue, the baseline
        /// the session benchmark compares against.
        case arrival
    }

    /// When a thumbnail the disk cache kept of a photo on a server is
    /// checked against the photo as it is now. Only where learning the
    /// photo's version costs a request (`ImageSource.fingerprintNeedsRequest`,
    /// an HTTP `HEAD`); a folder's (a `stat`) is always checked first.
    public enum KeptThumbnailCheck: Sendable, Hashable {
        /// After it is shown: the thumbnail is shown at once (a second
        /// launch's screen fills without a request per photo, and a server
        /// that cannot be reached still shows what was kept), then the
        /// photo's version is asked at the lowest priority. A photo changed
        /// since is downloaded again and replaces it
        /// (``ImageLoader/replacedThumbnails()``). What Kingfisher and
        /// SDWebImage do by default, minus their showing the old version
        /// for days: here it is shown until the check answers. The default.
        case afterShowing
        /// Before it is shown: every thumbnail waits for its photo's
        /// version (a request each), and an old version is never shown.
        case beforeShowing
    }

    /// How much work runs at once, and in which order.
    public struct Configuration: Sendable, Hashable {
        /// Decodes at once for urgent work (on screen, or where a fling
        /// lands): by default one per core, on the pipeline's decoding
        /// threads, which run at low priority so a render loop at normal
        /// priority takes its core back whenever it has a frame to draw.
        public var maximumConcurrentDecodes: Int
        /// Decodes at once for work that is not urgent: by default one
        /// fewer than the cores (at least one), so preloading never takes
        /// the render loop's core.
        public var maximumConcurrentBackgroundDecodes: Int
        /// Downloads at once for work that is not urgent (6 by default,
        /// the per-host connection limit of HTTP/1.1 clients).
        public var maximumConcurrentDownloads: Int
        /// Downloads at once in all, urgent work's included (24 by
        /// default; never fewer than ``maximumConcurrentDownloads``):
        /// urgent work may take any of them, so what is on screen passes
        /// the preloading queued before it, up to this many.
        ///
        /// A download keeps its slot, and the whole photo it fetched, until
        /// a decode takes the photo, so this also bounds the photos waiting
        /// in memory for a decode. Without a bound a fast fling over a
        /// local library read a photo for every tile it passed faster than
        /// two cores could decode them: 275 whole photos waited at once,
        /// 200 MB (`parallax-gallery memory`). Under ``Ordering/arrival``
        /// only ``maximumConcurrentDownloads`` applies.
        public var maximumConcurrentUrgentDownloads: Int
        /// What happens to work whose item left every range.
        public var scrollAwayPolicy: ScrollAwayPolicy
        /// In which order waiting work is served.
        public var ordering: Ordering
        /// Whether a photo's first decoded thumbnail also gives it a
        /// preview (its ``ThumbHash``, in ``ImageLoader/previews``): about
        /// 0.3 ms beside the decode, so that the photo shows its preview
        /// wherever its thumbnail is not at hand (another size, evicted,
        /// the next launch, through the app's own store). On by default.
        public var makesPreviews: Bool
        /// Whether the loader, once idle for ``idleDelayBeforeReturningMemory``
        /// after decoding, asks the allocator to give back the memory the
        /// decodes freed (glibc's `malloc_trim` on Linux: about 100 MB at
        /// rest after a gallery session, for 12 ms on a file thread; no-op
        /// where the allocator returns memory itself). On by default.
        public var returnsMemoryWhenIdle: Bool
        /// How long the loader stays idle before it gives memory back: long
        /// enough that a scroll's next burst of loads comes first.
        public var idleDelayBeforeReturningMemory: Duration
        /// With ``returnsMemoryWhenIdle``, a loader that never goes idle
        /// (minutes of scrolling through a large library) gives memory back
        /// anyway after every this many decodes (128 by default: about 20
        /// seconds of fast flinging, for a 12 ms trim on a file thread).
        /// Without it, what glibc kept of the decodes' and evicted pictures'
        /// memory grew by 27–48 MiB over 20 fling-and-return cycles; with
        /// it, by −2 to 18 MiB. The cost: a trim holds glibc's arena locks
        /// for about 10 ms, and a frame that allocates meanwhile waits. In
        /// the gallery's benchmark the longest frame while decodes run was
        /// 18–44 ms with a trim every 128 decodes, against 12–25 ms without
        /// (3–4 runs each), while p99 stayed 8–13 ms; raise this where an
        /// app's frames allocate.
        public var decodesBetweenMemoryReturns: Int
        /// When a thumbnail kept on disk of a photo on a server is checked
        /// against the photo as it is now (``KeptThumbnailCheck/afterShowing`` by default).
        public var keptThumbnailCheck: KeptThumbnailCheck

        /// A configuration; counts below 1 are raised to 1.
        public init(maximumConcurrentDecodes: Int = ProcessInfo.processInfo.activeProcessorCount,
                    maximumConcurrentBackgroundDecodes: Int? = nil,
                    maximumConcurrentDownloads: Int = 6, maximumConcurrentUrgentDownloads: Int = 24,
                    scrollAwayPolicy: ScrollAwayPolicy = .keepDownloading,
                    ordering: Ordering = .priority, makesPreviews: Bool = true, returnsMemoryWhenIdle: Bool = true,
                    idleDelayBeforeReturningMemory: Duration = .seconds(1), decodesBetweenMemoryReturns: Int = 128,
                    keptThumbnailCheck: KeptThumbnailCheck = .afterShowing) {
            self.maximumConcurrentDecodes = max(maximumConcurrentDecodes, 1)
            self.maximumConcurrentBackgroundDecodes = min(max(maximumConcurrentBackgroundDecodes ?? (self.maximumConcurrentDecodes - 1), 1),
                                                          self.maximumConcurrentDecodes)
            self.maximumConcurrentDownloads = max(maximumConcurrentDownloads, 1)
            self.maximumConcurrentUrgentDownloads = max(maximumConcurrentUrgentDownloads, self.maximumConcurrentDownloads)
            self.scrollAwayPolicy = scrollAwayPolicy
            self.ordering = ordering
            self.makesPreviews = makesPreviews
            self.returnsMemoryWhenIdle = returnsMemoryWhenIdle
            self.idleDelayBeforeReturningMemory = max(idleDelayBeforeReturningMemory, .zero)
            self.decodesBetweenMemoryReturns = max(decodesBetweenMemoryReturns, 1)
            self.keptThumbnailCheck = keptThumbnailCheck
        }
    }
}
