#include "parallax_codecs.h"

#include <avif/avif.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// libavif is loaded when the first AVIF photo is met, not at launch, for the
// same reasons as libheif (parallax_heif.c): its AV1 codecs (dav1d, aom,
// rav1e, SVT-AV1, libgav1) cost every launch time and memory. The versioned
// name is the one that matches the headers' ABI (0.11 is .so.15).
static struct {
    __typeof__(avifDecoderCreate) *DecoderCreate;
    __typeof__(avifDecoderDestroy) *DecoderDestroy;
    __typeof__(avifDecoderNextImage) *DecoderNextImage;
    __typeof__(avifDecoderParse) *DecoderParse;
    __typeof__(avifDecoderSetIOMemory) *DecoderSetIOMemory;
    __typeof__(avifImageYUVToRGB) *ImageYUVToRGB;
    __typeof__(avifRGBImageAllocatePixels) *RGBImageAllocatePixels;
    __typeof__(avifRGBImageFreePixels) *RGBImageFreePixels;
    __typeof__(avifRGBImageSetDefaults) *RGBImageSetDefaults;
    __typeof__(avifResultToString) *ResultToString;
} pk_avif_api;
static int pk_avif_loaded;
static pthread_once_t pk_avif_once = PTHREAD_ONCE_INIT;

static void pk_avif_load(void) {
    void *library = dlopen("libavif.so", RTLD_NOW | RTLD_LOCAL);
#if AVIF_VERSION_MAJOR == 0 && AVIF_VERSION_MINOR == 11
    if (!library) library = dlopen("libavif.so.15", RTLD_NOW | RTLD_LOCAL);
#endif
    if (!library) return;
#define PK_BIND(field, symbol) if (!(*(void **)&pk_avif_api.field = dlsym(library, #symbol))) return;
    PK_BIND(DecoderCreate, avifDecoderCreate)
    PK_BIND(DecoderDestroy, avifDecoderDestroy)
    PK_BIND(DecoderNextImage, avifDecoderNextImage)
    PK_BIND(DecoderParse, avifDecoderParse)
    PK_BIND(DecoderSetIOMemory, avifDecoderSetIOMemory)
    PK_BIND(ImageYUVToRGB, avifImageYUVToRGB)
    PK_BIND(RGBImageAllocatePixels, avifRGBImageAllocatePixels)
    PK_BIND(RGBImageFreePixels, avifRGBImageFreePixels)
    PK_BIND(RGBImageSetDefaults, avifRGBImageSetDefaults)
    PK_BIND(ResultToString, avifResultToString)
#undef PK_BIND
    pk_avif_loaded = 1;
}

// Whether libavif could be loaded; says why not in `message` if not.
static int pk_avif_available(char *message, size_t capacity) {
    pthread_once(&pk_avif_once, pk_avif_load);
    if (!pk_avif_loaded && message && capacity > 0) {
        snprintf(message, capacity, "libavif (libavif15) is not installed, or lacks a function this build uses");
    }
    return pk_avif_loaded;
}

#define avifDecoderCreate (*pk_avif_api.DecoderCreate)
#define avifDecoderDestroy (*pk_avif_api.DecoderDestroy)
#define avifDecoderNextImage (*pk_avif_api.DecoderNextImage)
#define avifDecoderParse (*pk_avif_api.DecoderParse)
#define avifDecoderSetIOMemory (*pk_avif_api.DecoderSetIOMemory)
#define avifImageYUVToRGB (*pk_avif_api.ImageYUVToRGB)
#define avifRGBImageAllocatePixels (*pk_avif_api.RGBImageAllocatePixels)
#define avifRGBImageFreePixels (*pk_avif_api.RGBImageFreePixels)
#define avifRGBImageSetDefaults (*pk_avif_api.RGBImageSetDefaults)
#define avifResultToString (*pk_avif_api.ResultToString)

// libavif returns an avifResult from every call and never longjmps. A
// decoder is made per call, reads the caller's bytes in place, and runs
// its AV1 codec (dav1d, libgav1 or libaom, whichever libavif prefers) on
// one thread. Strictness is off, as browsers have it: a file missing a
// `pixi` property or with an odd clean aperture still shows. Exif and XMP
// are not read. libavif does not apply `irot`/`imir` to the pixels; the
// caller turns the thumbnail by pk_avif_info.orientation.

static pk_status pk_avif_status(avifResult result, char *message, size_t capacity) {
    if (result == AVIF_RESULT_OK) return PK_OK;
    if (message && capacity > 0) snprintf(message, capacity, "libavif: %s", avifResultToString(result));
    switch (result) {
    case AVIF_RESULT_TRUNCATED_DATA:
    case AVIF_RESULT_IO_ERROR:
    case AVIF_RESULT_WAITING_ON_IO:
        return PK_ERROR_TRUNCATED;
    case AVIF_RESULT_OUT_OF_MEMORY: return PK_ERROR_NO_MEMORY;
    case AVIF_RESULT_NOT_IMPLEMENTED:
    case AVIF_RESULT_NO_CODEC_AVAILABLE:
    case AVIF_RESULT_UNSUPPORTED_DEPTH:
        return PK_ERROR_UNSUPPORTED;
    case AVIF_RESULT_INVALID_ARGUMENT: return PK_ERROR_ARGUMENT;
    default: return PK_ERROR_CORRUPT;
    }
}

// The EXIF orientation (1–8) for ISO/IEC 23008-12's `irot` (angle · 90°
// anticlockwise) followed by `imir` (mode 0: top and bottom exchanged;
// mode 1: left and right), the order MIAF requires.
static int pk_avif_orientation(const avifImage *image) {
    int angle = (image->transformFlags & AVIF_TRANSFORM_IROT) ? (image->irot.angle & 3) : 0;
    int mirror = (image->transformFlags & AVIF_TRANSFORM_IMIR) ? (image->imir.mode & 1) + 1 : 0;  // 1 = top-bottom, 2 = left-right
    // Rows: angle 0, 90° anticlockwise, 180°, 270° anticlockwise (90° clockwise).
    // Columns: no mirror, then top-bottom, then left-right.
    static const int table[4][3] = { { 1, 4, 2 }, { 8, 5, 7 }, { 3, 2, 4 }, { 6, 7, 5 } };
    return table[angle][mirror];
}

static avifDecoder *pk_avif_decoder(const uint8_t *data, size_t size, uint32_t max_pixels, char *message,
                                    size_t capacity, pk_status *status) {
    if (!pk_avif_available(message, capacity)) { *status = PK_ERROR_UNSUPPORTED; return NULL; }
    avifDecoder *decoder = avifDecoderCreate();
    if (!decoder) { *status = PK_ERROR_NO_MEMORY; return NULL; }
    decoder->maxThreads = 1;
    decoder->imageSizeLimit = max_pixels > 0 ? max_pixels : 1;
    decoder->strictFlags = AVIF_STRICT_DISABLED;
    decoder->ignoreExif = AVIF_TRUE;
    decoder->ignoreXMP = AVIF_TRUE;
    *status = pk_avif_status(avifDecoderSetIOMemory(decoder, data, size), message, capacity);
    if (*status == PK_OK) *status = pk_avif_status(avifDecoderParse(decoder), message, capacity);
    if (*status != PK_OK) {
        avifDecoderDestroy(decoder);
        return NULL;
    }
    return decoder;
}

pk_status pk_avif_read_info(const uint8_t *data, size_t size, uint32_t max_pixels, pk_avif_info *info,
                            char *message, size_t message_capacity) {
    if (!data || !info) return PK_ERROR_ARGUMENT;
    memset(info, 0, sizeof *info);
    pk_status status;
    // The header is read with libavif's own (larger) limit, so that the caller can refuse a picture over
    // its pixel limit by name; libavif reports its limit only as a parse failure.
    (void)max_pixels;
    avifDecoder *decoder = pk_avif_decoder(data, size, AVIF_DEFAULT_IMAGE_SIZE_LIMIT, message, message_capacity, &status);
    if (!decoder) return status;
    info->width = (int)decoder->image->width;
    info->height = (int)decoder->image->height;
    info->depth = (int)decoder->image->depth;
    info->has_alpha = decoder->alphaPresent ? 1 : 0;
    info->orientation = pk_avif_orientation(decoder->image);
    if (info->width < 1 || info->height < 1 || decoder->image->width > 0x7FFFFFFF || decoder->image->height > 0x7FFFFFFF) {
        if (message && message_capacity > 0) snprintf(message, message_capacity, "the AVIF gives no usable size");
        status = PK_ERROR_CORRUPT;
    }
    avifDecoderDestroy(decoder);
    return status;
}

pk_status pk_avif_decode_rows(const uint8_t *data, size_t size, uint32_t max_pixels, int expected_width,
                              int expected_height, pk_row_sink sink, void *context,
                              char *message, size_t message_capacity) {
    if (!data || !sink || expected_width < 1 || expected_height < 1) return PK_ERROR_ARGUMENT;
    pk_status status;
    avifDecoder *decoder = pk_avif_decoder(data, size, max_pixels, message, message_capacity, &status);
    if (!decoder) return status;
    status = pk_avif_status(avifDecoderNextImage(decoder), message, message_capacity);
    avifImage *image = decoder->image;
    if (status == PK_OK && ((int)image->width != expected_width || (int)image->height != expected_height)) {
        if (message && message_capacity > 0) snprintf(message, message_capacity, "the image is not the size its header gave");
        status = PK_ERROR_CORRUPT;
    }
    if (status != PK_OK) {
        avifDecoderDestroy(decoder);
        return status;
    }
    avifRGBImage rgb;
    avifRGBImageSetDefaults(&rgb, image);
    rgb.format = AVIF_RGB_FORMAT_RGBA;
    rgb.depth = 8;                                 // 10- and 12-bit samples reduced by libavif
    // Premultiplied only when there is alpha: an opaque picture then takes libavif's fastest path (libyuv),
    // the one avifdec takes.
    rgb.alphaPremultiplied = image->alphaPlane ? AVIF_TRUE : AVIF_FALSE;
    avifRGBImageAllocatePixels(&rgb);
    if (!rgb.pixels) {
        avifDecoderDestroy(decoder);
        return PK_ERROR_NO_MEMORY;
    }
    status = pk_avif_status(avifImageYUVToRGB(image, &rgb), message, message_capacity);
    if (status == PK_OK) {
        for (int y = 0; y < expected_height; y++) {
            if (sink(context, y, 0, 1, expected_width, rgb.pixels + (size_t)y * rgb.rowBytes)) break;
        }
    }
    avifRGBImageFreePixels(&rgb);
    avifDecoderDestroy(decoder);
    return status;
}
