import Foundation
import ParallaxCore
import ParallaxHosting
import Testing

@Suite("VisibleSections: headers and footers of sections with no visible row")
struct VisibleSectionsTests {
    @Test("binary search finds exactly the sections a brute-force scan finds, empty sections included")
    func matchesBruteForce() {
        var rng = SplitMix64(seed: 0x7AB1E)
        for _ in 0..<300 {
            let count = Int.random(in: 0...200, using: &rng)
            var y: CGFloat = 0
            // Sections of 0 to 3 rows with a header and sometimes a footer: an empty section is a header alone.
            let rects: [CGRect] = (0..<count).map { _ in
                let height = CGFloat(28 + Int.random(in: 0...3, using: &rng) * 44 + (Bool.random(using: &rng) ? 20 : 0))
                defer { y += height }
                return CGRect(x: 0, y: y, width: 390, height: height)
            }
            let visible = CGRect(x: 0, y: CGFloat(Int.random(in: -200...Int(max(y, 1)), using: &rng)), width: 390,
                                 height: CGFloat(Int.random(in: 1...900, using: &rng)))
            var calls = 0
            let found = VisibleSections.sections(count: count, in: visible) { calls += 1; return rects[$0] }
            let expected = rects.indices.filter { rects[$0].minY < visible.maxY && rects[$0].maxY > visible.minY }
            #expect(Array(found) == expected)
            #expect(calls <= 2 * (Int(log2(Double(max(count, 1)))) + 2) + expected.count, "a search, not a scan")
        }
    }

    @Test("a section with no rows whose header is on screen is found; nothing is found in an empty list")
    func emptySection() {
        let rects = [CGRect(x: 0, y: 0, width: 390, height: 500), CGRect(x: 0, y: 500, width: 390, height: 28),
                     CGRect(x: 0, y: 528, width: 390, height: 500)]
        #expect(VisibleSections.sections(count: 3, in: CGRect(x: 0, y: 510, width: 390, height: 10)) { rects[$0] } == 1..<2)
        #expect(VisibleSections.sections(count: 0, in: CGRect(x: 0, y: 0, width: 1, height: 1)) { _ in .zero } == 0..<0)
        #expect(VisibleSections.sections(count: 3, in: .zero) { rects[$0] }.isEmpty)
    }
}
