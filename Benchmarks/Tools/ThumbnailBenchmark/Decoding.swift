import Foundation
import ParallaxImages

/// The two thumbnails measured: the whole picture inside 400 × 400, and
/// 400 × 400 with the centre cropped to a square.
enum ThumbnailMode: String, CaseIterable {
    case fit, fill

    static let side = 400
    var title: String { self == .fit ? "Fit in \(Self.side) px" : "Fill \(Self.side) × \(Self.side)" }
    /// The size handed to `CodecImageDecoder.thumbnail(from:size:)` (400 × 400 is always valid).
    var size: ThumbnailSize { try! ThumbnailSize(width: Self.side, height: Self.side, mode: self == .fit ? .fit : .fill) }
}

/// The decoders compared.
enum DecoderPath: String {
    /// `CodecImageDecoder()`: DCT-scaled JPEG decode, progressive scans cut short.
    case parallaxKit = "ParallaxKit"
    /// `CodecImageDecoder(options: .reference)`: full decode of every scan, then resize.
    case reference
    /// The fast path with smooth ("fancy") chroma upsampling, in process only:
    /// the figures behind leaving it off by default.
    case smoothChroma = "smooth chroma"

    var decoder: CodecImageDecoder {
        switch self {
        case .parallaxKit: CodecImageDecoder()
        case .reference: CodecImageDecoder(options: .reference)
        case .smoothChroma: CodecImageDecoder(options: DecodingOptions(usesSmoothUpsampling: true))
        }
    }

    /// The hidden flag that makes this executable a ``ChildWorkload`` with this decoder.
    var childFlag: String { self == .reference ? "--child-reference" : "--child" }

    /// The median time of `runs` thumbnail calls on `data` (the call alone), ms, and the first call's thumbnail.
    func time(_ data: Data, of photo: Photo, mode: ThumbnailMode, runs: Int) throws(Failure) -> (milliseconds: Double, image: PixelImage) {
        let clock = ContinuousClock()
        var times: [Double] = [], image: PixelImage?
        for _ in 0..<max(runs, 1) {
            let start = clock.now
            do {
                let thumbnail = try decoder.thumbnail(from: data, size: mode.size)
                times.append((clock.now - start).milliseconds)
                image = image ?? thumbnail.image
            } catch {
                throw Failure("\(photo.file): the \(rawValue) decode failed: \(error)")
            }
        }
        return (median(times), image!)
    }
}

/// The work of one measured child process (`--child MODE FILE…`): read each
/// file and make its thumbnail once, as `vipsthumbnail` does with the files
/// it is given. Nothing is printed unless a file fails: then
/// "thumbnail-benchmark: FILE: ERROR" on standard error (bench-hostile.py
/// reports the ERROR) and exit status 1.
enum ChildWorkload {
    static func run(_ path: DecoderPath, _ arguments: ArraySlice<String>) -> Int32 {
        guard let mode = arguments.first.flatMap(ThumbnailMode.init(rawValue:)) else {
            progress("thumbnail-benchmark: \(path.childFlag) needs fit or fill, then files")
            return 2
        }
        var producedBytes = 0
        for file in arguments.dropFirst() {
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: file))
                producedBytes &+= try path.decoder.thumbnail(from: data, size: mode.size).image.byteCount
            } catch {
                progress("thumbnail-benchmark: \(file): \(error)")
                return 1
            }
        }
        // Uses the result, so no optimiser can decide the work is unobservable.
        return producedBytes == 0 && arguments.count > 1 ? 1 : 0
    }
}

/// One photo's in-process figures in one mode: for each decoder the median
/// of `runs` thumbnail calls on the file's bytes already in memory (the call
/// alone is timed), and the PSNR of its thumbnail against the reference's.
struct PhotoTiming {
    var photo: Photo
    var parallaxKitMilliseconds, referenceMilliseconds, smoothChromaMilliseconds: Double
    /// dB; `+∞` when the thumbnail is the reference's, pixel for pixel.
    var psnr, smoothChromaPSNR: Double

    /// - Throws: when a decode fails or the thumbnails differ in size: a set that cannot be read is no result.
    static func measure(_ photo: Photo, data: Data, mode: ThumbnailMode, runs: Int) throws(Failure) -> PhotoTiming {
        let (ours, reference, smooth) = (try DecoderPath.parallaxKit.time(data, of: photo, mode: mode, runs: runs),
                                         try DecoderPath.reference.time(data, of: photo, mode: mode, runs: runs),
                                         try DecoderPath.smoothChroma.time(data, of: photo, mode: mode, runs: runs))
        guard let psnr = Self.psnr(ours.image, reference.image), let smoothPSNR = Self.psnr(smooth.image, reference.image) else {
            throw Failure("\(photo.file): ParallaxKit made a \(ours.image.width) × \(ours.image.height) thumbnail, "
                          + "the reference \(reference.image.width) × \(reference.image.height)")
        }
        return PhotoTiming(photo: photo, parallaxKitMilliseconds: ours.milliseconds, referenceMilliseconds: reference.milliseconds,
                           smoothChromaMilliseconds: smooth.milliseconds, psnr: psnr, smoothChromaPSNR: smoothPSNR)
    }

    /// PSNR over R, G and B at 8 bits, `10 · log10(255² / MSE)` (the photos are
    /// opaque, so premultiplied RGBA is plain RGB); `nil` for different sizes.
    static func psnr(_ image: PixelImage, _ reference: PixelImage) -> Double? {
        guard image.width == reference.width, image.height == reference.height else { return nil }
        var squaredError = 0
        for index in image.pixels.indices where index % 4 != 3 {
            let difference = Int(image.pixels[index]) - Int(reference.pixels[index])
            squaredError += difference * difference
        }
        return squaredError == 0 ? .infinity : 10 * log10(255 * 255 * Double(image.pixels.count / 4 * 3) / Double(squaredError))
    }
}
