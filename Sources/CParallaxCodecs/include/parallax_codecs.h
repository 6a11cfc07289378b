// ParallaxKit's thin C layer over libjpeg(-turbo), libpng, libwebp, libheif
// and libavif.
//
// libjpeg reports errors by longjmp, which Swift cannot survive, and some of
// libjpeg's and libpng's constants are function-like macros Swift cannot
// import. Everything that needs setjmp lives here; everything else (sizes,
// crops, resampling, caching, policy) lives in Swift. The WebP, HEIF and
// AVIF functions are here for the same reason the others are: each codec's
// structs, option versions and status codes stay on this side, and Swift
// sees one shape (an info struct, a row sink, a pk_status) for all five.
//
// All functions are reentrant: no globals, one decoder state per call.
#ifndef PARALLAX_CODECS_H
#define PARALLAX_CODECS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Why a call failed (0 = success).
typedef enum {
    PK_OK = 0,
    PK_ERROR_CORRUPT = 1,      ///< the codec rejected the data
    PK_ERROR_TRUNCATED = 2,    ///< the data ended before the image did
    PK_ERROR_UNSUPPORTED = 3,  ///< a valid file this layer cannot decode
    PK_ERROR_NO_MEMORY = 4,
    PK_ERROR_ARGUMENT = 5,     ///< a caller mistake (null pointer, bad scale, small buffer)
} pk_status;

/// Receives decoded pixels, one row (or, for an interlaced PNG, one Adam7
/// pass row) at a time: `count` premultiplied RGBA8 pixels of image row `y`,
/// at columns `x0`, `x0 + dx`, `x0 + 2·dx`, …. Rows of a JPEG or of a
/// non-interlaced PNG arrive top to bottom with `x0 = 0`, `dx = 1` and
/// `count` = the width. The pointer is valid during the call only.
/// Returning non-zero stops the decode early (the rows still wanted have
/// all arrived); the decode then reports success.
typedef int (*pk_row_sink)(void *context, int y, int x0, int dx, int count, const uint8_t *rgba);

/// What a JPEG's header says.
typedef struct {
    int width;
    int height;
    int components;
    int is_progressive;
    /// Arithmetic entropy coding (SOF9–SOF11), which can code a block in
    /// far less than a bit, so no size bound follows from the file's length.
    int is_arithmetic;
    /// The bytes libjpeg needs for whole-image coefficient buffers
    /// (progressive and other multi-scan files; 0 for single-scan files):
    /// 128 bytes per 8 × 8 block of every component, whatever the output scale.
    size_t coefficient_bytes;
    /// An upper estimate of libjpeg's other working memory for a decode at
    /// full scale: its MCU-row and sample buffers.
    size_t buffer_bytes;
    /// Whether pk_jpeg_decode_dc_rows may read the file: progressive and
    /// Huffman-coded, 8-bit grey or YCbCr.
    int dc_decodable;
    /// The bytes pk_jpeg_decode_dc_rows keeps: 2 per 8 × 8 block of every
    /// component.
    size_t dc_bytes;
} pk_jpeg_info;

/// Reads a JPEG's header only (no pixel is decoded, nothing large is allocated).
pk_status pk_jpeg_read_info(const uint8_t *data, size_t size, pk_jpeg_info *info,
                            char *message, size_t message_capacity);

/// Decodes a JPEG at scale 1/`scale_denominator` (1, 2, 4 or 8), handing
/// each opaque RGBA8 scanline of `output_width` pixels (as returned by
/// pk_jpeg_scaled_size) to `sink`. Only one scanline exists at a time.
///
/// For progressive files, `max_missing_bits` >= 0 stops reading scans as
/// soon as every DCT coefficient the scaled output uses has arrived with at
/// most that many low-order bits still missing (buffered-image mode). At
/// scale 1/8 only the DC coefficient is used, so a thumbnail is complete
/// after the first DC scan. -1 always reads the whole file. A file with
/// more than `max_scans` scans fails as corrupt (no real encoder writes
/// more than a few dozen; thousands of tiny scans only burn time).
/// `smooth_upsampling` non-zero interpolates subsampled chroma (as djpeg and
/// browsers do) instead of replicating it.
/// `max_memory` bounds libjpeg's whole-image buffers; over it the decode
/// fails with PK_ERROR_NO_MEMORY before they are allocated.
/// `scans_used` (may be NULL) receives the number of scans decoded;
/// `damaged` (may be NULL) is set to 1 if the entropy-coded data ended early
/// at a marker ("premature end of data segment": a file cut short and
/// closed with an end-of-image marker), in which case the rest of the image
/// is grey and `message` says so.
pk_status pk_jpeg_decode_rows(const uint8_t *data, size_t size, int scale_denominator, int max_missing_bits,
                              int max_scans, int output_width, int output_height, int smooth_upsampling,
                              size_t max_memory, pk_row_sink sink, void *context,
                              int *scans_used, int *damaged, char *message, size_t message_capacity);

/// pk_jpeg_decode_rows for a region of the scaled output: the columns
/// `crop_x ..< crop_x + crop_width` (0 width: every column) of the rows from
/// `first_row` on, in output pixels. libjpeg-turbo decodes only the iMCU
/// columns around the region (`jpeg_crop_scanline`, which widens it to their
/// boundaries: the rows handed to `sink` start at the widened `x0`) and
/// skips the rows above it (`jpeg_skip_scanlines`); the sink stops the decode
/// after the region's last row. `output_width × output_height` is still the
/// whole scaled picture's size. What a zoomed-in detail view decodes.
pk_status pk_jpeg_decode_region_rows(const uint8_t *data, size_t size, int scale_denominator, int max_missing_bits,
                                     int max_scans, int output_width, int output_height, int smooth_upsampling,
                                     size_t max_memory, int crop_x, int crop_width, int first_row,
                                     pk_row_sink sink, void *context,
                                     int *scans_used, int *damaged, char *message, size_t message_capacity);

/// Decodes a progressive JPEG at scale 1/8 from its DC coefficients alone
/// (2 bytes a block, where libjpeg keeps 128 for every block of the image),
/// handing opaque RGBA8 rows of `output_width` to `sink` as
/// pk_jpeg_decode_rows does, with the same pixels as libjpeg's 1/8-scale
/// decode of the same scans, within rounding. It reads scans until every
/// component's DC has at most `max_missing_bits` low-order bits missing.
/// Returns PK_ERROR_UNSUPPORTED, before any row is handed over, for any file
/// it does not read exactly as libjpeg would (not progressive, arithmetic
/// coding, 12-bit, CMYK or RGB, damaged or truncated scans, unusual
/// progressions): decode those with pk_jpeg_decode_rows, which also says
/// what is wrong with a broken file.
pk_status pk_jpeg_decode_dc_rows(const uint8_t *data, size_t size, int max_missing_bits, int max_scans,
                                 int output_width, int output_height, pk_row_sink sink, void *context, int *scans_used);

/// The output size libjpeg gives for a scale of 1/`scale_denominator`.
void pk_jpeg_scaled_size(int width, int height, int scale_denominator, int *output_width, int *output_height);

/// What a PNG's header says.
typedef struct {
    int width;
    int height;
    int bit_depth;
    int color_type;
    int is_interlaced;
} pk_png_info;

/// Reads a PNG's header only.
pk_status pk_png_read_info(const uint8_t *data, size_t size, pk_png_info *info,
                           char *message, size_t message_capacity);

/// Decodes a PNG, handing premultiplied RGBA8 rows (Adam7 pass rows for an
/// interlaced file, deinterlaced by the sink, never by libpng) to `sink`.
///
/// Pixels are taken as stored: no gamma, chromaticity or ICC profile is
/// applied (those chunks are skipped unread, as are text, eXIf and other
/// ancillary chunks the decoder has no use for); 16-bit samples keep their
/// high byte; tRNS becomes alpha. Every allocation libpng and zlib make
/// goes through a counter: past `max_memory` bytes the decode fails with
/// PK_ERROR_NO_MEMORY. `peak_memory` (may be NULL) receives the most bytes
/// they held at once.
///
/// An 8-bit RGB or RGBA file, not interlaced, without tRNS or a palette
/// (photos, screenshots), is decoded by ``pk_png_streamed_rows`` instead
/// (the same pixels, about 2.5 times as fast). libpng takes every other
/// file, and any such file with a flaw found before its first row.
pk_status pk_png_decode_rows(const uint8_t *data, size_t size, size_t max_memory, pk_row_sink sink, void *context,
                             size_t *peak_memory, char *message, size_t message_capacity);

/// ``pk_png_decode_rows`` through libpng's rows alone, whatever the file.
pk_status pk_png_stream_rows(const uint8_t *data, size_t size, size_t max_memory, pk_row_sink sink, void *context,
                             size_t *peak_memory, char *message, size_t message_capacity);

/// ``pk_png_decode_rows``'s own path for photos and screenshots, decoded a
/// few rows at a time: ISA-L inflates a 64 KB block of rows and they are
/// unfiltered here, not by libpng (about 2.5 times as fast as libpng's
/// rows, in memory that depends on the row, not the image).
/// PK_ERROR_UNSUPPORTED, before any row is handed over, for a
/// file it leaves to libpng, one whose memory (``pk_png_streamed_bytes``)
/// is over `max_memory`, and one whose image data is flawed before its
/// first row; a flaw after that ends the decode with the status libpng
/// would give it (PK_ERROR_TRUNCATED or PK_ERROR_CORRUPT).
pk_status pk_png_streamed_rows(const uint8_t *data, size_t size, size_t max_memory, pk_row_sink sink, void *context,
                               size_t *peak_memory);

/// The bytes ``pk_png_streamed_rows`` holds for the file (a block of rows
/// and the row above it, an RGBA row and ISA-L's state), or 0 for a file it
/// leaves to libpng.
size_t pk_png_streamed_bytes(const uint8_t *data, size_t size);

/// Premultiplies `count` straight RGBA8 pixels in place, rounding to nearest.
void pk_png_premultiply(uint8_t *pixels, int count);

/// What a WebP's header says (VP8, VP8L or VP8X).
typedef struct {
    int width;
    int height;
    int has_alpha;
    int has_animation;
    /// 1 for VP8L (lossless), 0 for VP8 (lossy), 2 for a mix (animation frames).
    int format;
} pk_webp_info;

/// Reads a WebP's header only.
pk_status pk_webp_read_info(const uint8_t *data, size_t size, pk_webp_info *info,
                            char *message, size_t message_capacity);

/// Decodes a still WebP (lossy, lossless, with or without alpha) with
/// libwebp's scaler: the region `crop_x, crop_y, crop_width × crop_height`
/// of the picture (the whole picture when `crop_width` is 0; libwebp rounds
/// `crop_x` and `crop_y` down to even, so pass them even) resampled by
/// libwebp straight to `output_width × output_height` as it decodes, then
/// handed to `sink` as premultiplied RGBA8 rows, top to bottom. The output
/// buffer (`output_width · output_height · 4` bytes) is the only one this
/// layer allocates; libwebp's own are a few rows for lossy data, plus the
/// full picture at 1 byte a pixel for alpha and 4 for lossless data.
/// An animated WebP gives its first frame, composed on its canvas by
/// libwebpdemux at full size (cropping and scaling are then left to the sink's
/// resampler: `output_width × output_height` must be the canvas size).
pk_status pk_webp_decode_rows(const uint8_t *data, size_t size, int crop_x, int crop_y, int crop_width,
                              int crop_height, int output_width, int output_height, pk_row_sink sink,
                              void *context, char *message, size_t message_capacity);

/// The most thumbnail items pk_heif_info lists.
#define PK_HEIF_MAX_THUMBNAILS 4

/// What a HEIF's primary image says, after libheif's transformations
/// (a 90° `irot` swaps width and height; `clap` crops).
typedef struct {
    int width;
    int height;
    int has_alpha;
    /// Bits per luma sample (8, 10, 12).
    int bit_depth;
    /// The primary image's thumbnail items (up to PK_HEIF_MAX_THUMBNAILS), by size.
    int thumbnail_count;
    int thumbnail_width[PK_HEIF_MAX_THUMBNAILS];
    int thumbnail_height[PK_HEIF_MAX_THUMBNAILS];
} pk_heif_info;

/// Reads a HEIF's boxes (no pixel is decoded). `max_dimension` is handed to
/// libheif as its image size limit: a wider or taller image (or grid) fails
/// as PK_ERROR_UNSUPPORTED ("security limit exceeded") before libheif
/// allocates it.
pk_status pk_heif_read_info(const uint8_t *data, size_t size, int max_dimension, pk_heif_info *info,
                            char *message, size_t message_capacity);

/// Decodes the primary image (`thumbnail_index` -1) or one of its thumbnail
/// items (0 … thumbnail_count - 1) with libheif, which applies `irot`,
/// `imir` and `clap` and assembles grid images, on the calling thread. Deeper
/// samples are reduced to 8 bits by libheif; alpha is premultiplied. Rows go
/// to `sink` top to bottom; the image must be `expected_width ×
/// expected_height` (its header's size) or the decode fails as corrupt.
/// libheif holds the whole picture at once: its YCbCr planes and the RGBA8
/// conversion (about 5.5 bytes a pixel at 8 bits, 7 at 10).
pk_status pk_heif_decode_rows(const uint8_t *data, size_t size, int max_dimension, int thumbnail_index,
                              int expected_width, int expected_height, pk_row_sink sink, void *context,
                              char *message, size_t message_capacity);

/// What an AVIF's header says, before any transformation.
typedef struct {
    /// The stored size (before `irot`).
    int width;
    int height;
    /// Bits per sample (8, 10, 12).
    int depth;
    int has_alpha;
    /// The `irot` and `imir` properties as an EXIF orientation (1–8).
    int orientation;
} pk_avif_info;

/// Reads an AVIF's boxes (no pixel is decoded), with libavif's default
/// size limit (16384 × 16384 pixels), so the caller can check its own,
/// smaller limit and say so; `max_pixels` is for pk_avif_decode_rows, which
/// sets libavif's limit to it.
pk_status pk_avif_read_info(const uint8_t *data, size_t size, uint32_t max_pixels, pk_avif_info *info,
                            char *message, size_t message_capacity);

/// Decodes an AVIF's first image with libavif (one thread), converting to
/// premultiplied RGBA8 (10- and 12-bit samples reduced by libavif), and hands
/// its rows, as stored (no `irot`/`imir`: the caller turns the thumbnail),
/// to `sink`. The image must be `expected_width × expected_height`.
/// libavif holds the whole picture at once: the AV1 decoder's frame and the
/// RGBA8 conversion.
pk_status pk_avif_decode_rows(const uint8_t *data, size_t size, uint32_t max_pixels, int expected_width,
                              int expected_height, pk_row_sink sink, void *context,
                              char *message, size_t message_capacity);

/// Encodes RGB8 (3 bytes per pixel) as JPEG at `quality` (1–100),
/// progressive or baseline, with an optional APP1 (Exif) payload.
/// The result is malloc'ed; release it with pk_free.
pk_status pk_jpeg_encode_rgb(const uint8_t *rgb, int width, int height, int quality, int progressive,
                             const uint8_t *app1, size_t app1_size, uint8_t **output, size_t *output_size);

/// Encodes straight (not premultiplied) RGBA8 as PNG. Release with pk_free.
pk_status pk_png_encode_rgba(const uint8_t *rgba, int width, int height, uint8_t **output, size_t *output_size);

void pk_free(void *pointer);

#ifdef __cplusplus
}
#endif

#endif
