// Writes a HEIF whose stored pixels are a PPM's and whose irot/imir boxes
// say how to show them (heif-enc 1.15 cannot write them: it keeps an input
// JPEG's EXIF orientation as metadata only). Used to make test files.
//
//   heif-orient IN.ppm OUT.heic EXIF_ORIENTATION
//
// Built by scripts/make-codec-fixtures.sh and scripts/fetch-conformance.sh
// (with the Swift toolchain's clang):  clang heif-orient.c -lheif -o heif-orient
#include <libheif/heif.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: heif-orient IN.ppm OUT.heic ORIENTATION\n"); return 2; }
    FILE *in = fopen(argv[1], "rb");
    int width, height, maximum;
    if (!in || fscanf(in, "P6 %d %d %d", &width, &height, &maximum) != 3 || maximum != 255 || fgetc(in) == EOF) {
        fprintf(stderr, "heif-orient: %s is not an 8-bit binary PPM\n", argv[1]);
        return 1;
    }
    struct heif_image *image;
    heif_image_create(width, height, heif_colorspace_RGB, heif_chroma_interleaved_RGB, &image);
    heif_image_add_plane(image, heif_channel_interleaved, width, height, 8);
    int stride;
    uint8_t *pixels = heif_image_get_plane(image, heif_channel_interleaved, &stride);
    for (int y = 0; y < height; y++) {
        if (fread(pixels + (size_t)y * stride, 3, (size_t)width, in) != (size_t)width) { fprintf(stderr, "short PPM\n"); return 1; }
    }
    fclose(in);
    struct heif_context *context = heif_context_alloc();
    struct heif_encoder *encoder;
    struct heif_error error = heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder);
    if (error.code) { fprintf(stderr, "heif-orient: %s\n", error.message); return 1; }
    heif_encoder_set_lossy_quality(encoder, 90);
    struct heif_encoding_options *options = heif_encoding_options_alloc();
    options->image_orientation = (enum heif_orientation)atoi(argv[3]);
    error = heif_context_encode_image(context, image, encoder, options, NULL);
    if (!error.code) error = heif_context_write_to_file(context, argv[2]);
    if (error.code) { fprintf(stderr, "heif-orient: %s\n", error.message); return 1; }
    heif_encoding_options_free(options);
    heif_encoder_release(encoder);
    heif_image_release(image);
    heif_context_free(context);
    return 0;
}
