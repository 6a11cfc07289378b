import Foundation

/// How hard the system is asking an app for memory.
public enum MemoryPressure: Sendable, Hashable, CaseIterable {
    /// The app went to the background: it should hold little while it is
    /// not seen (Nuke keeps a tenth of its memory cache then).
    case background
    /// The system is short of memory (iOS's memory warning): give back
    /// everything that can be made again.
    case critical

    /// The share of a cache's limit kept under this pressure.
    public var keptFraction: Double {
        switch self {
        case .background: 0.1
        case .critical: 0
        }
    }
}

extension ImageLoader {
    /// Gives memory back under `pressure`: thumbnails in the memory cache and
    /// rendered previews down to ``MemoryPressure/keptFraction`` of their
    /// limits (least recently used first), then the memory the allocator
    /// keeps from freed decode buffers returned to the system where it can
    /// be (`malloc_trim` on Linux), off the caller's thread.
    ///
    /// Nothing is lost that cannot be made again: the disk cache, preview
    /// hashes and work under way are kept, and cells on screen keep the
    /// pictures they hold. The UIKit adapter calls this on memory warnings
    /// and when the app goes to the background; other apps call it from
    /// their own signals.
    public func relieve(_ pressure: MemoryPressure) async {
        memoryCache.trim(toFraction: pressure.keptFraction)
        previews.trimRendered(toFraction: pressure.keptFraction)
        await returnMemoryToSystem()
    }

    /// Counts a finished decode; a loader busy for long (a long fling
    /// through a large library) gives memory back every
    /// ``Configuration/decodesBetweenMemoryReturns`` decodes, without
    /// waiting for an idle moment that may not come.
    func countDecodeForMemoryReturn() {
        decodesSinceMemoryReturn += 1
        guard configuration.returnsMemoryWhenIdle, decodesSinceMemoryReturn >= configuration.decodesBetweenMemoryReturns else { return }
        decodesSinceMemoryReturn = 0
        Task { await returnMemoryToSystem() }
    }

    /// Once the loader has been idle for the configured delay after
    /// decoding, gives the memory the decodes freed back to the system, on
    /// the file threads' background lane (never the caller's thread or the
    /// cooperative pool). Work that starts meanwhile puts it off to its own
    /// idle moment.
    func scheduleMemoryReturn() {
        guard configuration.returnsMemoryWhenIdle, FreeMemory.isAvailable, decodesSinceMemoryReturn > 0,
              !memoryReturnScheduled else { return }
        memoryReturnScheduled = true
        let delay = configuration.idleDelayBeforeReturningMemory
        Task.detached(priority: .background) { [weak self] in
            try? await Task.sleep(for: delay)
            await self?.returnMemoryIfStillIdle()
        }
    }
}
