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
        /// or "Date unknown".
        package var title: String
        /// How many photos it holds.
        package var count: Int
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
    private var numbers: [ImageID: Int32] = [:]
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
            if let earlier = numbers.updateValue(number, forKey: photo.id), earlier >= first {
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
    /// many grows nothing (growing the ID table rehashes every ID: 32 ms at
    /// 50,000 photos). O(count) when it grows.
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
        numbers[id].map(Int.init)
    }

    /// Leaves the photos `ids` out of every arrangement from now on (a
    /// photo found again later is added anew). Returns their numbers.
    @discardableResult
    package mutating func remove(_ ids: some Sequence<ImageID>) -> [Int] {
        var gone: [Int] = []
        for id in ids {
            guard let number = numbers.removeValue(forKey: id) else { continue }
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

    /// Whether photo `a` comes before photo `b` in `sort` order (within a
    /// folder, for ``PhotoGrouping/folder``): a strict total order, the
    /// path, then the photo number (an ID listed twice), breaking ties.
    private func precedes(_ sort: PhotoSort, grouping: PhotoGrouping, folderRanks: [Int32]) -> (Int32, Int32) -> Bool {
        let times = self.times, ids = self.ids, folders = self.folders, prefixes = self.pathPrefixes
        // Paths in UTF-8 byte order: their first 8 bytes as integers first, the strings only past those.
        let byPath = { (a: Int32, b: Int32) -> Bool in
            let pa = prefixes[Int(a)], pb = prefixes[Int(b)]
            if pa != pb { return pa < pb }
            let order = Self.comparePaths(ids[Int(a)].rawValue, ids[Int(b)].rawValue)
            return order != 0 ? order < 0 : a < b
        }
        let within: (Int32, Int32) -> Bool
        switch sort {
        case .newestFirst, .oldestFirst:
            let newestFirst = sort == .newestFirst
            // Photos of the same time (a burst, or files copied in the same second) by path, A to Z, as the
            // library index lists them (`ORDER BY … DESC, id ASC`): every launch shows them in the same
            // order, whatever order a walk or an index found them in.
            // Photos of unknown time go last whichever way time runs.
            within = { a, b in
                let ta = times[Int(a)], tb = times[Int(b)]
                if ta == tb { return byPath(a, b) }
                if ta == Self.unknownTime { return false }
                if tb == Self.unknownTime { return true }
                return newestFirst ? ta > tb : ta < tb
            }
        case .name:
            within = byPath
        }
        guard grouping == .folder else { return within }
        return { a, b in
            let fa = folderRanks[Int(folders[Int(a)])], fb = folderRanks[Int(folders[Int(b)])]
            return fa != fb ? fa < fb : within(a, b)
        }
    }

    /// The photos in `sort` order, grouped by `grouping`.
    ///
    /// Complexity: O(n log n) for n photos the first time and after the
    /// order asked for changes; after that O(n + k log k) for k photos
    /// appended, re-dated or removed since (they are taken out, sorted and
    /// merged back), so a walk of 100,000 photos or a stream of dates
    /// arriving costs a merge, not a sort, each time.
    package mutating func arrange(sort: PhotoSort, grouping: PhotoGrouping) -> Arrangement {
        // Folders by path: a rank per folder number.
        var folderRanks: [Int32] = []
        if grouping == .folder {
            numberFolders()
            let ranked = folderNames.indices.sorted { folderNames[$0].utf8.lexicographicallyPrecedes(folderNames[$1].utf8) }
            folderRanks = [Int32](repeating: 0, count: folderNames.count)
            for (rank, folder) in ranked.enumerated() { folderRanks[folder] = Int32(rank) }
        }
        let comesFirst = precedes(sort, grouping: grouping, folderRanks: folderRanks)
        var order: [Int32]
        if let last, last.sort == sort, last.grouping == grouping, moved.count * 4 < ids.count {
            let isMoved = self.isMoved, removed = self.removed
            let kept = last.order.filter { !isMoved[Int($0)] }
            let placed = moved.filter { !removed[Int($0)] }.sorted(by: comesFirst)
            order = Self.merge(kept, placed, by: comesFirst)
        } else {
            let removed = self.removed
            order = removedCount == 0 ? Array(0..<Int32(ids.count)) : (0..<Int32(ids.count)).filter { !removed[Int($0)] }
            order.sort(by: comesFirst)
        }
        for photo in moved { isMoved[Int(photo)] = false }
        moved.removeAll(keepingCapacity: true)
        last = (sort, grouping, order)
        return Arrangement(order: order, sections: sections(of: order, grouping: grouping))
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

    /// `a` and `b`, each in order, merged into one. O(a + b).
    private static func merge(_ a: [Int32], _ b: [Int32], by comesFirst: (Int32, Int32) -> Bool) -> [Int32] {
        guard !b.isEmpty else { return a }
        var result: [Int32] = []
        result.reserveCapacity(a.count + b.count)
        var i = 0, j = 0
        while i < a.count, j < b.count {
            if comesFirst(b[j], a[i]) {
                result.append(b[j])
                j += 1
            } else {
                result.append(a[i])
                i += 1
            }
        }
        result += a[i...]
        result += b[j...]
        return result
    }

    /// The sections of `order` for `grouping`. O(n).
    private func sections(of order: [Int32], grouping: PhotoGrouping) -> [Section] {
        switch grouping {
        case .none:
            return order.isEmpty ? [] : [Section(title: "", count: order.count)]
        case .folder:
            let folders = self.folders, names = folderNames
            return Self.runs(of: order) { folders[Int($0)] }
                .map { Section(title: names[Int($0.key)].isEmpty ? "(top folder)" : names[Int($0.key)], count: $0.count) }
        case .month, .day:
            let byDay = grouping == .day, times = self.times
            let runs = Self.runs(of: order) { photo -> Int64 in
                let time = times[Int(photo)]
                guard time != Self.unknownTime else { return .min }
                let date = CivilDate(wallClockSeconds: time)
                return byDay ? Int64(date.dayNumber) : Int64(date.year * 12 + date.month - 1)
            }
            return runs.map { run in
                guard run.key != .min else { return Section(title: "Date unknown", count: run.count) }
                let date = byDay ? CivilDate(dayNumber: Int(run.key))
                                 : CivilDate(year: Int(run.key) / 12, month: Int(run.key) % 12 + 1, day: 1)
                return Section(title: byDay ? date.dayTitle : date.monthTitle, count: run.count)
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

    /// Consecutive runs of equal keys along `order`.
    private static func runs<Key: Equatable>(of order: [Int32], key: (Int32) -> Key) -> [(key: Key, count: Int)] {
        var runs: [(key: Key, count: Int)] = []
        for photo in order {
            let value = key(photo)
            if let last = runs.last, last.key == value { runs[runs.count - 1].count += 1 } else { runs.append((value, 1)) }
        }
        return runs
    }
}
