// The gallery draws through SDL2, which it uses on Linux only.
#if canImport(CSDL2)
import Foundation
import ParallaxImages
import ParallaxLayout
import Testing
@testable import ParallaxGallery

/// Pixels arriving never move a tile: the frames the gallery shows while
/// every photo is a placeholder are the frames it shows once every photo
/// has loaded, for photos of every shape (wide, tall, square), in all four
/// layouts (quilt and waterfall shape their tiles from the photos' headers,
/// read before any pixel), and across a pinch to another column count.
@Suite("No layout jump when pixels arrive")
@MainActor
struct NoLayoutJumpTests {
    static let size = CGSize(width: 390, height: 844)

    /// Photos of three shapes, so a layout that sized tiles by their pixels would move.
    func library() -> PhotoLibrary {
        let shapes = [(64, 32), (32, 64), (40, 40)]
        let images = (0..<60).map { index -> (ImageID, Data) in
            let (width, height) = shapes[index % shapes.count]
            return (ImageID(String(format: "shape-%02d.png", index)),
                    SyntheticPhotos.rowPattern(tag: UInt8(index), width: width, height: height))
        }
        return PhotoLibrary(source: InMemoryImageSource(images: images), credits: [], description: "shapes")
    }

    func frames(of model: GalleryModel) -> [Int: CGRect] {
        Dictionary(uniqueKeysWithValues: model.cells.map { ($0.item, $0.frame) })
    }

    @Test(arguments: [GalleryLayout.grid, .list, .quilt, .waterfall])
    func tileFramesAreTheSameBeforeAndAfterEveryPhotoLoads(layout: GalleryLayout) async throws {
        var settings = GallerySettings()
        settings.layout = layout
        settings.latency = .slow                              // 1-5 s: nothing has arrived at first
        let model = GalleryModel(library: library(), settings: settings, viewportSize: Self.size)
        await model.loadPhotoList()
        model.jump(to: 300)
        model.update(now: 0)
        if layout.usesPhotoShapes {
            // The shapes come from the headers, with no download: every tile has its shape first.
            await model.settleShapes()
            model.update(now: 0)
            #expect(model.allShapesRead && model.shapes.knownCount == 60)
        }
        let before = frames(of: model)
        #expect(!before.isEmpty && model.cells.allSatisfy { $0.image == nil }, "every tile a placeholder")
        await model.settle(at: 0)
        #expect(model.cells.allSatisfy { $0.image != nil }, "every photo loaded")
        #expect(frames(of: model) == before)
    }

    @Test func afterAPinchTheFramesStayPutAsTheNewSizesLoad() async throws {
        var settings = GallerySettings()
        settings.latency = .none
        let model = GalleryModel(library: library(), settings: settings, viewportSize: Self.size)
        await model.loadPhotoList()
        model.update(now: 0)
        model.stepColumns(by: 1, now: 0)
        var now = 0.0
        while model.isPinching, now < 5 {
            now += 1.0 / 60
            model.update(now: now)
        }
        let settled = frames(of: model)
        await model.settle(at: now)
        #expect(model.columnCount == 3 && frames(of: model) == settled)
    }
}
#endif
