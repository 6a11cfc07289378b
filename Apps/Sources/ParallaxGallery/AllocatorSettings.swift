#if canImport(CGlibcMalloc)
import CGlibcMalloc
#endif

/// How the gallery asks glibc's allocator to behave, set once at launch.
///
/// glibc gives threads their own malloc arenas, up to eight per core, and
/// each keeps the memory freed in it. Decodes run on several threads and
/// free buffers of megabytes (a progressive JPEG's coefficients, a row of a
/// large photo), so after a few minutes of scrolling 240–380 MiB of a
/// 3,000-photo session was memory freed and kept (`parallax-gallery memory`,
/// 8 cycles). Two arenas kept 120–135 MiB, the peak fell from 600–620 to
/// 530–545 MiB, and a jump's full screen took as long (median 450–480 ms
/// against 430–530). A fixed mmap threshold (8 MiB) kept less still (peak
/// 320 MiB in the session benchmark) but doubled the time to a full screen
/// after a jump (1.15 s against 0.4–0.57 s: every large buffer is mapped and
/// faulted in anew), so it is not set. Measured again once progressive JPEGs
/// at 1/8 scale no longer had coefficient buffers and fetched photos
/// waiting for a decode were bounded: a 256 KiB threshold kept the peak at
/// 415 MiB against 444 (20 cycles), but jumps still filled 100–300 ms later
/// and a fast fling over HTTP showed 5.8 % blank tiles against 2.1 %
/// (`parallax-gallery session`), so it is still not set; the loader's trims
/// while busy (`decodesBetweenMemoryReturns`) keep growth flat instead.
package enum AllocatorSettings {
    /// The arenas the gallery's threads share.
    package static let arenaCount: Int32 = 2

    /// Applies the settings; call first thing in `main`, before threads start.
    package static func apply() {
        #if canImport(CGlibcMalloc)
        _ = pk_malloc_limit_arenas(arenaCount)
        #endif
    }
}
