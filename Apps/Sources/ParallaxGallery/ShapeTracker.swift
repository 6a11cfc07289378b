#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxImages

/// Reads the photos' shapes in the background and files them by photo
/// number (the order photos arrived in, ``PhotoTimeline``): the one owner
/// of the header probe, its answers and what they change.
///
/// Quilt and waterfall place photos by shape (``PhotoShapes``). The probe
/// (``HeaderProbe``) reads headers off the frame loop; its answers collect
/// in an inbox off the main actor, and each frame takes them all at once
/// (``takeArrivals(shown:)``), so a manifest's thousands of sizes cost one
/// hop, not thousands. The tracker then says when a layout built on the
/// old shapes is due to be rebuilt (``takeRelayout(now:)``): at once when a
/// tile on screen waits for its size, else at most every
/// ``relayoutInterval``, so a large library's sizes streaming in keep
/// rebuilds off most frames.
///
/// Complexity: O(answers) per frame to file what arrived; O(photos) to
/// start.
@MainActor
package final class ShapeTracker {
    /// How often a layout that places photos by shape is rebuilt while their
    /// sizes stream in: often enough to look immediate, rarely enough that
    /// a large library's rebuilds stay off most frames.
    package static let relayoutInterval: TimeInterval = 0.2

    /// Every size known so far, by item.
    package private(set) var shapes = PhotoShapes(count: 0)
    /// Photos whose header could not be read: their tiles keep the
    /// placeholder shape for good.
    package private(set) var unreadable: Set<Int> = []

    private var probe: HeaderProbe?
    private var inbox: ShapeInbox?
    /// The number of the photo listed under an ID, to file the probe's
    /// answers: the timeline's (``PhotoTimeline/number(of:)``), the one
    /// index of IDs (a second one here cost a launch over 100,000 photos
    /// 30 ms of the frame loop to fill).
    private let photoNumber: @MainActor (ImageID) -> Int?
    /// The ID of the photo numbered so, for the probe's priorities: the
    /// timeline's too (a list of IDs here, by number, cost 3.2 MB at its
    /// peak at 100,000 photos).
    private let photoID: @MainActor (Int) -> ImageID?
    /// Sizes arrived that the layout does not show yet.
    private var changed = false
    /// One of them is a tile's on screen, which waits for it.
    private var visibleShapeArrived = false
    private var lastRelayout: TimeInterval = -.infinity
    /// The first visible item the probe was last told to read first.
    private var prioritizedTop: Int?

    /// A tracker filing answers under `photoNumber`'s numbers, whose IDs
    /// `photoID` gives back (numbers are never reused while the list lasts).
    package init(photoNumber: @escaping @MainActor (ImageID) -> Int?, photoID: @escaping @MainActor (Int) -> ImageID?) {
        self.photoNumber = photoNumber
        self.photoID = photoID
    }

    /// Whether the probe has been started for the current list.
    package var isReading: Bool { probe != nil }

    /// Whether every photo's header has been read or has failed (photos
    /// removed since count as answered).
    package var allRead: Bool { shapes.knownCount + unreadable.count + forgotten.count >= shapes.count }

    /// Capture dates read with the headers since ``takeDates()`` was last asked.
    private var arrivedDates: [(photo: Int, date: CaptureDate)] = []

    /// The capture dates read since the last call, by photo number (filed
    /// by ``takeArrivals(shown:)``); the list is left empty.
    package func takeDates() -> [(photo: Int, date: CaptureDate)] {
        defer { arrivedDates.removeAll(keepingCapacity: true) }
        return arrivedDates
    }

    /// Photos removed from the list (deleted or changed since an index
    /// listed them): their answers, if any still come, are dropped.
    private var forgotten: Set<Int> = []

    /// Drops photos `numbers` from the list: an answer still on its way for
    /// one is dropped, and the photo's ID may be appended again, as a new photo.
    package func forgetPhotos(_ numbers: [Int]) {
        for number in numbers where number < shapes.count {
            if shapes.size(of: number) == nil, !unreadable.contains(number) { forgotten.insert(number) }
        }
    }

    /// Forgets every shape and the probe reading them: a new list of `photos`.
    package func forget(photos: [ImageID]) {
        probe = nil
        inbox = nil
        shapes = PhotoShapes(count: 0)
        unreadable = []
        forgotten = []
        changed = false
        visibleShapeArrived = false
        prioritizedTop = nil
        append(photos)
    }

    /// Adds `photos` after those already here (a listing streaming in),
    /// with the headers already known of some (an index remembered them:
    /// those are not read again). A probe under way reads the others too.
    ///
    /// IDs are unique in every source here; of a repeated one, only the
    /// position its ID is numbered under is read (the probe answers an ID
    /// once). `superseded`, when the caller numbered `photos` itself
    /// (``PhotoTimeline/append(_:)``), lists the offsets whose ID comes
    /// again later among them, which saves looking each ID's number up.
    package func append(_ photos: [ImageID], knownHeaders: [ImageHeader?] = [], superseded: [Int]? = nil) {
        let first = shapes.count
        shapes.append(count: photos.count)
        var unknown: [ImageID] = []
        let skipped = superseded.map(Set.init)
        for (offset, id) in photos.enumerated() {
            if let skipped {
                if skipped.contains(offset) { continue }
            } else if photoNumber(id) != first + offset {
                continue
            }
            if offset < knownHeaders.count, let header = knownHeaders[offset] {
                if shapes.record(width: header.width, height: header.height, at: first + offset) { changed = true }
            } else {
                unknown.append(id)
            }
        }
        pendingIDs += unknown
        if let probe, let inbox, !pendingIDs.isEmpty { feed(probe, inbox) }
    }

    /// Makes room for `count` photos in all (a listing that knows its size),
    /// so that appending them grows nothing.
    package func reserveCapacity(_ count: Int) {
        shapes.reserveCapacity(count)
    }

    /// Photos whose header no probe has been asked for yet.
    private var pendingIDs: [ImageID] = []

    /// Hands the pending photos to the probe.
    private func feed(_ probe: HeaderProbe, _ inbox: ShapeInbox) {
        let ids = pendingIDs
        pendingIDs = []
        inbox.expect(ids.count)
        Task { await probe.probe(ids) }
    }

    /// Starts reading every photo's header from `source` (the visible ones
    /// first, see ``prioritize(visibleItems:photo:)``), unless already
    /// reading; photos appended later are read too.
    package func startReading(from source: any ImageSource) {
        guard probe == nil else { return }
        // The tracker files every shape itself, and hands the probe each photo once (``append(_:knownHeaders:superseded:)``)
        // and only unread ones to put first: the probe need keep neither the headers nor which photos it read.
        let probe = HeaderProbe(source: source, readingCaptureDates: true, keepingHeaders: false, rememberingReads: false)
        self.probe = probe
        // The stream, not the probe: once the tracker lets go of the probe (a new list) the probe finishes
        // its stream and this task ends.
        let inbox = ShapeInbox(expected: 0)
        self.inbox = inbox
        if !pendingIDs.isEmpty { feed(probe, inbox) }
        let updates = probe.updates
        Task.detached {
            for await batch in updates { inbox.append(batch) }
            inbox.finish()
        }
    }

    /// Files every answer published since the last call; `shown` are the
    /// items the last frame drew (a size for one of them is due at once).
    package func takeArrivals(shown: Set<Int>) {
        guard let inbox else { return }
        for update in inbox.takeAll() {
            // The answer is for the photo listed under its ID now (not one removed since).
            guard let item = photoNumber(update.id), item < shapes.count,
                  !forgotten.contains(item) else { continue }
            if let date = update.captureDate { arrivedDates.append((item, date)) }
            switch update.result {
            case .success(let header):
                guard shapes.record(width: header.width, height: header.height, at: item) else { continue }
                changed = true
            case .failure:
                unreadable.insert(item)                          // it may load now, at the placeholder shape
            }
            if shown.contains(item) { visibleShapeArrived = true }
        }
    }

    /// Whether a layout built on the shapes known before should be rebuilt
    /// now, at `now` (`nil`: whenever anything changed); answering yes
    /// marks the change as taken.
    package func takeRelayout(now: TimeInterval?) -> Bool {
        guard changed else { return false }
        if let now {
            guard now - lastRelayout >= Self.relayoutInterval || allRead || visibleShapeArrived else { return false }
            lastRelayout = now
        }
        changed = false
        visibleShapeArrived = false
        return true
    }

    /// Marks every size known so far as shown: a layout was just built with them.
    package func noteLaidOut() {
        changed = false
    }

    /// Tells the probe to read `visibleItems`' headers first, when the top
    /// of the screen has moved to other photos; `photo` gives the photo
    /// number shown at an item's position.
    package func prioritize(visibleItems items: [(item: Int, frame: CGRect)], photo: (Int) -> Int) {
        guard !allRead, let probe, let top = items.lazy.map(\.item).min(), top != prioritizedTop else { return }
        prioritizedTop = top
        let ids = items.map(\.item).sorted().map(photo).compactMap { $0 < shapes.count && shapes.size(of: $0) == nil ? photoID($0) : nil }
        guard !ids.isEmpty else { return }
        Task { await probe.prioritize(ids) }
    }

    /// Returns once every header has been answered (or the probe let go)
    /// and the answers are filed: an event, not a poll, for headless
    /// rendering and tests.
    package func waitUntilAllRead() async {
        guard let inbox else { return }
        await inbox.waitUntilComplete()
        takeArrivals(shown: [])
    }
}

/// The header probe's answers, collected by a task off the main actor and
/// taken all at once by the frame loop (``ShapeTracker``).
private final class ShapeInbox: @unchecked Sendable {
    private let lock = NSLock()
    private var updates: [HeaderProbe.Update] = []
    /// Answers the list asks for (one per distinct photo).
    private var expected: Int
    private var received = 0
    private var isFinished = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(expected: Int) {
        self.expected = expected
    }

    private var isComplete: Bool { isFinished || received >= expected }

    /// `count` more answers are to come (photos handed to the probe).
    func expect(_ count: Int) {
        lock.lock()
        expected += count
        lock.unlock()
    }

    func append(_ batch: [HeaderProbe.Update]) {
        lock.lock()
        updates.append(contentsOf: batch)
        received += batch.count
        let woken = takeWaitersIfComplete()
        lock.unlock()
        for waiter in woken { waiter.resume() }
    }

    /// The probe's stream ended: no more answers come.
    func finish() {
        lock.lock()
        isFinished = true
        let woken = takeWaitersIfComplete()
        lock.unlock()
        for waiter in woken { waiter.resume() }
    }

    /// Every answer collected so far, oldest first; the inbox is left empty.
    func takeAll() -> [HeaderProbe.Update] {
        lock.lock()
        defer { lock.unlock() }
        let taken = updates
        updates = []
        return taken
    }

    /// Returns once every expected answer arrived or the stream ended.
    func waitUntilComplete() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            lock.lock()
            if isComplete {
                lock.unlock()
                waiter.resume()
            } else {
                waiters.append(waiter)
                lock.unlock()
            }
        }
    }

    /// Called with the lock held.
    private func takeWaitersIfComplete() -> [CheckedContinuation<Void, Never>] {
        guard isComplete, !waiters.isEmpty else { return [] }
        defer { waiters = [] }
        return waiters
    }
}
