// libFuzzer over ParallaxKit's C layer alone (Sources/CParallaxCodecs),
// built by `make fuzz` with AddressSanitizer and UndefinedBehaviorSanitizer.
// Any bytes go to the header readers and the row decoders, with the scale
// and limits the input's last byte picks; the sink checks that every row
// the codecs hand over lies inside the picture their header describes.
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
        pk_jpeg_decode_rows(data, size, denominator, (knobs & 4) ? 1 : -1, 100, width, height, (knobs >> 3) & 1,
                            64u << 20, pk_fuzz_sink, &picture, &scans, &damaged, message, sizeof message);
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
    return 0;
}
