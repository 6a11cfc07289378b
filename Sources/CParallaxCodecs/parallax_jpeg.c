#include "parallax_codecs.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

// Error handling: libjpeg calls error_exit on fatal errors and expects it
// not to return; we jump back to the call that started the work. Warnings
// are counted, and a premature end of data (JWRN_JPEG_EOF) makes the result
// a truncation error rather than a silently grey-filled image. A marker met
// in the middle of the entropy-coded data (JWRN_HIT_MARKER, "premature end
// of data segment": a file cut short and closed with an end-of-image marker)
// is reported as damage, which the caller treats as truncation when it
// requires complete files.
typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    int saw_eof;
    int saw_damage;
    char *message;
    size_t message_capacity;
} pk_jpeg_error;

static void pk_copy_message(pk_jpeg_error *error, j_common_ptr cinfo) {
    if (error->message && error->message_capacity > 0) {
        char buffer[JMSG_LENGTH_MAX];
        (*cinfo->err->format_message)(cinfo, buffer);
        snprintf(error->message, error->message_capacity, "%s", buffer);
    }
}

static void pk_error_exit(j_common_ptr cinfo) {
    pk_jpeg_error *error = (pk_jpeg_error *)cinfo->err;
    pk_copy_message(error, cinfo);
    longjmp(error->jump, 1);
}

static void pk_emit_message(j_common_ptr cinfo, int level) {
    pk_jpeg_error *error = (pk_jpeg_error *)cinfo->err;
    if (level < 0) {
        cinfo->err->num_warnings++;
        if (cinfo->err->msg_code == JWRN_JPEG_EOF && !error->saw_eof) {
            error->saw_eof = 1;
            pk_copy_message(error, cinfo);
        } else if (cinfo->err->msg_code == JWRN_HIT_MARKER && !error->saw_damage) {
            error->saw_damage = 1;
            if (!error->saw_eof) pk_copy_message(error, cinfo);
        }
    }
}

static void pk_output_message(j_common_ptr cinfo) { (void)cinfo; }

static void pk_init_error(pk_jpeg_error *error, char *message, size_t capacity) {
    memset(error, 0, sizeof(*error));
    jpeg_std_error(&error->base);
    error->base.error_exit = pk_error_exit;
    error->base.emit_message = pk_emit_message;
    error->base.output_message = pk_output_message;
    error->message = message;
    error->message_capacity = capacity;
    if (message && capacity > 0) message[0] = 0;
}

static pk_status pk_status_for_failure(const pk_jpeg_error *error) {
    if (error->saw_eof) return PK_ERROR_TRUNCATED;
    switch (error->base.msg_code) {
    case JERR_OUT_OF_MEMORY: case JERR_NO_BACKING_STORE: return PK_ERROR_NO_MEMORY;   // over max_memory_to_use
    case JERR_INPUT_EMPTY: case JERR_INPUT_EOF: case JERR_NO_IMAGE: return PK_ERROR_TRUNCATED;
    case JERR_CONVERSION_NOTIMPL: case JERR_NOT_COMPILED: case JERR_BAD_PRECISION: return PK_ERROR_UNSUPPORTED;
    default: return PK_ERROR_CORRUPT;
    }
}

void pk_jpeg_scaled_size(int width, int height, int scale_denominator, int *output_width, int *output_height) {
    if (scale_denominator < 1) scale_denominator = 1;
    *output_width = (width + scale_denominator - 1) / scale_denominator;
    *output_height = (height + scale_denominator - 1) / scale_denominator;
}

pk_status pk_jpeg_read_info(const uint8_t *data, size_t size, pk_jpeg_info *info,
                            char *message, size_t message_capacity) {
    if (!data || !info || size == 0) return PK_ERROR_ARGUMENT;
    struct jpeg_decompress_struct cinfo;
    pk_jpeg_error error;
    pk_init_error(&error, message, message_capacity);
    cinfo.err = &error.base;
    if (setjmp(error.jump)) {
        pk_status status = pk_status_for_failure(&error);
        jpeg_destroy_decompress(&cinfo);
        return status;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, (unsigned char *)data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    info->width = (int)cinfo.image_width;
    info->height = (int)cinfo.image_height;
    info->components = cinfo.num_components;
    info->is_progressive = jpeg_has_multiple_scans(&cinfo) ? 1 : 0;
    jpeg_destroy_decompress(&cinfo);
    return PK_OK;
}

// The zigzag position of each coefficient in natural (row-major) order: the
// progressive coef_bits table is indexed by zigzag position.
static const int pk_zigzag_of_natural[64] = {
     0,  1,  5,  6, 14, 15, 27, 28,
     2,  4,  7, 13, 16, 26, 29, 42,
     3,  8, 12, 17, 25, 30, 41, 43,
     9, 11, 18, 24, 31, 40, 44, 53,
    10, 19, 23, 32, 39, 45, 52, 54,
    20, 22, 33, 38, 46, 51, 55, 60,
    21, 34, 37, 47, 50, 56, 59, 61,
    35, 36, 48, 49, 57, 58, 62, 63,
};

// Whether every coefficient the scaled IDCT reads (the top-left
// (8/denominator)² of each block) has arrived, missing at most
// `max_missing_bits` low-order bits, in every component.
static int pk_enough_scans(j_decompress_ptr cinfo, int denominator, int max_missing_bits) {
    int used = 8 / denominator;
    if (!cinfo->coef_bits) return 0;
    for (int c = 0; c < cinfo->num_components; c++) {
        for (int v = 0; v < used; v++) {
            for (int u = 0; u < used; u++) {
                int bits = cinfo->coef_bits[c][pk_zigzag_of_natural[v * 8 + u]];
                if (bits < 0 || bits > max_missing_bits) return 0;
            }
        }
    }
    return 1;
}

// Inverted (Adobe) CMYK to RGB: the usual multiply by K.
static void pk_cmyk_row_to_rgba(const JSAMPLE *cmyk, uint8_t *rgba, int width, int inverted) {
    for (int x = 0; x < width; x++) {
        int c = cmyk[0], m = cmyk[1], y = cmyk[2], k = cmyk[3];
        if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
        rgba[0] = (uint8_t)((c * k + 127) / 255);
        rgba[1] = (uint8_t)((m * k + 127) / 255);
        rgba[2] = (uint8_t)((y * k + 127) / 255);
        rgba[3] = 255;
        cmyk += 4;
        rgba += 4;
    }
}

pk_status pk_jpeg_decode_rgba(const uint8_t *data, size_t size, int scale_denominator,
                              int max_missing_bits, uint8_t *pixels, size_t stride,
                              int output_width, int output_height, int smooth_upsampling,
                              int *scans_used, int *damaged, char *message, size_t message_capacity) {
    if (!data || !pixels || size == 0) return PK_ERROR_ARGUMENT;
    if (damaged) *damaged = 0;
    if (scale_denominator != 1 && scale_denominator != 2 && scale_denominator != 4 && scale_denominator != 8)
        return PK_ERROR_ARGUMENT;
    struct jpeg_decompress_struct cinfo;
    pk_jpeg_error error;
    JSAMPLE *volatile cmyk_row = NULL;
    pk_init_error(&error, message, message_capacity);
    cinfo.err = &error.base;
    if (setjmp(error.jump)) {
        pk_status status = pk_status_for_failure(&error);
        free(cmyk_row);
        jpeg_destroy_decompress(&cinfo);
        return status;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, (unsigned char *)data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);

    int is_cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
    int inverted = cinfo.saw_Adobe_marker;
    cinfo.out_color_space = is_cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    cinfo.scale_num = 1;
    cinfo.scale_denom = (unsigned int)scale_denominator;
    // Smoothing of partially received progressive output costs time a
    // thumbnail does not need. Smooth ("fancy") chroma upsampling is what
    // djpeg, Pillow and browsers do: the reference path asks for it; the
    // thumbnail path skips it, as area resampling to a much smaller size
    // averages the chroma blocks anyway.
    cinfo.do_block_smoothing = FALSE;
    cinfo.do_fancy_upsampling = smooth_upsampling ? TRUE : FALSE;
    // A bound on libjpeg's own working memory (a progressive file's
    // coefficient buffers), whatever its header claims: 1 GiB holds those of
    // a 300-megapixel photo; past it the decode fails as out of memory.
    cinfo.mem->max_memory_to_use = 1L << 30;
    int progressive = jpeg_has_multiple_scans(&cinfo);
    cinfo.buffered_image = progressive ? TRUE : FALSE;

    jpeg_calc_output_dimensions(&cinfo);
    if ((int)cinfo.output_width != output_width || (int)cinfo.output_height != output_height ||
        stride < (size_t)output_width * 4) {
        jpeg_destroy_decompress(&cinfo);
        return PK_ERROR_ARGUMENT;
    }
    if (is_cmyk) {
        cmyk_row = malloc((size_t)output_width * 4);
        if (!cmyk_row) { jpeg_destroy_decompress(&cinfo); return PK_ERROR_NO_MEMORY; }
    }

    jpeg_start_decompress(&cinfo);
    int scans = 0;
    if (progressive) {
        for (;;) {
            int result = jpeg_consume_input(&cinfo);
            if (result == JPEG_SUSPENDED || result == JPEG_REACHED_EOI) break;
            if (result == JPEG_SCAN_COMPLETED && max_missing_bits >= 0 &&
                pk_enough_scans(&cinfo, scale_denominator, max_missing_bits))
                break;
        }
        scans = cinfo.input_scan_number;
        jpeg_start_output(&cinfo, cinfo.input_scan_number);
    } else {
        scans = 1;
    }
    while (cinfo.output_scanline < cinfo.output_height) {
        uint8_t *row = pixels + (size_t)cinfo.output_scanline * stride;
        if (is_cmyk) {
            JSAMPROW rows[1] = { cmyk_row };
            jpeg_read_scanlines(&cinfo, rows, 1);
            pk_cmyk_row_to_rgba(cmyk_row, row, output_width, inverted);
        } else {
            JSAMPROW rows[1] = { row };
            jpeg_read_scanlines(&cinfo, rows, 1);
        }
    }
    if (progressive) jpeg_finish_output(&cinfo);
    // Whatever was not read (later scans, trailing data) is of no interest.
    int truncated = error.saw_eof;
    jpeg_abort_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    free(cmyk_row);
    if (scans_used) *scans_used = scans;
    if (damaged) *damaged = error.saw_damage;
    return truncated ? PK_ERROR_TRUNCATED : PK_OK;
}

pk_status pk_jpeg_encode_rgb(const uint8_t *rgb, int width, int height, int quality, int progressive,
                             const uint8_t *app1, size_t app1_size, uint8_t **output, size_t *output_size) {
    if (!rgb || !output || !output_size || width <= 0 || height <= 0) return PK_ERROR_ARGUMENT;
    struct jpeg_compress_struct cinfo;
    pk_jpeg_error error;
    unsigned char *buffer = NULL;
    unsigned long length = 0;
    pk_init_error(&error, NULL, 0);
    cinfo.err = &error.base;
    if (setjmp(error.jump)) {
        jpeg_destroy_compress(&cinfo);
        free(buffer);
        return PK_ERROR_CORRUPT;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, &buffer, &length);
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = 3;
    cinfo.in_color_space = JCS_RGB;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    if (progressive) jpeg_simple_progression(&cinfo);
    jpeg_start_compress(&cinfo, TRUE);
    if (app1 && app1_size > 0 && app1_size <= 65533) jpeg_write_marker(&cinfo, JPEG_APP0 + 1, app1, (unsigned int)app1_size);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(rgb + (size_t)cinfo.next_scanline * (size_t)width * 3);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    *output = buffer;
    *output_size = (size_t)length;
    return PK_OK;
}

void pk_free(void *pointer) { free(pointer); }
