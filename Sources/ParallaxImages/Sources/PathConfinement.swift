#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Confines the paths of a batch of a folder's photos to the folder, as
/// ``FolderImageSource/confined(_:realRoot:id:)`` confines one, with
/// fewer resolutions: the real path of each photo's folder is resolved
/// once while photos of that folder follow one another (a batch of header
/// reads in screen order is mostly one folder), and a photo's own name is
/// only looked at with `lstat`. A photo that is itself a link is resolved
/// whole, as before.
///
/// `realpath` costs a `readlink` a component of the path: for a photo nine
/// folders deep, ten system calls where this takes two (the `stat` that
/// says it is a regular file, and the `lstat` that says it is not a link).
/// On a 100,000-photo first launch those calls were a twentieth of the
/// whole process's CPU time.
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
    /// it lies inside the folder; what ``FolderImageSource/confined(_:realRoot:id:)``
    /// gives, failures included.
    mutating func confine(_ path: [CChar], id: ImageID) -> Result<[CChar], ImageSourceError> {
        let written = path.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        guard let slash = written.lastIndex(of: UInt8(ascii: "/")), slash > 0, slash < written.count - 1,
              FileKind(cPath: path, following: false) != .link else {
            return FolderImageSource.confined(path, realRoot: realRoot, id: id)
        }
        let kind = FileKind(cPath: path)
        guard kind == .regular else {
            return .failure(kind == .missing ? .notFound(id) : .unreadable(id, "is \(kind), not a photo"))
        }
        let folder = Array(written[..<slash])
        let realFolder: [UInt8]?
        if let lastFolder, lastFolder.written == folder {
            realFolder = lastFolder.real
        } else {
            realFolder = PhotoTreeWalk.realPath(folder)
            lastFolder = (folder, realFolder)
        }
        guard let realFolder, let realRoot else {
            return .failure(.unreadable(id, "is a link out of the photo folder, not followed"))
        }
        var real = realFolder
        if real.last != UInt8(ascii: "/") { real.append(UInt8(ascii: "/")) }
        real += written[(slash + 1)...]
        guard PhotoTreeWalk.isInside(real, realRoot) else {
            return .failure(.unreadable(id, "is a link out of the photo folder, not followed"))
        }
        return .success(PhotoTreeWalk.cPath(real))
    }
}
