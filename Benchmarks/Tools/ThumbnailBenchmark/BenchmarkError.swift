#if os(Linux)
/// Why the benchmark could not run at all. Targets that fail are not
/// errors: they are reported, and the tool still exits 0.
enum BenchmarkError: Error, CustomStringConvertible {
    /// Wrong command line, no photos, unwritable report, and the like.
    case setup(String)
    /// A measured program could not be started or failed.
    case process(String)
    /// ParallaxKit (or the reference path) could not read a photo of the set.
    case decode(String)

    var description: String {
        switch self {
        case .setup(let message), .process(let message), .decode(let message): return message
        }
    }
}
#endif
