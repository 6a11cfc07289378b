import Foundation
import ParallaxImages
import Testing
@testable import ParallaxGallery

@Suite("Generated pictures")
struct GeneratedImageSourceTests {
    /// Every listed header is the header of the picture drawn, and a
    /// picture is drawn the same every time it is asked for.
    @Test func listedShapesAreTheShapesDrawn() async throws {
        let library = PhotoLibrary.synthetic(count: 12, width: 90, height: 60, mixedShapes: true)
        let source = try #require(library.source as? GeneratedImageSource)
        let ids = try await source.imageIDs()
        #expect(ids.count == 12 && Set(ids).count == 12)
        let listed = await source.listedHeaders()
        #expect(listed.count == 12)
        for (index, id) in ids.enumerated() {
            let data = try await source.data(for: id)
            let drawn = try #require(try ImageHeader.read(from: data))
            #expect(listed[id] == drawn, "\(id)")
            #expect(try await source.header(for: id) == drawn)
            #expect(data == SyntheticPhotos.landscape(index: index, width: drawn.width, height: drawn.height))
            #expect(try await source.data(for: id) == data)
        }
        // The shapes of a camera roll: landscape and portrait, about 90 × 60 pixels each.
        let shapes = Set(listed.values.map { $0.width > $0.height })
        #expect(shapes == [true, false])
        #expect(listed.values.allSatisfy { abs($0.width * $0.height - 5_400) < 200 })
        await #expect(throws: ImageSourceError.notFound("elsewhere.png")) { try await source.data(for: "elsewhere.png") }
    }
}
