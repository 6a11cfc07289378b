// The gallery draws through SDL2, which it uses on Linux only.
#if canImport(CSDL2)
import Foundation
import ParallaxImages
import ParallaxLayout
import Testing
@testable import ParallaxGallery

/// PNG files whose headers claim any size, made here byte by byte.
enum HostilePNG {
    /// A PNG of a signature, an IHDR claiming `width` × `height` (8-bit
    /// RGBA), a 12-byte IDAT (four zero bytes, deflated) and an IEND, every
    /// CRC correct: 69 bytes, whatever the size claimed.
    static func claiming(width: UInt32, height: UInt32) -> Data {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        return Data(signature + chunk("IHDR", bigEndian(width) + bigEndian(height) + [8, 6, 0, 0, 0])
                    + chunk("IDAT", [0x78, 0x01, 0x63, 0x60, 0x60, 0x60, 0x00, 0x00, 0x00, 0x04, 0x00, 0x01])
                    + chunk("IEND", []))
    }

    /// Issue 23's file: 1 × 2,147,483,647 pixels claimed in 69 bytes.
    static let tallest = claiming(width: 1, height: 2_147_483_647)

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

@Suite("Extreme photo shapes")
@MainActor
struct ExtremeShapesTests {
    /// A side a header may claim: 0, 1, PNG's largest (`Int32.max`),
    /// anything up to it, `Int.max`, negative, or an ordinary one.
    static func side(using rng: inout SeededGenerator) -> Int {
        switch Int.random(in: 0..<8, using: &rng) {
        case 0: return 0
        case 1: return 1
        case 2: return Int(Int32.max)
        case 3: return Int.random(in: 1...Int(Int32.max), using: &rng)
        case 4: return .max
        case 5: return -Int.random(in: 1...100, using: &rng)
        default: return Int.random(in: 300...6000, using: &rng)
        }
    }

    @Test func theSixtyNineBytePNGIsItsOwnSizeAndBecomesAnErrorTileNotACrash() async throws {
        #expect(HostilePNG.tallest.count == 69)
        let header = try #require(try ImageHeader.read(from: HostilePNG.tallest))
        #expect(header.width == 1 && header.height == 2_147_483_647)
        do {
            _ = try PlatformImageDecoder().thumbnail(from: HostilePNG.tallest, size: try ThumbnailSize(width: 64, height: 64))
            Issue.record("a 1 × 2³¹ PNG of 69 bytes decoded")
        } catch {
            #expect(!"\(error)".isEmpty)
        }
    }

    /// Issue 23: a folder holding the 69-byte PNG crashed the waterfall in
    /// `SDLCanvas.clip`. Every layout now renders it: the tall tile at the
    /// clamped 1 : 64, failing to decode like any broken photo.
    @Test(arguments: GalleryLayout.allCases)
    func aFolderWithTheSixtyNineBytePNGRendersInEveryLayout(_ layout: GalleryLayout) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("extreme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try HostilePNG.tallest.write(to: folder.appendingPathComponent("b-tall.png"))
        for index in [0, 2] {
            try SyntheticPhotos.landscape(index: index, width: 160, height: 120)
                .write(to: folder.appendingPathComponent("\(index == 0 ? "a" : "c")-photo.png"))
        }
        let library = try await PhotoLibrary.folder(folder)
        var settings = GallerySettings()
        settings.layout = layout
        let size = CGSize(width: 640, height: 400)
        for scroll: CGFloat in [0, .greatestFiniteMagnitude] {
            let frame = try await GalleryRendering.frame(library: library, settings: settings, size: size, scroll: scroll)
            #expect(frame?.width == 640 && frame?.height == 400)
        }
        let model = GalleryModel(library: library, settings: settings, viewportSize: size)
        await model.loadPhotoList()
        await model.settleShapes()
        #expect(model.shapes.size(of: 1) == CGSize(width: 1, height: 2_147_483_647))
        if layout == .waterfall, let waterfall = model.layout.base as? WaterfallLayout {
            // Shapes are by photo number (the order found), frames by position (newest first: the three
            // files' times may tie within a clock tick, so the tall photo's place is looked up, not assumed).
            let tall = model.position(ofPhoto: 1)
            #expect(model.photos[tall] == "b-tall.png")
            #expect(waterfall.frame(of: ItemIndex(item: tall))?.height == waterfall.columnWidth * 64)
        }
    }

    /// A real panorama at the range's end, 1 : 64, in a one-column
    /// waterfall: a tile far longer than the largest thumbnail, which still
    /// gets its picture (the largest of its shape, stretched).
    @Test func aTileLongerThanTheLargestThumbnailStillGetsItsPicture() async throws {
        let tall = SyntheticPhotos.landscape(index: 5, width: 8, height: 512)
        let library = PhotoLibrary(source: InMemoryImageSource(images: [("tall.png", tall)]), credits: [], description: "tall",
                                   readsHeadersLocally: true)
        var settings = GallerySettings()
        settings.layout = .waterfall
        settings.columns = 1
        let model = GalleryModel(library: library, settings: settings, viewportSize: CGSize(width: 640, height: 400))
        await model.loadPhotoList()
        await model.settleShapes()
        await model.settle(at: 0)
        let cell = try #require(model.cells.first)
        #expect(cell.frame.height > CGFloat(ThumbnailSize.maximumSide))
        #expect(cell.image != nil && cell.failure == nil)
    }

    /// Random shapes with every extreme, in every layout: frames finite, no
    /// tile longer than 64 of its widths (or, in the quilt, 2 blocks).
    @Test func everyLayoutKeepsRandomExtremeShapesBounded() throws {
        var rng = SeededGenerator(seed: 23)
        for _ in 0..<60 {
            let count = Int.random(in: 1...120, using: &rng)
            var shapes = PhotoShapes(count: count)
            for item in 0..<count {
                shapes.record(width: Self.side(using: &rng), height: Self.side(using: &rng), at: item)
                #expect(ItemAspectRatio.range.contains(shapes.aspectRatio(of: item)))
            }
            let size = CGSize(width: .random(in: 200...2000, using: &rng), height: .random(in: 200...1200, using: &rng))
            let columns = Bool.random(using: &rng) ? Int.random(in: 1...8, using: &rng) : nil
            for mode in GalleryLayout.allCases {
                let layout = try GalleryLayouts.layout(mode, columns: columns, count: count, size: size, shapes: shapes)
                #expect(layout.contentSize.height.isFinite && layout.contentSize.height < 1e9)
                var seen = 0
                layout.forEachItem(in: CGRect(origin: .zero, size: layout.contentSize)) { _, frame in
                    seen += 1
                    #expect(frame.minX.isFinite && frame.minY.isFinite && frame.width > 0)
                    #expect(frame.height <= frame.width * 64 * 1.000_001 + 1, "\(mode): \(frame)")
                }
                #expect(seen == count, "\(mode)")
            }
        }
    }

    /// Random photos whose headers claim extreme sizes (up to `Int32.max`
    /// a side), through the headless renderer in every layout and at random
    /// places, the end and beyond included.
    @Test func theHeadlessRendererDrawsExtremeHeadersInEveryLayout() async throws {
        var rng = SeededGenerator(seed: 2_147_483_647)
        let images = (0..<16).map { index -> (id: ImageID, data: Data) in
            let side = { (rng: inout SeededGenerator) -> UInt32 in
                [1, UInt32(Int32.max), UInt32.random(in: 1...UInt32(Int32.max), using: &rng), 4000][Int.random(in: 0..<4, using: &rng)]
            }
            let width = side(&rng), height = side(&rng)
            return (ImageID(String(format: "extreme-%02d.png", index)), HostilePNG.claiming(width: width, height: height))
        }
        let library = PhotoLibrary(source: InMemoryImageSource(images: images), credits: [], description: "extreme headers",
                                   readsHeadersLocally: true)
        for layout in GalleryLayout.allCases {
            var settings = GallerySettings()
            settings.layout = layout
            for scroll: CGFloat in [.random(in: 0...1e5, using: &rng), .greatestFiniteMagnitude] {
                let frame = try await GalleryRendering.frame(library: library, settings: settings,
                                                             size: CGSize(width: 480, height: 320), scroll: scroll)
                #expect(frame != nil, "\(layout) at \(scroll)")
            }
        }
    }

    /// The canvas takes any geometry (it comes from layouts and headers):
    /// nothing traps, and a tile longer than 2³¹ pixels is drawn as its
    /// visible part.
    @Test func theCanvasDrawsAnyGeometryAndATileTallerThanTwoBillionPixelsAsItsVisiblePart() throws {
        let headless = try HeadlessRenderer(size: CGSize(width: 200, height: 100), fontPath: nil)
        defer { headless.close() }
        let canvas = headless.canvas
        let picture = try #require(PixelImage(width: 2, height: 2, pixels: [UInt8](repeating: 200, count: 16)))
        let key = ThumbnailKey(id: "p", size: try ThumbnailSize(width: 2, height: 2))
        let extremes: [CGFloat] = [0, -1, 1e10, -1e10, CGFloat(Int32.max), -CGFloat(Int32.max) * 3, .greatestFiniteMagnitude,
                                   -.greatestFiniteMagnitude, .infinity, -.infinity, .nan]
        var rng = SeededGenerator(seed: 31)
        canvas.beginFrame()
        for _ in 0..<2000 {
            func pick() -> CGFloat {
                Bool.random(using: &rng) ? extremes.randomElement(using: &rng)! : .random(in: -300...300, using: &rng)
            }
            let rect = CGRect(x: pick(), y: pick(), width: pick(), height: pick())
            canvas.clip(to: rect)
            canvas.fill(rect, RGBA(10, 20, 30))
            canvas.draw(picture, key: key, in: rect, opacity: Double(pick()))
            canvas.drawText("x", at: CGPoint(x: pick(), y: pick()), size: 12, color: RGBA(255, 255, 255), outlined: true)
        }
        #expect(SDLCanvas.pixel(.nan) == 0 && SDLCanvas.pixel(.greatestFiniteMagnitude) == Int32(SDLCanvas.drawableExtent))
        // A waterfall tile three billion pixels long whose middle is on screen: clipped to itself, filled.
        canvas.clip(to: nil)
        canvas.clear(RGBA(0, 0, 0))
        let tall = CGRect(x: 50, y: -1.5e9, width: 100, height: 3e9)
        canvas.clip(to: tall)
        canvas.fill(tall, RGBA(255, 0, 0))
        canvas.clip(to: nil)
        let frame = try #require(canvas.readPixels())
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(frame.pixels[(y * 200 + x) * 4..<(y * 200 + x) * 4 + 3]) }
        #expect(pixel(100, 50) == [255, 0, 0] && pixel(50, 0) == [255, 0, 0] && pixel(149, 99) == [255, 0, 0])
        #expect(pixel(49, 50) == [0, 0, 0] && pixel(150, 50) == [0, 0, 0])
    }
}
#endif
