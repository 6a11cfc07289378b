#if os(Linux)
import Foundation
import ParallaxImages

/// A photo with its file already in memory.
struct LoadedPhoto: Sendable {
    var photo: Photo
    var data: Data
}

/// One photo's in-process figures for one mode.
struct PhotoTiming: Sendable {
    var photo: Photo
    /// Median over the runs of `CodecImageDecoder().thumbnail(from:size:)`.
    var parallaxKit: Duration
    /// Median over the runs of the reference decode (full decode + resize).
    var reference: Duration
    /// PSNR of ParallaxKit's thumbnail against the reference's, dB (`+∞` if identical).
    var psnr: Double
    /// The same two figures for the fast path with smooth chroma upsampling.
    var smoothChroma: Duration
    var smoothChromaPSNR: Double
}

/// Times the two decode paths call by call, inside this process: the
/// thumbnail call alone, the file's bytes already in memory.
enum InProcessBenchmark {
    /// Every photo of `photos`, both paths `runs` times each, in `mode`.
    /// - Throws: ``BenchmarkError/decode(_:)`` if either path fails on a
    ///   photo or the two thumbnails differ in size: a set that cannot be
    ///   read is not a benchmark result.
    static func measure(_ photos: [LoadedPhoto], mode: BenchmarkMode, runs: Int,
                        progress: (Int, PhotoTiming) -> Void) throws(BenchmarkError) -> [PhotoTiming] {
        var timings: [PhotoTiming] = []
        for (index, loaded) in photos.enumerated() {
            let ours = try time(.parallaxKit, loaded, mode: mode, runs: runs)
            let reference = try time(.reference, loaded, mode: mode, runs: runs)
            let smooth = try time(.smoothChroma, loaded, mode: mode, runs: runs)
            guard let psnr = ImageComparison.psnr(ours.image, reference: reference.image),
                  let smoothPSNR = ImageComparison.psnr(smooth.image, reference: reference.image) else {
                throw .decode("\(loaded.photo.file): ParallaxKit made a \(ours.image.width) × \(ours.image.height) "
                              + "thumbnail, the reference \(reference.image.width) × \(reference.image.height)")
            }
            let timing = PhotoTiming(photo: loaded.photo, parallaxKit: ours.median, reference: reference.median, psnr: psnr,
                                     smoothChroma: smooth.median, smoothChromaPSNR: smoothPSNR)
            timings.append(timing)
            progress(index, timing)
        }
        return timings
    }

    /// The median time of `runs` thumbnail calls and the first call's image.
    private static func time(_ path: DecoderPath, _ loaded: LoadedPhoto, mode: BenchmarkMode,
                             runs: Int) throws(BenchmarkError) -> (median: Duration, image: PixelImage) {
        let decoder = path.decoder
        let size = mode.size
        let clock = ContinuousClock()
        var durations: [Duration] = []
        var first: PixelImage?
        for _ in 0..<max(runs, 1) {
            let start = clock.now
            let thumbnail: DecodedThumbnail
            do {
                thumbnail = try decoder.thumbnail(from: loaded.data, size: size)
            } catch {
                throw .decode("\(loaded.photo.file): the \(path == .reference ? "reference" : "ParallaxKit") "
                              + "decode failed: \(error)")
            }
            durations.append(clock.now - start)
            if first == nil { first = thumbnail.image }
        }
        // `first` is set: the loop ran at least once.
        return (Statistics.median(durations), first!)
    }
}
#endif
