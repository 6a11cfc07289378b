import Foundation

/// The lines `parallax-gallery` writes about its own work, beside what a
/// subcommand produces, each starting with the command's name.
enum CommandOutput {
    /// Something the user should know that did not stop the command (a cache
    /// that cannot be used, photos left out): one line on standard error.
    static func warn(_ message: String) {
        FileHandle.standardError.write(Data("parallax-gallery: \(message)\n".utf8))
    }

    /// A change of plan the run's own output should show (a fallback, a
    /// session left out): one line on standard output, among the results.
    static func notice(_ message: String) {
        print("parallax-gallery: \(message)")
    }
}
