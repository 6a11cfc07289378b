import Foundation
import Testing

/// The README's UIKit and SwiftUI quick starts are the compiled files in
/// `Examples/QuickStart/` (type-checked for iOS by `make check-apple`),
/// pasted without their `#if canImport(…)` guard. This keeps them identical.
@Suite("README quick starts match the type-checked files")
struct QuickStartDocumentationTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func swiftBlocks(in markdown: String) -> [String] {
        var blocks: [String] = [], current: [String]?
        for line in markdown.components(separatedBy: "\n") {
            if current == nil, line == "```swift" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// The file without its first (`#if canImport(…)`) and last (`#endif`) lines.
    static func guardedBody(of file: String) throws -> String {
        let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
        var lines = text.components(separatedBy: "\n")
        while lines.last == "" { lines.removeLast() }
        guard let first = lines.first, first.hasPrefix("#if canImport("), lines.last == "#endif" else {
            Issue.record("\(file) must be wrapped in #if canImport(…) … #endif")
            return ""
        }
        return lines.dropFirst().dropLast().joined(separator: "\n").trimmingCharacters(in: .newlines)
    }

    @Test("each quick start file appears verbatim as a Swift block of the README", arguments: [
        "Examples/QuickStart/UIKitQuickStart.swift",
        "Examples/QuickStart/SwiftUIQuickStart.swift",
        "Examples/QuickStart/SwiftUIPinchQuickStart.swift",
    ])
    func quickStart(_ file: String) throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let body = try Self.guardedBody(of: file)
        #expect(!body.isEmpty)
        #expect(Self.swiftBlocks(in: readme).contains(body), "README.md no longer shows \(file) as it compiles")
    }
}
