// The gallery draws through SDL2, which it uses on Linux only.
#if canImport(CSDL2)
import Foundation
import ParallaxCore
import ParallaxImages
import ParallaxLayout
import Testing
@testable import ParallaxGallery

/// Pinch to change density in the gallery, as Ctrl + wheel, a touchpad
/// pinch and the [ and ] keys drive it: the column count follows, the photo
/// under the pointer stays under it, and the grid it settles on is the
/// grid of that count with that photo in the column under the pointer.
@Suite("Gallery pinch")
@MainActor
struct GalleryPinchTests {
    static let size = CGSize(width: 390, height: 844)

    func model(count: Int = 200) async -> GalleryModel {
        var settings = GallerySettings()
        settings.latency = .none
        let model = GalleryModel(library: rowPatternLibrary(count: count, width: 40, height: 40), settings: settings,
                                 viewportSize: Self.size)
        await model.loadPhotoList()
        model.jump(to: 1_500)
        model.update(now: 0)
        return model
    }

    /// The cell under `point` (window coordinates) and where in it the point falls.
    func cell(under point: CGPoint, in model: GalleryModel) -> (item: Int, at: CGPoint)? {
        guard let cell = model.cells.first(where: { $0.frame.contains(point) }) else { return nil }
        return (cell.item, CGPoint(x: (point.x - cell.frame.minX) / cell.frame.width,
                                   y: (point.y - cell.frame.minY) / cell.frame.height))
    }

    @Test func ctrlWheelPinchesInAndThePhotoStaysUnderThePointer() async throws {
        let model = await model()
        #expect(model.columnCount == 2)
        let pointer = CGPoint(x: 300, y: 500)
        let before = try #require(cell(under: pointer, in: model))
        model.beginPinch(at: pointer)
        var scale: CGFloat = 1, now = 0.0
        for _ in 0..<12 {                                   // twelve notches towards smaller photos
            scale /= 1.1
            now += 1.0 / 60
            model.pinch(scale: scale, at: pointer)
            model.update(now: now)
            // The photo that was under the pointer is still under it, at the same height of it, and
            // drawn last: photos that rewrap to other rows slide past it, underneath.
            let anchor = try #require(model.cells.last)
            #expect(anchor.item == before.item)
            let at = CGPoint(x: (pointer.x - anchor.frame.minX) / anchor.frame.width,
                             y: (pointer.y - anchor.frame.minY) / anchor.frame.height)
            #expect(at.x >= 0 && at.x <= 1 && abs(at.y - before.at.y) < 1e-6, "\(at)")
        }
        model.endPinch(now: now)
        while model.isPinching, now < 5 {
            now += 1.0 / 60
            model.update(now: now)
        }
        #expect(!model.isPinching)
        // 1/1.1^12 ≈ 0.32 of the width: about six columns.
        #expect(model.columnCount == 6 || model.columnCount == 7, "\(model.columnCount)")
        // At rest: exactly the grid of that count with the photo in the column under the pointer, at
        // the scroll position.
        var plain = GridConfiguration.grid
        plain.columns = .fixed(model.columnCount)
        let grid = try GridLayout(configuration: plain, itemCount: 200, containerSize: Self.size)
            .aligning(ItemIndex(item: before.item), across: pointer.x)
        #expect(grid.firstColumn(ofSection: 0) != 0, "a plain grid would have put it elsewhere")
        let shown = CGRect(origin: CGPoint(x: 0, y: model.scroll.position), size: Self.size)
        var expected: [Int: CGRect] = [:]
        grid.forEachItem(in: shown) { index, frame in expected[index.item] = frame.offsetBy(dx: 0, dy: -model.scroll.position) }
        #expect(Set(model.cells.map(\.item)) == Set(expected.keys))
        for cell in model.cells { #expect(cell.frame == expected[cell.item]) }
        // Six columns put that photo near the top of the content, so the offset was clamped to the
        // top: it is still on screen, if no longer under the pointer.
        #expect(model.cells.contains { $0.item == before.item })
    }

    /// A photo once shown never goes blank during a pinch or after it: the
    /// pictures from before it are shown stretched, and once it rests each
    /// picture at the new size replaces the stretched one with no
    /// placeholder in between, until every tile is sharp. (Photos that
    /// rewrapping rows bring into view for the first time are asked for
    /// ahead, but may still show their placeholder for a frame or two while
    /// they decode; the session benchmark measures how many.)
    @Test(arguments: [1.8, 1 / 1.8])
    func aPhotoOnceShownIsNeverBlankAgainDuringAPinchOrAfterIt(scale: Double) async throws {
        let model = await model(count: 250)
        await model.settle(at: 0)
        #expect(model.unsharpCellCount == 0 && model.staleCellCount == 0)
        var shown = Set(model.cells.map(\.item))
        func check(_ moment: String) {
            let lost = model.cells.filter { $0.image == nil && $0.failure == nil && shown.contains($0.item) }.map(\.item)
            #expect(lost.isEmpty, "\(moment): \(lost) went blank")
            shown.formUnion(model.cells.filter { $0.image != nil }.map(\.item))
        }
        let center = CGPoint(x: Self.size.width / 2, y: Self.size.height / 2)
        let before = model.columnCount
        model.beginPinch(at: center)
        var now = 1.0, frames = 0
        for step in 1...30 {
            model.pinch(scale: CGFloat(pow(scale, Double(step) / 30)), at: center)
            now += 1.0 / 60
            model.update(now: now)
            check("step \(step)")
            try await Task.sleep(for: .milliseconds(16))     // the loader works beside the frames, as on screen
        }
        model.endPinch(now: now)
        while model.isPinching || frames < 10 {
            now += 1.0 / 60
            frames += 1
            model.update(now: now)
            check("\(frames) frames after the fingers lifted")
            try await Task.sleep(for: .milliseconds(16))
            if frames > 600 { break }
        }
        #expect(model.columnCount != before)
        await model.settle(at: now)
        #expect(model.unsharpCellCount == 0 && model.staleCellCount == 0, "every tile sharp at its new size")
    }

    @Test func theBracketKeysStepOneColumnAndReachTheListAtOne() async throws {
        let model = await model()
        var now = 0.0
        func settle() {
            while model.isPinching, now < 10 {
                now += 1.0 / 60
                model.update(now: now)
            }
        }
        model.stepColumns(by: 1, now: now)
        settle()
        #expect(model.columnCount == 3)
        model.stepColumns(by: -1, now: now)
        settle()
        model.stepColumns(by: -1, now: now)
        settle()
        #expect(model.columnCount == 1 && model.settings.layout == .list)
        model.stepColumns(by: -1, now: now)                  // no fewer than one
        #expect(!model.isPinching && model.columnCount == 1)
        // G still switches: back to the grid it was pinched from.
        model.toggleLayout(now: now)
        settle()
        #expect(model.settings.layout == .grid)
    }

    @Test func aPinchOverNothingOrWithBadNumbersChangesNothing() async throws {
        let empty = await model(count: 0)
        empty.beginPinch(at: CGPoint(x: 10, y: 10))
        #expect(!empty.isPinching)
        let model = await model()
        model.beginPinch(at: CGPoint(x: 100, y: 100))
        for bad: CGFloat in [0, -2, .nan, .infinity] { model.pinch(scale: bad, at: CGPoint(x: CGFloat.nan, y: 1)) }
        model.update(now: 0.1)
        model.endPinch(velocity: .nan, now: 0.1)
        var now = 0.1
        while model.isPinching, now < 5 {
            now += 1.0 / 60
            model.update(now: now)
        }
        #expect(model.columnCount == 2)
    }
}
#endif
