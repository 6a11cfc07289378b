import Foundation
import ParallaxCore
import ParallaxHosting
import ParallaxLayout
import Testing

@Suite("PlacedCell: a declarative grid's cells are keyed by their element, not their position")
struct PlacedCellTests {
    struct Photo: Hashable { var id: Int }

    func cells(_ photos: [Photo], rect: CGRect) throws -> [PlacedCell<Int>] {
        let layout = try GridLayout(configuration: .grid, itemCount: photos.count, containerSize: CGSize(width: 400, height: 800))
        return PlacedCell.cells(of: layout, in: rect, itemCount: photos.count) { photos[$0].id }
    }

    @Test("after an insert or a delete every element keeps its key, at its new index and frame")
    func insertsAndDeletes() throws {
        var rng = SplitMix64(seed: 5)
        var photos = (0..<60).map { Photo(id: $0) }
        var nextID = 1000
        let rect = CGRect(x: 0, y: 0, width: 400, height: 2000)
        for _ in 0..<300 {
            let before = try cells(photos, rect: rect)
            if Bool.random(using: &rng) || photos.count < 5 {
                photos.insert(Photo(id: nextID), at: Int.random(in: 0...photos.count, using: &rng))
                nextID += 1
            } else {
                photos.remove(at: Int.random(in: 0..<photos.count, using: &rng))
            }
            let after = try cells(photos, rect: rect)
            // Keys are unique, and each names the element at its index.
            #expect(Set(after.map(\.id)).count == after.count)
            for cell in after { #expect(photos[cell.index].id == cell.id) }
            // An element on screen before and after is the same key, wherever it moved.
            let layout = try GridLayout(configuration: .grid, itemCount: photos.count,
                                        containerSize: CGSize(width: 400, height: 800))
            for cell in after where before.contains(where: { $0.id == cell.id }) {
                #expect(cell.frame == layout.frame(of: ItemIndex(item: cell.index)))
            }
        }
    }

    @Test("a layout a step behind the data never names an element past the end")
    func layoutBehindData() throws {
        let layout = try GridLayout(configuration: .grid, itemCount: 30, containerSize: CGSize(width: 400, height: 800))
        let shown = PlacedCell.cells(of: layout, in: CGRect(x: 0, y: 0, width: 400, height: 5000), itemCount: 12) { $0 }
        #expect(shown.map(\.index) == Array(0..<12))
    }
}
