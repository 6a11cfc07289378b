import Foundation
import ParallaxHosting
import Testing

@Suite("TargetCache: a plain scroll view's subviews are walked when its structure changes, not every pass")
struct TargetCacheTests {
    struct Structure: Equatable { var contentHeight: Int; var subviews: Int; var layouts: Int }

    @Test("unchanged structure: no walk; any change: one walk")
    func walksOnChangeOnly() {
        var cache = TargetCache<Int, Structure>()
        var walks = 0
        var structure = Structure(contentHeight: 2_000, subviews: 5, layouts: 0)
        func targets() -> [Int] { cache.targets(for: structure) { walks += 1; return Array(0..<structure.subviews) } }
        #expect(targets() == [0, 1, 2, 3, 4] && walks == 1)
        for _ in 0..<1_000 { _ = targets() }                  // a thousand scrolled frames
        #expect(walks == 1 && cache.walks == 1)
        structure.subviews = 6
        #expect(targets().count == 6 && walks == 2)
        structure.layouts += 1
        _ = targets()
        #expect(walks == 3)
        cache.invalidate()
        _ = targets()
        #expect(walks == 4)
    }
}
