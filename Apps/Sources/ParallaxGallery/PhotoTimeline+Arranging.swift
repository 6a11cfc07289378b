import Foundation
import ParallaxImages

extension PhotoTimeline {
    /// An arrangement to be made: the order and grouping asked for and a
    /// snapshot of what they are made from, taken by
    /// ``PhotoTimeline/arrangementJob(sort:grouping:)``. ``make()`` is the
    /// costly part (the sort and the sections: 13-46 ms at 40,000-100,000
    /// photos on a 2-core machine) and runs on any thread, so a library
    /// streaming in is arranged beside the frames, not in one of them.
    package struct ArrangementJob: Sendable {
        /// The order asked for.
        package let sort: PhotoSort
        /// The grouping asked for.
        package let grouping: PhotoGrouping
        let times: [Int64]
        let ids: [ImageID]
        let pathPrefixes: [UInt64]
        let removed: [Bool]
        let removedCount: Int
        /// Each photo's folder number (filled in for ``PhotoGrouping/folder`` only) and the folders' paths.
        let folders: [Int32]
        let folderNames: [String]
        /// The last arrangement's order and the photos moved since (appended, re-dated or removed), to be
        /// taken out and merged back; `nil`: every photo is sorted.
        let previous: (order: [Int32], moved: [Int32])?

        /// The photos the arrangement covers: those numbered when the job was taken.
        package var count: Int { ids.count }

        /// The photos in order, grouped.
        ///
        /// Complexity: O(n log n) for n photos without a previous
        /// arrangement; O(n + k log k) for k photos moved since one.
        package func make() -> Arrangement {
            var folderRanks: [Int32] = []
            if grouping == .folder {
                let ranked = folderNames.indices.sorted { folderNames[$0].utf8.lexicographicallyPrecedes(folderNames[$1].utf8) }
                folderRanks = [Int32](repeating: 0, count: folderNames.count)
                for (rank, folder) in ranked.enumerated() { folderRanks[folder] = Int32(rank) }
            }
            let comesFirst = precedes(folderRanks: folderRanks)
            var order: [Int32]
            if let previous {
                var isMoved = [Bool](repeating: false, count: ids.count)
                for photo in previous.moved { isMoved[Int(photo)] = true }
                let removed = self.removed
                let kept = previous.order.filter { !isMoved[Int($0)] }
                let placed = previous.moved.filter { !removed[Int($0)] }.sorted(by: comesFirst)
                order = Self.merge(kept, placed, by: comesFirst)
            } else {
                let removed = self.removed
                order = removedCount == 0 ? Array(0..<Int32(ids.count)) : (0..<Int32(ids.count)).filter { !removed[Int($0)] }
                order.sort(by: comesFirst)
            }
            return Arrangement(order: order, sections: sections(of: order))
        }

        /// Whether photo `a` comes before photo `b` in `sort` order (within a
        /// folder, for ``PhotoGrouping/folder``): a strict total order, the
        /// path, then the photo number (an ID listed twice), breaking ties.
        private func precedes(folderRanks: [Int32]) -> (Int32, Int32) -> Bool {
            let times = self.times, ids = self.ids, folders = self.folders, prefixes = self.pathPrefixes
            // Paths in UTF-8 byte order: their first 8 bytes as integers first, the strings only past those.
            let byPath = { (a: Int32, b: Int32) -> Bool in
                let pa = prefixes[Int(a)], pb = prefixes[Int(b)]
                if pa != pb { return pa < pb }
                let order = PhotoTimeline.comparePaths(ids[Int(a)].rawValue, ids[Int(b)].rawValue)
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
                    if ta == PhotoTimeline.unknownTime { return false }
                    if tb == PhotoTimeline.unknownTime { return true }
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
        private func sections(of order: [Int32]) -> [Section] {
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
                    guard time != PhotoTimeline.unknownTime else { return .min }
                    let date = CivilDate(wallClockSeconds: time)
                    return byDay ? Int64(date.dayNumber) : Int64(date.year * 12 + date.month - 1)
                }
                return runs.map { run in
                    guard run.key != .min else { return Section(title: Section.undatedTitle, count: run.count) }
                    let date = byDay ? CivilDate(dayNumber: Int(run.key))
                                     : CivilDate(year: Int(run.key) / 12, month: Int(run.key) % 12 + 1, day: 1)
                    return Section(title: byDay ? date.dayTitle : date.monthTitle, count: run.count)
                }
            }
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
}
