#include "parallax_codecs.h"

#include <dlfcn.h>
#include <libheif/heif.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// libheif is loaded when the first HEIF photo is met, not at launch: with
// what it links (x265, libde265, dav1d, aom, abseil…) it made every launch
// 8-13 ms slower and 6.6 MB larger, measured with an empty C program linking
// only libheif and libavif. Its functions are called through this table; a
// system without libheif gets a clear error for HEIF files, and the rest
// works. The unversioned name is the library the headers came with (the
// -dev package); the versioned one is what a runtime-only system has.
static struct {
    __typeof__(heif_context_alloc) *context_alloc;
    __typeof__(heif_context_free) *context_free;
    __typeof__(heif_context_get_primary_image_handle) *context_get_primary_image_handle;
    __typeof__(heif_context_read_from_memory_without_copy) *context_read_from_memory_without_copy;
    __typeof__(heif_context_set_max_decoding_threads) *context_set_max_decoding_threads;
    __typeof__(heif_context_set_maximum_image_size_limit) *context_set_maximum_image_size_limit;
    __typeof__(heif_decode_image) *decode_image;
    __typeof__(heif_decoding_options_alloc) *decoding_options_alloc;
    __typeof__(heif_decoding_options_free) *decoding_options_free;
    __typeof__(heif_image_get_bits_per_pixel_range) *image_get_bits_per_pixel_range;
    __typeof__(heif_image_get_height) *image_get_height;
    __typeof__(heif_image_get_plane_readonly) *image_get_plane_readonly;
    __typeof__(heif_image_get_width) *image_get_width;
    __typeof__(heif_image_handle_get_height) *image_handle_get_height;
    __typeof__(heif_image_handle_get_list_of_thumbnail_IDs) *image_handle_get_list_of_thumbnail_IDs;
    __typeof__(heif_image_handle_get_luma_bits_per_pixel) *image_handle_get_luma_bits_per_pixel;
    __typeof__(heif_image_handle_get_thumbnail) *image_handle_get_thumbnail;
    __typeof__(heif_image_handle_get_width) *image_handle_get_width;
    __typeof__(heif_image_handle_has_alpha_channel) *image_handle_has_alpha_channel;
    __typeof__(heif_image_handle_release) *image_handle_release;
    __typeof__(heif_image_is_premultiplied_alpha) *image_is_premultiplied_alpha;
    __typeof__(heif_image_release) *image_release;
} pk_heif_api;
static int pk_heif_loaded;
static pthread_once_t pk_heif_once = PTHREAD_ONCE_INIT;

static void pk_heif_load(void) {
    void *library = dlopen("libheif.so", RTLD_NOW | RTLD_LOCAL);
    if (!library) library = dlopen("libheif.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
#define PK_BIND(field, symbol) if (!(*(void **)&pk_heif_api.field = dlsym(library, #symbol))) return;
    PK_BIND(context_alloc, heif_context_alloc)
    PK_BIND(context_free, heif_context_free)
    PK_BIND(context_get_primary_image_handle, heif_context_get_primary_image_handle)
    PK_BIND(context_read_from_memory_without_copy, heif_context_read_from_memory_without_copy)
    PK_BIND(context_set_max_decoding_threads, heif_context_set_max_decoding_threads)
    PK_BIND(context_set_maximum_image_size_limit, heif_context_set_maximum_image_size_limit)
    PK_BIND(decode_image, heif_decode_image)
    PK_BIND(decoding_options_alloc, heif_decoding_options_alloc)
    PK_BIND(decoding_options_free, heif_decoding_options_free)
    PK_BIND(image_get_bits_per_pixel_range, heif_image_get_bits_per_pixel_range)
    PK_BIND(image_get_height, heif_image_get_height)
    PK_BIND(image_get_plane_readonly, heif_image_get_plane_readonly)
    PK_BIND(image_get_width, heif_image_get_width)
    PK_BIND(image_handle_get_height, heif_image_handle_get_height)
    PK_BIND(image_handle_get_list_of_thumbnail_IDs, heif_image_handle_get_list_of_thumbnail_IDs)
    PK_BIND(image_handle_get_luma_bits_per_pixel, heif_image_handle_get_luma_bits_per_pixel)
    PK_BIND(image_handle_get_thumbnail, heif_image_handle_get_thumbnail)
    PK_BIND(image_handle_get_width, heif_image_handle_get_width)
    PK_BIND(image_handle_has_alpha_channel, heif_image_handle_has_alpha_channel)
    PK_BIND(image_handle_release, heif_image_handle_release)
    PK_BIND(image_is_premultiplied_alpha, heif_image_is_premultiplied_alpha)
    PK_BIND(image_release, heif_image_release)
#undef PK_BIND
    pk_heif_loaded = 1;
}

// Whether libheif could be loaded; says why not in `message` if not.
static int pk_heif_available(char *message, size_t capacity) {
    pthread_once(&pk_heif_once, pk_heif_load);
    if (!pk_heif_loaded && message && capacity > 0) {
        snprintf(message, capacity, "libheif (libheif1) is not installed, or lacks a function this build uses");
    }
    return pk_heif_loaded;
}

#define heif_context_alloc (*pk_heif_api.context_alloc)
#define heif_context_free (*pk_heif_api.context_free)
#define heif_context_get_primary_image_handle (*pk_heif_api.context_get_primary_image_handle)
#define heif_context_read_from_memory_without_copy (*pk_heif_api.context_read_from_memory_without_copy)
#define heif_context_set_max_decoding_threads (*pk_heif_api.context_set_max_decoding_threads)
#define heif_context_set_maximum_image_size_limit (*pk_heif_api.context_set_maximum_image_size_limit)
#define heif_decode_image (*pk_heif_api.decode_image)
#define heif_decoding_options_alloc (*pk_heif_api.decoding_options_alloc)
#define heif_decoding_options_free (*pk_heif_api.decoding_options_free)
#define heif_image_get_bits_per_pixel_range (*pk_heif_api.image_get_bits_per_pixel_range)
#define heif_image_get_height (*pk_heif_api.image_get_height)
#define heif_image_get_plane_readonly (*pk_heif_api.image_get_plane_readonly)
#define heif_image_get_width (*pk_heif_api.image_get_width)
#define heif_image_handle_get_height (*pk_heif_api.image_handle_get_height)
#define heif_image_handle_get_list_of_thumbnail_IDs (*pk_heif_api.image_handle_get_list_of_thumbnail_IDs)
#define heif_image_handle_get_luma_bits_per_pixel (*pk_heif_api.image_handle_get_luma_bits_per_pixel)
#define heif_image_handle_get_thumbnail (*pk_heif_api.image_handle_get_thumbnail)
#define heif_image_handle_get_width (*pk_heif_api.image_handle_get_width)
#define heif_image_handle_has_alpha_channel (*pk_heif_api.image_handle_has_alpha_channel)
#define heif_image_handle_release (*pk_heif_api.image_handle_release)
#define heif_image_is_premultiplied_alpha (*pk_heif_api.image_is_premultiplied_alpha)
#define heif_image_release (*pk_heif_api.image_release)

// libheif is C++ behind a C API that never throws past it: every call
// returns a struct heif_error. A context is made per call (nothing is
// shared between threads) and reads the caller's bytes in place.
//
// Security limits: libheif 1.15 bounds box nesting and counts (20,000
// children, 20,000 items, 32 extents an item), each item's data (512 MB,
// and never past the file's end) and the image size; the size limit is set
// per context from the caller's, so a header claiming a larger picture or
// grid fails before libheif allocates it. Tiles of a grid are decoded on
// the calling thread, one after another (no extra threads, so the memory
// is one tile's decoder plus the assembled picture).

static void pk_heif_say(char *message, size_t capacity, const char *text) {
    if (message && capacity > 0) snprintf(message, capacity, "%s", text);
}

static pk_status pk_heif_status(struct heif_error error, char *message, size_t capacity) {
    if (error.code == heif_error_Ok) return PK_OK;
    pk_heif_say(message, capacity, error.message && error.message[0] ? error.message : "libheif failed");
    // A picture past the size limit (the caller's pixel limit, per side), whatever code libheif files it
    // under: refused, not out of memory.
    if (error.subcode == heif_suberror_Security_limit_exceeded) return PK_ERROR_UNSUPPORTED;
    switch (error.code) {
    case heif_error_Memory_allocation_error: return PK_ERROR_NO_MEMORY;
    case heif_error_Unsupported_filetype:
    case heif_error_Unsupported_feature:
        return PK_ERROR_UNSUPPORTED;
    case heif_error_Usage_error: return PK_ERROR_ARGUMENT;
    case heif_error_Invalid_input:
        if (error.subcode == heif_suberror_End_of_data) return PK_ERROR_TRUNCATED;
        return PK_ERROR_CORRUPT;
    default: return PK_ERROR_CORRUPT;
    }
}

// The context and primary image of the bytes, or a status.
static pk_status pk_heif_open(const uint8_t *data, size_t size, int max_dimension, struct heif_context **context,
                              struct heif_image_handle **primary, char *message, size_t capacity) {
    *context = NULL;
    *primary = NULL;
    if (!pk_heif_available(message, capacity)) return PK_ERROR_UNSUPPORTED;
    *context = heif_context_alloc();
    if (!*context) return PK_ERROR_NO_MEMORY;
    heif_context_set_maximum_image_size_limit(*context, max_dimension > 0 ? max_dimension : 1);
    heif_context_set_max_decoding_threads(*context, 0);
    pk_status status = pk_heif_status(heif_context_read_from_memory_without_copy(*context, data, size, NULL),
                                      message, capacity);
    if (status == PK_OK) status = pk_heif_status(heif_context_get_primary_image_handle(*context, primary), message, capacity);
    return status;
}

static void pk_heif_close(struct heif_context *context, struct heif_image_handle *primary) {
    if (primary) heif_image_handle_release(primary);
    if (context) heif_context_free(context);
}

pk_status pk_heif_read_info(const uint8_t *data, size_t size, int max_dimension, pk_heif_info *info,
                            char *message, size_t message_capacity) {
    if (!data || !info) return PK_ERROR_ARGUMENT;
    memset(info, 0, sizeof *info);
    struct heif_context *context;
    struct heif_image_handle *primary;
    pk_status status = pk_heif_open(data, size, max_dimension, &context, &primary, message, message_capacity);
    if (status == PK_OK) {
        info->width = heif_image_handle_get_width(primary);
        info->height = heif_image_handle_get_height(primary);
        info->has_alpha = heif_image_handle_has_alpha_channel(primary);
        info->bit_depth = heif_image_handle_get_luma_bits_per_pixel(primary);
        heif_item_id ids[PK_HEIF_MAX_THUMBNAILS];
        int count = heif_image_handle_get_list_of_thumbnail_IDs(primary, ids, PK_HEIF_MAX_THUMBNAILS);
        for (int i = 0; i < count && i < PK_HEIF_MAX_THUMBNAILS; i++) {
            struct heif_image_handle *thumbnail = NULL;
            if (heif_image_handle_get_thumbnail(primary, ids[i], &thumbnail).code != heif_error_Ok || !thumbnail) continue;
            int n = info->thumbnail_count++;
            info->thumbnail_width[n] = heif_image_handle_get_width(thumbnail);
            info->thumbnail_height[n] = heif_image_handle_get_height(thumbnail);
            heif_image_handle_release(thumbnail);
        }
    }
    pk_heif_close(context, primary);
    return status;
}

// Hands the decoded RGBA8 (straight or premultiplied) rows to the sink, premultiplied.
static void pk_heif_hand_over(const uint8_t *pixels, int stride, int width, int height, int premultiplied,
                              pk_row_sink sink, void *context, uint8_t *row) {
    for (int y = 0; y < height; y++) {
        const uint8_t *source = pixels + (size_t)y * (size_t)stride;
        const uint8_t *handed = source;
        if (!premultiplied) {
            for (int x = 0; x < width; x++) {
                unsigned a = source[x * 4 + 3];
                for (int c = 0; c < 3; c++) row[x * 4 + c] = (uint8_t)((source[x * 4 + c] * a + 127) / 255);
                row[x * 4 + 3] = (uint8_t)a;
            }
            handed = row;
        }
        if (sink(context, y, 0, 1, width, handed)) break;
    }
}

pk_status pk_heif_decode_rows(const uint8_t *data, size_t size, int max_dimension, int thumbnail_index,
                              int expected_width, int expected_height, pk_row_sink sink, void *context,
                              char *message, size_t message_capacity) {
    if (!data || !sink || expected_width < 1 || expected_height < 1) return PK_ERROR_ARGUMENT;
    struct heif_context *heif;
    struct heif_image_handle *primary, *handle = NULL, *thumbnail = NULL;
    struct heif_image *image = NULL;
    uint8_t *row = NULL;
    pk_status status = pk_heif_open(data, size, max_dimension, &heif, &primary, message, message_capacity);
    if (status != PK_OK) goto done;
    handle = primary;
    if (thumbnail_index >= 0) {
        heif_item_id ids[PK_HEIF_MAX_THUMBNAILS];
        int count = heif_image_handle_get_list_of_thumbnail_IDs(primary, ids, PK_HEIF_MAX_THUMBNAILS);
        if (thumbnail_index >= count || thumbnail_index >= PK_HEIF_MAX_THUMBNAILS) { status = PK_ERROR_ARGUMENT; goto done; }
        status = pk_heif_status(heif_image_handle_get_thumbnail(primary, ids[thumbnail_index], &thumbnail),
                                message, message_capacity);
        if (status != PK_OK) goto done;
        handle = thumbnail;
    }
    if (heif_image_handle_get_width(handle) != expected_width || heif_image_handle_get_height(handle) != expected_height) {
        pk_heif_say(message, message_capacity, "the image is not the size its header gave");
        status = PK_ERROR_CORRUPT;
        goto done;
    }

    struct heif_decoding_options *options = heif_decoding_options_alloc();
    if (!options) { status = PK_ERROR_NO_MEMORY; goto done; }
    options->ignore_transformations = 0;           // irot, imir and clap applied by libheif
    options->convert_hdr_to_8bit = 1;              // 10- and 12-bit samples to 8 bits
    status = pk_heif_status(heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, options),
                            message, message_capacity);
    heif_decoding_options_free(options);
    if (status != PK_OK) goto done;

    int width = heif_image_get_width(image, heif_channel_interleaved);
    int height = heif_image_get_height(image, heif_channel_interleaved);
    int stride = 0;
    const uint8_t *pixels = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride);
    if (!pixels || width != expected_width || height != expected_height || stride < width * 4 ||
        heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved) != 8) {
        pk_heif_say(message, message_capacity, "libheif gave a picture of another size or depth than its header");
        status = PK_ERROR_CORRUPT;
        goto done;
    }
    int premultiplied = heif_image_is_premultiplied_alpha(image);
    if (!premultiplied && !(row = malloc((size_t)width * 4))) { status = PK_ERROR_NO_MEMORY; goto done; }
    pk_heif_hand_over(pixels, stride, width, height, premultiplied, sink, context, row);

done:
    free(row);
    if (image) heif_image_release(image);
    if (thumbnail) heif_image_handle_release(thumbnail);
    pk_heif_close(heif, primary);
    return status;
}
