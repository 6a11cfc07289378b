import Foundation
import ParallaxImages

/// The title drawn on each photo's tile: its file name without folders or
/// extension, underscores as spaces, at most 40 characters.
///
/// Worked out once per photo and kept, so a frame does no string work per
/// tile (splitting a path and trimming an extension cost a frame about a
/// fifth of its instructions when done for every tile on every frame).
/// The cache is cleared past ``limit`` photos: far more than a screen
/// shows, so a fling meets each photo once.
@MainActor
package final class PhotoTitles {
    private var titles: [ImageID: String] = [:]
    /// How many titles are kept before the cache starts again.
    package static let limit = 4096

    package nonisolated init() {}

    /// Photo `id`'s title. O(1) once worked out; O(length of the name) the first time.
    package func title(of id: ImageID) -> String {
        if let title = titles[id] { return title }
        if titles.count >= Self.limit { titles.removeAll(keepingCapacity: true) }
        let title = Self.makeTitle(of: id)
        titles[id] = title
        return title
    }

    /// The title of `id`, worked out; a name that is not UTF-8 is shown
    /// with U+FFFD for its odd bytes (its ID keeps them).
    ///
    /// Swift's own string operations, not `NSString`'s: the first bridged
    /// call of a process (`deletingPathExtension`, `replacingOccurrences`)
    /// looked its protocol conformances up through every library loaded,
    /// milliseconds of the frame that drew the first screen.
    package static func makeTitle(of id: ImageID) -> String {
        // The file's own name: a photo in a subfolder has an ID such as "2024/06-trip/IMG_0001.jpg".
        let path = FolderImageSource.displayName(of: id)
        let name = path.split(separator: "/").last ?? path[...]
        var base = name.split(separator: "__").last ?? name
        // The extension, as NSString's deletingPathExtension takes it: after the last dot, unless that dot
        // starts the name (or the name is "..").
        if let dot = base.lastIndex(of: "."), dot != base.startIndex, base != ".." { base = base[..<dot] }
        return String(base.prefix(40).map { $0 == "_" ? " " : $0 })
    }
}
