#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore
import ParallaxImages
import ParallaxLayout

/// The order photos are shown in and the sections they are grouped into
/// (``PhotoTimeline``): newest first by month unless asked otherwise. When
/// it changes (a date read, a photo found, another order chosen) the
/// layout is rebuilt with the photo at the top of the screen kept where it
/// is, even mid-fling, wherever the new order put it in the list.
extension GalleryModel {
    /// Whether every photo's capture date has been looked for: read with its
    /// header (the same first bytes), remembered by an index, or found
    /// missing (the file's time stands).
    package var allDatesRead: Bool { shapeTracker.allRead }

    /// The sections shown, in order, with their titles and photo counts.
    package var sections: [PhotoTimeline.Section] { arrangement.sections }

    /// The photo number at position `item`, or `item` itself past the end.
    func photoNumber(at item: Int) -> Int {
        arrangement.order.indices.contains(item) ? Int(arrangement.order[item]) : item
    }

    /// The position of photo number `photo`, or `photo` itself past the end.
    func position(ofPhoto photo: Int) -> Int {
        positions.indices.contains(photo) ? Int(positions[photo]) : photo
    }

    /// The photo whose tile place keeping keeps (the first on screen), and
    /// how far its leading edge is past the top of the screen.
    var topAnchor: (photo: Int, distance: CGFloat)? {
        PlaceKeeping.anchor(in: layout, viewport: viewport).map { (photoNumber(at: $0.index.item), $0.distance) }
    }

    /// The photo counts of the sections shown, for the layouts.
    var sectionCounts: [Int] {
        arrangement.sections.isEmpty ? [photos.count] : arrangement.sections.map(\.count)
    }

    /// Whether the layouts give the sections headers: more than one, or
    /// one with a name. A library's first screen is often its newest month
    /// alone; titled only once a second month came, its header appeared
    /// above the photos and pushed them down a header's height.
    var sectionsAreTitled: Bool {
        arrangement.sections.count > 1 || arrangement.sections.first?.isTitledAlone == true
    }

    /// Sorts and groups the timeline by the settings: ``arrangement``,
    /// ``positions`` and ``photos`` follow. Does not relayout.
    func arrange() {
        arrangingInFlight = nil                           // superseded: this one covers what it would have
        arrangement = timeline.arrange(sort: settings.sort, grouping: settings.grouping)
        positions = arrangement.positions(count: timeline.count)
        listingProgress.filedUnshown = false
    }

    /// Arranges again and rebuilds the layout, the photo at the top kept in
    /// place; nothing happens mid-switch or mid-pinch (the caller tries
    /// again on a later frame).
    /// - Returns: Whether it rearranged.
    @discardableResult
    func rearrange() -> Bool {
        guard frames.isResting else { return false }
        relayoutKeepingTop { arrange() }
        return true
    }

    /// Runs `change`, which puts a new arrangement in place, and lays the
    /// photos out again with the photo at the top kept where it was (the
    /// top of the list, when nothing was shown yet): the one way a new
    /// arrangement is shown, made at once or beside the frames.
    func relayoutKeepingTop(after change: () -> Void) {
        let wasEmpty = arrangement.order.isEmpty
        let anchor = topAnchor
        change()
        shapeTracker.noteLaidOut()
        relayout(keepingPlace: !wasEmpty, anchor: anchor)
    }

    /// Files the capture dates read since the last frame and, when any moved
    /// a photo, arranges again: at most every ``GalleryModel/arrangementInterval``
    /// (`now == nil`: at once), never mid-switch or mid-pinch, the photo at
    /// the top kept in place, even mid-fling.
    func applyDates(now: TimeInterval?) {
        for arrival in shapeTracker.takeDates() {
            if timeline.recordCapture(FolderListing.wallClockSeconds(of: arrival.date), of: arrival.photo) {
                needsRearrange = true
            }
        }
        guard needsRearrange, frames.isResting else { return }
        if let now, let last = lastRearrange, now - last < arrangementInterval { return }
        guard let now else {
            needsRearrange = false
            rearrange()
            return
        }
        if rearrangeInBackground() { lastRearrange = now }
    }

    /// ``rearrange()`` for photos and dates streaming in while frames are
    /// drawn: a timeline of more than ``backgroundArrangementMinimum``
    /// photos is arranged on a thread of its own (``ArrangementInFlight``),
    /// the frames going on with the arrangement shown until a later one
    /// takes the new one in (``takeArrangement()``); a smaller one at once.
    /// An arrangement at 100,000 photos took 26-46 ms: two or three frames
    /// missed each time, a few times a second, while a library streamed in.
    /// - Returns: Whether it arranged or started to; not while an
    ///   arrangement is being made (the photos filed and dated since are
    ///   placed by the next one), mid-switch or mid-pinch.
    @discardableResult
    func rearrangeInBackground() -> Bool {
        guard frames.isResting, arrangingInFlight == nil else { return false }
        needsRearrange = false
        guard timeline.count > backgroundArrangementMinimum else { return rearrange() }
        arrangingInFlight = ArrangementInFlight(timeline.arrangementJob(sort: settings.sort, grouping: settings.grouping))
        listingProgress.filedUnshown = false
        return true
    }

    /// Whether an arrangement is being made beside the frames.
    package var isArranging: Bool { arrangingInFlight != nil }

    /// How often photos streaming in are arranged and shown: every
    /// ``listingInterval``, or ten times as long as the last arrangement
    /// made beside the frames took, whichever is longer, so arranging takes
    /// at most a tenth of a core (at 100,000 photos an arrangement took
    /// 30-50 ms: every 0.3-0.5 s while dates are read, instead of 40 times
    /// in the 10 s they take).
    var arrangementInterval: TimeInterval {
        max(Self.listingInterval, 10 * lastArrangementSeconds)
    }

    /// Returns once the arrangement being made, if any, is made; the next
    /// frame shows it (tests).
    package func arrangementMade() async {
        await arrangingInFlight?.finished()
    }

    /// Shows the arrangement made beside the frames once it is made, the
    /// photo at the top kept in place; not mid-switch or mid-pinch (it
    /// waits for a frame at rest). O(k) for the k photos filed since it
    /// began, and the layout's sections.
    func takeArrangement() {
        guard let inFlight = arrangingInFlight, frames.isResting, let made = inFlight.take() else { return }
        arrangingInFlight = nil
        lastArrangementSeconds = made.seconds
        relayoutKeepingTop {
            timeline.adopt(made.arrangement, sortedBy: inFlight.sort, groupedBy: inFlight.grouping)
            arrangement = made.arrangement
            positions = made.positions
            if positions.count < timeline.count {         // photos filed since: not shown yet
                positions.append(contentsOf: repeatElement(-1, count: timeline.count - positions.count))
            }
        }
    }

    /// Shows the photos in `sort` order, the photo at the top kept in place.
    package func setSort(_ sort: PhotoSort) {
        guard sort != settings.sort, !frames.isPinching else { return }
        frames.stop()
        settings.sort = sort
        rearrange()
    }

    /// Groups the photos by `grouping`, the photo at the top kept in place.
    package func setGrouping(_ grouping: PhotoGrouping) {
        guard grouping != settings.grouping, !frames.isPinching else { return }
        frames.stop()
        settings.grouping = grouping
        rearrange()
    }

    /// The section at the top of the screen: the one the first visible
    /// photo is in (0 when there are none).
    package var topSection: Int {
        guard let anchor = PlaceKeeping.anchor(in: layout, viewport: viewport) else { return 0 }
        return section(ofItem: anchor.index.item)
    }

    /// The section holding position `item`. O(sections).
    func section(ofItem item: Int) -> Int {
        var start = 0
        for (section, value) in arrangement.sections.enumerated() {
            start += value.count
            if item < start { return section }
        }
        return max(arrangement.sections.count - 1, 0)
    }

    /// Glides to the start of the section `step` sections after the one at
    /// the top (before, for a negative step): the keys that jump a month
    /// up or down. From inside a section, one step back goes to its own
    /// start first, as a page of a book does.
    package func jumpSection(by step: Int) {
        guard !arrangement.sections.isEmpty, step != 0 else { return }
        let current = topSection
        var target = current + step
        // A glide settling onto a start (a few points past it) is at that start.
        if step < 0, let start = startOfSection(current), scroll.position > start + 8 {
            target += 1                                         // to the start of the section shown first
        }
        target = min(max(target, 0), arrangement.sections.count - 1)
        guard let start = startOfSection(target) else { return }
        glide(to: start)
    }

    /// The scroll position that shows section `section` from its header
    /// (its first line, when the photos are not grouped).
    private func startOfSection(_ section: Int) -> CGFloat? {
        if let flattened = layout.base as? any FlattenedLayout,
           let header = flattened.sectionedLayout.headerFrame(ofSection: section) {
            return header.minY
        }
        let item = arrangement.sections.prefix(section).reduce(0) { $0 + $1.count }
        return layout.restingPosition(showing: ItemIndex(item: item))
    }

    /// Calls `body` with the title of every section header on screen and its
    /// frame on screen, at rest (mid-switch and mid-pinch none are drawn).
    package func forEachVisibleHeader(_ body: (String, CGRect) -> Void) {
        guard frames.isResting, let flattened = layout.base as? any FlattenedLayout else { return }
        let visible = CGRect(origin: CGPoint(x: 0, y: scroll.position), size: viewportSize)
        flattened.forEachHeader(in: visible) { section, frame in
            guard arrangement.sections.indices.contains(section) else { return }
            body(arrangement.sections[section].title, frame.offsetBy(dx: 0, dy: -scroll.position))
        }
    }

    /// The title of the section at the top of the screen when its own
    /// header has scrolled off, to pin there (as Photos keeps the month
    /// in view); `nil` when the photos are not grouped or the header shows.
    package var pinnedHeaderTitle: String? {
        guard frames.isResting, !arrangement.sections.isEmpty, let flattened = layout.base as? any FlattenedLayout else { return nil }
        let section = topSection
        guard let frame = flattened.sectionedLayout.headerFrame(ofSection: section), frame.minY < scroll.position,
              arrangement.sections.indices.contains(section) else { return nil }
        return arrangement.sections[section].title
    }
}
