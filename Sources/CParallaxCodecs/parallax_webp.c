#include "parallax_codecs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <webp/decode.h>
#include <webp/demux.h>

// libwebp never longjmps: every call returns a VP8StatusCode. Still
// pictures decode through WebPDecode with the decoder's own cropping and
// scaling (its rescaler works row by row as the picture decodes, so the
// full-size picture is never converted to RGBA); animations through
// libwebpdemux's WebPAnimDecoder, which composes the first frame on the
// canvas.

static void pk_webp_say(char *message, size_t capacity, const char *text) {
    if (message && capacity > 0) snprintf(message, capacity, "%s", text);
}

static pk_status pk_webp_status(VP8StatusCode code, char *message, size_t capacity) {
    switch (code) {
    case VP8_STATUS_OK: return PK_OK;
    case VP8_STATUS_OUT_OF_MEMORY: pk_webp_say(message, capacity, "libwebp ran out of memory"); return PK_ERROR_NO_MEMORY;
    case VP8_STATUS_INVALID_PARAM: pk_webp_say(message, capacity, "invalid decoding parameters"); return PK_ERROR_ARGUMENT;
    case VP8_STATUS_UNSUPPORTED_FEATURE:
        pk_webp_say(message, capacity, "a WebP feature libwebp does not decode");
        return PK_ERROR_UNSUPPORTED;
    case VP8_STATUS_NOT_ENOUGH_DATA:
        pk_webp_say(message, capacity, "the WebP data ends before the picture does");
        return PK_ERROR_TRUNCATED;
    case VP8_STATUS_USER_ABORT: pk_webp_say(message, capacity, "decoding stopped"); return PK_ERROR_CORRUPT;
    case VP8_STATUS_BITSTREAM_ERROR:
    default: pk_webp_say(message, capacity, "libwebp rejected the bitstream"); return PK_ERROR_CORRUPT;
    }
}

pk_status pk_webp_read_info(const uint8_t *data, size_t size, pk_webp_info *info, char *message, size_t message_capacity) {
    if (!data || !info) return PK_ERROR_ARGUMENT;
    memset(info, 0, sizeof *info);
    WebPBitstreamFeatures features;
    pk_status status = pk_webp_status(WebPGetFeatures(data, size, &features), message, message_capacity);
    if (status != PK_OK) return status;
    info->width = features.width;
    info->height = features.height;
    info->has_alpha = features.has_alpha;
    info->has_animation = features.has_animation;
    info->format = features.format == 2 ? 1 : features.format == 1 ? 0 : 2;
    return PK_OK;
}

static pk_status pk_webp_hand_over(const uint8_t *rgba, int width, int height, size_t stride, pk_row_sink sink,
                                   void *context) {
    for (int y = 0; y < height; y++) {
        if (sink(context, y, 0, 1, width, rgba + (size_t)y * stride)) break;
    }
    return PK_OK;
}

// The first frame of an animation, composed on the canvas (premultiplied).
static pk_status pk_webp_first_frame(const uint8_t *data, size_t size, int output_width, int output_height,
                                     pk_row_sink sink, void *context, char *message, size_t message_capacity) {
    WebPAnimDecoderOptions options;
    if (!WebPAnimDecoderOptionsInit(&options)) return PK_ERROR_ARGUMENT;
    options.color_mode = MODE_rgbA;
    options.use_threads = 0;
    WebPData bytes = { data, size };
    WebPAnimDecoder *decoder = WebPAnimDecoderNew(&bytes, &options);
    if (!decoder) {
        pk_webp_say(message, message_capacity, "libwebpdemux rejected the animation");
        return PK_ERROR_CORRUPT;
    }
    WebPAnimInfo animation;
    uint8_t *canvas = NULL;
    int timestamp = 0;
    pk_status status = PK_OK;
    if (!WebPAnimDecoderGetInfo(decoder, &animation)) {
        pk_webp_say(message, message_capacity, "libwebpdemux rejected the animation");
        status = PK_ERROR_CORRUPT;
    } else if ((int)animation.canvas_width != output_width || (int)animation.canvas_height != output_height) {
        pk_webp_say(message, message_capacity, "the animation's canvas is not the size asked for");
        status = PK_ERROR_ARGUMENT;
    } else if (!WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) || !canvas) {
        pk_webp_say(message, message_capacity, "the animation's first frame does not decode");
        status = PK_ERROR_CORRUPT;
    } else {
        status = pk_webp_hand_over(canvas, output_width, output_height, (size_t)output_width * 4, sink, context);
    }
    WebPAnimDecoderDelete(decoder);
    return status;
}

pk_status pk_webp_decode_rows(const uint8_t *data, size_t size, int crop_x, int crop_y, int crop_width,
                              int crop_height, int output_width, int output_height, pk_row_sink sink,
                              void *context, char *message, size_t message_capacity) {
    if (!data || !sink || output_width < 1 || output_height < 1) return PK_ERROR_ARGUMENT;
    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) return PK_ERROR_ARGUMENT;
    pk_status status = pk_webp_status(WebPGetFeatures(data, size, &config.input), message, message_capacity);
    if (status != PK_OK) return status;
    if (config.input.has_animation)
        return pk_webp_first_frame(data, size, output_width, output_height, sink, context, message, message_capacity);

    int region_width = config.input.width, region_height = config.input.height;
    if (crop_width > 0) {
        config.options.use_cropping = 1;
        config.options.crop_left = crop_x;
        config.options.crop_top = crop_y;
        config.options.crop_width = crop_width;
        config.options.crop_height = crop_height;
        region_width = crop_width;
        region_height = crop_height;
    }
    if (output_width != region_width || output_height != region_height) {
        config.options.use_scaling = 1;
        config.options.scaled_width = output_width;
        config.options.scaled_height = output_height;
    }
    config.options.use_threads = 0;

    // The output buffer is ours, so its size is the one budgeted, whatever the file says.
    size_t stride = (size_t)output_width * 4;
    if ((size_t)output_height > ((size_t)-1) / stride) return PK_ERROR_NO_MEMORY;
    uint8_t *pixels = malloc(stride * (size_t)output_height);
    if (!pixels) return PK_ERROR_NO_MEMORY;
    config.output.colorspace = MODE_rgbA;          // premultiplied RGBA
    config.output.is_external_memory = 1;
    config.output.u.RGBA.rgba = pixels;
    config.output.u.RGBA.stride = (int)stride;
    config.output.u.RGBA.size = stride * (size_t)output_height;

    status = pk_webp_status(WebPDecode(data, size, &config), message, message_capacity);
    if (status == PK_OK) {
        if (config.output.width != output_width || config.output.height != output_height) {
            pk_webp_say(message, message_capacity, "libwebp gave a picture of another size");
            status = PK_ERROR_CORRUPT;
        } else {
            status = pk_webp_hand_over(pixels, output_width, output_height, stride, sink, context);
        }
    }
    WebPFreeDecBuffer(&config.output);
    free(pixels);
    return status;
}
