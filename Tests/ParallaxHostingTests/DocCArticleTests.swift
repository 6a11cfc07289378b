import Foundation
import Testing

/// The code in the DocC catalogs' articles is code that compiles: every line
/// of every Swift block in `Sources/*/*.docc/*.md` appears in the README
/// snippets this target compiles and runs, or in the quick starts
/// `make check-apple` type-checks for iOS. An article may show an excerpt
/// (some lines of a snippet), never a line of its own.
@Suite("DocC articles show compiled code")
struct DocCArticleTests {
    static let root = QuickStartDocumentationTests.root

    /// Every trimmed line of the compiled snippet files.
    static func compiledLines() throws -> Set<String> {
        var files = [root.appendingPathComponent("Tests/ParallaxHostingTests/ReadmeSnippetsTests.swift")]
        let quickStarts = root.appendingPathComponent("Examples/QuickStart")
        files += try FileManager.default.contentsOfDirectory(at: quickStarts, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "swift" }
        var lines = Set<String>()
        for file in files {
            for line in try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n") {
                lines.insert(line.trimmingCharacters(in: .whitespaces))
            }
        }
        return lines
    }

    /// The articles of every catalog in Sources/.
    static func articles() throws -> [URL] {
        let sources = root.appendingPathComponent("Sources")
        var articles: [URL] = []
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path) {
            let catalog = sources.appendingPathComponent("\(module)/\(module).docc")
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: catalog.path) else { continue }
            articles += names.filter { $0.hasSuffix(".md") }.map { catalog.appendingPathComponent($0) }
        }
        return articles
    }

    @Test func everyLibraryModuleHasACatalogWithAGettingStartedArticle() throws {
        let names = try Self.articles().map { "\($0.deletingLastPathComponent().lastPathComponent)/\($0.lastPathComponent)" }
        for module in ["ParallaxCore", "ParallaxLayout", "ParallaxImages", "ParallaxHosting", "ParallaxUIKit", "ParallaxSwiftUI"] {
            #expect(names.contains("\(module).docc/\(module).md"), "no landing page for \(module)")
            #expect(names.contains("\(module).docc/GettingStarted.md"), "no getting-started article for \(module)")
        }
    }

    @Test func everyLineOfArticleCodeIsCompiledSomewhere() throws {
        let compiled = try Self.compiledLines()
        var blocks = 0
        for article in try Self.articles() {
            let markdown = try String(contentsOf: article, encoding: .utf8)
            for block in QuickStartDocumentationTests.swiftBlocks(in: markdown) {
                blocks += 1
                for line in block.components(separatedBy: "\n") {
                    let code = line.trimmingCharacters(in: .whitespaces)
                    guard !code.isEmpty, code != "// …", code != "// ..." else { continue }
                    let isCompiled = compiled.contains(code)
                    #expect(isCompiled, "\(article.lastPathComponent) shows a line no compiled file has: \(code)")
                }
            }
        }
        #expect(blocks >= 6, "the articles show code")
    }
}
