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

/// What a JPEG's header says.
typedef struct {
    int width;
    int height;
    int components;
    int is_progressive;
} pk_jpeg_info;

/// Reads a JPEG's header only (no pixel is decoded, nothing large is allocated).
pk_status pk_jpeg_read_info(const uint8_t *data, size_t size, pk_jpeg_info *info,
                            char *message, size_t message_capacity);

/// Decodes a JPEG at scale 1/`scale_denominator` (1, 2, 4 or 8) into
/// opaque RGBA8 rows of `stride` bytes at `pixels`, which must hold
/// `output_height` rows of `output_width` pixels as returned by
/// pk_jpeg_scaled_size.
///
/// For progressive files, `max_missing_bits` >= 0 stops reading scans as
/// soon as every DCT coefficient the scaled output uses has arrived with at
/// most that many low-order bits still missing (buffered-image mode). At
/// scale 1/8 only the DC coefficient is used, so a thumbnail is complete
/// after the first DC scan. -1 always reads the whole file.
/// `smooth_upsampling` non-zero interpolates subsampled chroma (as djpeg and
/// browsers do) instead of replicating it: slower, for reference decodes.
/// `scans_used` (may be NULL) receives the number of scans decoded;
/// `damaged` (may be NULL) is set to 1 if the entropy-coded data ended early
/// at a marker ("premature end of data segment"), in which case the rest of
/// the image is grey and `message` says so.
pk_status pk_jpeg_decode_rgba(const uint8_t *data, size_t size, int scale_denominator,
                              int max_missing_bits, uint8_t *pixels, size_t stride,
                              int output_width, int output_height, int smooth_upsampling,
                              int *scans_used, int *damaged, char *message, size_t message_capacity);

/// The output size libjpeg gives for a scale of 1/`scale_denominator`.
void pk_jpeg_scaled_size(int width, int height, int scale_denominator, int *output_width, int *output_height);

/// Reads a PNG's header only.
pk_status pk_png_read_info(const uint8_t *data, size_t size, int *width, int *height,
                           char *message, size_t message_capacity);

/// Decodes a PNG into premultiplied RGBA8 rows of `stride` bytes.
pk_status pk_png_decode_premultiplied_rgba(const uint8_t *data, size_t size, uint8_t *pixels,
                                           size_t stride, int width, int height,
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
