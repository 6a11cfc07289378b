import Foundation
import ParallaxImages

/// Where the gallery keeps thumbnails between launches, as Nuke, Kingfisher
/// and SDWebImage do by default: a second launch over the same photos shows
/// them from disk instead of decoding every one again.
///
/// The folder follows the XDG base directory specification
/// (`$XDG_CACHE_HOME/parallax-gallery`, `~/.cache/parallax-gallery` when
/// unset). Each entry is keyed by the photo's fingerprint (its size,
/// modification time and inode; a server's `ETag` or `Last-Modified`), so
/// an edited photo is decoded again, not shown stale.
///
/// Not the freedesktop.org shared thumbnail store (`~/.cache/thumbnails`):
/// its thumbnails are PNGs fitted into 128 to 1024 px boxes, named by file
/// URI, while the gallery needs exact, cropped sizes per layout; reading a
/// 512 px PNG and resampling it costs about 19 times what reading one of
/// these entries does, in 33 times the bytes (BENCHMARKS.md, "Disk cache
/// entry formats").
package enum GalleryCache {
    /// The default folder: `$XDG_CACHE_HOME/parallax-gallery`, or
    /// `~/.cache/parallax-gallery` when `XDG_CACHE_HOME` is unset, empty or
    /// not absolute (as the specification asks); `nil` without a home.
    package static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        if let base = environment["XDG_CACHE_HOME"], base.hasPrefix("/") {
            return URL(fileURLWithPath: base).appendingPathComponent("parallax-gallery")
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return URL(fileURLWithPath: home).appendingPathComponent(".cache/parallax-gallery")
    }

    /// The size limit: 150 MB, which holds about 20,000 grid thumbnails at
    /// the window's default size (a JPEG entry is about 7 KB; BENCHMARKS.md).
    package static let sizeLimit = 150 * 1_048_576

    /// Opens the cache in `directory`, or says why it cannot be used (the
    /// gallery then runs without one: photos still show, they are just not
    /// kept).
    package static func open(_ directory: URL) -> Result<DiskImageCache, DiskImageCache.CacheError> {
        do throws(DiskImageCache.CacheError) {
            return .success(try DiskImageCache(directory: directory, sizeLimit: sizeLimit))
        } catch {
            return .failure(error)
        }
    }
}
