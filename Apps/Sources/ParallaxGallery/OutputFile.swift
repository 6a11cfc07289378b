import Foundation

/// Why an output file could not be written: one sentence naming the path.
package struct OutputFileError: Error, CustomStringConvertible, Equatable, Sendable {
    package var description: String { "cannot write '\(path)': \(reason)" }
    /// The path as it was given.
    package var path: String
    /// Why, in a few words.
    package var reason: String

    package init(_ path: String, _ reason: String) {
        self.path = path
        self.reason = reason
    }
}

/// Writes a command's output file (`--out` of render, session, manifest and
/// the benchmarks, rendered frames, screenshots) so that a failure never
/// leaves a partial file and nothing is replaced that the user did not name.
///
/// - A regular file or nothing: the bytes go to a temporary file beside the
///   target, are flushed to disk, and only then renamed over it (one atomic
///   `rename(2)`). A failure (a full disk) removes the temporary file and
///   leaves the previous file as it was. A replaced file keeps its
///   permissions.
/// - A symbolic link: followed, and its target written as above; the link
///   itself stays. A link to nothing is refused (writing would create a file
///   somewhere the user did not name).
/// - A character device or a named pipe (`/dev/stdout`, `/dev/null`, a FIFO
///   another program reads): written straight into, never replaced. Those
///   are how Unix tools are plumbed together, and a rename over them would
///   destroy the node (as root, `/dev/full` itself); a write error (`/dev/full`
///   says the disk is full) is reported, and there is no file to leave behind.
///   What a pipe's reader already took cannot be taken back.
/// - A folder, a block device or a socket is refused: none is a place for
///   a PNG or a report, and writing into a disk is never what was meant.
package enum OutputFile {
    /// Why `path` would be refused (a link to nothing, a folder, a block
    /// device, a socket), as the error's reason, or `nil`: for a command
    /// to check before any work, with the very rules ``write(_:to:)``
    /// applies.
    package static func refusal(for path: String) -> String? {
        do throws(OutputFileError) {
            _ = try target(of: path)
            return nil
        } catch {
            return error.reason
        }
    }

    /// Writes `data` to `path` (see the type's rules).
    /// - Throws: ``OutputFileError`` saying why, with nothing left behind.
    package static func write(_ data: Data, to path: String) throws(OutputFileError) {
        try write(data, to: path, using: { descriptor, bytes in Foundation.write(descriptor, bytes.baseAddress, bytes.count) })
    }

    /// `write(_:to:)` with the system's `write(2)` replaced by `writer` (the
    /// tests' full disk).
    package static func write(_ data: Data, to path: String,
                              using writer: (Int32, UnsafeRawBufferPointer) -> Int) throws(OutputFileError) {
        let (target, kind, mode) = try target(of: path)
        if kind == S_IFREG {
            try replace(target, named: path, with: data, mode: mode, writer: writer)
        } else {
            try writeStraight(into: target, named: path, data, writer: writer)
        }
    }

    /// What `path` leads to: the path to write (a link's target), its type
    /// (`S_IFREG` for a regular file or nothing yet, `S_IFCHR` or
    /// `S_IFIFO`) and an existing file's permissions.
    /// - Throws: ``OutputFileError`` for what is refused.
    private static func target(of path: String) throws(OutputFileError) -> (String, mode_t, mode_t?) {
        guard !path.isEmpty else { throw OutputFileError(path, "no file named") }
        var target = path
        var status = stat()
        if lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFLNK {
            guard let resolved = realpath(path, nil) else {
                throw OutputFileError(path, "it is a symbolic link to a file that does not exist; not followed")
            }
            target = String(cString: resolved)
            free(resolved)
        }
        guard stat(target, &status) == 0 else {
            if errno == ENOENT { return (target, S_IFREG, nil) }
            throw OutputFileError(path, String(cString: strerror(errno)))
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return (target, S_IFREG, status.st_mode & 0o7777)
        case S_IFCHR, S_IFIFO: return (target, status.st_mode & S_IFMT, nil)
        case S_IFDIR: throw OutputFileError(path, "it is a folder, not a file")
        case S_IFBLK: throw OutputFileError(path, "it is a block device (a disk); refusing to write into it")
        default: throw OutputFileError(path, "it is not a regular file, a device or a pipe")
        }
    }

    /// Writes a temporary file beside `target` and renames it over.
    private static func replace(_ target: String, named path: String, with data: Data, mode: mode_t?,
                                writer: (Int32, UnsafeRawBufferPointer) -> Int) throws(OutputFileError) {
        let url = URL(fileURLWithPath: target)
        var template = Array(url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).tmp-XXXXXX").path.utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw OutputFileError(path, "no temporary file beside it: \(String(cString: strerror(errno)))") }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var failure: String?
        if let problem = writeAll(data, to: descriptor, writer: writer) {
            failure = problem
        } else if fchmod(descriptor, mode ?? (0o666 & ~currentUmask())) != 0 || fsync(descriptor) != 0 {
            failure = String(cString: strerror(errno))
        }
        if close(descriptor) != 0, failure == nil { failure = String(cString: strerror(errno)) }
        if failure == nil, rename(temporary, target) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            throw OutputFileError(path, failure)
        }
    }

    /// Writes into an existing device or pipe, without creating or truncating anything.
    private static func writeStraight(into target: String, named path: String, _ data: Data,
                                      writer: (Int32, UnsafeRawBufferPointer) -> Int) throws(OutputFileError) {
        let descriptor = open(target, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw OutputFileError(path, String(cString: strerror(errno))) }
        var failure = writeAll(data, to: descriptor, writer: writer)
        if close(descriptor) != 0, failure == nil { failure = String(cString: strerror(errno)) }
        if let failure { throw OutputFileError(path, failure) }
    }

    /// Writes every byte, retrying short writes and interruptions; the
    /// reason for a failure, or `nil`.
    private static func writeAll(_ data: Data, to descriptor: Int32,
                                 writer: (Int32, UnsafeRawBufferPointer) -> Int) -> String? {
        data.withUnsafeBytes { bytes -> String? in
            var offset = 0
            while offset < bytes.count {
                let written = writer(descriptor, UnsafeRawBufferPointer(rebasing: bytes[offset...]))
                if written < 0 {
                    if errno == EINTR { continue }
                    return String(cString: strerror(errno))
                }
                if written == 0 { return String(cString: strerror(EIO)) }
                offset += written
            }
            return nil
        }
    }

    /// The process's umask, read without changing it where the system says
    /// it (Linux's `/proc/self/status`): setting it to read it back would
    /// change it for every other thread meanwhile.
    private static func currentUmask() -> mode_t {
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
           let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
           let mask = mode_t(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8) {
            return mask
        }
        let mask = umask(0o022)
        umask(mask)
        return mask
    }
}
