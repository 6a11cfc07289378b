#if os(Linux)
import Foundation

/// Puts one generated block into a Markdown file, leaving the rest of the
/// file alone: the block between `<!-- KEY:start -->` and `<!-- KEY:end -->`
/// is replaced; a file without it gets it appended; a missing file is
/// created with a `# Benchmarks` title, as scripts/bench-report.py does.
enum MarkdownSection {
    /// Checks, before any measuring, that ``write(_:key:to:)`` will be able
    /// to update the file at `path`.
    static func validate(key: String, path: String) throws(BenchmarkError) {
        let text = try contents(of: path)
        let start = startMarker(key), end = endMarker(key)
        if let startRange = text.range(of: start), text.range(of: end, range: startRange.upperBound..<text.endIndex) == nil {
            throw .setup("\(path) has \(start) but no \(end) after it; repair the file by hand")
        }
        let folder = (path as NSString).deletingLastPathComponent
        guard FileManager.default.isWritableFile(atPath: folder.isEmpty ? "." : folder) else {
            throw .setup("cannot write into \(folder.isEmpty ? "." : folder) (for \(path))")
        }
    }

    /// Writes `block` (markers included) into the file at `path`.
    static func write(_ block: String, key: String, to path: String) throws(BenchmarkError) {
        let start = startMarker(key), end = endMarker(key)
        let text = try contents(of: path)
        let updated: String
        if let startRange = text.range(of: start) {
            guard let endRange = text.range(of: end, range: startRange.upperBound..<text.endIndex) else {
                throw .setup("\(path) has \(start) but no \(end) after it; repair the file by hand")
            }
            updated = text.replacingCharacters(in: startRange.lowerBound..<endRange.upperBound, with: block)
        } else if text.allSatisfy(\.isWhitespace) {
            updated = "# Benchmarks\n\n" + block + "\n"
        } else {
            var kept = text
            while kept.hasSuffix("\n") { kept.removeLast() }
            updated = kept + "\n\n" + block + "\n"
        }
        do {
            try updated.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw .setup("cannot write \(path): \(error)")
        }
    }

    private static func startMarker(_ key: String) -> String { "<!-- \(key):start -->" }
    private static func endMarker(_ key: String) -> String { "<!-- \(key):end -->" }

    /// The file's text; "" when it does not exist yet.
    private static func contents(of path: String) throws(BenchmarkError) -> String {
        guard FileManager.default.fileExists(atPath: path) else { return "" }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw .setup("cannot read \(path)") }
        return text
    }
}
#endif
