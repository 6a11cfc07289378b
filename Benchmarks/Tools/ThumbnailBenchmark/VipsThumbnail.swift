#if os(Linux)
import Foundation
import Glibc

/// libvips's `vipsthumbnail` command, the comparison the issue names: one
/// process is given every file of a class, as it would be used in bulk.
struct VipsThumbnail: Sendable {
    /// The full path of `vipsthumbnail`.
    var executable: String
    /// `vips --version`, e.g. "vips-8.14.1".
    var version: String
    /// What makes it crop to fill the box: `--smartcrop centre` (libvips
    /// 8.5 and later; 8.14 still accepts the old `--crop` but only as a
    /// switch, so `--crop centre` would read "centre" as a file name).
    var fillArguments: [String]

    /// The installed `vipsthumbnail`, or `nil` when it is not on `PATH`.
    static func locate() -> VipsThumbnail? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        let candidates = path.split(separator: ":").map { "\($0)/vipsthumbnail" }
        guard let executable = candidates.first(where: { access($0, X_OK) == 0 }) else { return nil }
        let version = ChildProcess.outputOf("vips", "--version")
            ?? ChildProcess.outputOf(executable, "--version")
            ?? "unknown version"
        let help = ChildProcess.outputOf(executable, "--help") ?? ""
        let fill = help.contains("--smartcrop") ? ["--smartcrop", "centre"] : ["--crop"]
        return VipsThumbnail(executable: executable,
                             version: version.split(separator: "\n").first.map(String.init) ?? version,
                             fillArguments: fill)
    }

    /// Added to vips's environment: `VIPS_WARNING` silences its warnings
    /// (this set makes it print "unknown EXIF resolution unit" a lot).
    static let environment = ["VIPS_WARNING": "1"]

    /// The options for `mode`, as the report shows them.
    func options(for mode: BenchmarkMode) -> [String] {
        switch mode {
        case .fit: return ["--size", "\(BenchmarkMode.side)"]
        case .fill: return ["--size", "\(BenchmarkMode.side)x\(BenchmarkMode.side)"] + fillArguments
        }
    }

    /// The whole argument list: thumbnails of `files` written as JPEG into
    /// `outputDirectory` (an absolute path, so vips does not put them next
    /// to the inputs).
    func arguments(for mode: BenchmarkMode, outputDirectory: String, files: [String]) -> [String] {
        options(for: mode) + ["-o", "\(outputDirectory)/%s.jpg"] + files
    }
}

/// A fresh folder for vips's output thumbnails, in memory when possible
/// (/dev/shm), so writing them costs vips no disk I/O.
struct ScratchDirectory: Sendable {
    var path: String
    /// The folder it was made in, e.g. /dev/shm.
    var parent: String
    /// The file system it lives on, e.g. "tmpfs".
    var fileSystem: String

    static func make() throws(BenchmarkError) -> ScratchDirectory {
        let candidates = ["/dev/shm", NSTemporaryDirectory(), "/tmp"]
        for parent in candidates where access(parent, W_OK) == 0 {
            let folder = parent.count > 1 && parent.hasSuffix("/") ? String(parent.dropLast()) : parent
            var template = Array("\(folder)/thumbnail-benchmark.XXXXXX".utf8CString)
            if let made = mkdtemp(&template) {
                let path = String(cString: made)
                return ScratchDirectory(path: path, parent: folder, fileSystem: fileSystemName(path))
            }
        }
        throw .setup("cannot create a scratch folder for vips's output in /dev/shm or the temporary folder")
    }

    /// Deletes the folder and the thumbnails in it.
    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The type of the file system holding `path`, from /proc/self/mounts
    /// (the longest mount point that contains it).
    private static func fileSystemName(_ path: String) -> String {
        guard let mounts = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8) else { return "unknown file system" }
        var best: (mountPoint: String, type: String)?
        for line in mounts.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 3 else { continue }
            let mountPoint = fields[1].replacingOccurrences(of: "\\040", with: " ")
            let contains = mountPoint == "/" || path == mountPoint || path.hasPrefix(mountPoint + "/")
            if contains, mountPoint.count >= (best?.mountPoint.count ?? -1) {
                best = (mountPoint, String(fields[2]))
            }
        }
        guard let best else { return "unknown file system" }
        return best.type == "tmpfs" ? "tmpfs, in memory" : "\(best.type), mounted at \(best.mountPoint)"
    }
}
#endif
