import Foundation
import ParallaxCore
import Testing
@testable import ParallaxImages

@Suite("Image manifests")
struct ImageManifestTests {
    @Test func namesSizesOrientationsAndFormatsAreReadAsStated() throws {
        let json = """
        { "server": "anything else is ignored",
          "images": [
            { "name": "beach.jpg", "width": 4032, "height": 3024 },
            { "name": "portrait.JPEG", "width": 3024, "height": 4032, "orientation": 6 },
            { "name": "scan", "width": 800, "height": 1200, "format": "png", "orientation": 1 },
            "unmeasured.png"
          ] }
        """
        let manifest = try ImageManifest(json: Data(json.utf8))
        #expect(manifest.imageIDs == ["beach.jpg", "portrait.JPEG", "scan", "unmeasured.png"])
        #expect(manifest.entries[0].header == ImageHeader(format: .jpeg, storedWidth: 4032, storedHeight: 3024, orientation: .up))
        // Shown 3024 × 4032 with orientation 6: stored turned, 4032 × 3024.
        let portrait = try #require(manifest.entries[1].header)
        #expect(portrait == ImageHeader(format: .jpeg, storedWidth: 4032, storedHeight: 3024, orientation: .right))
        #expect(portrait.width == 3024 && portrait.height == 4032)
        #expect(manifest.entries[2].header == ImageHeader(format: .png, storedWidth: 800, storedHeight: 1200, orientation: .up))
        #expect(manifest.entries[3].header == nil)
        #expect(manifest.headers.count == 3 && manifest.headers["unmeasured.png"] == nil)
    }

    @Test func aBareListIsAManifestToo() throws {
        let manifest = try ImageManifest(json: Data(#"["a.jpg", {"name": "b.png", "width": 2, "height": 1}]"#.utf8))
        #expect(manifest.imageIDs == ["a.jpg", "b.png"])
        #expect(manifest.headers["b.png"]?.width == 2)
    }

    @Test func unusableEntriesKeepTheirNameButNotASize() throws {
        let json = """
        [ { "name": "zero.jpg", "width": 0, "height": 10 },
          { "name": "negative.jpg", "width": -4, "height": 10 },
          { "name": "fraction.jpg", "width": 2.5, "height": 10 },
          { "name": "huge.jpg", "width": 1e300, "height": 10 },
          { "name": "past-png.png", "width": 2147483648, "height": 10 },
          { "name": "text.jpg", "width": "640", "height": 480 },
          { "name": "boolean.jpg", "width": true, "height": 480 },
          { "name": "no-height.jpg", "width": 640 },
          { "name": "orientation-9.jpg", "width": 640, "height": 480, "orientation": 9 },
          { "name": "gif.jpg", "width": 640, "height": 480, "format": "gif" },
          { "name": "unknown-extension.tga", "width": 640, "height": 480 },
          { "name": "whole-float.jpg", "width": 640.0, "height": 480 } ]
        """
        let manifest = try ImageManifest(json: Data(json.utf8))
        #expect(manifest.entries.count == 12)
        #expect(manifest.entries.dropLast().allSatisfy { $0.header == nil },
                "\(manifest.entries.filter { $0.header != nil }.map(\.id))")
        #expect(manifest.entries.last?.header?.width == 640)
    }

    @Test func elementsWithoutANameAreSkippedAndRepeatsCountOnce() throws {
        let json = """
        [ "a.jpg", "", 42, null, [ "nested.jpg" ], { "width": 10, "height": 10 }, { "name": "" },
          { "name": 7 }, { "name": "a.jpg", "width": 10, "height": 10 }, "b.jpg" ]
        """
        let manifest = try ImageManifest(json: Data(json.utf8))
        #expect(manifest.imageIDs == ["a.jpg", "b.jpg"])
        #expect(manifest.entries[0].header == nil)                  // the first listing wins
    }

    @Test func whatIsNotAManifestSaysWhy() {
        for (text, reason) in [("{ \"images\": [", "is not valid JSON (it ends early, expecting a value)"),
                               ("", "is empty"),
                               ("{ \"images\": [\"a.jpg\" \"b.jpg\"] }", "is not valid JSON (expecting a , or ] in the image list at byte 22)"),
                               ("<html>", "is not valid JSON"),
                               ("{ \"photos\": [] }", "is neither a list of images nor an object with an \"images\" list"),
                               ("{ \"images\": \"a.jpg\" }", "is neither a list of images nor an object with an \"images\" list"),
                               ("12", "is neither a list of images nor an object with an \"images\" list")] {
            #expect(throws: ImageManifest.ParseError(reason: reason), "\(text)") { try ImageManifest(json: Data(text.utf8)) }
        }
        #expect(ImageManifest.ParseError(reason: "is not valid JSON").description == "the manifest is not valid JSON")
    }

    @Test func onlyJSONOpeningsLookLikeAManifest() {
        #expect(ImageManifest.looksLikeJSON(Data("\u{FEFF} \n\t[ ]".utf8)))
        #expect(ImageManifest.looksLikeJSON(Data("{}".utf8)))
        #expect(!ImageManifest.looksLikeJSON(Data("a.jpg\n[b].jpg".utf8)))
        #expect(!ImageManifest.looksLikeJSON(Data("<!doctype html>".utf8)))
        #expect(!ImageManifest.looksLikeJSON(Data()))
    }

    @Test func aSourceIsReadIntoAManifestThatListsWhatItCannotMeasureWithoutASize() async throws {
        let source = InMemoryImageSource(images: [
            ("turned.jpg", jpegWithMetadata(width: 30, height: 50, comment: 0, orientation: 6)),
            ("notes.txt", Data("not a picture".utf8)),
            ("wide.jpg", jpegWithMetadata(width: 64, height: 16, comment: 0)),
        ])
        let manifest = try await ImageManifest.reading(source)
        #expect(manifest.imageIDs == ["turned.jpg", "notes.txt", "wide.jpg"])
        #expect(manifest.entries[0].header == ImageHeader(format: .jpeg, storedWidth: 30, storedHeight: 50, orientation: .right))
        #expect(manifest.entries[1].header == nil)
        #expect(manifest.entries[2].header?.width == 64)
        // Written and read back, it states the same: the shown size, turned back by its orientation.
        #expect(try ImageManifest(json: manifest.json()) == manifest)
        let text = String(decoding: manifest.json(), as: UTF8.self)
        #expect(text.contains(#""height" : 30"#) && text.contains(#""orientation" : 6"#), "\(text)")
        let empty = try await ImageManifest.reading(InMemoryImageSource(images: []))
        #expect(empty.entries.isEmpty)
        #expect(try ImageManifest(json: empty.json()).entries.isEmpty)
    }

    @Test func randomManifestsRoundTripTheirSizes() throws {
        var random = SplitMix64(seed: 15)
        for _ in 0..<200 {
            var expected: [(String, Int, Int, Int)] = []
            var elements: [String] = []
            for index in 0..<Int.random(in: 0...40, using: &random) {
                let name = "photo-\(index).\(Bool.random(using: &random) ? "jpg" : "png")"
                let width = Int.random(in: 1...70_000, using: &random)
                let height = Int.random(in: 1...70_000, using: &random)
                let orientation = Int.random(in: 1...8, using: &random)
                expected.append((name, width, height, orientation))
                elements.append(#"{"name": "\#(name)", "width": \#(width), "height": \#(height), "orientation": \#(orientation)}"#)
            }
            let manifest = try ImageManifest(json: Data("[\(elements.joined(separator: ","))]".utf8))
            #expect(manifest.entries.count == expected.count)
            #expect(try ImageManifest(json: manifest.json()) == manifest)
            for (entry, (name, width, height, orientation)) in zip(manifest.entries, expected) {
                let header = try #require(entry.header)
                #expect(entry.id.rawValue == name && header.width == width && header.height == height)
                #expect(header.orientation.rawValue == orientation)
                #expect(header.format == (name.hasSuffix("jpg") ? .jpeg : .png))
            }
        }
    }

    /// The one-pass reader against Foundation's `JSONSerialization` as the
    /// oracle: random manifests with escapes, non-ASCII names, nested
    /// values and keys to skip, numbers in every spelling, written by
    /// `JSONSerialization` (so the bytes are valid JSON), must give the
    /// entries the oracle's tree implies.
    @Test func theOnePassReaderAgreesWithJSONSerialization() throws {
        var rng = SplitMix64(seed: 50)
        let pieces = ["a", "é", "\\", "\"", "/", "\n", "\u{1F600}", " ", "x.jpg", ".png", "\u{7F}", "日本"]
        func name() -> String {
            (0..<Int.random(in: 0...5, using: &rng)).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &rng)] }.joined()
        }
        func number() -> Any {
            switch Int.random(in: 0..<6, using: &rng) {
            case 0: return Int.random(in: -5...5_000, using: &rng)
            case 1: return Double(Int.random(in: 1...5_000, using: &rng)) + 0.5
            case 2: return 1e300
            case 3: return "4032"
            case 4: return [1, [2, ["deep": [3]]]] as [Any]
            default: return NSNull()
            }
        }
        for _ in 0..<300 {
            var list: [Any] = []
            for _ in 0..<Int.random(in: 0...30, using: &rng) {
                switch Int.random(in: 0..<5, using: &rng) {
                case 0: list.append(name())
                case 1: list.append(number())
                default:
                    var object: [String: Any] = ["extra": ["nested": [name(), ["k": number()]]]]
                    if Bool.random(using: &rng) { object["name"] = name() }
                    if Bool.random(using: &rng) { object["width"] = number() }
                    if Bool.random(using: &rng) { object["height"] = number() }
                    if Bool.random(using: &rng) { object["orientation"] = Int.random(in: 0...9, using: &rng) }
                    if Bool.random(using: &rng) { object["format"] = ["png", "jpeg", "gif", 7][Int.random(in: 0..<4, using: &rng)] }
                    list.append(object)
                }
            }
            let root: Any = Bool.random(using: &rng) ? list : ["before": [1, 2], "images": list, "after": "x"]
            let data = try JSONSerialization.data(withJSONObject: root)
            let manifest = try ImageManifest(json: data)
            // The oracle: Foundation's tree, read by the manifest's rules.
            var expected: [ImageID] = [], seen: Set<String> = []
            let parsed = try JSONSerialization.jsonObject(with: data)
            let elements = (parsed as? [Any]) ?? ((parsed as? [String: Any])?["images"] as? [Any]) ?? []
            for element in elements {
                let entryName = (element as? String) ?? ((element as? [String: Any])?["name"] as? String)
                guard let entryName, !entryName.isEmpty, seen.insert(entryName).inserted else { continue }
                expected.append(ImageID(entryName))
            }
            #expect(manifest.imageIDs == expected, "\(String(decoding: data, as: UTF8.self))")
            for entry in manifest.entries {
                guard let header = entry.header else { continue }
                #expect(header.width >= 1 && header.height >= 1 && header.width <= ImageManifest.maximumSide)
            }
        }
    }

    @Test func deepNestingAndTruncationAreErrorsNotCrashes() throws {
        let deep = "{\"skip\": " + String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000) + ", \"images\": [\"a.jpg\"]}"
        #expect(try ImageManifest(json: Data(deep.utf8)).imageIDs == ["a.jpg"])
        let open = String(repeating: "[", count: 200_000)
        #expect(throws: ImageManifest.ParseError.self) { try ImageManifest(json: Data(open.utf8)) }
        let text = "{\"images\": [{\"name\": \"a\\u00e9.jpg\", \"width\": 4, \"height\": 3}, \"b\\ud83d\\ude00.jpg\"]}"
        let manifest = try? ImageManifest(json: Data(text.utf8))
        #expect(manifest?.imageIDs == ["aé.jpg", "b😀.jpg"])
        for cut in stride(from: 1, to: text.utf8.count, by: 3) {
            #expect(throws: ImageManifest.ParseError.self, "\(cut)") { try ImageManifest(json: Data(text.utf8.prefix(cut))) }
        }
    }
}
