#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation

/// The visible items of a ``DemoScene`` with their frames and parallax
/// placements, ready to print as a table or JSON.
package struct FrameReport: Sendable, Hashable, Codable {
    /// A rectangle with plain `Double` fields, for stable JSON on every platform.
    package struct Rect: Sendable, Hashable, Codable {
        package var x, y, width, height: Double
        package init(_ rect: CGRect) {
            x = Double(rect.origin.x); y = Double(rect.origin.y)
            width = Double(rect.size.width); height = Double(rect.size.height)
        }
    }
    package struct Size: Sendable, Hashable, Codable {
        package var width, height: Double
    }
    /// One visible item.
    package struct Row: Sendable, Hashable, Codable {
        package var item: Int
        /// The item's frame in content coordinates.
        package var frame: Rect
        /// The content's centre offset from the item's centre along the scroll axis.
        package var parallaxOffset: Double
        /// The content (image) frame in the item's coordinates.
        package var contentFrame: Rect
    }

    package var layout: String
    package var effect: String
    /// The visible rectangle in content coordinates.
    package var viewport: Rect
    package var contentSize: Size
    package var columns: Int
    /// How many items are visible. ``items`` lists the first of them, up to
    /// the scene's ``DemoScene/maximumListedItems``, so a huge viewport
    /// still gives a report of bounded size.
    package var visibleCount: Int
    /// The visible items, in layout order (at most ``visibleCount``).
    package var items: [Row]

    /// Why a report could not be written as JSON: it holds a value JSON has
    /// no notation for (NaN or an infinity, e.g. from a scene built in code
    /// with a non-finite offset). The command line refuses such values
    /// before building a scene, so there this never happens.
    package struct JSONError: Error, Sendable, Hashable, CustomStringConvertible {
        package var description: String
    }

    /// Pretty-printed JSON with sorted keys.
    ///
    /// - Throws: ``JSONError`` when a value cannot be written; never an
    ///   empty or partial document.
    package func json() throws(JSONError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            return String(decoding: try encoder.encode(self), as: UTF8.self)
        } catch let EncodingError.invalidValue(value, context) {
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            let field = path.hasPrefix(".") ? String(path.dropFirst()) : path
            throw JSONError(description: "the report cannot be written as JSON: \(field.isEmpty ? "a value" : field) is \(value), "
                                + "which JSON cannot represent")
        } catch {
            throw JSONError(description: "the report cannot be written as JSON: \(error)")
        }
    }

    /// A fixed-width text table, one line per visible item.
    package func table() -> String {
        func number(_ value: Double, _ decimals: Int = 1) -> String {
            String(format: "%.\(decimals)f", value)
        }
        func pad(_ text: String, _ width: Int) -> String {
            String(repeating: " ", count: max(width - text.count, 0)) + text
        }
        var lines = [
            "\(layout), \(columns) column\(columns == 1 ? "" : "s"), effect \(effect); viewport "
                + "\(number(viewport.width, 0))×\(number(viewport.height, 0)) at y = \(number(viewport.y)); "
                + "content \(number(contentSize.width, 0))×\(number(contentSize.height, 0)); \(visibleCount) visible"
                + (items.count < visibleCount ? ", the first \(items.count) listed" : ""),
            ["item", "x", "y", "width", "height", "offset", "content y", "content h"]
                .map { pad($0, 10) }.joined(),
        ]
        for row in items {
            let cells = [String(row.item), number(row.frame.x), number(row.frame.y), number(row.frame.width),
                         number(row.frame.height), number(row.parallaxOffset, 2), number(row.contentFrame.y, 2),
                         number(row.contentFrame.height, 1)]
            lines.append(cells.map { pad($0, 10) }.joined())
        }
        return lines.joined(separator: "\n")
    }
}
