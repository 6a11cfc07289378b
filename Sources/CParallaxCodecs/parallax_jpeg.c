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

// Fills what the header tells about size, coding and working memory.
// Called after jpeg_read_header, which has set up the component geometry.
static void pk_describe(j_decompress_ptr cinfo, pk_jpeg_info *info) {
    info->width = (int)cinfo->image_width;
    info->height = (int)cinfo->image_height;
    info->components = cinfo->num_components;
    info->is_progressive = jpeg_has_multiple_scans(cinfo) ? 1 : 0;
    info->is_arithmetic = cinfo->arith_code ? 1 : 0;
    // The multi-scan coefficient controller keeps every block of every
    // component, rounded up to whole MCUs (jdcoefct.c); 64 coefficients of
    // two bytes each. Sums are in size_t: sides are at most 65,500 blocks.
    size_t coefficients = 0, buffers = 64 * 1024;
    for (int c = 0; c < cinfo->num_components; c++) {
        const jpeg_component_info *component = &cinfo->comp_info[c];
        size_t h = (size_t)component->h_samp_factor, v = (size_t)component->v_samp_factor;
        size_t wide = ((size_t)component->width_in_blocks + h - 1) / h * h;
        size_t tall = ((size_t)component->height_in_blocks + v - 1) / v * v;
        coefficients += wide * tall * 64 * sizeof(JCOEF);
        // The main buffer holds a few row groups of samples per component
        // (with context rows for smooth upsampling): 4 MCU rows is ample.
        buffers += wide * 8 * v * 8 * 4;
    }
    // The upsampler's and colour converter's rows, at full width.
    buffers += (size_t)cinfo->image_width * (size_t)cinfo->max_v_samp_factor * 8 * 4 * 3;
    info->coefficient_bytes = jpeg_has_multiple_scans(cinfo) ? coefficients : 0;
    info->buffer_bytes = buffers;
    info->dc_decodable = cinfo->progressive_mode && !cinfo->arith_code && cinfo->data_precision == 8 &&
                         !cinfo->saw_Adobe_marker &&
                         ((cinfo->num_components == 1 && cinfo->jpeg_color_space == JCS_GRAYSCALE) ||
                          (cinfo->num_components == 3 && cinfo->jpeg_color_space == JCS_YCbCr));
    info->dc_bytes = coefficients / 64;
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
    pk_describe(&cinfo, info);
    jpeg_destroy_decompress(&cinfo);
    return PK_OK;
}

// The zigzag position of each coefficient in natural (row-major) order: the
// progressive coef_bits table is indexed by zigzag position. Shared with the
// DC-only decoder (parallax_jpeg_dc.c).
const int pk_jpeg_zigzag_of_natural[64] = {
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
                int bits = cinfo->coef_bits[c][pk_jpeg_zigzag_of_natural[v * 8 + u]];
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

pk_status pk_jpeg_decode_rows(const uint8_t *data, size_t size, int scale_denominator, int max_missing_bits,
                              int max_scans, int output_width, int output_height, int smooth_upsampling,
                              size_t max_memory, pk_row_sink sink, void *context,
                              int *scans_used, int *damaged, char *message, size_t message_capacity) {
    return pk_jpeg_decode_region_rows(data, size, scale_denominator, max_missing_bits, max_scans, output_width,
                                      output_height, smooth_upsampling, max_memory, 0, 0, 0, sink, context,
                                      scans_used, damaged, message, message_capacity);
}

pk_status pk_jpeg_decode_region_rows(const uint8_t *data, size_t size, int scale_denominator, int max_missing_bits,
                                     int max_scans, int output_width, int output_height, int smooth_upsampling,
                                     size_t max_memory, int crop_x, int crop_width, int first_row,
                                     pk_row_sink sink, void *context,
                                     int *scans_used, int *damaged, char *message, size_t message_capacity) {
    if (!data || !sink || size == 0 || max_scans < 1) return PK_ERROR_ARGUMENT;
    if (crop_x < 0 || crop_width < 0 || first_row < 0 || crop_x + (long)crop_width > output_width ||
        first_row >= output_height)
        return PK_ERROR_ARGUMENT;
    if (damaged) *damaged = 0;
    if (scale_denominator != 1 && scale_denominator != 2 && scale_denominator != 4 && scale_denominator != 8)
        return PK_ERROR_ARGUMENT;
    struct jpeg_decompress_struct cinfo;
    pk_jpeg_error error;
    JSAMPLE *volatile cmyk_row = NULL;
    uint8_t *volatile rgba_row = NULL;
    pk_init_error(&error, message, message_capacity);
    cinfo.err = &error.base;
    if (setjmp(error.jump)) {
        pk_status status = pk_status_for_failure(&error);
        free(cmyk_row);
        free(rgba_row);
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
    // djpeg, Pillow and browsers do; the caller chooses.
    cinfo.do_block_smoothing = FALSE;
    cinfo.do_fancy_upsampling = smooth_upsampling ? TRUE : FALSE;
    // libjpeg's whole-image buffers (multi-scan files) count against this;
    // over it, realizing them fails (JERR_NO_BACKING_STORE: out of memory).
    cinfo.mem->max_memory_to_use = (long)(max_memory > (size_t)0x7FFFFFFF ? 0x7FFFFFFF : max_memory);
    int multiscan = jpeg_has_multiple_scans(&cinfo);
    cinfo.buffered_image = multiscan ? TRUE : FALSE;

    jpeg_calc_output_dimensions(&cinfo);
    if ((int)cinfo.output_width != output_width || (int)cinfo.output_height != output_height) {
        jpeg_destroy_decompress(&cinfo);
        return PK_ERROR_ARGUMENT;
    }
    rgba_row = malloc((size_t)output_width * 4);
    if (is_cmyk) cmyk_row = malloc((size_t)output_width * 4);
    if (!rgba_row || (is_cmyk && !cmyk_row)) {
        free(rgba_row);
        free(cmyk_row);
        jpeg_destroy_decompress(&cinfo);
        return PK_ERROR_NO_MEMORY;
    }

    jpeg_start_decompress(&cinfo);
    int scans = 0;
    if (multiscan) {
        for (;;) {
            int result = jpeg_consume_input(&cinfo);
            if (result == JPEG_SUSPENDED || result == JPEG_REACHED_EOI) break;
            if (cinfo.input_scan_number > max_scans) {
                if (message && message_capacity > 0)
                    snprintf(message, message_capacity, "the file has more than %d scans", max_scans);
                free(rgba_row);
                free(cmyk_row);
                jpeg_destroy_decompress(&cinfo);
                return PK_ERROR_CORRUPT;
            }
            if (result == JPEG_SCAN_COMPLETED && max_missing_bits >= 0 &&
                pk_enough_scans(&cinfo, scale_denominator, max_missing_bits))
                break;
        }
        scans = cinfo.input_scan_number;
        jpeg_start_output(&cinfo, cinfo.input_scan_number);
    } else {
        scans = 1;
    }
    // A region: libjpeg-turbo decodes only the iMCU columns around it
    // (widening the crop to their boundaries) and skips the rows above it
    // without colour conversion or upsampling (a baseline file's skipped
    // rows are still entropy-decoded, as they must be to find the next).
    int x0 = 0, row_width = output_width;
    if (crop_width > 0 && crop_width < output_width) {
        JDIMENSION offset = (JDIMENSION)crop_x, width = (JDIMENSION)crop_width;
        jpeg_crop_scanline(&cinfo, &offset, &width);
        x0 = (int)offset;
        row_width = (int)width;
    }
    if (first_row > 0) jpeg_skip_scanlines(&cinfo, (JDIMENSION)first_row);
    int stopped = 0;
    while (!stopped && cinfo.output_scanline < cinfo.output_height) {
        int y = (int)cinfo.output_scanline;
        JSAMPROW rows[1] = { is_cmyk ? cmyk_row : rgba_row };
        jpeg_read_scanlines(&cinfo, rows, 1);
        if (is_cmyk) pk_cmyk_row_to_rgba(cmyk_row, rgba_row, row_width, inverted);
        stopped = sink(context, y, x0, 1, row_width, rgba_row);
    }
    if (multiscan && !stopped) jpeg_finish_output(&cinfo);
    // Whatever was not read (later scans, trailing data, rows not wanted) is
    // of no interest; an end of data met while reading what was used is.
    int truncated = error.saw_eof;
    jpeg_abort_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    free(rgba_row);
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
