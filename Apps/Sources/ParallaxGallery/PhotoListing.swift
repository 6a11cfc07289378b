import Foundation
import ParallaxImages

/// A photo as the gallery's listing finds it: its ID, its file's modification time,
/// and what an index already knew of it (its header, when it was taken).
package struct FoundPhoto: Sendable {
    package var id: ImageID
    /// The file's modification time, as wall-clock seconds (local time
    /// counted as if it were UTC; ``PhotoTimeline``), if the listing knows it.
    package var fileTime: Int64?
    /// The photo's header, when an index remembered it.
    package var header: ImageHeader?
    /// When the photo was taken (wall-clock seconds), when an index remembered it.
    package var captureTime: Int64?
    /// The photo's preview, when the listing gave one (a server's manifest)
    /// or an index remembered it.
    package var preview: ThumbHash?

    package init(id: ImageID, fileTime: Int64? = nil, header: ImageHeader? = nil, captureTime: Int64? = nil,
                 preview: ThumbHash? = nil) {
        self.id = id
        self.fileTime = fileTime
        self.header = header
        self.captureTime = captureTime
        self.preview = preview
    }
}

/// One step of a listing as it streams in.
package enum ListingEvent: Sendable {
    /// More photos, in the order found.
    case photos([FoundPhoto])
    /// The listing is complete: what it found beside the photos (a
    /// folder's videos and other files, what it could not read; empty for
    /// other sources).
    case finished(FolderScan.Report)
    /// Photos sent before are gone (deleted since an index listed them) or
    /// changed (they come again, as new photos).
    case removed([ImageID])
    /// The listing failed; the photos sent before stay.
    case failed(String)
    /// About this many more photos are coming (an index counts its records
    /// once it has sent the first screen's): room is made for them at once,
    /// so filing them never stops a frame to grow (rehashing 50,000 IDs
    /// took 32 ms).
    case expecting(Int)
}

/// Follows a library's listing as it streams in: the one owner of the
/// listing task and of what it found but the frame loop has not taken yet.
///
/// The listing runs off the main actor; its events collect in an inbox,
/// and each frame takes what arrived (``takeArrivals()``), so a walk of
/// 100,000 photos costs the frame loop a hop per batch, not per photo.
/// ``waitUntilFinished()`` is an event, not a poll, for headless rendering
/// and tests.
@MainActor
package final class PhotoListing {
    private var inbox: ListingInbox?
    private var task: Task<Void, Never>?

    package init() {}

    /// Whether a listing is under way (started and not yet finished or failed).
    package var isListing: Bool { inbox.map { !$0.isDone } ?? false }

    /// Starts following `events`, dropping any listing under way.
    package func start(_ events: AsyncStream<ListingEvent>) {
        task?.cancel()
        let inbox = ListingInbox()
        self.inbox = inbox
        task = Task.detached {
            for await event in events {
                inbox.append(event)
                // The listing goes on after photos found and photos gone; it ends when it finishes or fails.
                switch event {
                case .photos, .removed, .expecting: continue
                case .finished, .failed: break
                }
                break
            }
            inbox.finish()
        }
    }

    /// Stops the listing under way; what it found so far stays taken or untaken.
    package func stop() {
        task?.cancel()
        task = nil
    }

    /// The events since the last call, oldest first, as many as hold at
    /// most `maximumPhotos` photos between them (a batch larger than that
    /// is split, its rest left first in line), so no frame takes in an
    /// index's 100,000 photos at once; with `first`, only the oldest one
    /// (the first screen is drawn from the first batch alone, however many
    /// arrived meanwhile).
    ///
    /// Complexity: O(events taken + photos split off).
    package func takeArrivals(first: Bool = false, maximumPhotos: Int = .max) -> [ListingEvent] {
        inbox?.take(first: first, maximumPhotos: maximumPhotos) ?? []
    }

    /// Whether events wait to be taken.
    package var hasArrivals: Bool { inbox?.hasEvents ?? false }

    /// Returns once the listing finished, failed or was stopped.
    package func waitUntilFinished() async {
        await inbox?.waitUntilDone()
    }

    /// Returns once photos wait to be taken, or the listing ended (or was
    /// never started), or the calling task is cancelled: what a first frame
    /// waits for, so that it lays out the first screen and asks for its
    /// pictures at once instead of a frame later.
    package func waitForPhotos() async {
        await inbox?.waitForPhotos()
    }
}

/// The listing's events, collected off the main actor and taken by the
/// frame loop (``PhotoListing``).
private final class ListingInbox: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [ListingEvent] = []
    private var done = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    /// Whether photos arrived (taken or not).
    private var hasPhotos = false
    private var photoWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
    private var nextPhotoWaiter = 0

    var isDone: Bool {
        lock.lock()
        defer { lock.unlock() }
        return done
    }

    func append(_ event: ListingEvent) {
        lock.lock()
        events.append(event)
        var woken: [CheckedContinuation<Void, Never>] = []
        if case .photos(let photos) = event, !photos.isEmpty {
            hasPhotos = true
            woken = Array(photoWaiters.values)
            photoWaiters = [:]
        }
        lock.unlock()
        for waiter in woken { waiter.resume() }
    }

    func finish() {
        lock.lock()
        done = true
        let woken = waiters + photoWaiters.values
        waiters = []
        photoWaiters = [:]
        lock.unlock()
        for waiter in woken { waiter.resume() }
    }

    var hasEvents: Bool {
        lock.lock()
        defer { lock.unlock() }
        return !events.isEmpty
    }

    func take(first: Bool, maximumPhotos: Int) -> [ListingEvent] {
        lock.lock()
        defer { lock.unlock() }
        var taken: [ListingEvent] = [], room = max(maximumPhotos, 1), count = 0, tookPhotos = false
        // `first`: up to the first batch of photos, with the events before it (a count, say).
        while count < events.count, !first || !tookPhotos {
            guard case .photos(let photos) = events[count] else {
                count += 1
                continue
            }
            tookPhotos = true
            if photos.count > room {
                taken = Array(events[..<count])
                taken.append(.photos(Array(photos[..<room])))
                events[count] = .photos(Array(photos[room...]))
                events.removeFirst(count)
                return taken
            }
            room -= photos.count
            count += 1
            if room == 0 { break }
        }
        taken = Array(events[..<count])
        events.removeFirst(count)
        return taken
    }

    func waitForPhotos() async {
        let number = lock.withLock {
            nextPhotoWaiter += 1
            return nextPhotoWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                lock.lock()
                // Cancelled before this: the handler below found no waiter to resume.
                if done || hasPhotos || Task.isCancelled {
                    lock.unlock()
                    waiter.resume()
                } else {
                    photoWaiters[number] = waiter
                    lock.unlock()
                }
            }
        } onCancel: {
            lock.withLock { photoWaiters.removeValue(forKey: number) }?.resume()
        }
    }

    func waitUntilDone() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            lock.lock()
            if done {
                lock.unlock()
                waiter.resume()
            } else {
                waiters.append(waiter)
                lock.unlock()
            }
        }
    }
}

extension PhotoLibrary {
    /// The library's photos as they are found: a folder's walk in batches
    /// (the first screen is drawn from the first), any other source's list,
    /// asked of `source` (the library's, maybe behind a simulated server),
    /// in one batch (a server's nested folders are read before it). A
    /// folder's walk waits after its first batch for `firstScreen`, when
    /// given (``FirstScreenSignal``).
    package func listing(from source: any ImageSource,
                         firstScreen: FirstScreenSignal? = nil) -> AsyncStream<ListingEvent> {
        if let makeListing { return makeListing(source, firstScreen) }
        return AsyncStream(bufferingPolicy: .unbounded) { continuation in
            let task = Task {
                do {
                    // A server's nested folders arrive a folder at a time: the first screen needs only the first.
                    var handedOut = 0
                    let ids: [ImageID], http = self.source as? HTTPImageSource
                    if let http {
                        ids = try await http.imageIDs(onBatch: { names in
                            continuation.yield(.photos(names.map { FoundPhoto(id: $0) }))
                            handedOut += names.count
                        })
                    } else {
                        ids = try await source.imageIDs()
                    }
                    // Previews come with the list (a manifest's `thumbhash`), so the first frame has them.
                    let previews = await source.listedPreviews()
                    continuation.yield(.photos(ids[handedOut...].map { FoundPhoto(id: $0, preview: previews[$0]) }))
                    // A server's folder listings say what they skipped (folders, videos), as a walk does.
                    var report = http?.listingReport ?? FolderScan.Report()
                    report.photoCount = ids.count
                    continuation.yield(.finished(report))
                } catch {
                    continuation.yield(.failed("\(error)"))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
