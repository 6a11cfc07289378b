#if canImport(CParallaxCodecs)
import Foundation
import Testing
@testable import ParallaxImages

@Suite("CameraDescription: the camera and lens a photo's EXIF names")
struct CameraDescriptionTests {
    /// An APP1 payload: "Exif\0\0", a big-endian TIFF header, IFD0 with Make, Model and the Exif IFD
    /// pointer, and the Exif IFD with LensMake and LensModel (each text stored after the IFDs).
    static func exif(make: String, model: String, lensMake: String, lensModel: String) -> [UInt8] {
        var tiff: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8]
        func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v >> 16) + u16(v & 0xFFFF) }
        let ifd0 = 8, ifd0Size = 2 + 3 * 12 + 4
        let exifIFD = ifd0 + ifd0Size, exifSize = 2 + 2 * 12 + 4
        var textOffset = exifIFD + exifSize
        var texts: [UInt8] = []
        func ascii(_ tag: Int, _ text: String) -> [UInt8] {
            let bytes = Array(text.utf8) + [0]
            defer { texts += bytes; textOffset += bytes.count }
            return u16(tag) + u16(2) + u32(bytes.count) + u32(textOffset)
        }
        tiff += u16(3) + ascii(0x010F, make) + ascii(0x0110, model) + u16(0x8769) + u16(4) + u32(1) + u32(exifIFD) + u32(0)
        tiff += u16(2) + ascii(0xA433, lensMake) + ascii(0xA434, lensModel) + u32(0)
        return Array("Exif".utf8) + [0, 0] + tiff + texts
    }

    @Test("make, model and lens are read from a JPEG's Exif segment, padding trimmed, and named as people say them")
    func readsTheFields() {
        let payload = Self.exif(make: "NIKON CORPORATION", model: "NIKON Z 6  ", lensMake: "NIKON", lensModel: "NIKKOR Z 24-70mm f/4 S")
        let jpeg = TestImages.jpeg(width: 16, height: 16, exif: payload) { _, _ in (10, 20, 30) }
        var reader = CaptureDateReader(format: .jpeg, firstBytes: jpeg, fileLength: jpeg.count)
        _ = reader.read()
        let camera = reader.camera
        #expect(camera == CameraDescription(make: "NIKON CORPORATION", model: "NIKON Z 6", lensMake: "NIKON",
                                            lensModel: "NIKKOR Z 24-70mm f/4 S"))
        #expect(camera?.cameraName == "NIKON Z 6")
        #expect(camera?.lensName == "NIKON NIKKOR Z 24-70mm f/4 S")
        #expect(CameraDescription(make: "Canon", model: "Canon EOS R5").cameraName == "Canon EOS R5")
        #expect(CameraDescription(make: "FUJIFILM", model: "X-T4").cameraName == "FUJIFILM X-T4")
        #expect(CameraDescription(make: "Apple", model: nil).cameraName == "Apple")
        #expect(CameraDescription(lensModel: "iPhone 15 Pro back camera").lensName == "iPhone 15 Pro back camera")
        #expect(CameraDescription().isEmpty && CameraDescription().cameraName == nil)
        // No EXIF at all: nothing named.
        let plain = TestImages.jpeg(width: 8, height: 8) { _, _ in (0, 0, 0) }
        var none = CaptureDateReader(format: .jpeg, firstBytes: plain)
        _ = none.read()
        #expect(none.camera == nil)
    }

    @Test("on the real photos, every camera and lens named is the one exiftool reads")
    func againstExiftool() throws {
        let folder = TestData.folder(environment: "PARALLAX_PHOTOS", named: "photos")
        let tool = "/usr/bin/exiftool"
        guard FileManager.default.isExecutableFile(atPath: tool),
              let files = try? FileManager.default.contentsOfDirectory(atPath: folder.path).filter({ $0.hasSuffix(".jpg") }),
              !files.isEmpty else {
            Issue.record("exiftool and the real photos are needed (make test fetches both)")
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["-j", "-G1", "-q", "-IFD0:Make", "-IFD0:Model", "-ExifIFD:LensModel", "-ext", "jpg", folder.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let list = try #require(try JSONSerialization.jsonObject(with: output) as? [[String: Any]])
        var named = 0
        for entry in list {
            guard let path = entry["SourceFile"] as? String else { continue }
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            var reader = CaptureDateReader(format: .jpeg, firstBytes: data.prefix(65_536), fileLength: data.count)
            _ = reader.read()
            let trim = { (value: Any?) in value.map { "\($0)".trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 } }
            #expect(reader.camera?.make == trim(entry["IFD0:Make"]), "\(path)")
            #expect(reader.camera?.model == trim(entry["IFD0:Model"]), "\(path)")
            #expect(reader.camera?.lensModel == trim(entry["ExifIFD:LensModel"]), "\(path)")
            if reader.camera?.model != nil { named += 1 }
        }
        #expect(named >= 10, "\(named) cameras named")
    }
}
#endif
