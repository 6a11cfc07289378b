#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Confines photos' paths to their folder: the real path of the regular
/// file a path names (links resolved), checked to lie inside the folder's
/// real path, which is what a read opens, so a link in an ID's path never
/// leads a read out of the folder; what is not a regular file is refused
/// by what it is. ``FolderImageSource/confined(_:root:id:)`` confines one
/// path; a batch of header reads or file stamps keeps one confinement for
/// all its photos.
///
/// The real path of each photo's folder is resolved once while photos of
/// that folder follow one another (a batch in screen order is mostly one
/// folder), and a photo's own name is only looked at with `lstat`; a photo
/// that is itself a link is resolved whole. `realpath` costs a `readlink`
/// a component of the path: for a photo nine folders deep, ten system
/// calls where this takes two. On a 100,000-photo first launch those calls
/// were a twentieth of the whole process's CPU time.
struct PathConfinement {
    /// The folder's real path (`nil`: it has none, and nothing is inside it).
    let realRoot: [UInt8]?
    /// The last photo's folder as written, and its real path.
    private var lastFolder: (written: [UInt8], real: [UInt8]?)?

    /// A confinement to `realRoot` (``FolderImageSource/realRoot(of:)``).
    init(realRoot: [UInt8]?) {
        self.realRoot = realRoot
    }

    /// The real path of the regular file `path` (NUL-terminated) names, if
    /// it lies inside the folder; else why it is refused.
    mutating func confine(_ path: [CChar], id: ImageID) -> Result<[CChar], ImageSourceError> {
        let kind = FileKind(cPath: path)
        guard kind == .regular else {
            return .failure(kind == .missing ? .notFound(id) : .unreadable(id, "is \(kind), not a photo"))
        }
        let written = path.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        let real: [UInt8]?
        if let slash = written.lastIndex(of: UInt8(ascii: "/")), slash > 0, slash < written.count - 1,
           FileKind(cPath: path, following: false) != .link {
            real = realFolder(of: Array(written[..<slash])).map { folder in
                (folder.last == UInt8(ascii: "/") ? folder : folder + [UInt8(ascii: "/")]) + written[(slash + 1)...]
            }
        } else {
            real = PhotoTreeWalk.realPath(written)
        }
        guard let real, let realRoot, PhotoTreeWalk.isInside(real, realRoot) else {
            return .failure(.unreadable(id, "is a link out of the photo folder, not followed"))
        }
        return .success(PhotoTreeWalk.cPath(real))
    }

    /// The real path of `folder`, resolved again only when it is not the
    /// last photo's.
    private mutating func realFolder(of folder: [UInt8]) -> [UInt8]? {
        if let lastFolder, lastFolder.written == folder { return lastFolder.real }
        let real = PhotoTreeWalk.realPath(folder)
        lastFolder = (folder, real)
        return real
    }
}
