import Foundation
import ParallaxImages

/// How the gallery orders the photos: by the time each was taken, newest
/// or oldest first, or by name (a folder listing's order).
package enum PhotoSort: String, Sendable, Hashable, CaseIterable {
    case newestFirst = "newest"
    case oldestFirst = "oldest"
    case name

    /// The next order, for the key that cycles them.
    package var next: PhotoSort {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}

/// The sections the gallery groups photos into, each under a header:
/// by the month or the day they were taken, by folder, or none.
package enum PhotoGrouping: String, Sendable, Hashable, CaseIterable {
    case month, day, folder, none

    /// The next grouping, for the key that cycles them.
    package var next: PhotoGrouping {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}

/// Every photo of the library with when it was taken, and the order and
/// sections they are shown in: the one owner of "which photo is where".
///
/// Photos are numbered in the order they arrived (a folder walk streams
/// them in batches); that number never changes, so what is known about a
/// photo (its shape, its date) is filed by it. Each photo has a *time*:
/// its capture date once read from its metadata, until then its file's
/// modification time (a provisional place, usually near the right one: a
/// camera writes the file when it takes the photo), and none at all when
/// neither is known. Times are wall-clock seconds (the local time at which
/// the photo was taken, counted as if it were UTC), so a photo taken at
/// 23:30 in Tokyo is filed under that day wherever it is looked at, as
/// Photos and Google Photos do.
///
/// ``arrange(_:)`` sorts and groups: O(n log n) for n photos, with
/// integer keys (the photo number breaks ties, so the order is total and
/// stable across arrangements).
package struct PhotoTimeline: Sendable {
    /// A run of consecutive photos in the arranged order, under one header.
    package struct Section: Sendable, Hashable {
        /// The header: "June 2024", "Tuesday 4 June 2024", a folder's path,
        /// or "Date unknown" (``undatedTitle``).
        package var title: String
        /// How many photos it holds.
        package var count: Int

        /// The title of the photos whose date is not known.
        package static let undatedTitle = "Date unknown"

        /// Whether a section alone is given a header: one that names a
        /// month, a day or a folder (a library's newest month, shown first
        /// and titled as the rest will be), not the untitled section of
        /// photos not grouped, nor photos none of whose dates are known.
        package var isTitledAlone: Bool { !title.isEmpty && title != Self.undatedTitle }
    }

    /// The photos in the order shown, and their sections.
    package struct Arrangement: Sendable {
        /// Photo numbers in the order shown: `order[position]`.
        package var order: [Int32]
        /// Consecutive runs of `order`, each under a header (one untitled
        /// section for ``PhotoGrouping/none``; none without photos).
        package var sections: [Section]

        /// The position of each of `count` photo numbers (`-1` for one not
        /// shown): `positions[photo]`, the inverse of ``order``. O(n).
        package func positions(count: Int) -> [Int32] {
            var positions = [Int32](repeating: -1, count: count)
            for (position, photo) in order.enumerated() { positions[Int(photo)] = Int32(position) }
            return positions
        }
    }

    /// Where a photo's time came from, most trusted first.
    package enum TimeSource: UInt8, Sendable {
        case captured, fileModified, unknown
    }

    /// The photos, by number.
    package private(set) var ids: [ImageID] = []
    /// The number of each photo shown, by ID (the latest, should a photo
    /// have been removed and found again).
    private var numbers = PhotoNumbers()
    /// Photos removed (deleted or changed since an index listed them):
    /// their numbers stay taken, and they are left out of every arrangement.
    private var removed: [Bool] = []
    private var removedCount = 0
    /// Each photo's wall-clock time, or ``unknownTime``.
    private var times: [Int64] = []
    /// The first 8 bytes of each photo's path (``pathPrefix(_:)``), which
    /// order most paths without comparing the strings.
    private var pathPrefixes: [UInt64] = []
    private var sources: [TimeSource] = []
    /// Each photo's folder, as a number into ``folderNames``: filled in
    /// for the photos appended since, when photos are grouped by folder
    /// (``numberFolders()``), so a walk of 100,000 photos shown by date
    /// makes no folder strings.
    private var folders: [Int32] = []
    private var folderNames: [String] = []
    private var folderNumbers: [String: Int32] = [:]

    /// The last arrangement made and what it was made for, kept so the
    /// next one only places what changed since (``arrange(sort:grouping:)``).
    private var last: (sort: PhotoSort, grouping: PhotoGrouping, order: [Int32])?
    /// Photos appended, re-dated or removed since the last arrangement.
    private var moved: [Int32] = []
    private var isMoved: [Bool] = []

    /// The time of a photo whose time is not known: it sorts after every
    /// known one, newest or oldest first.
    static let unknownTime = Int64.min

    package init() {}

    /// The number of photos.
    package var count: Int { ids.count }

    /// Adds `photos` after those already here, each with its file's
    /// modification time (wall-clock seconds) if known, numbered from
    /// ``count`` on. An ID already here is numbered anew (the photo shown
    /// under it is the latest). Returns the offsets in `photos` whose ID
    /// comes again later in `photos` (almost always none).
    @discardableResult
    package mutating func append(_ photos: some Collection<(id: ImageID, fileTime: Int64?)>) -> [Int] {
        // Room made once for the whole batch (an index's 100,000 photos arrive in one), growing at least
        // twofold, so batch after batch stays amortized O(1) a photo.
        let total = ids.count + photos.count
        if total > ids.capacity { reserveCapacity(max(total, ids.capacity * 2)) }
        let first = Int32(ids.count)
        var superseded: [Int] = []
        for photo in photos {
            let number = Int32(ids.count)
            if let earlier = numbers.file(photo.id, as: number, in: ids), earlier >= first {
                superseded.append(Int(earlier - first))
            }
            ids.append(photo.id)
            times.append(photo.fileTime ?? Self.unknownTime)
            pathPrefixes.append(Self.pathPrefix(photo.id.rawValue))
            sources.append(photo.fileTime == nil ? .unknown : .fileModified)
            removed.append(false)
            isMoved.append(false)
            markMoved(number)
        }
        return superseded
    }

    /// How many photos it holds before it has to grow.
    package var capacity: Int { ids.capacity }

    /// Makes room for `count` photos in all, so that appending up to that
    /// many grows nothing. O(count) when it grows.
    package mutating func reserveCapacity(_ count: Int) {
        guard count > ids.capacity else { return }
        numbers.reserveCapacity(count)
        ids.reserveCapacity(count)
        times.reserveCapacity(count)
        pathPrefixes.reserveCapacity(count)
        sources.reserveCapacity(count)
        removed.reserveCapacity(count)
        isMoved.reserveCapacity(count)
        moved.reserveCapacity(count)
    }

    private mutating func markMoved(_ photo: Int32) {
        guard !isMoved[Int(photo)] else { return }
        isMoved[Int(photo)] = true
        moved.append(photo)
    }

    /// The number of the photo shown under `id`, if any.
    package func number(of id: ImageID) -> Int? {
        numbers.number(of: id, in: ids).map(Int.init)
    }

    /// The ID of photo `number` (removed or not), if there is one so numbered.
    package func id(ofNumber number: Int) -> ImageID? {
        ids.indices.contains(number) ? ids[number] : nil
    }

    /// Leaves the photos `ids` out of every arrangement from now on (a
    /// photo found again later is added anew). Returns their numbers.
    @discardableResult
    package mutating func remove(_ ids: some Sequence<ImageID>) -> [Int] {
        var gone: [Int] = []
        for id in ids {
            guard let number = numbers.remove(id, in: self.ids) else { continue }
            removed[Int(number)] = true
            removedCount += 1
            markMoved(number)
            gone.append(Int(number))
        }
        return gone
    }

    /// The number of photos shown (those not removed).
    package var shownCount: Int { ids.count - removedCount }

    /// Records the time photo `photo` was taken. Returns whether its place
    /// may have changed (its time changed).
    @discardableResult
    package mutating func recordCapture(_ time: Int64, of photo: Int) -> Bool {
        guard times.indices.contains(photo), time != Self.unknownTime else { return false }
        sources[photo] = .captured
        guard times[photo] != time else { return false }
        times[photo] = time
        markMoved(Int32(photo))
        return true
    }

    /// Where photo `photo`'s time came from.
    package func timeSource(of photo: Int) -> TimeSource {
        sources.indices.contains(photo) ? sources[photo] : .unknown
    }

    /// Photo `photo`'s wall-clock time, if any is known.
    package func time(of photo: Int) -> Int64? {
        guard times.indices.contains(photo), times[photo] != Self.unknownTime else { return nil }
        return times[photo]
    }

    /// The photos in `sort` order, grouped by `grouping`, made at once: the
    /// job (``arrangementJob(sort:grouping:)``), made here and adopted.
    ///
    /// Complexity: O(n log n) for n photos the first time and after the
    /// order asked for changes; after that O(n + k log k) for k photos
    /// appended, re-dated or removed since (they are taken out, sorted and
    /// merged back), so a walk of 100,000 photos or a stream of dates
    /// arriving costs a merge, not a sort, each time.
    package mutating func arrange(sort: PhotoSort, grouping: PhotoGrouping) -> Arrangement {
        let job = arrangementJob(sort: sort, grouping: grouping)
        let arrangement = job.make()
        adopt(arrangement, sortedBy: sort, groupedBy: grouping)
        return arrangement
    }

    /// What the next arrangement is made from, to be made on any thread
    /// (``ArrangementJob/make()``) while this timeline goes on taking photos
    /// and dates. O(k) for the k photos moved since the last arrangement
    /// (the arrays are shared, copied only when next written).
    ///
    /// The photos moved so far are the job's to place: until its
    /// arrangement is adopted (``adopt(_:sortedBy:groupedBy:)``) the timeline keeps no last
    /// arrangement, so one made meanwhile (or after the job is dropped)
    /// sorts everything again, and nothing is lost.
    package mutating func arrangementJob(sort: PhotoSort, grouping: PhotoGrouping) -> ArrangementJob {
        if grouping == .folder { numberFolders() }
        var previous: (order: [Int32], moved: [Int32])?
        if let last, last.sort == sort, last.grouping == grouping, moved.count * 4 < ids.count {
            previous = (last.order, moved)
        }
        let job = ArrangementJob(sort: sort, grouping: grouping, times: times, ids: ids, pathPrefixes: pathPrefixes,
                                 removed: removed, removedCount: removedCount, folders: folders, folderNames: folderNames,
                                 previous: previous)
        for photo in moved { isMoved[Int(photo)] = false }
        moved.removeAll(keepingCapacity: true)
        last = nil
        return job
    }

    /// Takes `arrangement`, made in `sort` order grouped by `grouping` by
    /// the last job this timeline gave (with no arrangement made since), as
    /// the one the next places its moved photos into. O(1).
    package mutating func adopt(_ arrangement: Arrangement, sortedBy sort: PhotoSort, groupedBy grouping: PhotoGrouping) {
        last = (sort, grouping, arrangement.order)
    }

    /// Numbers the folders of the photos appended since it last did.
    private mutating func numberFolders() {
        while folders.count < ids.count {
            let folder = Self.folder(of: ids[folders.count])
            if let known = folderNumbers[folder] {
                folders.append(known)
            } else {
                let new = Int32(folderNames.count)
                folderNames.append(folder)
                folderNumbers[folder] = new
                folders.append(new)
            }
        }
    }

    /// The first 8 bytes of `path` as a big-endian integer, zeros past its
    /// end: two prefixes that differ order their paths as the bytes do.
    static func pathPrefix(_ path: String) -> UInt64 {
        var prefix: UInt64 = 0, shift: UInt64 = 56
        for byte in path.utf8.prefix(8) {
            prefix |= UInt64(byte) << shift
            shift &-= 8
        }
        return prefix
    }

    /// How path `a` compares with `b` in UTF-8 byte order (SQLite's
    /// `BINARY`): negative, zero or positive, by `memcmp` (native strings
    /// are stored contiguously). A sort by time compares paths only for
    /// photos of the same time, but a library shot in bursts has many.
    static func comparePaths(_ a: String, _ b: String) -> Int {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y -> Int in
                let common = min(x.count, y.count)
                let order = common == 0 ? 0 : Int(memcmp(x.baseAddress!, y.baseAddress!, common))
                return order != 0 ? order : x.count - y.count
            }
        }
    }

    /// The folder part of an ID that is a relative path ("2024/06-trip/a.jpg"
    /// → "2024/06-trip"), empty for a photo at the top.
    static func folder(of id: ImageID) -> String {
        guard let slash = id.rawValue.lastIndex(of: "/") else { return "" }
        return String(id.rawValue[..<slash])
    }

}
