import Foundation

/// A file-system error met while writing an output, as one line naming the
/// path (instead of a raw `NSCocoaErrorDomain` dump). Outputs are checked
/// before any work (``OutputCheck``), so this is left for what changes
/// meanwhile (a full disk, a folder removed during a render). Other errors
/// pass through.
struct WriteFailure: Error, CustomStringConvertible {
    let description: String

    /// `error` as a one-line write failure for `path` when it is a
    /// file-system error; otherwise `error` itself.
    init(_ error: any Error, path: String) {
        let nsError = error as NSError
        if nsError.domain == NSCocoaErrorDomain || nsError.domain == NSPOSIXErrorDomain {
            description = "cannot write '\(path)': \(nsError.localizedDescription)"
        } else {
            description = "\(error)"
        }
    }
}
