#include "parallax_codecs.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Decoding goes through libpng's low-level API, not the simplified
// png_image_* one: the simplified API treats 16-bit samples as linear light
// and re-encodes them (much brighter than other decoders show them), and
// the libpng Debian 12 ships gives wrong pixels for interlaced 16-bit files
// read through it. Here libpng never deinterlaces either: with interlace
// handling off, png_read_row returns each Adam7 pass as a reduced image,
// row by row, and the sink places the pixels. Every libpng version gives
// the same output for these calls.

// ---- Memory: every allocation libpng and zlib make is counted. ----

typedef struct {
    size_t used;
    size_t peak;
    size_t limit;
} pk_png_memory;

// Each block carries its size in a 16-byte prefix (keeping the alignment
// malloc gives), so the free function can take it off the count.
#define PK_PNG_PREFIX 16

static png_voidp pk_png_malloc(png_structp png, png_alloc_size_t size) {
    pk_png_memory *memory = png_get_mem_ptr(png);
    if (size > memory->limit - memory->used || size > (png_alloc_size_t)-1 - PK_PNG_PREFIX) return NULL;
    unsigned char *block = malloc(size + PK_PNG_PREFIX);
    if (!block) return NULL;
    memcpy(block, &size, sizeof(size));
    memory->used += size;
    if (memory->used > memory->peak) memory->peak = memory->used;
    return block + PK_PNG_PREFIX;
}

static void pk_png_free(png_structp png, png_voidp pointer) {
    if (!pointer) return;
    pk_png_memory *memory = png_get_mem_ptr(png);
    unsigned char *block = (unsigned char *)pointer - PK_PNG_PREFIX;
    png_alloc_size_t size;
    memcpy(&size, block, sizeof(size));
    memory->used -= size;
    free(block);
}

// ---- Errors: libpng reports by longjmp; the message is kept. ----

typedef struct {
    jmp_buf jump;
    char text[200];            // always filled, so the status never depends on the caller's buffer
    char *message;
    size_t capacity;
} pk_png_failure;

static void pk_png_error(png_structp png, png_const_charp text) {
    pk_png_failure *failure = png_get_error_ptr(png);
    snprintf(failure->text, sizeof failure->text, "%s", text);
    if (failure->message && failure->capacity > 0) snprintf(failure->message, failure->capacity, "%s", text);
    longjmp(failure->jump, 1);
}

static void pk_png_warning(png_structp png, png_const_charp text) { (void)png; (void)text; }

static pk_status pk_png_status(const char *message) {
    if (strstr(message, "memory")) return PK_ERROR_NO_MEMORY;
    if (strstr(message, "EOF") || strstr(message, "too short") || strstr(message, "Not enough") ||
        strstr(message, "truncated") || strstr(message, "Read Error") || strstr(message, "end of"))
        return PK_ERROR_TRUNCATED;
    return PK_ERROR_CORRUPT;
}

// ---- Input: the file's bytes, read in place. ----

typedef struct {
    const uint8_t *data;
    size_t size;
    size_t offset;
} pk_png_input;

static void pk_png_read(png_structp png, png_bytep out, png_size_t length) {
    pk_png_input *input = png_get_io_ptr(png);
    if (length > input->size - input->offset) png_error(png, "Read Error: the file ends early (truncated)");
    memcpy(out, input->data + input->offset, length);
    input->offset += length;
}

// Every ancillary chunk but tRNS is skipped unread (num_chunks < 0 in
// png_set_keep_unknown_chunks: "all chunks but IHDR, PLTE, tRNS, IDAT and
// IEND", per the libpng manual): text, whose claimed length libpng 1.6.39
// allocates before reading it; colour information the decoder does not
// apply (the colour policy in the documentation); Exif, read from the
// file's bytes elsewhere; and the rest, of no use to a thumbnail. libpng
// skips them through a small stack buffer, allocating nothing.
// Sets up a read of `input`: limits, skipped chunks, and the header read.
// Returns with png and info ready, or longjmps.
static void pk_png_start(png_structp png, png_infop info, pk_png_input *input) {
    png_set_read_fn(png, input, pk_png_read);
    // A million pixels a side, libpng's own default, stated: the pixel-count
    // limit and the memory budget in the caller are the real bounds.
    png_set_user_limits(png, 1000000, 1000000);
    png_set_chunk_cache_max(png, 128);
    png_set_chunk_malloc_max(png, 1 << 20);
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, NULL, -1);
    png_read_info(png, info);
}

// Creates the read and info structs with counted memory and the failure
// handler. Returns 0 on failure (no memory).
static int pk_png_create(pk_png_failure *failure, pk_png_memory *memory, png_structp *png, png_infop *info) {
    *png = png_create_read_struct_2(PNG_LIBPNG_VER_STRING, failure, pk_png_error, pk_png_warning,
                                    memory, pk_png_malloc, pk_png_free);
    if (!*png) return 0;
    *info = png_create_info_struct(*png);
    if (!*info) {
        png_destroy_read_struct(png, NULL, NULL);
        return 0;
    }
    return 1;
}

pk_status pk_png_read_info(const uint8_t *data, size_t size, pk_png_info *info,
                           char *message, size_t message_capacity) {
    if (!data || size == 0 || !info) return PK_ERROR_ARGUMENT;
    if (message && message_capacity > 0) message[0] = 0;
    pk_png_failure failure = { .text = "", .message = message, .capacity = message_capacity };
    pk_png_memory memory = { .used = 0, .peak = 0, .limit = 16u << 20 };
    pk_png_input input = { .data = data, .size = size, .offset = 0 };
    png_structp png;
    png_infop png_info;
    if (!pk_png_create(&failure, &memory, &png, &png_info)) return PK_ERROR_NO_MEMORY;
    if (setjmp(failure.jump)) {
        png_destroy_read_struct(&png, &png_info, NULL);
        return pk_png_status(failure.text);
    }
    pk_png_start(png, png_info, &input);
    info->width = (int)png_get_image_width(png, png_info);
    info->height = (int)png_get_image_height(png, png_info);
    info->bit_depth = png_get_bit_depth(png, png_info);
    info->color_type = png_get_color_type(png, png_info);
    info->is_interlaced = png_get_interlace_type(png, png_info) != PNG_INTERLACE_NONE;
    png_destroy_read_struct(&png, &png_info, NULL);
    return PK_OK;
}

// Premultiplies straight RGBA8 in place, rounding to nearest.
void pk_png_premultiply(uint8_t *p, int count) {
    for (int x = 0; x < count; x++, p += 4) {
        unsigned a = p[3];
        if (a == 255) continue;
        p[0] = (uint8_t)((p[0] * a + 127) / 255);
        p[1] = (uint8_t)((p[1] * a + 127) / 255);
        p[2] = (uint8_t)((p[2] * a + 127) / 255);
    }
}

pk_status pk_png_decode_rows(const uint8_t *data, size_t size, size_t max_memory, pk_row_sink sink, void *context,
                             size_t *peak_memory, char *message, size_t message_capacity) {
    if (!data || size == 0 || !sink) return PK_ERROR_ARGUMENT;
    // Photos and screenshots (8-bit RGB or RGBA, not interlaced): inflated and unfiltered here, several times
    // faster (parallax_png_rows.c). Anything else, and a flaw before the first row, libpng's.
    pk_status streamed = pk_png_streamed_rows(data, size, max_memory, sink, context, peak_memory);
    if (streamed != PK_ERROR_UNSUPPORTED) {
        if (message && message_capacity > 0) {
            const char *text = streamed == PK_OK ? "" : streamed == PK_ERROR_TRUNCATED ? "Not enough image data (truncated)"
                             : streamed == PK_ERROR_NO_MEMORY ? "out of memory" : "the image data is corrupt";
            snprintf(message, message_capacity, "%s", text);
        }
        return streamed;
    }
    return pk_png_stream_rows(data, size, max_memory, sink, context, peak_memory, message, message_capacity);
}

pk_status pk_png_stream_rows(const uint8_t *data, size_t size, size_t max_memory, pk_row_sink sink, void *context,
                             size_t *peak_memory, char *message, size_t message_capacity) {
    if (!data || size == 0 || !sink) return PK_ERROR_ARGUMENT;
    if (message && message_capacity > 0) message[0] = 0;
    pk_png_failure failure = { .text = "", .message = message, .capacity = message_capacity };
    // Changed between setjmp and longjmp and read after: volatile access keeps it well defined.
    pk_png_memory memory = { .used = 0, .peak = 0, .limit = max_memory };
    pk_png_input input = { .data = data, .size = size, .offset = 0 };
    png_structp png;
    png_infop info;
    if (!pk_png_create(&failure, &memory, &png, &info)) return PK_ERROR_NO_MEMORY;
    png_bytep volatile row = NULL;
    if (setjmp(failure.jump)) {
        if (row) png_free(png, row);
        if (peak_memory) *peak_memory = ((volatile pk_png_memory *)&memory)->peak;
        png_destroy_read_struct(&png, &info, NULL);
        return pk_png_status(failure.text);
    }
    pk_png_start(png, info, &input);
    int width = (int)png_get_image_width(png, info);
    int height = (int)png_get_image_height(png, info);
    int color_type = png_get_color_type(png, info);
    int interlaced = png_get_interlace_type(png, info) != PNG_INTERLACE_NONE;

    // To 8-bit RGBA: palette and low-depth grey expanded, tRNS to alpha
    // (matched against the full-precision samples, before stripping), the
    // high byte of 16-bit samples (as Pillow and Chromium keep), grey to
    // RGB, and an opaque alpha where there is none.
    png_set_expand(png);
    png_set_strip_16(png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if (!(color_type & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS))
        png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
    png_read_update_info(png, info);
    // libpng copies a full-width row even for a narrow pass: the buffer must
    // hold the whole width.
    png_size_t row_bytes = png_get_rowbytes(png, info);
    if (row_bytes != (png_size_t)width * 4) png_error(png, "unexpected row layout after transformation");
    row = png_malloc(png, row_bytes);

    int stopped = 0;
    if (!interlaced) {
        for (int y = 0; y < height && !stopped; y++) {
            png_read_row(png, row, NULL);
            pk_png_premultiply(row, width);
            stopped = sink(context, y, 0, 1, width, row);
        }
    } else {
        // Adam7: pass p covers rows ystart + k·yinc and columns xstart + k·xinc.
        // libpng skips a pass with no rows or no columns, and so does this loop.
        static const int xstart[7] = { 0, 4, 0, 2, 0, 1, 0 }, xinc[7] = { 8, 8, 4, 4, 2, 2, 1 };
        static const int ystart[7] = { 0, 0, 4, 0, 2, 0, 1 }, yinc[7] = { 8, 8, 8, 4, 4, 2, 2 };
        for (int pass = 0; pass < 7 && !stopped; pass++) {
            int columns = width > xstart[pass] ? (width - xstart[pass] + xinc[pass] - 1) / xinc[pass] : 0;
            int rows = height > ystart[pass] ? (height - ystart[pass] + yinc[pass] - 1) / yinc[pass] : 0;
            if (columns == 0 || rows == 0) continue;
            for (int r = 0; r < rows && !stopped; r++) {
                png_read_row(png, row, NULL);
                pk_png_premultiply(row, columns);
                stopped = sink(context, ystart[pass] + r * yinc[pass], xstart[pass], xinc[pass], columns, row);
            }
        }
    }
    // The rows are all read; what follows (IEND, trailing chunks) is of no
    // interest, and a file cut after its last row still decoded in full.
    png_free(png, row);
    row = NULL;
    if (peak_memory) *peak_memory = memory.peak;
    png_destroy_read_struct(&png, &info, NULL);
    return PK_OK;
}

pk_status pk_png_encode_rgba(const uint8_t *rgba, int width, int height, uint8_t **output, size_t *output_size) {
    if (!rgba || !output || !output_size || width <= 0 || height <= 0) return PK_ERROR_ARGUMENT;
    png_image image;
    memset(&image, 0, sizeof(image));
    image.version = PNG_IMAGE_VERSION;
    image.width = (png_uint_32)width;
    image.height = (png_uint_32)height;
    image.format = PNG_FORMAT_RGBA;
    png_alloc_size_t length = 0;
    if (!png_image_write_to_memory(&image, NULL, &length, 0, rgba, 0, NULL)) return PK_ERROR_CORRUPT;
    void *buffer = malloc(length);
    if (!buffer) return PK_ERROR_NO_MEMORY;
    if (!png_image_write_to_memory(&image, buffer, &length, 0, rgba, 0, NULL)) {
        free(buffer);
        return PK_ERROR_CORRUPT;
    }
    *output = buffer;
    *output_size = (size_t)length;
    return PK_OK;
}
