import Foundation

/// A nested library behind a server's folder listings (nginx's or
/// Apache's `autoindex`, `python3 -m http.server`): a person's photo tree
/// shared as it is on disk, `2024/06-trip/…` and `DCIM/100APPLE/…`, lists
/// only folders at its top.
///
/// When the index is the base folder's own listing (`indexPath: ""`),
/// ``HTTPImageSource/imageIDs()`` reads the listing of every folder under
/// it, level by level, a few at a time, and lists their photos as paths
/// (`2024/06-trip/IMG_0042.jpg`), as a JSON manifest of a nested library
/// names them. Everything stays bounded whatever the server's listings
/// say:
/// - only links that name one folder inside the one listed are followed
///   (never `../`, an absolute path or another site: ``HTTPIndex``), so
///   every request stays under the base URL, as photos' do;
/// - at most ``HTTPImageSource/maximumFolderCount`` folders,
///   ``HTTPImageSource/maximumFolderDepth`` levels and
///   ``FolderImageSource/maximumPhotoCount`` photos, as a local walk;
/// - a folder whose listing has the very entries of a folder it is in is
///   a link back to it (a server following a symbolic link loop shows the
///   same folder again under a longer path): reported, not read again;
/// - a folder that answers slowly holds back at most
///   ``HTTPImageSource/folderListingsAhead`` listings read ahead of it.
///
/// A folder that cannot be listed (HTTP 403, an error page) is reported by
/// path in ``HTTPImageSource/listingReport`` while the rest is shown, as a
/// local folder that cannot be read is.
extension HTTPImageSource {
    /// The most folders a listing reads, the base folder included: each
    /// costs a request.
    public static let maximumFolderCount = 20_000

    /// The deepest folder read below the base: as deep as a local walk
    /// goes, less the file's part where a name's parts would run out.
    public static var maximumFolderDepth: Int { min(FolderImageSource.maximumDepth, HTTPPhotoName.maximumParts - 1) }

    /// Listings requested at once while reading the folders of a level.
    static let concurrentFolderListings = 4

    /// Listings read ahead of the first one not yet taken: those that
    /// arrive before it wait for it, parsed, so a folder that answers
    /// slowly holds at most this many in memory, not the whole level.
    static let folderListingsAhead = 8

    /// `root` (the base folder's listing) with the photos of every folder
    /// under it added, and its report filled in (folders read, problems).
    /// `batch` hears of each folder's photos once they are added, in the
    /// order of the result, the top's first, so that a caller can show them
    /// before the rest is read. `folderLimit` and `photoLimit` for tests.
    ///
    /// Complexity: one request per folder, at most
    /// ``concurrentFolderListings`` at a time; O(names) memory.
    func addingSubfolders(to root: HTTPIndex, folderLimit: Int = maximumFolderCount,
                          photoLimit: Int = FolderImageSource.maximumPhotoCount,
                          batch: (ArraySlice<ImageID>) -> Void = { _ in }) async throws(ImageSourceError) -> HTTPIndex {
        struct Pending { var path: String; var depth: Int; var lineage: [Int] }
        var tree = root
        tree.report.folderCount = 1
        if !tree.names.isEmpty { batch(tree.names[...]) }
        // Folders read or to be read, the top included; past the limit, the first folder left out is reported.
        var planned = 1, limitReached = false, photoLimitReached = false
        func plan(_ path: String, depth: Int, lineage: [Int], into level: inout [Pending]) {
            guard depth <= Self.maximumFolderDepth else {
                tree.report.record(.init(path: path, kind: .tooDeep(limit: Self.maximumFolderDepth)))
                return
            }
            guard planned < folderLimit else {
                if !limitReached { tree.report.record(.init(path: path, kind: .tooManyFolders(limit: folderLimit))) }
                limitReached = true
                return
            }
            planned += 1
            level.append(Pending(path: path, depth: depth, lineage: lineage))
        }
        /// Adds the listing of `folder` (or its failure) to the tree, and plans its folders into `next`.
        func take(_ result: Result<HTTPIndex, FolderFailure>, of folder: Pending, planningInto next: inout [Pending]) {
            guard !photoLimitReached else { return }
            let listing: HTTPIndex
            switch result {
            case .failure(let failure):
                tree.report.record(.init(path: folder.path, kind: .unreadableFolder(failure.reason)))
                return
            case .success(let read):
                listing = read
            }
            let hash = listing.entriesHash
            // A link back up repeats an ancestor's entries; a folder whose one entry is a folder of the same
            // name (`Photos/Photos`) is not one, so only listings with photos or several entries are compared.
            if listing.names.count + listing.folders.count > 1 || !listing.names.isEmpty, folder.lineage.contains(hash) {
                tree.report.record(.init(path: folder.path, kind: .linkLoop))
                return
            }
            tree.report.folderCount += 1
            // A folder that fills the room exactly is taken whole; the first photo past it is reported.
            let room = max(photoLimit - tree.names.count, 0)
            var taken = listing
            if taken.names.count > room {
                taken.names.removeLast(taken.names.count - room)
                tree.report.record(.init(path: folder.path, kind: .tooManyPhotos(limit: photoLimit)))
                photoLimitReached = true
            }
            let before = tree.names.count
            tree.take(taken, inFolder: folder.path)
            if tree.names.count > before { batch(tree.names[before...]) }
            guard !photoLimitReached else { return }
            for sub in listing.folders {
                plan(folder.path + "/" + sub, depth: folder.depth + 1, lineage: folder.lineage + [hash], into: &next)
            }
        }
        var level: [Pending] = []
        for folder in root.folders { plan(folder, depth: 1, lineage: [root.entriesHash], into: &level) }
        while !level.isEmpty, !photoLimitReached {
            var next: [Pending] = []
            // Listings arrive in any order; each is taken once those before it are, so the result keeps the
            // listings' order whatever the server's timing.
            var arrived = [Result<HTTPIndex, FolderFailure>?](repeating: nil, count: level.count), taken = 0
            try await forEachFolderListing(level.map(\.path)) { position, result in
                arrived[position] = result
                while taken < level.count, let ready = arrived[taken] {
                    arrived[taken] = nil
                    take(ready, of: level[taken], planningInto: &next)
                    taken += 1
                }
                return taken
            }
            level = next
        }
        tree.report.photoCount = tree.names.count
        return tree
    }

    /// Reads the listings of the folders at `paths`, at most
    /// ``concurrentFolderListings`` at a time, each as the index is
    /// (retries, deadline, size limit) and parsed, and hands each to
    /// `arrived` with its position in `paths` as it comes; a folder that
    /// cannot be read or is not a listing gives the reason. `arrived`
    /// returns how many listings from the first on it has taken: none is
    /// requested more than ``folderListingsAhead`` past that.
    private func forEachFolderListing(_ paths: [String],
                                      _ arrived: (Int, Result<HTTPIndex, FolderFailure>) -> Int) async throws(ImageSourceError) {
        await withTaskGroup(of: (Int, Result<HTTPIndex, FolderFailure>).self) { group in
            var started = 0
            func start() {
                let position = started, path = paths[position]
                started += 1
                group.addTask { [self] in (position, await folderListing(path)) }
            }
            while started < min(paths.count, Self.concurrentFolderListings) { start() }
            var inFlight = started
            while let (position, result) = await group.next() {
                inFlight -= 1
                let taken = arrived(position, result)
                while inFlight < Self.concurrentFolderListings, started < min(paths.count, taken + Self.folderListingsAhead),
                      !Task.isCancelled {
                    start()
                    inFlight += 1
                }
            }
        }
        if Task.isCancelled { throw .cancelled }
    }

    /// Why a folder's listing could not be read, as the problem's reason.
    struct FolderFailure: Error { var reason: String }

    private func folderListing(_ path: String) async -> Result<HTTPIndex, FolderFailure> {
        guard let url = HTTPPhotoName.folderURL(for: path, under: baseURL) else {
            return .failure(FolderFailure(reason: "cannot form its URL under \(baseURL.absoluteString)"))
        }
        let body: Data
        do {
            body = try await fetch(url).body
        } catch {
            switch error {
            case .cancelled: return .failure(FolderFailure(reason: "cancelled"))
            case .status(let status): return .failure(FolderFailure(reason: "HTTP \(status)"))
            case .exhausted(let reason): return .failure(FolderFailure(reason: "\(reason), \(retries.attemptsText)"))
            case .final(let reason): return .failure(FolderFailure(reason: reason))
            }
        }
        do throws(HTTPIndex.Failure) {
            return .success(try HTTPIndex.parse(body, isJSONPath: false))
        } catch {
            return .failure(FolderFailure(reason: "its listing \(error.reason)"))
        }
    }
}
