import Foundation
import ParallaxImages

/// A folder tree's scan as the gallery's listing: each photo with its
/// file's modification time as wall-clock seconds, the provisional time a
/// photo sorts by until its capture date is read (``PhotoTimeline``).
enum FolderListing {
    /// The gallery's listing events for `source`'s tree, walked with each
    /// photo's status read (its modification time); the walk stops when
    /// the listing is dropped; after its first batch it waits for
    /// `firstScreen`, when given.
    static func events(of source: FolderImageSource, firstScreen: FirstScreenSignal? = nil) -> AsyncStream<ListingEvent> {
        AsyncStream(bufferingPolicy: .unbounded) { continuation in
            let task = Task.detached {
                for await event in source.scan(readingFileStatus: true, waitingAfterFirstBatchFor: firstScreen) {
                    switch event {
                    case .photos(let photos):
                        continuation.yield(.photos(photos.map { FoundPhoto(id: $0.id, fileTime: $0.modificationTime.map(wallClockSeconds)) }))
                    case .finished(let report):
                        continuation.yield(.finished(report))
                    case .failed(let error):
                        continuation.yield(.failed("\(error)"))
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// When a photo was taken as the timeline counts it (wall-clock
    /// seconds): a date without a UTC offset is the camera's wall-clock time
    /// already; one with an offset is an instant, shown at this machine's
    /// local time (the offset itself is not kept), as is a file's time.
    static func wallClockSeconds(of date: CaptureDate) -> Int64 {
        let seconds = Int64(date.date.timeIntervalSince1970.rounded(.down))
        guard date.hasUTCOffset || date.source == .fileModified else { return seconds }
        return wallClockSeconds(seconds * 1_000_000_000)
    }

    /// The local wall-clock time of `nanoseconds` since 1970 UTC, counted as
    /// if it were UTC (the way cameras write dates): `localtime_r`'s offset
    /// for that instant, so a summer photo gets summer time.
    static func wallClockSeconds(_ nanoseconds: Int64) -> Int64 {
        var seconds = time_t(nanoseconds / 1_000_000_000)
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return Int64(seconds) }
        return Int64(seconds) + Int64(parts.tm_gmtoff)
    }
}
