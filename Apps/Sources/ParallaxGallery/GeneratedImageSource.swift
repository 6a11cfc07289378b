import Foundation
import ParallaxImages

/// The gallery's stand-in pictures (``SyntheticPhotos/landscape(index:width:height:)``)
/// as a source that draws each one when it is asked for, not all at launch.
///
/// Sixty 1200 × 900 pictures drawn and PNG-encoded up front held a launch
/// for a second in a release build and half a minute in a debug one, for
/// pictures of which a screen shows a dozen. Each photo's shape is known
/// from its size without drawing it (``listedHeaders()``), so quilt and
/// waterfall place every tile at once; the bytes are drawn on request and
/// not kept (the loader's caches keep what it shows).
///
/// Complexity: O(1) to list a photo; O(width × height) to draw one.
package struct GeneratedImageSource: ImageSource {
    /// One picture: its number (which picks its colours) and size.
    package struct Picture: Sendable, Hashable {
        package var index: Int
        package var width: Int
        package var height: Int
    }

    /// The pictures, in display order.
    package let pictures: [Picture]
    private let positions: [ImageID: Int]

    /// `pictures`, named `generated-000.png`, `generated-001.png`, … in order.
    package init(pictures: [Picture]) {
        self.pictures = pictures
        var positions: [ImageID: Int] = [:]
        for (position, picture) in pictures.enumerated() { positions[Self.id(of: picture)] = position }
        self.positions = positions
    }

    static func id(of picture: Picture) -> ImageID { ImageID(String(format: "generated-%03d.png", picture.index)) }

    package func imageIDs() async throws(ImageSourceError) -> [ImageID] { pictures.map(Self.id(of:)) }

    /// The picture drawn now (PNG).
    /// - Throws: ``ImageSourceError/notFound(_:)`` for a name not in the set.
    package func data(for id: ImageID) async throws(ImageSourceError) -> Data {
        guard let position = positions[id] else { throw .notFound(id) }
        let picture = pictures[position]
        return SyntheticPhotos.landscape(index: picture.index, width: picture.width, height: picture.height)
    }

    package func isStoredLocally(_ id: ImageID) async -> Bool { true }

    /// The same picture is drawn every time: its number and size name it.
    package func fingerprint(for id: ImageID) async -> String? {
        positions[id].map { "generated \(pictures[$0].index) \(pictures[$0].width)x\(pictures[$0].height)" }
    }

    package func header(for id: ImageID) async throws(ImageSourceError) -> ImageHeader {
        guard let position = positions[id] else { throw .notFound(id) }
        return Self.header(of: pictures[position])
    }

    /// Every picture's header, from its size: nothing is drawn.
    package func listedHeaders() async -> [ImageID: ImageHeader] {
        Dictionary(pictures.map { (Self.id(of: $0), Self.header(of: $0)) }, uniquingKeysWith: { first, _ in first })
    }

    private static func header(of picture: Picture) -> ImageHeader {
        ImageHeader(format: .png, storedWidth: picture.width, storedHeight: picture.height, orientation: .up)
    }
}
