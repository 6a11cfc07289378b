import ArgumentParser
import ParallaxCommandLine
import ParallaxGallery

/// The check every subcommand makes of a path it will write, before any
/// work: a long render or benchmark never ends in a failed write.
enum OutputCheck {
    /// Refuses `path`, given to `option`, when it cannot be written: what
    /// ``CommandLineValues/outputProblem(_:option:kind:fileManager:)`` finds
    /// (no such folder, not writable, a file where a folder is wanted), and
    /// for a file what the write itself would refuse (``OutputFile``: a link
    /// to nothing, a block device).
    static func requireWritable(_ path: String, option: String, kind: CommandLineValues.OutputKind) throws {
        if let problem = CommandLineValues.outputProblem(path, option: option, kind: kind) {
            throw ValidationError(problem)
        }
        if kind == .file, let reason = OutputFile.refusal(for: path) {
            throw ValidationError("\(option) '\(path)' cannot be written: \(reason).")
        }
    }
}
