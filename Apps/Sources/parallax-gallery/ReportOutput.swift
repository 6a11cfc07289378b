import ArgumentParser
import Foundation
import ParallaxGallery

/// `--out FILE`, shared by the benchmark commands: the Markdown report,
/// written to FILE (replaced whole or not at all).
///
/// A file of benchmark sections such as BENCHMARKS.md (one holding a
/// `<!-- KEY:start -->` marker) is refused before anything runs, so the
/// report never replaces it by accident: scripts/bench-report.py is what
/// puts a report into its section (scripts/bench-gallery.sh does both).
struct ReportOutput: ParsableArguments {
    @Option(help: "A Markdown file to write the report to (replaced; its folder must exist). scripts/bench-gallery.sh puts it into BENCHMARKS.md.")
    var out: String?

    func validate() throws {
        guard let out else { return }
        try OutputCheck.requireWritable(out, option: "--out", kind: .file)
        if let text = try? String(contentsOfFile: out, encoding: .utf8), Self.holdsSections(text) {
            throw ValidationError("--out '\(out)' holds benchmark sections; the report would replace the whole file. "
                                  + "Write it elsewhere; scripts/bench-report.py section puts a report into its section.")
        }
    }

    /// Whether `text` carries a section marker of scripts/bench-report.py
    /// (`<!-- KEY:start -->`).
    static func holdsSections(_ text: String) -> Bool {
        text.contains("<!-- ") && text.contains(":start -->")
    }

    /// Writes `markdown` to the file, if one was given, and says so.
    func write(_ markdown: String) throws {
        guard let out else { return }
        try OutputFile.write(Data((markdown + "\n").utf8), to: out)
        print("wrote \(out)")
    }
}
