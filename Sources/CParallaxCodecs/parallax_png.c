#include "parallax_codecs.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// libpng's simplified API handles its own longjmp and reports failures in
// image.message, so no setjmp is needed here.

static void pk_png_message(const png_image *image, char *message, size_t capacity) {
    if (message && capacity > 0) snprintf(message, capacity, "%s", image->message);
}

static pk_status pk_png_status(const png_image *image) {
    if (strstr(image->message, "memory")) return PK_ERROR_NO_MEMORY;
    if (strstr(image->message, "EOF") || strstr(image->message, "too short") ||
        strstr(image->message, "Not enough") || strstr(image->message, "truncated") ||
        strstr(image->message, "Read Error") || strstr(image->message, "end of"))
        return PK_ERROR_TRUNCATED;
    return PK_ERROR_CORRUPT;
}

// Starts reading `data` into `image`; on failure fills `message` and frees the image.
static pk_status pk_png_begin(png_image *image, const uint8_t *data, size_t size, char *message, size_t capacity) {
    memset(image, 0, sizeof(*image));
    image->version = PNG_IMAGE_VERSION;
    if (png_image_begin_read_from_memory(image, data, size)) return PK_OK;
    pk_png_message(image, message, capacity);
    pk_status status = pk_png_status(image);
    png_image_free(image);
    return status;
}

pk_status pk_png_read_info(const uint8_t *data, size_t size, int *width, int *height,
                           char *message, size_t message_capacity) {
    if (!data || size == 0 || !width || !height) return PK_ERROR_ARGUMENT;
    png_image image;
    pk_status status = pk_png_begin(&image, data, size, message, message_capacity);
    if (status != PK_OK) return status;
    *width = (int)image.width;
    *height = (int)image.height;
    png_image_free(&image);
    return PK_OK;
}

pk_status pk_png_decode_premultiplied_rgba(const uint8_t *data, size_t size, uint8_t *pixels,
                                           size_t stride, int width, int height,
                                           char *message, size_t message_capacity) {
    if (!data || !pixels || size == 0) return PK_ERROR_ARGUMENT;
    png_image image;
    pk_status begun = pk_png_begin(&image, data, size, message, message_capacity);
    if (begun != PK_OK) return begun;
    if ((int)image.width != width || (int)image.height != height || stride < (size_t)width * 4) {
        png_image_free(&image);
        return PK_ERROR_ARGUMENT;
    }
    image.format = PNG_FORMAT_RGBA;
    if (!png_image_finish_read(&image, NULL, pixels, (png_int_32)stride, NULL)) {
        pk_png_message(&image, message, message_capacity);
        pk_status status = pk_png_status(&image);
        png_image_free(&image);
        return status;
    }
    // Premultiply, rounding to nearest: the pipeline's pixels are premultiplied.
    for (int y = 0; y < height; y++) {
        uint8_t *p = pixels + (size_t)y * stride;
        for (int x = 0; x < width; x++, p += 4) {
            unsigned a = p[3];
            if (a == 255) continue;
            p[0] = (uint8_t)((p[0] * a + 127) / 255);
            p[1] = (uint8_t)((p[1] * a + 127) / 255);
            p[2] = (uint8_t)((p[2] * a + 127) / 255);
        }
    }
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
