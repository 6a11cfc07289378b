// ParallaxKit's thin C layer over libjpeg(-turbo) and libpng.
//
// libjpeg reports errors by longjmp, which Swift cannot survive, and some of
// libjpeg's and libpng's constants are function-like macros Swift cannot
// import. Everything that needs setjmp lives here; everything else (sizes,
// crops, resampling, caching, policy) lives in Swift.
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
pk_status pk_png_decode_rows(const uint8_t *data, size_t size, size_t max_memory, pk_row_sink sink, void *context,
                             size_t *peak_memory, char *message, size_t message_capacity);

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
