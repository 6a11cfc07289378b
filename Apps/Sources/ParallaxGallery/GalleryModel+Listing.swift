import Foundation
import ParallaxImages

/// Where the listing shown stands: what ``GalleryModel/applyListing(now:)``
/// decides by. Reset when a listing starts.
struct ListingProgress {
    /// The frame time the listing was first looked at (for ``GalleryModel/firstScreenWait``).
    var started: TimeInterval?
    /// Whether the first screen has been full once (or waited for long enough).
    var firstScreenShown = false
    /// What a folder's walk waits for after its first batch: given with
    /// ``firstScreenShown``, so that the walk leaves the cores to that
    /// screen's decodes until then.
    let firstScreen = FirstScreenSignal(longestWait: .seconds(GalleryModel.firstScreenWait))
    /// When photos the listing found were last shown.
    var lastShown: TimeInterval?
    /// The listing filed or removed photos since the last arrangement.
    var filedUnshown = false
    /// The photos to make room for once the first screen is shown (an
    /// index's count, known with its first batch).
    var roomWanted: Int?
}

/// The photos a library lists, taken in as they stream (``PhotoListing``)
/// and shown: the first screen from the first batch, the rest a frame's
/// worth at a time, arranged a few times a second.
extension GalleryModel {
    /// Lists the photos (again, after an erase) and returns once the
    /// listing is complete, every photo found shown (headless rendering,
    /// benchmarks, tests). The window uses ``startListing()`` instead.
    package func loadPhotoList() async {
        startListing()
        await listing.waitUntilFinished()
        applyListing(now: nil)
    }

    /// Starts listing the photos (again, after an erase), forgetting those
    /// shown: they arrive on later frames as the listing streams in, the
    /// first screen from the first batch.
    package func startListing() {
        timeline = PhotoTimeline()
        shapeTracker.forget(photos: [])
        status = nil
        listingSummary = nil
        listingProgress = ListingProgress()
        lastRearrange = nil
        lastArrangementSeconds = 0
        needsRearrange = false
        arrange()
        relayout(keepingPlace: false)
        listing.start(library.listing(from: server, firstScreen: listingProgress.firstScreen))
    }

    /// Waits, before the first frame, until that frame can show the first
    /// screen whole, `limit` at most: the listing's first photos, then the
    /// pictures of the tiles they fill. A second launch reads those back
    /// from the disk cache in a few milliseconds, and its window opens on
    /// its photos, at once (no cross-fade from nothing), where it would
    /// have shown placeholders for its first frame or two (40 thumbnails
    /// took 17-34 ms at 100,000 photos, 2-core EPYC). A first launch's
    /// pictures need decoding: its window opens with placeholders once the
    /// wait is up, the decodes going on. It lays out once and waits for
    /// that screen's pictures only, so the first frame shows that screen:
    /// laid out again once they came, its cells were full, and the first
    /// frame took in what the listing had brought meanwhile (newer photos,
    /// above these) and drew their placeholders instead.
    ///
    /// Call it after ``startListing()``. `now` is the frame clock's time,
    /// as ``update(now:)`` takes it: the wait lays out the first screen
    /// and asks for its pictures, as a frame would.
    package func waitForFirstScreen(now: TimeInterval, within limit: Duration = firstFrameWait) async {
        let deadline = ContinuousClock.now + limit
        let listing = self.listing, pictures = self.pictures
        await Self.wait(until: deadline) { await listing.waitForPhotos() }
        update(now: now)
        guard pendingLoads > 0 else { return }
        // The pictures of this screen only: what the listing brings meanwhile (photos found later, newer,
        // above these) is for the frames after the first, as it would be without the wait.
        await Self.wait(until: deadline) { await pictures.waitUntilSettled() }
        // Those that came are shown whole: their cross-fades over before the first frame.
        pictures.stampArrivals(at: now - Self.fadeDuration)
    }

    /// The longest the first frame waits (``waitForFirstScreen(now:within:)``):
    /// a slow disk's window still opens at once, empty, and a first
    /// launch's with placeholders.
    static let firstFrameWait = Duration.milliseconds(100)

    /// Returns once `wait` returns or `deadline` passes, whichever comes
    /// first; `wait` must return once its task is cancelled.
    private static func wait(until deadline: ContinuousClock.Instant, for wait: @escaping @Sendable () async -> Void) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask(operation: wait)
            group.addTask { try? await ContinuousClock().sleep(until: deadline) }
            await group.next()
            group.cancelAll()
        }
    }

    /// Whether photos are still being found.
    package var isListing: Bool { listing.isListing }

    /// Whether the listing has ended (or failed) and every photo it found
    /// is shown, arranged and laid out: what a session waits for before it
    /// jumps to the end of the library.
    package var isListingShown: Bool {
        !listing.isListing && !listing.hasArrivals && (listingSummary != nil || status != nil)
            && !listingProgress.filedUnshown && !needsRearrange && !isArranging
    }

    /// Takes in the photos found since the last frame and shows them, the
    /// photo at the top kept in place (`now == nil`: everything, at once).
    /// The first screen comes from the first batch that has photos, shown
    /// at once; the rest wait in the listing's inbox until that screen is
    /// full, so its decodes have the cores (a walk's batches arranged one a
    /// frame meanwhile cost 13-44 ms a frame at 100,000 photos, for tiles
    /// that were blank anyway). After that, each frame files photos for at
    /// most ``listingBudget`` (a chunk at least, ``photosPerFrame`` at most;
    /// O(photos taken)), and shows them (arranged and
    /// laid out again, O(all photos)) at most every ``arrangementInterval``, so
    /// a walk or an index of 100,000 photos pays the O(n) arrangement a few
    /// times a second, not every frame. Not mid-switch or mid-pinch: the
    /// photos wait for the next frame at rest.
    func applyListing(now: TimeInterval?) {
        guard frames.isResting else { return }
        let firstScreenPending = timeline.shownCount == 0 || cells.isEmpty || unsharpCellCount > 0
        if let now, listingProgress.started == nil { listingProgress.started = now }
        // A first screen that cannot fill (a picture that never comes) holds the rest back a second at most.
        let waited = now.flatMap { now in listingProgress.started.map { now - $0 } } ?? 0
        if !listingProgress.firstScreenShown, !firstScreenPending || waited >= Self.firstScreenWait {
            listingProgress.firstScreenShown = true
            listingProgress.firstScreen.screenIsFull()                // the walk waits for it
        }
        if now == nil { listingProgress.firstScreen.screenIsFull() }  // listed whole without frames: no screen to wait for
        if now != nil, !listingProgress.firstScreenShown, timeline.shownCount > 0 { return }   // the first screen is filling
        // A frame files chunks of photos while it has time left for them (``listingBudget``), up to
        // ``photosPerFrame``: a slower machine takes more frames to file a library, never longer frames.
        let first = now != nil && !listingProgress.firstScreenShown
        if !first, let total = listingProgress.roomWanted {
            listingProgress.roomWanted = nil
            makeRoom(forTotal: total)
        }
        let clock = ContinuousClock(), began = clock.now
        var removedAny = false, filed = 0
        repeat {
            let events = listing.takeArrivals(first: first, maximumPhotos: now == nil ? .max : Self.photosPerChunk)
            if events.isEmpty { break }
            filed += take(events, removedAny: &removedAny)
        } while now != nil && !first && filed < Self.photosPerFrame && clock.now - began < Self.listingBudget
        var isDue = true                                  // at once: no frame time, the first screen, the end
        if let now, listingProgress.firstScreenShown, listingSummary == nil, let last = listingProgress.lastShown {
            isDue = now - last >= arrangementInterval
        }
        // Dates that moved photos are shown by ``applyDates(now:)`` at its own pace, not here.
        if removedAny { listingProgress.filedUnshown = true }
        if isDue, listingProgress.filedUnshown {
            // Removals are shown at once: a photo deleted since the index listed it is never drawn again.
            var shown = true
            if now == nil || removedAny { showFiled() } else { shown = rearrangeInBackground() }
            if shown, let now { listingProgress.lastShown = now }
        }
        if listingSummary != nil, timeline.shownCount == 0, status == nil { status = "No photos to show." }
    }

    /// Files the photos of `events` and applies the rest (removals, the
    /// end, a failure, a count to make room for), in order. Returns how
    /// many photos it filed.
    private func take(_ events: [ListingEvent], removedAny: inout Bool) -> Int {
        var found: [FoundPhoto] = [], filed = 0
        for event in events {
            switch event {
            case .photos(let photos):
                found += photos
            case .removed(let ids):
                // Photos found earlier in these events come before the removal.
                file(found)
                filed += found.count
                found = []
                let gone = timeline.remove(ids)
                shapeTracker.forgetPhotos(gone)
                removedAny = removedAny || !gone.isEmpty
            case .finished(let summary):
                listingSummary = summary
                if let notice = library.refusalNotice {
                    FileHandle.standardError.write(Data("parallax-gallery: \(notice)\n".utf8))
                }
            case .failed(let message):
                status = "The photos could not be listed: \(message)"
            case .expecting(let count):
                // Not in the frame that shows the first screen: making room for an index's 30,000 photos
                // took 0.4-1.1 ms of it (2-core AMD EPYC), beside the 2-3 ms of filing its first batch.
                let total = timeline.count + count
                if listingProgress.firstScreenShown { makeRoom(forTotal: total) } else { listingProgress.roomWanted = total }
            }
        }
        file(found)
        return filed + found.count
    }

    /// The longest the rest of a listing waits for the first screen to fill.
    nonisolated static let firstScreenWait: TimeInterval = 1

    /// Makes room for `total` photos in all in everything filed by photo
    /// (the timeline, the shape tracker, the previews), so that filing them
    /// never grows a table mid-listing. O(total) once, in a frame that files few.
    private func makeRoom(forTotal total: Int) {
        timeline.reserveCapacity(total)
        shapeTracker.reserveCapacity(total)
        loader.previews.reserveCapacity(total)
    }

    /// Adds photos the listing found to the timeline and the shape tracker,
    /// without showing them yet (``showFiled()``). O(found).
    private func file(_ found: [FoundPhoto]) {
        guard !found.isEmpty else { return }
        let first = timeline.count
        let superseded = timeline.append(found.lazy.map { (id: $0.id, fileTime: $0.fileTime) })
        for (offset, photo) in found.enumerated() {
            if let time = photo.captureTime { timeline.recordCapture(time, of: first + offset) }
        }
        shapeTracker.append(found.map(\.id), knownHeaders: found.map(\.header), superseded: superseded)
        let previews = found.lazy.compactMap { photo in photo.preview.map { (id: photo.id, hash: $0) } }
        if !previews.isEmpty { loader.previews.insert(contentsOf: previews) }
        // A layout that places photos by shape reads their headers at once; a folder's are read (with
        // their dates) once the first screen is full (``startBackgroundReads()``); a server's only when
        // such a layout is shown (each is a request).
        if settings.layout.usesPhotoShapes { shapeTracker.startReading(from: server) }
        listingProgress.filedUnshown = true
    }

    /// Shows the photos filed and the dates and removals since the last
    /// arrangement, the photo at the top kept in place, at once. O(photos).
    private func showFiled() {
        relayoutKeepingTop { arrange() }
        needsRearrange = false
    }

    /// How often photos found while a listing streams in are shown: often
    /// enough to look immediate, rarely enough that a walk of 100,000
    /// photos re-lays out a few times a second, not every frame.
    package static let listingInterval: TimeInterval = 0.25

    /// The most photos a frame files from the listing (an index's 100,000
    /// records taken at once took 120 ms: seven frames missed).
    package static let photosPerFrame = 4096

    /// The photos filed at a time, between looks at the clock.
    static let photosPerChunk = 512

    /// How long a frame keeps filing photos once it has started a chunk:
    /// 4 ms, a quarter of a 60 Hz frame, beside the drawing and the rest.
    /// 4,096 photos took 5-13 ms on a 2-core machine with its decodes beside.
    static let listingBudget = Duration.milliseconds(4)
}
