import Foundation
import ParallaxCore
import ParallaxHosting
import ParallaxImages
import ParallaxLayout
import Testing

@Suite("DetailPaging: which item a detail view shows, and so where its zoom returns")
struct DetailPagingTests {
    @Test("pages through every item of every section in order, skipping empty sections, and stops at both ends")
    func pagesAcrossSections() throws {
        var paging = try #require(DetailPaging(opening: ItemIndex(item: 1, section: 0), itemCounts: [3, 0, 2]))
        #expect(!paging.hasPaged && paging.revealPolicy == .ifHidden)
        var forward: [ItemIndex] = []
        while paging.pageForward() { forward.append(paging.current) }
        #expect(forward == [ItemIndex(item: 2, section: 0), ItemIndex(item: 0, section: 2), ItemIndex(item: 1, section: 2)])
        #expect(paging.next == nil && paging.hasPaged && paging.revealPolicy == .whole)
        var backward: [ItemIndex] = []
        while paging.pageBackward() { backward.append(paging.current) }
        #expect(backward == [ItemIndex(item: 0, section: 2), ItemIndex(item: 2, section: 0), ItemIndex(item: 1, section: 0),
                             ItemIndex(item: 0, section: 0)])
        #expect(paging.previous == nil && paging.opened == ItemIndex(item: 1, section: 0))
        #expect(paging.page(to: ItemIndex(item: 1, section: 0)) && !paging.hasPaged)
    }

    @Test("no such item: opening fails, paging to it changes nothing")
    func invalidItems() throws {
        #expect(DetailPaging(opening: ItemIndex(item: 0, section: 1), itemCounts: [3, 0]) == nil)
        #expect(DetailPaging(opening: ItemIndex(item: 3), itemCounts: [3]) == nil)
        #expect(DetailPaging(opening: ItemIndex(item: 0, section: 2), itemCounts: [3]) == nil)
        var paging = try #require(DetailPaging(opening: ItemIndex(item: 0), itemCounts: [3]))
        #expect(!paging.page(to: ItemIndex(item: 5)) && !paging.page(to: ItemIndex(item: -1)))
        #expect(paging.current == ItemIndex(item: 0))
    }
}

/// The grid: 3 columns of 128-point squares 131 points apart, 390 × 844
/// with 100 points of bars at the top and 34 at the bottom, at rest at the
/// top (offset −100): the unobscured viewport shows content 0 to 710.
@Suite("ZoomSourceResolution: the tile a zoom uses, scrolling the grid to it when it must")
@MainActor
struct ZoomSourceResolutionTests {
    @Test("opening: the tapped tile is used where it is, even partly under a bar; nothing scrolls")
    func opening() {
        let grid = FakeZoomGrid(count: 60)
        let item = ItemIndex(item: 4)
        #expect(ZoomSourceResolution.decide(for: item, showing: grid.photos[4], in: grid, reveal: .ifHidden) == .use)
        let tile = ZoomSourceResolution.source(for: item, showing: grid.photos[4], in: grid, reveal: .ifHidden)
        #expect(tile != nil && tile === grid.tiles[item] && tile?.zoomImageID == grid.photos[4])
        // Row 5 (655…783) is cut by the bottom bar at 710: used as it is, unless it must show whole.
        let cut = ItemIndex(item: 15)
        #expect(ZoomSourceResolution.decide(for: cut, showing: grid.photos[15], in: grid, reveal: .ifHidden) == .use)
        #expect(ZoomSourceResolution.decide(for: cut, showing: grid.photos[15], in: grid, reveal: .never) == .use)
        #expect(ZoomSourceResolution.decide(for: cut, showing: grid.photos[15], in: grid, reveal: .whole)
                == .reveal(CGPoint(x: 0, y: -27)))
        #expect(grid.scrolls.isEmpty)
    }

    @Test("returning after paging far: the grid scrolls by the least amount that shows the tile whole, then uses it")
    func pagedFar() {
        let grid = FakeZoomGrid(count: 60)
        // Item 45: row 15, 1965…2093; shown whole at the bottom edge (2093 + 34 − 844).
        let item = ItemIndex(item: 45)
        #expect(grid.zoomSource(at: item) == nil)
        #expect(ZoomSourceResolution.decide(for: item, showing: grid.photos[45], in: grid, reveal: .never) == .fallBack(.notShown))
        let tile = ZoomSourceResolution.source(for: item, showing: grid.photos[45], in: grid, reveal: .whole)
        #expect(grid.scrolls == [CGPoint(x: 0, y: 1283)])
        #expect(tile?.zoomImageID == grid.photos[45] && tile === grid.tiles[item])
        // Back to the first photo: to the top, under the bar.
        let first = ZoomSourceResolution.source(for: ItemIndex(item: 0), showing: grid.photos[0], in: grid, reveal: .whole)
        #expect(grid.scrolls.last == CGPoint(x: 0, y: -100) && first?.zoomImageID == grid.photos[0])
    }

    @Test("a tile that scrolled away and was reused is never the source; a model change falls back to a cross-fade")
    func reusedAndChanged() {
        let grid = FakeZoomGrid(count: 60)
        let item = ItemIndex(item: 4)
        let tapped = grid.tiles[item]
        grid.scroll(to: 1268)                               // the user scrolled the grid meanwhile (an iPad, say)
        #expect(tapped?.zoomImageID != grid.photos[4])     // reused for another photo, or idle
        #expect(ZoomSourceResolution.source(for: item, showing: grid.photos[4], in: grid, reveal: .never) == nil)
        let back = ZoomSourceResolution.source(for: item, showing: grid.photos[4], in: grid, reveal: .ifHidden)
        #expect(back?.zoomImageID == grid.photos[4] && grid.scrolls == [CGPoint(x: 0, y: 31)])
        // The model changed under the detail view: the tile at the index shows another photo.
        grid.photos[4] = "replaced.jpg"
        grid.tiles[item]?.zoomImageID = "replaced.jpg"
        #expect(ZoomSourceResolution.decide(for: item, showing: "photo-4.jpg", in: grid, reveal: .whole)
                == .fallBack(.showsAnotherPhoto))
        #expect(ZoomSourceResolution.decide(for: ItemIndex(item: 60), showing: "photo-60.jpg", in: grid, reveal: .whole)
                == .fallBack(.noSuchItem))
        #expect(grid.scrolls.count == 1)
    }

    @Test("over random grids and paging: the source shows the photo, on screen (whole once paged), after at most one scroll")
    func randomPaging() throws {
        var generator = SplitMix64(seed: 2024)
        for _ in 0..<200 {
            let count = Int.random(in: 1...300, using: &generator)
            let grid = FakeZoomGrid(count: count, columns: .random(in: 1...6, using: &generator))
            let range = grid.viewport.offsetRange(contentExtent: grid.zoomContentSize.height, along: .vertical)
            grid.scroll(to: .random(in: range, using: &generator))
            // Open from a tile on screen, page a few times, maybe scroll the grid meanwhile.
            let visible = try #require(grid.tiles.keys.min())
            var paging = try #require(DetailPaging(opening: visible, itemCounts: [count]))
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                _ = Bool.random(using: &generator) ? paging.pageForward() : paging.pageBackward()
            }
            if Bool.random(using: &generator) { grid.scroll(to: .random(in: range, using: &generator)) }
            let before = grid.scrolls.count
            let id = grid.photos[paging.current.item]
            let tile = try #require(ZoomSourceResolution.source(for: paging.current, showing: id, in: grid,
                                                                 reveal: paging.revealPolicy))
            #expect(grid.scrolls.count - before <= 1)
            #expect(tile.zoomImageID == id && tile === grid.tiles[paging.current])
            let frame = try #require(grid.zoomLayoutFrame(at: paging.current))
            let top = grid.viewport.contentOffset.y + 100, bottom = grid.viewport.contentOffset.y + 844 - 34
            #expect(frame.maxY > top && frame.minY < bottom)
            if paging.hasPaged { #expect(frame.minY >= top - 1e-9 && frame.maxY <= bottom + 1e-9) }
        }
    }
}
