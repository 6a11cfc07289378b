import Foundation
import Testing
@testable import ParallaxImages

/// ``ImageHeader/read(from:)`` for HEIF and AVIF: the primary item's `ispe`,
/// `irot` and `imir` from the `meta` box, whatever shape the boxes take.
@Suite("HEIF and AVIF headers from the meta box")
struct ISOMediaHeaderTests {
    typealias B = ISOMediaBuilder

    @Test func filesMadeByLibheifAndLibavifGiveTheirSizeAndTurn() throws {
        // heif-enc stores a 1 × 1 grid with the EXIF orientation as the pixels, unturned.
        #expect(try ImageHeader.read(from: MetadataFixtures.datedHEIC) == ImageHeader(format: .heif, storedWidth: 16, storedHeight: 12, orientation: .up))
        #expect(try ImageHeader.read(from: MetadataFixtures.xmpHEIC) == ImageHeader(format: .heif, storedWidth: 16, storedHeight: 12, orientation: .up))
        // avifenc turns EXIF orientation 6 into irot 3 (270° anticlockwise).
        let dated = try #require(try ImageHeader.read(from: MetadataFixtures.datedAVIF))
        #expect(dated == ImageHeader(format: .avif, storedWidth: 16, storedHeight: 12, orientation: .right))
        #expect(dated.width == 12 && dated.height == 16)
        // irot 1 then imir 0 (top and bottom exchanged): heif-convert shows the pixels transposed, EXIF 5.
        #expect(try ImageHeader.read(from: MetadataFixtures.rotatedAVIF)?.orientation == .leftMirrored)
    }

    @Test func rotationsAndMirrorsMapToTheirEXIFOrientations() throws {
        let expected: [([[UInt8]], ImageOrientation)] = [
            ([], .up), ([B.irot(0)], .up), ([B.irot(1)], .left), ([B.irot(2)], .down), ([B.irot(3)], .right),
            ([B.imir(0)], .downMirrored), ([B.imir(1)], .upMirrored),
            ([B.irot(1), B.imir(0)], .leftMirrored), ([B.irot(1), B.imir(1)], .rightMirrored),
            ([B.irot(3), B.imir(0)], .rightMirrored), ([B.irot(2), B.imir(1)], .downMirrored),
            ([B.imir(1), B.irot(1)], .leftMirrored),        // the ipma order is the order of application
            ([B.irot(1), B.irot(1)], .down), ([B.imir(0), B.imir(0)], .up),
            ([B.irot(0xFD)], .left),                        // the reserved bits are ignored
        ]
        for (transforms, orientation) in expected {
            let file = B.heif(properties: [B.ispe(40, 30)] + transforms)
            let header = try #require(try ImageHeader.read(from: file))
            #expect(header.orientation == orientation, "\(transforms)")
            #expect(header.storedWidth == 40 && header.storedHeight == 30)
        }
    }

    @Test func aTurnListedBeforeIspeIsAlreadyInItsSize() throws {
        // libheif 1.15's heif-enc: irot 3, then ispe with the turned size; heif-convert decodes it to 148 × 226.
        let file = B.heif(properties: [B.irot(3), B.ispe(148, 226)])
        let header = try #require(try ImageHeader.read(from: file))
        #expect(header == ImageHeader(format: .heif, storedWidth: 226, storedHeight: 148, orientation: .right))
        #expect(header.width == 148 && header.height == 226)
        // A half turn changes no size, wherever it is.
        #expect(try ImageHeader.read(from: B.heif(properties: [B.irot(2), B.ispe(148, 226)]))?.width == 148)
    }

    @Test func compositionOfOrientationsMatchesApplyingThemInTurn() throws {
        let picture = PixelImage(unchecked: 3, height: 2, pixels: (0..<24).map { UInt8($0) })
        for first in ImageOrientation.allCases {
            for second in ImageOrientation.allCases {
                let composed = first.followed(by: second)
                #expect(composed.apply(to: picture) == second.apply(to: first.apply(to: picture)), "\(first) then \(second)")
            }
        }
    }

    @Test func everyBoxVariantIsRead() throws {
        let properties = [B.ispe(4000, 3000), B.irot(3)]
        let variants: [(String, Data)] = [
            ("ipma version 1, 32-bit item IDs", B.heif(properties: properties, ipmaVersion: 1)),
            ("ipma flag 1, 16-bit property indexes", B.heif(properties: properties, wide: true)),
            ("both", B.heif(properties: properties, ipmaVersion: 1, wide: true)),
            ("pitm version 1", B.heif(properties: properties, pitmVersion: 1)),
            ("a 64-bit meta size", B.heif(properties: properties, largeMeta: true)),
            ("a 64-bit free box first", B.heif(properties: properties, before: B.box("free", [0, 0, 0], largeSize: true))),
            ("a uuid box first", B.heif(properties: properties, before: B.box("uuid", [UInt8](repeating: 7, count: 20)))),
            ("mdat to the end (size 0)", B.heif(properties: properties, trailer: B.be32(0) + Array("mdat".utf8) + [9, 9])),
            ("a thumbnail item", B.heif(properties: properties, extraItems: [B.infe(2, "hvc1")])),
            ("AVIF", { var f = [UInt8](B.heif(properties: properties, itemType: "av01")); f.replaceSubrange(8..<12, with: Array("avif".utf8)); f.replaceSubrange(20..<24, with: Array("avif".utf8)); return Data(f) }()),
        ]
        for (name, file) in variants {
            let header = try #require(try ImageHeader.read(from: file), "\(name)")
            #expect(header.storedWidth == 4000 && header.storedHeight == 3000 && header.orientation == .right, "\(name)")
            #expect(header.format == (name == "AVIF" ? .avif : .heif), "\(name)")
        }
    }

    @Test func aMetaBoxEndingPastTheBytesGivenAsksForMore() throws {
        let file = B.heif(properties: [B.ispe(64, 48)])
        let metaEnd = file.count - 12                                   // the mdat box is 12 bytes
        for length in [0, 3, 8, 12, 20, 40, metaEnd - 1] {
            #expect(try ImageHeader.read(from: file.prefix(length)) == nil, "\(length)")
        }
        #expect(try ImageHeader.read(from: file.prefix(metaEnd))?.storedWidth == 64)
        // A picture whose meta box comes after a 40 MB mdat needs the bytes up to it.
        let late = Data(B.ftyp() + B.be32(40 << 20) + Array("mdat".utf8) + [0, 0, 0, 0])
        #expect(try ImageHeader.read(from: late) == nil)
    }

    @Test func aGridWithoutIspeTakesItsSizeFromItsGridData() throws {
        // ImageGrid in idat: version 0, flags 1 (32-bit sizes), 2 rows, 3 columns, 6000 × 4000.
        let grid: [UInt8] = [0, 1, 1, 2] + B.be32(6000) + B.be32(4000)
        let file = B.heif(properties: [B.irot(2)], itemType: "grid",
                          extraBoxes: [B.box("idat", grid), B.iloc([(1, 1, 0, grid.count)])])
        #expect(try ImageHeader.read(from: file) == ImageHeader(format: .heif, storedWidth: 6000, storedHeight: 4000, orientation: .down))
    }

    @Test func aCleanApertureCropsTheSize() throws {
        let clap = B.box("clap", B.be32(3999) + B.be32(1) + B.be32(5999) + B.be32(2) + B.be32(0) + B.be32(1) + B.be32(0) + B.be32(1))
        #expect(try ImageHeader.read(from: B.heif(properties: [B.ispe(4000, 3000), clap]))?.storedHeight == 3000)
        #expect(try ImageHeader.read(from: B.heif(properties: [B.ispe(4000, 3000), clap]))?.storedWidth == 3999)
    }

    @Test func malformedFilesSayWhatIsWrong() throws {
        #expect(throws: ImageDecodingError.corrupt("the primary image has no size (ispe) property")) {
            try ImageHeader.read(from: B.heif(properties: [B.irot(1)]))
        }
        #expect(throws: ImageDecodingError.corrupt("the primary image's ispe gives an empty size 0 × 3")) {
            try ImageHeader.read(from: B.heif(properties: [B.ispe(0, 3)]))
        }
        #expect(throws: ImageDecodingError.corrupt("the file has no meta box")) {
            try ImageHeader.read(from: Data(B.ftyp() + B.be32(0) + Array("mdat".utf8)))
        }
        #expect(throws: ImageDecodingError.corrupt("a box size of 4")) {
            try ImageHeader.read(from: Data(B.ftyp() + B.be32(4) + Array("free".utf8)))
        }
        var noPrimary = [UInt8](B.heif(properties: [B.ispe(1, 1)]))
        let pitm = try #require((0..<noPrimary.count - 4).first { noPrimary[$0..<($0 + 4)].elementsEqual("pitm".utf8) })
        noPrimary.replaceSubrange(pitm..<(pitm + 4), with: Array("pitx".utf8))
        #expect(throws: ImageDecodingError.corrupt("the meta box names no primary item (pitm)")) { try ImageHeader.read(from: Data(noPrimary)) }
    }

    @Test func hugeCountsCostOnlyTheBytesThatHoldThem() throws {
        // ipma and iloc claiming four billion entries, and 5000 properties: refused or read within the bytes there are.
        let ipma = B.fullBox("ipma", B.be32(0xFFFF_FFFF) + B.be16(1) + [1, 0x81])
        let iloc = B.fullBox("iloc", version: 2, [0x44, 0x00] + B.be32(0xFFFF_FFFF))
        let file = B.heif(properties: [B.ispe(10, 10)], extraBoxes: [B.box("iprp", B.box("ipco", []) + ipma), iloc])
        #expect(throws: ImageDecodingError.self) { try ImageHeader.read(from: file) }
        let many = B.heif(properties: [B.ispe(10, 10)] + [[UInt8]](repeating: B.irot(1), count: 5000))
        #expect(throws: ImageDecodingError.self) { try ImageHeader.read(from: many) }
    }
}
