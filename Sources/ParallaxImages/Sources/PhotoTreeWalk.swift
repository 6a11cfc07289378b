import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A walk over a photo folder tree with `readdir`, at close to the cost of
/// `find DIR -type f`: the photos in it, in tree order
/// (``FolderImageID/precedes(_:_:)``), handed out in batches as they are
/// found, and a ``FolderScan/Report`` of everything else.
///
/// **Cost.** One `openat` + `fstat` + `readdir` pass per folder; per entry
/// only what its name needs: the type comes from `d_type` (a `stat` only
/// where the file system does not say, and for links), the kind from the
/// name's extension bytes, the ID is built for photos alone, and a photo's
/// status (size, modification time) costs one `fstatat` when asked for.
/// Folders are opened relative to their parent's descriptor, so no path is
/// resolved twice. Each folder's names are sorted (O(n log n) in the folder's
/// size), which puts the whole listing in tree order with no sort at the end.
///
/// **What is followed.** Names starting with `.` are skipped. A link is
/// resolved (`realpath`) and followed only when it stays inside the root:
/// a link out of the tree, a link to nothing and a link to a folder that
/// holds it (a loop) are reported and never followed. Links to folders are
/// followed after every real folder has been walked, and only to a folder
/// not walked yet (each folder is listed once, under its real path when it
/// has one): folders are tracked by device and inode. A folder that cannot
/// be opened is reported by its path; the rest is walked. Folders nested
/// deeper than `maximumDepth` are reported and not read; the walk stops at
/// `maximumPhotoCount` photos, reporting it.
struct PhotoTreeWalk {
    /// Observation points for tests: the walk calls them on its own thread.
    struct Hooks: Sendable {
        /// Before a folder below the root is opened, with its path as photo IDs spell it.
        var beforeOpeningFolder: (@Sendable (String) -> Void)?
        /// After each batch is handed out, with the photos handed out so far.
        var afterBatch: (@Sendable (Int) -> Void)?
        /// When the walk, its first batch out, starts waiting for the first screen (``FirstScreenSignal``).
        var waitingForFirstScreen: (@Sendable () -> Void)?
        /// When the scan's consumer stops listening (on the consumer's thread).
        var consumerStopped: (@Sendable () -> Void)?
        /// When the walk ends, with its report (also when it was stopped).
        var finished: (@Sendable (FolderScan.Report) -> Void)?
    }

    /// The real path of the root (`realpath`), without a trailing `/`.
    let root: [UInt8]
    /// Whether each photo's size and modification time are read (one
    /// `fstatat` per photo).
    var readsFileStatus = true
    /// Folders below the root followed at most this deep.
    var maximumDepth = FolderImageSource.maximumDepth
    /// The walk stops after this many photos.
    var maximumPhotoCount = FolderImageSource.maximumPhotoCount
    /// Photos in the first batch (enough for a first screen), and in each later one.
    var firstBatchSize = 256, batchSize = 4_096
    /// Whether the walk is background work (checking what an index already
    /// shows) rather than what a first screen waits for.
    var isBackground = false
    var hooks = Hooks()

    init(root: [UInt8]) {
        var root = root
        while root.count > 1, root.last == UInt8(ascii: "/") { root.removeLast() }
        self.root = root
    }

    /// Walks the tree, handing each batch of photos to `emit` on the
    /// calling thread, and returns the report; stops early (the report says
    /// it is incomplete) once `isCancelled` answers `true`, which it asks
    /// once per folder and per batch.
    /// - Returns: the report, or ``ImageSourceError/unavailable(_:)`` saying
    ///   why when the root itself cannot be opened.
    func run(isCancelled: @escaping () -> Bool,
             emit: @escaping ([ListedPhoto]) -> Void) -> Result<FolderScan.Report, ImageSourceError> {
        var state = State(walk: self, isCancelled: isCancelled, emit: emit)
        let descriptor = Self.openFolder(root)
        guard descriptor >= 0 else {
            let path = String(decoding: root, as: UTF8.self)
            return .failure(.unavailable("the photo folder \(path) cannot be read: \(String(cString: strerror(errno)))"))
        }
        state.enter(descriptor, path: "", realPath: root, depth: 0)
        state.walkStack()
        // Links to folders, once every real folder is known; following one may defer more.
        var next = 0
        while next < state.deferredLinks.count, !state.stopped {
            let link = state.deferredLinks[next]
            next += 1
            let before = state.report.photoCount
            state.follow(link)
            state.walkStack()
            if state.report.photoCount > before { state.report.isInTreeOrder = false }
        }
        state.flush()
        state.report.photoCount = state.handedOut                      // less than found, when the consumer stopped
        if state.stopped { state.report.isComplete = false }
        hooks.finished?(state.report)
        return .success(state.report)
    }

    /// `bytes` as a NUL-terminated C path.
    static func cPath(_ bytes: [UInt8]) -> [CChar] {
        (bytes + [0]).map { CChar(bitPattern: $0) }
    }
}

extension PhotoTreeWalk {
    #if canImport(Darwin)
    private typealias DirectoryStream = UnsafeMutablePointer<DIR>
    #else
    private typealias DirectoryStream = OpaquePointer
    #endif

    /// A folder being listed: its entries, read and sorted, and where the walk is in them.
    private struct Folder {
        let stream: DirectoryStream
        /// The stream's descriptor (kept rather than asked of `dirfd`, a macro on some systems).
        let descriptor: Int32
        /// The folder's path as photo IDs spell it (UTF-8), with a trailing `/` (empty for the root).
        let prefix: [UInt8]
        let realPath: [UInt8]
        let depth: Int
        /// Every entry's name, each followed by a NUL.
        let names: [UInt8]
        let entries: [Entry]
        var next = 0

        /// The bytes of `entry`'s name.
        func name(_ entry: Entry) -> ArraySlice<UInt8> { names[entry.start..<(entry.start + entry.count)] }

        /// The path of `entry` as photo IDs spell it.
        func path(_ entry: Entry) -> String {
            String(decoding: prefix, as: UTF8.self) + FolderImageID.component(name(entry))
        }

        /// Runs `body` with `entry`'s name as a C string.
        func withName<R>(_ entry: Entry, _ body: (UnsafePointer<CChar>) -> R) -> R {
            names.withUnsafeBufferPointer { base in
                body(UnsafeRawPointer(base.baseAddress! + entry.start).assumingMemoryBound(to: CChar.self))
            }
        }
    }

    private struct Entry {
        var start: Int
        var count: Int
        var type: UInt8
        var inode: UInt64
    }

    /// A link to a folder inside the tree, followed once the real folders are walked.
    private struct DeferredLink {
        let path: String
        let realPath: [UInt8]
        let depth: Int
    }

    private struct FolderKey: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    /// Everything one run changes.
    private struct State {
        let walk: PhotoTreeWalk
        let isCancelled: () -> Bool
        let emit: ([ListedPhoto]) -> Void
        var report = FolderScan.Report()
        var stack: [Folder] = []
        var visited: Set<FolderKey> = []
        var deferredLinks: [DeferredLink] = []
        var kinds = LibraryFileKind.Classifier()
        var pending: [ListedPhoto] = []
        var handedOut = 0
        var stopped = false

        init(walk: PhotoTreeWalk, isCancelled: @escaping () -> Bool, emit: @escaping ([ListedPhoto]) -> Void) {
            self.walk = walk
            self.isCancelled = isCancelled
            self.emit = emit
            pending.reserveCapacity(walk.firstBatchSize)
        }

        // MARK: Folders

        /// Reads the open folder `descriptor` (taking it) and puts it on the stack,
        /// unless it was listed already.
        mutating func enter(_ descriptor: Int32, path: String, realPath: [UInt8], depth: Int) {
            guard let folder = readFolder(descriptor, path: path, realPath: realPath, depth: depth) else { return }
            stack.append(folder)
        }

        /// The folder `descriptor` (taken), read and sorted, or `nil` (reported) when it
        /// was listed already or cannot be read.
        private mutating func readFolder(_ descriptor: Int32, path: String, realPath: [UInt8], depth: Int) -> Folder? {
            var status = stat()
            guard fstat(descriptor, &status) == 0 else {
                close(descriptor)
                report.record(.init(path: path, kind: .unreadableFolder(String(cString: strerror(errno)))))
                return nil
            }
            guard visited.insert(FolderKey(device: UInt64(truncatingIfNeeded: status.st_dev),
                                           inode: UInt64(truncatingIfNeeded: status.st_ino))).inserted else {
                close(descriptor)
                report.record(.init(path: path, kind: .linkToListedFolder))
                return nil
            }
            guard let stream = fdopendir(descriptor) else {
                close(descriptor)
                report.record(.init(path: path, kind: .unreadableFolder(String(cString: strerror(errno)))))
                return nil
            }
            if isCancelled() { stopped = true }
            report.folderCount += 1
            var names: [UInt8] = []
            var entries: [Entry] = []
            let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
            while let entry = readdir(stream) {
                let name = UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: UInt8.self)
                guard name[0] != UInt8(ascii: ".") else { continue }       // hidden, `.` and `..`
                let count = strlen(UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self))
                entries.append(Entry(start: names.count, count: count, type: entry.pointee.d_type,
                                     inode: UInt64(entry.pointee.d_ino)))
                names.append(contentsOf: UnsafeBufferPointer(start: name, count: count + 1))
            }
            names.withUnsafeBufferPointer { base in
                entries.sort { a, b in
                    let order = memcmp(base.baseAddress! + a.start, base.baseAddress! + b.start, min(a.count, b.count))
                    return order != 0 ? order < 0 : a.count < b.count
                }
            }
            return Folder(stream: stream, descriptor: descriptor, prefix: path.isEmpty ? [] : Array(path.utf8) + [UInt8(ascii: "/")],
                          realPath: realPath, depth: depth, names: names, entries: entries)
        }

        /// Walks the folders on the stack, depth first, until none is left or the walk stops.
        mutating func walkStack() {
            while var folder = stack.popLast() {
                var child: Folder?
                while child == nil, !stopped, folder.next < folder.entries.count {
                    let entry = folder.entries[folder.next]
                    folder.next += 1
                    child = visit(entry, in: folder)
                }
                if let child {
                    stack.append(folder)
                    stack.append(child)
                } else {
                    closedir(folder.stream)
                }
            }
        }

        /// Follows a deferred link to a folder, unless that folder was walked by then.
        mutating func follow(_ link: DeferredLink) {
            let descriptor = PhotoTreeWalk.openFolder(link.realPath)
            guard descriptor >= 0 else {
                report.record(.init(path: link.path, kind: .unreadableFolder(String(cString: strerror(errno)))))
                return
            }
            enter(descriptor, path: link.path, realPath: link.realPath, depth: link.depth)
        }

        // MARK: Entries

        /// Takes one entry of `folder`; returns the subfolder to walk next, if it is one.
        private mutating func visit(_ entry: Entry, in folder: Folder) -> Folder? {
            switch Int32(entry.type) {
            case Int32(DT_REG): file(entry, in: folder, status: nil)
            case Int32(DT_DIR): return subfolder(entry, in: folder)
            case Int32(DT_LNK): link(entry, in: folder)
            case Int32(DT_UNKNOWN):
                var status = stat()
                guard folder.withName(entry, { fstatat(folder.descriptor, $0, &status, AT_SYMLINK_NOFOLLOW) }) == 0 else { return nil }
                switch status.st_mode & S_IFMT {
                case S_IFREG: file(entry, in: folder, status: status)
                case S_IFDIR: return subfolder(entry, in: folder)
                case S_IFLNK: link(entry, in: folder)
                default: report.otherFileCount += 1
                }
            default: report.otherFileCount += 1                              // pipes, sockets, devices
            }
            return nil
        }

        private mutating func file(_ entry: Entry, in folder: Folder, status known: stat?) {
            switch kinds.kind(ofFileNamed: folder.name(entry)) {
            case .video: report.videoCount += 1
            case .other: report.otherFileCount += 1
            case .photo:
                guard report.photoCount < walk.maximumPhotoCount else {
                    report.record(.init(path: folder.path(entry), kind: .tooManyPhotos(limit: walk.maximumPhotoCount)))
                    stopped = true
                    return
                }
                var status = known
                if status == nil, walk.readsFileStatus {
                    var read = stat()
                    guard folder.withName(entry, { fstatat(folder.descriptor, $0, &read, AT_SYMLINK_NOFOLLOW) }) == 0,
                          read.st_mode & S_IFMT == S_IFREG else { return }            // gone since the listing
                    status = read
                }
                report.photoCount += 1
                let id = ImageID(FolderImageID.path(prefix: folder.prefix, name: folder.name(entry)))
                pending.append(Self.photo(id, inode: entry.inode, status: walk.readsFileStatus ? status : nil))
                if pending.count >= (handedOut == 0 ? walk.firstBatchSize : walk.batchSize) { flush() }
            }
        }

        private mutating func subfolder(_ entry: Entry, in folder: Folder) -> Folder? {
            let path = folder.path(entry)
            guard folder.depth < walk.maximumDepth else {
                report.record(.init(path: path, kind: .tooDeep(limit: walk.maximumDepth)))
                return nil
            }
            walk.hooks.beforeOpeningFolder?(path)
            let descriptor = folder.withName(entry) {
                openat(folder.descriptor, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            guard descriptor >= 0 else {
                report.record(.init(path: path, kind: .unreadableFolder(String(cString: strerror(errno)))))
                return nil
            }
            return readFolder(descriptor, path: path, realPath: folder.realPath + [UInt8(ascii: "/")] + folder.name(entry),
                        depth: folder.depth + 1)
        }

        private mutating func link(_ entry: Entry, in folder: Folder) {
            let path = folder.path(entry)
            var status = stat()
            guard folder.withName(entry, { fstatat(folder.descriptor, $0, &status, 0) }) == 0,
                  let target = PhotoTreeWalk.realPath(folder.realPath + [UInt8(ascii: "/")] + folder.name(entry)) else {
                report.record(.init(path: path, kind: .danglingLink))
                return
            }
            guard PhotoTreeWalk.isInside(target, walk.root) else {
                report.record(.init(path: path, kind: .linkOutsideFolder))
                return
            }
            switch status.st_mode & S_IFMT {
            case S_IFREG:
                file(Entry(start: entry.start, count: entry.count, type: UInt8(DT_REG), inode: UInt64(status.st_ino)),
                     in: folder, status: status)
            case S_IFDIR:
                if PhotoTreeWalk.isInside(folder.realPath, target) {
                    report.record(.init(path: path, kind: .linkLoop))
                } else if folder.depth >= walk.maximumDepth {
                    report.record(.init(path: path, kind: .tooDeep(limit: walk.maximumDepth)))
                } else {
                    deferredLinks.append(DeferredLink(path: path, realPath: target, depth: folder.depth + 1))
                }
            default:
                report.otherFileCount += 1
            }
        }

        // MARK: Batches

        /// Hands out the photos found since the last batch.
        mutating func flush() {
            guard !pending.isEmpty else { return }
            if isCancelled() {
                stopped = true
                return
            }
            emit(pending)
            handedOut += pending.count
            pending = []
            pending.reserveCapacity(walk.batchSize)
            walk.hooks.afterBatch?(handedOut)
        }

        private static func photo(_ id: ImageID, inode: UInt64, status: stat?) -> ListedPhoto {
            guard let status else { return ListedPhoto(id: id, inode: inode) }
            return ListedPhoto(id: id, status: status)
        }
    }
}

extension PhotoTreeWalk {
    /// Opens the folder at the absolute path `path` for reading its entries.
    static func openFolder(_ path: [UInt8]) -> Int32 {
        open(cPath(path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    }

    /// The real path of `path` (links and `..` resolved), or `nil` when it leads nowhere.
    static func realPath(_ path: [UInt8]) -> [UInt8]? {
        guard let resolved = realpath(PhotoTreeWalk.cPath(path), nil) else { return nil }
        defer { free(resolved) }
        return Array(UnsafeBufferPointer(start: UnsafeRawPointer(resolved).assumingMemoryBound(to: UInt8.self),
                                         count: strlen(resolved)))
    }

    /// Whether the real path `path` is `folder` or lies inside it.
    static func isInside(_ path: [UInt8], _ folder: [UInt8]) -> Bool {
        if folder == [UInt8(ascii: "/")] { return true }
        return path.starts(with: folder) && (path.count == folder.count || path[folder.count] == UInt8(ascii: "/"))
    }
}
