#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore
import ParallaxImages
import ParallaxLayout
import Testing

/// The README's portable snippets, compiled and run. Each region between a
/// `// README: <name>` line and `// README: end` appears verbatim (less its
/// indentation) as a Swift block of the README, after the block's imports;
/// the test below keeps them identical.
enum ReadmeSnippets {
    /// What a cell of the quick start holds.
    final class PhotoCell: Hashable {
        var imageFrame = CGRect.zero
        var size = CGSize(width: 120, height: 90)
        private(set) var shown: PixelImage?

        func show(_ image: PixelImage, fadingIn: Bool) { shown = image }

        static func == (a: PhotoCell, b: PhotoCell) -> Bool { a === b }
        func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    }

    /// The quick start: a grid, depth parallax every frame, and the switch to the list.
    static func quickStart(photos: [String], bounds: CGRect,
                           cells: [ItemIndex: PhotoCell]) throws -> LayoutTransition<GridLayout, GridLayout> {
        // README: quick start
        let grid = try GridLayout(configuration: .grid, itemCount: photos.count, containerSize: bounds.size)
        let scroller = ParallaxScroller(effect: .depth(maxOffset: 30))

        // Every frame: O(visible items), nothing allocated, the layout never invalidated.
        let placer = scroller.placer(for: bounds)
        grid.forEachItem(in: bounds) { index, frame in
            cells[index]?.imageFrame = placer.placement(forItemFrame: frame).contentFrame   // aspect-fill, clipped
        }
        // README: end
        // README: switch
        let viewport = ScrollViewport(size: bounds.size, contentOffset: bounds.origin)
        let list = try GridLayout(configuration: .list, itemCount: photos.count, containerSize: bounds.size)
        let transition = LayoutTransition(from: grid, at: viewport, to: list)   // animate progress 0 → 1
        // README: end
        return transition
    }

    /// The image pipeline: one loader for the app, a thumbnail of exactly the cell's size, reuse safety.
    static func images(photoFolder: URL, cell: PhotoCell) async throws -> ImageLoader {
        var bindings = ImageBindingTable<PhotoCell>()
        // README: images
        let loader = ImageLoader(source: FolderImageSource(directory: photoFolder))   // one per app
        let key = ThumbnailKey(id: "sunset.jpg", size: try ThumbnailSize(points: cell.size, scale: 3))
        let ticket = bindings.bind(cell, to: key)                  // ImageBindingTable: reuse safety, made explicit
        let loaded = try await loader.image(for: key)              // .memory, .disk or .network
        if bindings.accepts(ticket, for: cell) { cell.show(loaded.image, fadingIn: loaded.origin != .memory) }
        // README: end
        return loader
    }

    /// A photo's preview from the app's model, shown until its thumbnail arrives.
    static func previews(loader: ImageLoader) -> PixelImage? {
        // README: previews
        // A ThumbHash from the app's model: a photo server sends one with each photo (Immich's `thumbhash`).
        if let hash = ThumbHash(base64: "k0oGLQaSVsN0BVhn2oq2Z5SQUQcZ") { loader.previews.insert(hash, for: "sunset.jpg") }
        let preview = loader.previews.image(for: "sunset.jpg")     // 32 px and soft: draw it scaled up, smoothly
        // README: end
        return preview
    }

    /// A loader whose thumbnails outlive the app, in the platform's caches folder.
    static func diskCache(source: some ImageSource) throws -> ImageLoader {
        // README: disk cache
        let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
        let disk = try DiskImageCache(directory: caches.appendingPathComponent("Thumbnails"))
        let loader = ImageLoader(source: source, diskCache: disk)
        // README: end
        return loader
    }
}

@Suite("README snippets compile, run, and match the README")
struct ReadmeSnippetsTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The regions of this file, by name, without their common indentation.
    static func regions() throws -> [String: String] {
        let text = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        var regions: [String: String] = [:], name: String?, lines: [String] = []
        for line in text.components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("// README: ") {
                let marker = String(trimmed.dropFirst("// README: ".count))
                if marker == "end", let open = name {
                    let indent = lines.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
                    regions[open] = lines.map { String($0.dropFirst(min(indent, $0.count))) }.joined(separator: "\n")
                    name = nil
                } else if marker != "end" {
                    name = marker
                    lines = []
                }
            } else if name != nil {
                lines.append(line)
            }
        }
        return regions
    }

    /// The README's Swift blocks, each without its leading imports and blank lines.
    static func readmeBlocks() throws -> [String] {
        let markdown = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        return QuickStartDocumentationTests.swiftBlocks(in: markdown).map { block in
            block.components(separatedBy: "\n").drop { $0.hasPrefix("import ") || $0.isEmpty }.joined(separator: "\n")
        }
    }

    @Test func everyRegionIsABlockOfTheReadme() throws {
        let regions = try Self.regions(), blocks = try Self.readmeBlocks()
        #expect(regions.keys.sorted() == ["disk cache", "images", "previews", "quick start", "switch"])
        for (name, code) in regions {
            #expect(blocks.contains(code), "the README has no block reading exactly like the \"\(name)\" region:\n\(code)")
        }
    }

    @Test func theQuickStartPlacesEveryVisibleCellAndSwitches() throws {
        let photos = (0..<100).map { "photo-\($0).jpg" }
        let bounds = CGRect(x: 0, y: 600, width: 390, height: 844)
        let cells = Dictionary(uniqueKeysWithValues: (0..<100).map { (ItemIndex(item: $0), ReadmeSnippets.PhotoCell()) })
        let transition = try ReadmeSnippets.quickStart(photos: photos, bounds: bounds, cells: cells)
        let grid = try GridLayout(configuration: .grid, itemCount: 100, containerSize: bounds.size)
        var visible = 0
        grid.forEachItem(in: bounds) { index, frame in
            visible += 1
            let content = cells[index]!.imageFrame
            // Depth parallax: the picture is larger than its cell and covers it.
            #expect(content.width >= frame.width && content.height > frame.height, "\(index)")
        }
        #expect(visible > 0)
        #expect(transition.destinationOffset.y >= 0 && transition.viewportSize == bounds.size)
    }

    @Test func thePreviewSnippetGivesThePhotosPreview() throws {
        let loader = ImageLoader(source: InMemoryImageSource(images: []))
        let preview = try #require(ReadmeSnippets.previews(loader: loader))
        #expect(preview.width == 23 && preview.height == 32)     // the hash's portrait shape
    }

    @Test func theImageSnippetShowsThePhotoInItsCell() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = try #require(PixelImage(width: 4, height: 3, filledWith: (200, 100, 50, 255)).pngData())
        try png.write(to: folder.appendingPathComponent("sunset.jpg"))     // the name is the id; the bytes say PNG
        let cell = ReadmeSnippets.PhotoCell()
        _ = try await ReadmeSnippets.images(photoFolder: folder, cell: cell)
        let shown = try #require(cell.shown)
        #expect(shown.width == 360 && shown.height == 270 && Array(shown.pixels.prefix(3)) == [200, 100, 50])
        // (The disk cache snippet is compiled, not run: it would write into this machine's own caches folder.)
    }
}
