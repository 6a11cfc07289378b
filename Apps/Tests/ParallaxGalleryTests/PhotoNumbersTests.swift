// The gallery draws through SDL2, which it uses on Linux only.
#if canImport(CSDL2)
import ParallaxImages
import Testing
@testable import ParallaxGallery

/// ``PhotoNumbers`` against a plain `[ImageID: Int32]` over seeded random
/// filings, re-filings and removals, as ``PhotoTimeline`` makes them: with
/// the real hash values, and with hash values that collide all the time.
struct PhotoNumbersTests {
    @Test(arguments: [nil, 1, 3, 64] as [Int?])
    func agreesWithADictionary(hashValues: Int?) {
        var generator = SeededGenerator(seed: UInt64(hashValues ?? 0) + 11)
        // `hashValues` different hash values in all: every ID collides with most others.
        var table = hashValues.map { count in PhotoNumbers(hash: { Int(UInt(bitPattern: $0.hashValue) % UInt(count)) }) }
            ?? PhotoNumbers()
        var oracle: [ImageID: Int32] = [:]
        var ids: [ImageID] = []
        let names = (0..<300).map { ImageID("2024/06-trip/IMG_\($0).jpg") }
        for _ in 0..<5_000 {
            let id = names[Int.random(in: 0..<names.count, using: &generator)]
            if Int.random(in: 0..<4, using: &generator) == 0 {
                #expect(table.remove(id, in: ids) == oracle.removeValue(forKey: id))
            } else {
                // Filed as the next number, as the timeline numbers every photo it is given.
                let number = Int32(ids.count)
                #expect(table.file(id, as: number, in: ids) == oracle.updateValue(number, forKey: id))
                ids.append(id)
            }
            #expect(table.count == oracle.count)
        }
        for id in names { #expect(table.number(of: id, in: ids) == oracle[id]) }
        #expect(table.number(of: "not filed.jpg", in: ids) == nil)
    }
}
#endif
