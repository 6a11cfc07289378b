import Foundation

/// What a path names, told apart without opening it (so a named pipe
/// cannot block and a device cannot be read from).
enum FileKind: CustomStringConvertible {
    case missing, regular, directory, pipe, device, socket, danglingLink, other
    /// A symbolic link, when asked not to follow links.
    case link

    /// What `path` names; with `following` false, a link is `.link` rather
    /// than what it points to.
    init(path: String, following: Bool = true) {
        self.init(cPath: Array(path.utf8CString), following: following)
    }

    /// What the NUL-terminated path `path` names (any bytes, UTF-8 or not).
    init(cPath path: [CChar], following: Bool = true) {
        var status = stat()
        if !following {
            guard lstat(path, &status) == 0 else {
                self = .missing
                return
            }
            if status.st_mode & S_IFMT == S_IFLNK {
                self = .link
                return
            }
        }
        if stat(path, &status) != 0 {
            var link = stat()
            self = lstat(path, &link) == 0 && (link.st_mode & S_IFMT) == S_IFLNK ? .danglingLink : .missing
            return
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFIFO: self = .pipe
        case S_IFCHR, S_IFBLK: self = .device
        case S_IFSOCK: self = .socket
        default: self = .other
        }
    }

    var isRegularFile: Bool { self == .regular }

    var description: String {
        switch self {
        case .missing: return "missing"
        case .regular: return "a file"
        case .directory: return "a folder"
        case .pipe: return "a named pipe (FIFO)"
        case .device: return "a device"
        case .socket: return "a socket"
        case .danglingLink: return "a link to a file that does not exist"
        case .link: return "a symbolic link"
        case .other: return "not a regular file"
        }
    }
}
