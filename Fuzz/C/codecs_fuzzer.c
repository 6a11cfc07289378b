// libFuzzer over ParallaxKit's C layer alone (Sources/CParallaxCodecs),
// built by `make fuzz` with AddressSanitizer and UndefinedBehaviorSanitizer
// (on this layer; the system's libwebp, libheif and libavif are not
// instrumented, but what they hand back is checked). Any bytes go to every
// header reader and row decoder (JPEG, PNG, WebP, HEIF, AVIF), with the
// scale, crop, item and limits the input's last byte picks; the sink checks
// that every row the codecs hand over lies inside the picture asked for.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parallax_codecs.h"

typedef struct {
    int width;
    int height;
    unsigned long long checksum;
} pk_fuzz_picture;

static int pk_fuzz_sink(void *context, int y, int x0, int dx, int count, const uint8_t *rgba) {
    pk_fuzz_picture *picture = context;
    if (y < 0 || y >= picture->height || x0 < 0 || dx < 1 || count < 1 ||
        x0 + (long long)(count - 1) * dx >= picture->width)
        abort();
    // Read every byte handed over, so the sanitizers see a short row.
    for (int i = 0; i < count * 4; i++) picture->checksum = picture->checksum * 31 + rgba[i];
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    uint8_t knobs = data[size - 1];
    char message[200];
    pk_jpeg_info jpeg;
    if (pk_jpeg_read_info(data, size, &jpeg, message, sizeof message) == PK_OK) {
        // The Swift decoder's own bounds: 40 megapixels, at least a bit per 8 × 8 block (unless
        // arithmetic coded), 64 MB of coefficients.
        long long blocks = ((long long)jpeg.width + 7) / 8 * (((long long)jpeg.height + 7) / 8);
        if ((long long)jpeg.width * jpeg.height > 40000000 || jpeg.coefficient_bytes > (64u << 20) ||
            (!jpeg.is_arithmetic && blocks / 8 > (long long)size))
            return 0;
        int denominator = 1 << (knobs & 3), width, height, scans, damaged;
        pk_jpeg_scaled_size(jpeg.width, jpeg.height, denominator, &width, &height);
        pk_fuzz_picture picture = { width, height, 0 };
        if (knobs & 64) {
            // A region, as a zoomed-in detail view asks: the middle of the picture, cropped and skipped to.
            int x = width / 3, w = width / 3 > 0 ? width / 3 : 1, y = height / 2;
            pk_jpeg_decode_region_rows(data, size, denominator, (knobs & 4) ? 1 : -1, 100, width, height,
                                       (knobs >> 3) & 1, 64u << 20, x, w, y, pk_fuzz_sink, &picture, &scans, &damaged,
                                       message, sizeof message);
        } else {
            pk_jpeg_decode_rows(data, size, denominator, (knobs & 4) ? 1 : -1, 100, width, height, (knobs >> 3) & 1,
                                64u << 20, pk_fuzz_sink, &picture, &scans, &damaged, message, sizeof message);
        }
        // The DC-only path reads every JPEG it is given as far as it can, whatever the header says.
        pk_jpeg_scaled_size(jpeg.width, jpeg.height, 8, &width, &height);
        pk_fuzz_picture eighth = { width, height, 0 };
        pk_jpeg_decode_dc_rows(data, size, (knobs >> 4) & 3, 100, width, height, pk_fuzz_sink, &eighth, &scans);
    }
    pk_png_info png;
    if (pk_png_read_info(data, size, &png, message, sizeof message) == PK_OK) {
        if ((long long)png.width * png.height > 40000000) return 0;
        pk_fuzz_picture picture = { png.width, png.height, 0 };
        size_t peak = 0;
        pk_png_decode_rows(data, size, (size_t)(knobs & 15) << 20 | 65536, pk_fuzz_sink, &picture, &peak,
                           message, sizeof message);
        if (peak > ((size_t)(knobs & 15) << 20 | 65536)) abort();
    }
    pk_webp_info webp;
    if (pk_webp_read_info(data, size, &webp, message, sizeof message) == PK_OK) {
        if ((long long)webp.width * webp.height > 4000000) return 0;
        // Scaled by 1, 1/2 or 1/4, and cropped to the middle quarter when asked (animations: the canvas).
        int shift = knobs & 3 ? (knobs & 3) - 1 : 0;
        int crop = !webp.has_animation && (knobs & 4) && webp.width >= 4 && webp.height >= 4;
        int x = crop ? (webp.width / 4) & ~1 : 0, y = crop ? (webp.height / 4) & ~1 : 0;
        int w = crop ? webp.width / 2 : webp.width, h = crop ? webp.height / 2 : webp.height;
        int ow = webp.has_animation ? w : (w >> shift) + 1, oh = webp.has_animation ? h : (h >> shift) + 1;
        pk_fuzz_picture picture = { ow, oh, 0 };
        pk_webp_decode_rows(data, size, x, y, crop ? w : 0, crop ? h : 0, ow, oh, pk_fuzz_sink, &picture,
                            message, sizeof message);
    }
    pk_heif_info heif;
    if (pk_heif_read_info(data, size, 4096, &heif, message, sizeof message) == PK_OK) {
        if ((long long)heif.width * heif.height > 4000000) return 0;
        int item = (knobs & 8) && heif.thumbnail_count > 0 ? 0 : -1;
        int w = item < 0 ? heif.width : heif.thumbnail_width[0], h = item < 0 ? heif.height : heif.thumbnail_height[0];
        if (w > 0 && h > 0 && (long long)w * h <= 4000000) {
            pk_fuzz_picture picture = { w, h, 0 };
            pk_heif_decode_rows(data, size, 4096, item, w, h, pk_fuzz_sink, &picture, message, sizeof message);
        }
    }
    pk_avif_info avif;
    if (pk_avif_read_info(data, size, 4000000, &avif, message, sizeof message) == PK_OK) {
        if (avif.orientation < 1 || avif.orientation > 8) abort();
        if ((long long)avif.width * avif.height > 4000000) return 0;
        pk_fuzz_picture picture = { avif.width, avif.height, 0 };
        pk_avif_decode_rows(data, size, 4000000, avif.width, avif.height, pk_fuzz_sink, &picture, message, sizeof message);
    }
    return 0;
}
