// The gallery draws through SDL2, which it uses on Linux only.
#if canImport(CSDL2)
import Foundation
import ParallaxCore
import ParallaxImages
import ParallaxLayout
import Testing
@testable import ParallaxGallery

/// ``PhotoTimeline``: the order and sections photos are shown in, against
/// naive oracles over seeded random libraries; ``CivilDate`` against
/// Foundation's calendar.
struct PhotoTimelineTests {
    @Test func arrangedPhotosAreTheIDsInTheArrangementsOrder() {
        var generator = SeededGenerator(seed: 3)
        for count in [0, 1, 2, 17, 500] {
            let ids = (0..<count).map { ImageID("photo-\($0)") }
            let order = (0..<Int32(count)).shuffled(using: &generator).filter { _ in Int.random(in: 0..<4, using: &generator) > 0 }
            let photos = ArrangedPhotos(order: order, ids: ids)
            #expect(Array(photos) == order.map { ids[Int($0)] })
            #expect(photos.count == order.count && photos.indices == 0..<order.count)
        }
    }

    @Test func civilDatesAgreeWithFoundationsCalendar() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<2_000 {
            // 1800 to 2200, the range a capture date may have.
            let seconds = Int64.random(in: -5_364_662_400...7_258_118_400, using: &generator)
            let date = CivilDate(wallClockSeconds: seconds)
            let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: Date(timeIntervalSince1970: TimeInterval(seconds)))
            #expect([date.year, date.month, date.day] == [parts.year, parts.month, parts.day], "\(seconds)")
            #expect(CivilDate(dayNumber: date.dayNumber) == date)
            let weekday: String = calendar.weekdaySymbols[parts.weekday! - 1]
            // Foundation's symbols are abbreviated without a locale ("Wed").
            #expect(date.dayTitle.hasPrefix(String(weekday.prefix(3))), "\(date.dayTitle) is not a \(weekday)")
        }
        #expect(CivilDate(year: 2024, month: 6, day: 4).monthTitle == "June 2024")
        #expect(CivilDate(year: 2024, month: 6, day: 4).dayTitle == "Tuesday 4 June 2024")
        #expect(CivilDate(wallClockSeconds: -1) == CivilDate(year: 1969, month: 12, day: 31))
    }

    /// A random library: some photos with a capture date, some with only a
    /// file time, some with neither; many share a date (a burst).
    private func randomTimeline(_ generator: inout SeededGenerator, count: Int) -> PhotoTimeline {
        var timeline = PhotoTimeline()
        let base: Int64 = 1_500_000_000
        let times = (0..<count).map { _ in base + Int64.random(in: 0..<40) * 86_400 * 9 }
        timeline.append((0..<count).map { index in
            let folder = ["2024/06-trip", "2025/DCIM/100APPLE", "", "scans"][index % 4]
            let name = folder.isEmpty ? "IMG_\(index).jpg" : "\(folder)/IMG_\(index).jpg"
            return (id: ImageID(name), fileTime: index % 5 == 0 ? nil : times[index] + 3_600)
        })
        for photo in 0..<count where photo % 3 == 0 { timeline.recordCapture(times[photo], of: photo) }
        return timeline
    }

    @Test(arguments: [PhotoSort.newestFirst, .oldestFirst])
    func datesOrderPhotosAndMonthsGroupThem(sort: PhotoSort) {
        var generator = SeededGenerator(seed: sort == .newestFirst ? 1 : 2)
        for _ in 0..<20 {
            var timeline = randomTimeline(&generator, count: Int.random(in: 0..<300, using: &generator))
            for grouping in [PhotoGrouping.month, .day, .none] {
                let arrangement = timeline.arrange(sort: sort, grouping: grouping)
                #expect(arrangement.order.sorted() == (0..<Int32(timeline.count)).map { $0 })
                #expect(arrangement.sections.map(\.count).reduce(0, +) == timeline.count)
                #expect(!arrangement.sections.contains { $0.count == 0 })
                // The oracle: known times in order, unknown ones last; ties by path, A to Z.
                func byPath(_ a: Int, _ b: Int) -> Bool {
                    timeline.ids[a].rawValue.utf8.lexicographicallyPrecedes(timeline.ids[b].rawValue.utf8)
                }
                let known = (0..<timeline.count).filter { timeline.time(of: $0) != nil }
                let unknown = (0..<timeline.count).filter { timeline.time(of: $0) == nil }.sorted(by: byPath)
                let sortedKnown = known.sorted { a, b in
                    let ta = timeline.time(of: a)!, tb = timeline.time(of: b)!
                    return ta == tb ? byPath(a, b) : (sort == .newestFirst ? ta > tb : ta < tb)
                }
                #expect(arrangement.order.map(Int.init) == sortedKnown + unknown)
                // Sections: consecutive photos of one month (day), titled by it; a separate "Date unknown" last.
                var position = 0
                for section in arrangement.sections {
                    let members = arrangement.order[position..<(position + section.count)].map(Int.init)
                    position += section.count
                    if grouping == .none {
                        #expect(section.title.isEmpty)
                        continue
                    }
                    let titles = Set(members.map { photo -> String in
                        guard let time = timeline.time(of: photo) else { return "Date unknown" }
                        let date = CivilDate(wallClockSeconds: time)
                        return grouping == .day ? date.dayTitle : date.monthTitle
                    })
                    #expect(titles == [section.title])
                }
                if grouping != .none {
                    #expect(Set(arrangement.sections.map(\.title)).count == arrangement.sections.count, "a month appears twice")
                }
            }
        }
    }

    @Test func foldersAndNamesOrderByPath() {
        var generator = SeededGenerator(seed: 3)
        var timeline = randomTimeline(&generator, count: 120)
        let byName = timeline.arrange(sort: .name, grouping: .none)
        let names = byName.order.map { timeline.ids[Int($0)].rawValue }
        #expect(names == names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        let byFolder = timeline.arrange(sort: .newestFirst, grouping: .folder)
        #expect(byFolder.sections.map(\.title) == ["(top folder)", "2024/06-trip", "2025/DCIM/100APPLE", "scans"])
        #expect(byFolder.sections.map(\.count) == [30, 30, 30, 30])
        #expect(PhotoTimeline.folder(of: ImageID("a/b/c.jpg")) == "a/b")
        #expect(PhotoTimeline.folder(of: ImageID("c.jpg")) == "")
    }

    /// Arranging again after appends, new dates and removals (a merge) gives
    /// exactly what arranging from scratch does (a sort).
    /// Photos of the same time (a burst, a folder copied in one second) are
    /// in path order, A to Z, whichever way time runs, as the library index
    /// lists them, and whatever order they arrived in: a walk on the first
    /// launch and an index on the next find them in different orders, and
    /// the screen must not change between launches.
    @Test(arguments: [PhotoSort.newestFirst, .oldestFirst])
    func photosOfTheSameTimeAreInPathOrderWhateverOrderTheyArrivedIn(sort: PhotoSort) {
        var generator = SeededGenerator(seed: 21)
        // Few distinct times, so most photos tie; the same names in several folders, long names alike.
        let photos: [(id: ImageID, fileTime: Int64?)] = (0..<400).map { index in
            let folder = ["2024/06-trip", "DCIM/100APPLE", "", "2024/06-trip/burst"][index % 4]
            let name = index % 3 == 0 ? "2024-06-15 12.30.45-\(index / 4).jpg" : "IMG_\(index / 4).jpg"
            return (ImageID(folder.isEmpty ? name : "\(folder)/\(name)"),
                    index % 7 == 0 ? nil : 1_700_000_000 + Int64(index % 3) * 60)
        }
        func arranged(_ photos: [(id: ImageID, fileTime: Int64?)]) -> [String] {
            var timeline = PhotoTimeline()
            timeline.append(photos)
            return timeline.arrange(sort: sort, grouping: .none).order.map { timeline.ids[Int($0)].rawValue }
        }
        let expected = arranged(photos)
        for _ in 0..<5 { #expect(arranged(photos.shuffled(using: &generator)) == expected) }
        let times = Dictionary(uniqueKeysWithValues: photos.map { ($0.id.rawValue, $0.fileTime ?? .min) })
        for (a, b) in zip(expected, expected.dropFirst()) where times[a] == times[b] {
            #expect(a.utf8.lexicographicallyPrecedes(b.utf8), "\(a) before \(b)")
        }
        #expect(PhotoTimeline.comparePaths("a/b", "a/b") == 0)
        #expect(PhotoTimeline.comparePaths("a/b", "a/bc") < 0 && PhotoTimeline.comparePaths("a/é", "a/z") > 0)
    }

    /// Path prefixes that differ order their paths as the bytes do; equal
    /// ones leave it to the strings (random paths, over a small alphabet so
    /// that prefixes often agree).
    @Test func pathPrefixesOrderPathsAsTheirBytesDo() {
        var generator = SeededGenerator(seed: 12)
        let alphabet = Array("ab/é0.".unicodeScalars)
        func path() -> String {
            String(String.UnicodeScalarView((0..<Int.random(in: 0...12, using: &generator)).map { _ in
                alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
            }))
        }
        for _ in 0..<2_000 {
            let a = path(), b = path()
            let bytes = a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : (a == b ? 0 : 1)
            #expect(PhotoTimeline.comparePaths(a, b).signum() == bytes, "\(a) \(b)")
            let (pa, pb) = (PhotoTimeline.pathPrefix(a), PhotoTimeline.pathPrefix(b))
            if pa != pb { #expect((pa < pb) == (bytes < 0), "\(a) \(b)") }
            if bytes == 0 { #expect(pa == pb) }
        }
    }

    /// An ID listed twice is numbered where it comes last; `append` names
    /// the offsets it came at before within the same batch (the shape
    /// tracker reads those under no number), against a naive oracle.
    @Test func appendNamesTheOffsetsAnIDComesAgainAfter() {
        var generator = SeededGenerator(seed: 8)
        for _ in 0..<100 {
            var timeline = PhotoTimeline()
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let batch = (0..<Int.random(in: 0...30, using: &generator)).map { _ in
                    (id: ImageID("p\(Int.random(in: 0..<25, using: &generator))"), fileTime: Int64?.none)
                }
                let first = timeline.count
                let superseded = timeline.append(batch)
                let expected = batch.indices.filter { offset in batch[(offset + 1)...].contains { $0.id == batch[offset].id } }
                #expect(superseded.sorted() == expected)
                for (offset, photo) in batch.enumerated() where !expected.contains(offset) {
                    #expect(timeline.number(of: photo.id) == first + offset)
                }
            }
        }
    }

    @Test func roomMadeForAnAnnouncedCountIsNotGrownWhileItIsFiled() {
        var generator = SeededGenerator(seed: 5)
        var timeline = PhotoTimeline()
        timeline.reserveCapacity(10_000)
        let room = timeline.capacity
        #expect(room >= 10_000)
        while timeline.count < 10_000 {
            let first = timeline.count, count = min(Int.random(in: 1...700, using: &generator), 10_000 - first)
            timeline.append((first..<first + count).map { (id: ImageID("p\($0)"), fileTime: Int64($0)) })
            #expect(timeline.capacity == room)
        }
        let arrangement = timeline.arrange(sort: .oldestFirst, grouping: .none)
        #expect(arrangement.order == (0..<10_000).map(Int32.init))
        // Past the room made, it grows at least twofold.
        timeline.append((10_000...room).map { (id: ImageID("extra-\($0)"), fileTime: nil) })
        #expect(timeline.capacity >= 2 * room)
    }

    @Test func incrementalArrangementsEqualAFreshSort() {
        var generator = SeededGenerator(seed: 17)
        for sort in PhotoSort.allCases {
            for grouping in PhotoGrouping.allCases {
                var timeline = randomTimeline(&generator, count: 200)
                _ = timeline.arrange(sort: sort, grouping: grouping)
                for round in 0..<15 {
                    // Sometimes a few changes (merged), sometimes many (sorted again).
                    let changes = round % 4 == 3 ? 120 : Int.random(in: 1..<20, using: &generator)
                    randomChanges(to: &timeline, count: changes, using: &generator)
                    let incremental = timeline.arrange(sort: sort, grouping: grouping)
                    var fresh = PhotoTimelineTests.copy(of: timeline)
                    let sorted = fresh.arrange(sort: sort, grouping: grouping)
                    #expect(incremental.order == sorted.order, "\(sort) \(grouping) round \(round)")
                    #expect(incremental.sections == sorted.sections)
                    #expect(incremental.order.count == timeline.shownCount)
                }
            }
        }
    }

    /// An arrangement made beside the changes (a job taken, the timeline
    /// changed while it is made, the job's arrangement adopted or dropped):
    /// the job arranges the timeline as it was when taken, and the next
    /// arrangement places everything changed meanwhile, as a fresh sort
    /// does. Against the fresh sort, over random changes.
    @Test func arrangementsMadeBesideChangesLoseNothing() {
        var generator = SeededGenerator(seed: 23)
        for sort in PhotoSort.allCases {
            for grouping in PhotoGrouping.allCases {
                var timeline = randomTimeline(&generator, count: 200)
                _ = timeline.arrange(sort: sort, grouping: grouping)
                for round in 0..<12 {
                    randomChanges(to: &timeline, count: Int.random(in: 1..<20, using: &generator), using: &generator)
                    var asTaken = PhotoTimelineTests.copy(of: timeline)
                    let job = timeline.arrangementJob(sort: sort, grouping: grouping)
                    randomChanges(to: &timeline, count: round % 3 == 2 ? 120 : Int.random(in: 0..<20, using: &generator),
                                  using: &generator)
                    let made = job.make()
                    let expected = asTaken.arrange(sort: sort, grouping: grouping)
                    #expect(made.order == expected.order, "\(sort) \(grouping) round \(round)")
                    #expect(made.sections == expected.sections)
                    if Bool.random(using: &generator) { timeline.adopt(made, sortedBy: sort, groupedBy: grouping) }
                    let next = timeline.arrange(sort: sort, grouping: grouping)
                    var fresh = PhotoTimelineTests.copy(of: timeline)
                    let sorted = fresh.arrange(sort: sort, grouping: grouping)
                    #expect(next.order == sorted.order, "\(sort) \(grouping) round \(round)")
                    #expect(next.sections == sorted.sections)
                }
            }
        }
    }

    /// `count` random changes: photos appended, re-dated, removed.
    private func randomChanges(to timeline: inout PhotoTimeline, count: Int, using generator: inout SeededGenerator) {
        for _ in 0..<count {
            switch Int.random(in: 0..<3, using: &generator) {
            case 0:
                let index = timeline.count
                timeline.append([(ImageID("new/\(index).jpg"),
                                  Bool.random(using: &generator) ? nil : Int64.random(in: 0..<1_000, using: &generator) * 86_400)])
            case 1:
                timeline.recordCapture(Int64.random(in: 0..<1_000, using: &generator) * 86_400,
                                       of: Int.random(in: 0..<timeline.count, using: &generator))
            default:
                timeline.remove([timeline.ids[Int.random(in: 0..<timeline.count, using: &generator)]])
            }
        }
    }

    /// The same photos, times and removals, with no arrangement made yet.
    static func copy(of timeline: PhotoTimeline) -> PhotoTimeline {
        var copy = PhotoTimeline()
        copy.append(timeline.ids.indices.map { (id: timeline.ids[$0], fileTime: nil) })
        for photo in timeline.ids.indices {
            if let time = timeline.time(of: photo) { copy.recordCapture(time, of: photo) }
            if timeline.number(of: timeline.ids[photo]) != photo { copy.remove([timeline.ids[photo]]) }
        }
        return copy
    }

    @Test func aCaptureDateReplacesTheFileTime() {
        var timeline = PhotoTimeline()
        let photos: [(id: ImageID, fileTime: Int64?)] = [(ImageID("a.jpg"), 100), (ImageID("b.jpg"), nil)]
        timeline.append(photos)
        #expect(timeline.timeSource(of: 0) == .fileModified)
        #expect(timeline.timeSource(of: 1) == .unknown)
        let first = timeline.recordCapture(50, of: 0)
        let again = timeline.recordCapture(50, of: 0)                // the same time again changes nothing
        let missing = timeline.recordCapture(50, of: 7)              // no such photo
        #expect(first && !again && !missing)
        #expect(timeline.timeSource(of: 0) == .captured)
        #expect(timeline.time(of: 0) == 50)
        #expect(timeline.arrange(sort: .newestFirst, grouping: .month).order == [0, 1])
    }
}

/// ``FlattenedSections``: a sectioned layout seen as one run of positions.
struct FlattenedSectionsTests {
    @Test func positionsMapToTheBaseAndBackOverRandomSections() throws {
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<30 {
            let counts = (0..<Int.random(in: 1..<12, using: &generator)).map { _ in Int.random(in: 0..<40, using: &generator) }
            var configuration = GridConfiguration.grid
            configuration.headerHeight = 40
            let base = try GridLayout(configuration: configuration, itemCounts: counts, containerSize: CGSize(width: 600, height: 500))
            let flat = FlattenedSections(base)
            let total = counts.reduce(0, +)
            #expect(flat.numberOfSections == 1)
            #expect(flat.numberOfItems(inSection: 0) == total)
            var position = 0
            for (section, count) in counts.enumerated() {
                for item in 0..<count {
                    #expect(flat.baseIndex(of: position) == ItemIndex(item: item, section: section))
                    #expect(flat.position(of: ItemIndex(item: item, section: section)) == position)
                    #expect(flat.frame(of: ItemIndex(item: position)) == base.frame(of: ItemIndex(item: item, section: section)))
                    position += 1
                }
            }
            #expect(flat.baseIndex(of: total) == nil)
            #expect(flat.frame(of: ItemIndex(item: 0, section: 1)) == nil)
            // Every visible item is reported once, under its position, with the base's frame.
            let rect = CGRect(x: 0, y: CGFloat.random(in: 0...max(base.contentSize.height, 1), using: &generator), width: 600, height: 500)
            let reported = flat.items(in: rect)
            #expect(Set(reported.map(\.id.item)).count == reported.count)
            #expect(reported.count == base.items(in: rect).count)
            for visible in reported { #expect(flat.frame(of: visible.id) == visible.frame) }
            var headers = 0
            flat.forEachHeader(in: rect) { section, frame in
                headers += 1
                #expect(frame == base.headerFrame(ofSection: section))
            }
            #expect(headers == (0..<counts.count).filter { base.headerFrame(ofSection: $0)!.intersects(rect) }.count)
        }
    }
}

/// The gallery re-sorts as capture dates arrive without moving the photo
/// at the top of the screen.
@Suite("Gallery timeline")
@MainActor
struct GalleryTimelineTests {
    static let size = CGSize(width: 800, height: 700)

    func model(count: Int, layout: GalleryLayout) async -> GalleryModel {
        let images = (0..<count).map { index in
            (ImageID(String(format: "photo-%04d.png", index)), SyntheticPhotos.rowPattern(tag: UInt8(index % 256), width: 40, height: 30))
        }
        var settings = GallerySettings()
        settings.layout = layout
        settings.latency = .none
        let library = PhotoLibrary(source: InMemoryImageSource(images: images), credits: [], description: "timeline",
                                   readsHeadersLocally: true)
        let model = GalleryModel(library: library, settings: settings, viewportSize: Self.size)
        await model.loadPhotoList()
        await model.settleShapes()
        return model
    }

    @Test(arguments: [GalleryLayout.grid, .list, .quilt, .waterfall])
    func datesArrivingNeverMoveThePhotoAtTheTop(layout: GalleryLayout) async throws {
        let model = await model(count: 600, layout: layout)
        model.update(now: 0)
        // No dates known: one untitled section, the order listed.
        #expect(model.sections.count == 1)
        #expect(model.photos.first == ImageID("photo-0000.png"))
        var generator = SeededGenerator(seed: UInt64(layout.hashValue & 0xFFFF))
        model.jump(to: 3_000)
        model.update(now: 0.1)
        var time = 0.1
        for round in 0..<12 {
            // Before: the photo at the top and where it is on screen.
            let top = try #require(model.topAnchor)
            let before = try #require(model.cells.first { model.photoNumber(at: $0.item) == top.photo }?.frame)
            // A batch of dates arrives, months apart, the photo at the top among them.
            for _ in 0..<50 {
                let photo = Int.random(in: 0..<600, using: &generator)
                model.timeline.recordCapture(1_600_000_000 + Int64.random(in: 0..<1_000, using: &generator) * 86_400, of: photo)
            }
            model.timeline.recordCapture(1_600_000_000 + Int64(round) * 40 * 86_400, of: top.photo)
            #expect(model.rearrange())
            time += 0.1
            model.update(now: time)
            let after = try #require(model.cells.first { model.photoNumber(at: $0.item) == top.photo }?.frame, "round \(round)")
            #expect(abs(after.minY - before.minY) < 0.5, "round \(round): the top photo moved from \(before.minY) to \(after.minY)")
            #expect(model.photos.count == 600)
            #expect(Set(model.photos).count == 600)
        }
        // Dates known: months with headers, newest first.
        #expect(model.sections.count > 1)
        #expect(model.sections.first?.title != "Date unknown")
        #expect(model.sections.last?.title == "Date unknown")
    }

    @Test func sectionKeysJumpFromMonthToMonth() async throws {
        let model = await model(count: 300, layout: .grid)
        for photo in 0..<300 {
            // Ten months of thirty photos.
            model.timeline.recordCapture(1_700_000_000 + Int64(photo / 30) * 31 * 86_400, of: photo)
        }
        model.rearrange()                                          // keeps photo 0, now the oldest, at the top
        model.jump(to: 0)
        model.update(now: 0)
        #expect(model.sections.count == 10)
        #expect(model.topSection == 0)
        var time: TimeInterval = 0
        for expected in [1, 2, 3, 2, 1, 0, 0] {
            model.jumpSection(by: expected >= model.topSection && !(expected == 0 && model.topSection == 0) ? 1 : -1)
            for _ in 0..<2_000 where !model.scroll.isAtRest {
                time += 1.0 / 60
                model.update(now: time)
            }
            #expect(model.topSection == expected)
            // The section's header is on screen, at its top.
            var titles: [String] = []
            model.forEachVisibleHeader { title, frame in if frame.minY >= -1, frame.minY < 60 { titles.append(title) } }
            #expect(titles == [model.sections[expected].title])
        }
    }
}
#endif

#if canImport(CSDL2)
/// A listing that streams in: photos show from the first batch, and each
/// later batch (with its dates) keeps the photo at the top in place.
@Suite("Gallery listing")
@MainActor
struct GalleryListingTests {
    /// A model at 800 × 700 over `source` whose listing the test drives
    /// (`feed`), started.
    func streamingModel(source: any ImageSource) throws -> (GalleryModel, AsyncStream<ListingEvent>.Continuation) {
        var continuation: AsyncStream<ListingEvent>.Continuation?
        let events = AsyncStream<ListingEvent>(bufferingPolicy: .unbounded) { continuation = $0 }
        let feed = try #require(continuation)
        var library = PhotoLibrary(source: source, credits: [], description: "streamed", readsHeadersLocally: true)
        library.makeListing = { _, _ in events }
        var settings = GallerySettings()
        settings.latency = .none
        let model = GalleryModel(library: library, settings: settings, viewportSize: CGSize(width: 800, height: 700))
        model.startListing()
        return (model, feed)
    }

    /// An index's records: an empty batch, the first screen's photos, then
    /// a backlog larger than a frame may take. The first photos show on the
    /// next frame (an empty batch once kept them waiting a whole listing
    /// interval), and the backlog is taken a frame's worth at a time on
    /// consecutive frames, never all in one.
    @Test func theFirstPhotosShowAtOnceAndABacklogIsTakenAFrameAtATime() async throws {
        let shown = 40
        let images = (0..<shown).map { index in
            (ImageID(String(format: "2025/IMG_%04d.png", index)), SyntheticPhotos.rowPattern(tag: UInt8(index), width: 40, height: 30))
        }
        let backlog = GalleryModel.photosPerFrame * 2 + 100
        let (model, feed) = try streamingModel(source: InMemoryImageSource(images: images))
        // Arranged within the frames, so each shows what its frame filed (beside the frames, the
        // arrangement would show on whichever frame came after it was made).
        model.backgroundArrangementMinimum = .max
        feed.yield(.photos([]))
        feed.yield(.photos(images.enumerated().map { FoundPhoto(id: $1.0, fileTime: 1_800_000_000 - Int64($0) * 60) }))
        feed.yield(.photos((0..<backlog).map { FoundPhoto(id: ImageID("2001/IMG_\($0).png"), fileTime: 1_000_000_000 - Int64($0)) }))
        feed.yield(.finished(FolderScan.Report()))
        feed.finish()
        await model.listing.waitUntilFinished()
        let frame = 1.0 / 60
        model.update(now: 0)
        #expect(model.photos.isEmpty, "the empty batch")
        model.update(now: frame)
        #expect(model.photos.count == shown, "the first photos, one frame later")
        await model.settle(at: frame)
        #expect(model.unsharpCellCount == 0 && !model.cells.isEmpty)
        // Each frame files a frame's worth; they show at most every listing interval, and at the end.
        var frames = 1, previous = model.timeline.count, lastShown = model.photos.count, lastShownAt = 1
        while previous < shown + backlog {
            frames += 1
            model.update(now: Double(frames) * frame)
            let taken = model.timeline.count - previous
            #expect(taken > 0, "frame \(frames) took nothing with \(shown + backlog - previous) photos waiting")
            #expect(taken <= GalleryModel.photosPerFrame)
            previous = model.timeline.count
            if model.photos.count != lastShown {
                #expect(Double(frames - lastShownAt) * frame >= GalleryModel.listingInterval || previous == shown + backlog,
                        "shown again after \(frames - lastShownAt) frames")
                lastShown = model.photos.count
                lastShownAt = frames
            }
            if taken == 0 { break }
        }
        model.update(now: Double(frames + 1) * frame)      // the end of the listing shows what is left at once
        #expect(model.photos.count == shown + backlog)
        #expect(Array(model.photos.prefix(shown)) == images.map(\.0), "the newest photos stay first")
        #expect(model.topItem == 0)
    }

    /// A library whose first photos are all of its newest month: that
    /// month's header is on the first screen, and nothing moves when older
    /// months arrive. (Titled only once a second month came, the header
    /// appeared above the first screen's photos and pushed them down.)
    @Test func aFirstScreenOfOneMonthHasItsHeaderFromTheStart() async throws {
        let newest = (0..<40).map { ImageID(String(format: "2027/IMG_%04d.png", $0)) }
        let images = newest.enumerated().map { ($1, SyntheticPhotos.rowPattern(tag: UInt8($0), width: 40, height: 30)) }
        let (model, feed) = try streamingModel(source: InMemoryImageSource(images: images))
        model.backgroundArrangementMinimum = .max
        // Mid-January 2027 (1,800,000,000 s), a minute apart: one month in any time zone.
        feed.yield(.photos(newest.enumerated().map { FoundPhoto(id: $1, fileTime: 1_800_000_000 - Int64($0) * 60) }))
        await model.listing.waitForPhotos()
        model.update(now: 0)
        #expect(model.sections.map(\.title) == ["January 2027"])
        func headers() -> [String: CGRect] {
            var found: [String: CGRect] = [:]
            model.forEachVisibleHeader { found[$0] = $1 }
            return found
        }
        let header = try #require(headers()["January 2027"], "the month's header on the first screen")
        let first = try #require(model.cells.first { $0.item == 0 }?.frame)
        #expect(first.minY >= header.maxY)

        // Older months, then the end of the listing.
        feed.yield(.photos((0..<500).map { FoundPhoto(id: ImageID("2001/IMG_\($0).png"), fileTime: 1_000_000_000 - Int64($0) * 86_400) }))
        feed.yield(.finished(FolderScan.Report()))
        feed.finish()
        await model.listing.waitUntilFinished()
        var time = 0.0
        while model.photos.count < 540, time < 10 {
            time += GalleryModel.firstScreenWait
            model.update(now: time)
        }
        #expect(model.photos.count == 540)
        #expect(model.sections.count > 1)
        #expect(model.photos.first == newest[0])
        #expect(headers()["January 2027"] == header)
        #expect(model.cells.first { $0.item == 0 }?.frame == first, "the first screen's photos stayed where they were")
    }

    /// A first screen that cannot fill (one picture never arrives) holds
    /// the rest of the listing back for ``GalleryModel/firstScreenWait`` of
    /// frame time, no longer.
    @Test func aFirstScreenThatCannotFillHoldsTheRestBackASecondAtMost() async throws {
        let images = (0..<40).map { index in
            (ImageID(String(format: "new/IMG_%04d.png", index)), SyntheticPhotos.rowPattern(tag: UInt8(index), width: 40, height: 30))
        }
        let gate = HeaderGate()                                   // never opened until the end: the pictures never come
        let (model, feed) = try streamingModel(source: GatedDataSource(base: InMemoryImageSource(images: images), gate: gate))
        feed.yield(.photos(images.map { FoundPhoto(id: $0.0, fileTime: 1_800_000_000) }))
        feed.yield(.photos((0..<100).map { FoundPhoto(id: ImageID("old/IMG_\($0).png"), fileTime: 1_000_000_000) }))
        feed.yield(.finished(FolderScan.Report()))
        feed.finish()
        await model.listing.waitUntilFinished()
        let frame = 1.0 / 60
        var now = 0.0
        model.update(now: now)
        #expect(model.photos.count == 40 && model.unsharpCellCount > 0)
        while now < GalleryModel.firstScreenWait - frame {
            now += frame
            model.update(now: now)
            #expect(model.photos.count == 40, "the rest came in at \(now) s, with the first screen still blank")
        }
        now += 2 * frame
        model.update(now: now)
        #expect(model.photos.count == 140)
        await gate.open()
    }

    /// Arranged within the frames (the default for a small library) and
    /// beside them (as a large one is: `backgroundArrangementMinimum` 0).
    @Test(arguments: [GalleryModel.defaultBackgroundArrangementMinimum, 0])
    func batchesArriveWhileFramesAreDrawnAndTheTopPhotoStays(backgroundArrangementMinimum: Int) async throws {
        let count = 900
        let images = (0..<count).map { index in
            (ImageID(String(format: "2024/%02d/IMG_%04d.png", index % 12 + 1, index)),
             SyntheticPhotos.rowPattern(tag: UInt8(index % 256), width: 40, height: 30))
        }
        // The listing is driven by the test: a batch at a time, each photo with a file time.
        let (model, feed) = try streamingModel(source: InMemoryImageSource(images: images))
        model.backgroundArrangementMinimum = backgroundArrangementMinimum
        #expect(model.photos.isEmpty)
        #expect(model.isListing)
        var generator = SeededGenerator(seed: 5)
        var time: TimeInterval = 0
        var anchor: (photo: Int, minY: CGFloat)?
        for batch in stride(from: 0, to: count, by: 100) {
            let photos = (batch..<(batch + 100)).map { index in
                FoundPhoto(id: images[index].0, fileTime: 1_700_000_000 + Int64.random(in: 0..<400, using: &generator) * 86_400)
            }
            feed.yield(.photos(photos))
            // Frames until the batch is shown (the listing's inbox is filled by another task: await it by yielding).
            let expected = batch + 100
            // An arrangement made beside the frames is awaited, and shown by the next frame.
            while model.photos.count < expected {
                await Task.yield()
                await model.arrangementMade()
                time += GalleryModel.listingInterval
                model.update(now: time)
            }
            if let anchor {
                let frame = try #require(model.cells.first { model.photoNumber(at: $0.item) == anchor.photo }?.frame)
                #expect(abs(frame.minY - anchor.minY) < 0.5, "after \(expected) photos the top photo moved")
            } else {
                model.jump(to: 600)                                // somewhere in the middle of the first batch
                model.update(now: time)
            }
            let top = try #require(model.topAnchor)
            anchor = (top.photo, try #require(model.cells.first { model.photoNumber(at: $0.item) == top.photo }?.frame.minY))
        }
        var report = FolderScan.Report()
        report.videoCount = 12
        report.otherFileCount = 3
        feed.yield(.finished(report))
        feed.finish()
        await model.listing.waitUntilFinished()
        model.update(now: time + 1)
        await model.arrangementMade()
        model.update(now: time + 2)
        #expect(!model.isArranging)
        #expect(!model.isListing)
        #expect(model.listingSummary?.notShownSummary == "12 videos and 3 other files not shown")
        #expect(model.photos.count == count)
        #expect(model.sections.count > 1)                          // months, from the file times
        #expect(GalleryRenderer.libraryLine(of: model).contains("12 videos and 3 other files not shown"))
    }
}
#endif
