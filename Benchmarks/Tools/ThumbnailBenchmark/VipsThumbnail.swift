import Foundation
import Glibc

/// libvips' `vipsthumbnail`, the comparison: one process given every file
/// of a class, as it is used in bulk, writing its thumbnails as JPEGs into
/// a fresh folder, in memory (/dev/shm) when it can.
struct VipsThumbnail: Sendable {
    var executable: String
    /// `vips --version`, e.g. "vips-8.14.1".
    var version: String
    /// Where the thumbnails go: a fresh folder in /dev/shm (tmpfs), else in the temporary folder.
    var outputFolder: String

    /// Added to vips' environment: it would warn "unknown EXIF resolution unit" a lot on this set.
    static let environment = ["VIPS_WARNING": "1"]

    /// The installed `vipsthumbnail` with a fresh output folder, or `nil` when it is not on `PATH`.
    static func locate() throws(Failure) -> VipsThumbnail? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        guard let executable = path.split(separator: ":").map({ String("\($0)/vipsthumbnail") }).first(where: { access($0, X_OK) == 0 }) else {
            return nil
        }
        func output(_ program: String, _ argument: String) -> String {
            (try? ChildProcess.run(program, arguments: [argument], capture: true, quiet: true).output) ?? ""
        }
        let version = output("vips", "--version").split(separator: "\n").first.map(String.init) ?? "unknown version"
        for parent in ["/dev/shm", NSTemporaryDirectory(), "/tmp"] where access(parent, W_OK) == 0 {
            let parent = parent.count > 1 && parent.hasSuffix("/") ? String(parent.dropLast()) : parent
            var template = Array("\(parent)/thumbnail-benchmark.XXXXXX".utf8CString)
            guard let folder: UnsafeMutablePointer<CChar> = mkdtemp(&template) else { continue }
            return VipsThumbnail(executable: executable, version: version, outputFolder: String(cString: folder))
        }
        throw Failure("cannot create a folder for vips' thumbnails in /dev/shm or the temporary folder")
    }

    /// How the report says where the thumbnails went.
    var outputDescription: String {
        outputFolder.hasPrefix("/dev/shm/") ? "/dev/shm (tmpfs, in memory)" : "\((outputFolder as NSString).deletingLastPathComponent) (on disk)"
    }

    /// The options for `mode`, as the report shows them. Fill crops with
    /// `--smartcrop centre` (libvips 8.5 and later; the old `--crop` is a switch only).
    func options(for mode: ThumbnailMode) -> [String] {
        let side = ThumbnailMode.side
        return mode == .fit ? ["--size", "\(side)"] : ["--size", "\(side)x\(side)", "--smartcrop", "centre"]
    }

    /// Thumbnails of `files` in `mode`, as one process, `runs` times, under the launcher.
    func measure(_ mode: ThumbnailMode, files: [String], runs: Int) throws(Failure) -> ProcessFigures {
        try PeakMemoryProbe.measure(executable, arguments: options(for: mode) + ["-o", "\(outputFolder)/%s.jpg"] + files,
                                environment: Self.environment, runs: runs)
    }

    /// Deletes the output folder and the thumbnails in it.
    func removeOutput() {
        try? FileManager.default.removeItem(atPath: outputFolder)
    }
}
