// A progressive JPEG's 1/8-scale picture from its DC coefficients alone.
//
// At scale 1/8 every 8 × 8 block becomes one pixel, its mean, which is the
// block's DC coefficient times its quantizer, over 8, plus 128 (ITU-T T.81
// A.3.3; libjpeg's 1 × 1 inverse DCT computes exactly that). A progressive
// file sends every block's DC first, in its first scans, so that is all a
// 1/8 thumbnail needs. libjpeg cannot decode a progressive file without
// first allocating coefficient buffers for every block of the whole image
// (64 coefficients of 2 bytes each: 40 MB for a 12-megapixel photo), even
// when it stops after the first scan; this decoder keeps 2 bytes a block.
//
// It reads the DC scans of files libjpeg would read the same way and gives
// up (PK_ERROR_UNSUPPORTED) on anything else: other codings, damaged or
// truncated entropy data, unusual progressions, markers out of place. The
// caller then decodes the file with libjpeg, which says what is wrong with
// it, so this path never decides an error of its own.

#include "parallax_codecs.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { PK_DC_MAX_COMPONENTS = 3 };

// A Huffman table (T.81 C, F.2.2.3): codes of up to 8 bits are looked up
// from the next 8 bits at once, longer ones found length by length.
typedef struct {
    int defined;
    uint8_t fast_length[256];   // 0: no code of 8 bits or fewer starts so
    uint8_t fast_symbol[256];
    int32_t max_code[17];       // the largest code of each length, -1 for none
    int32_t offset[17];         // symbol index = offset[length] + code
    uint8_t symbols[256];
} pk_huffman;

typedef struct {
    int id, h, v, table;
    int blocks_wide, blocks_tall;   // the component's own blocks
    int padded_wide, padded_tall;   // rounded up to whole MCUs
    int16_t *dc;                    // padded_wide × padded_tall DC coefficients, point transform applied
    int seen;                       // its first DC scan has been read
    int low_bit;                    // Al of its last DC scan: the bits below are still missing
    int quantizer;                  // the DC quantizer, as of its first scan (libjpeg latches it then)
    int predictor;
} pk_dc_component;

typedef struct {
    const uint8_t *data;
    size_t size, position;
    uint64_t bits;                  // valid bits left-aligned
    int count;
    int at_marker;                  // a marker (or the end) stops the entropy data
    int padding;                    // zero bytes put in the buffer after it
} pk_bits;

// Whether bits past the entropy data were taken: the scan was cut short.
static int pk_bits_overran(const pk_bits *reader) { return reader->padding * 8 > reader->count; }

static void pk_bits_fill(pk_bits *reader) {
    while (reader->count <= 56) {
        uint64_t byte = 0;
        if (!reader->at_marker) {
            if (reader->position >= reader->size) {
                reader->at_marker = 1;
            } else if (reader->data[reader->position] != 0xFF) {
                byte = reader->data[reader->position++];
            } else if (reader->position + 1 < reader->size && reader->data[reader->position + 1] == 0x00) {
                byte = 0xFF;
                reader->position += 2;
            } else {
                reader->at_marker = 1;      // left in place for the marker reader
            }
        }
        // Past a marker the data reads as zeros; a scan that needed them is damaged (checked after it).
        if (reader->at_marker) reader->padding++;
        reader->bits |= byte << (56 - reader->count);
        reader->count += 8;
    }
}

static int pk_bits_take(pk_bits *reader, int n) {
    if (n == 0) return 0;
    pk_bits_fill(reader);
    int value = (int)(reader->bits >> (64 - n));
    reader->bits <<= n;
    reader->count -= n;
    return value;
}

static int pk_huffman_decode(pk_bits *reader, const pk_huffman *table) {
    pk_bits_fill(reader);
    int peek = (int)(reader->bits >> 56);
    int length = table->fast_length[peek];
    if (length) {
        reader->bits <<= length;
        reader->count -= length;
        return table->fast_symbol[peek];
    }
    int code = pk_bits_take(reader, 8);
    for (length = 9; length <= 16; length++) {
        code = (code << 1) | pk_bits_take(reader, 1);
        if (code <= table->max_code[length]) {
            int index = table->offset[length] + code;
            return index >= 0 && index < 256 ? table->symbols[index] : -1;
        }
    }
    return -1;
}

// Builds a table from a DHT segment's 16 counts and symbols; 0 if they
// describe no valid code.
static int pk_huffman_build(pk_huffman *table, const uint8_t counts[16], const uint8_t *symbols, int total) {
    memset(table, 0, sizeof(*table));
    memcpy(table->symbols, symbols, (size_t)total);
    int code = 0, index = 0;
    for (int length = 1; length <= 16; length++) {
        int count = counts[length - 1];
        if (code + count > (1 << length)) return 0;     // more codes than the length allows
        table->offset[length] = index - code;
        table->max_code[length] = count ? code + count - 1 : -1;
        for (int i = 0; i < count; i++, code++, index++) {
            if (length <= 8) {
                int shift = 8 - length, first = code << shift;
                for (int fill = 0; fill < (1 << shift); fill++) {
                    table->fast_length[first + fill] = (uint8_t)length;
                    table->fast_symbol[first + fill] = symbols[index];
                }
            }
        }
        code <<= 1;
    }
    table->defined = 1;
    return 1;
}

typedef struct {
    int width, height, component_count, max_h, max_v, restart_interval;
    pk_dc_component components[PK_DC_MAX_COMPONENTS];
    pk_huffman dc_tables[4];
    int quantizers[4];              // DC quantizer of each table, -1 until defined
} pk_dc_image;

static uint16_t pk_be16(const uint8_t *p) { return (uint16_t)((p[0] << 8) | p[1]); }

// The start of the next marker at or after `position` (the 0xFF before its
// code), skipping entropy-coded data, stuffed bytes and restart markers;
// `size` if there is none.
static size_t pk_next_marker(const uint8_t *data, size_t size, size_t position) {
    while (position + 1 < size) {
        if (data[position] == 0xFF) {
            uint8_t code = data[position + 1];
            if (code != 0x00 && code != 0xFF && (code < 0xD0 || code > 0xD7)) return position;
        }
        position++;
    }
    return size;
}

// The frame header (SOF2): 8-bit samples, one (grey) or three (YCbCr) components.
static pk_status pk_dc_read_frame(pk_dc_image *image, const uint8_t *segment, int length) {
    if (image->component_count) return PK_ERROR_UNSUPPORTED;               // a second frame
    if (length < 6 || segment[0] != 8) return PK_ERROR_UNSUPPORTED;
    image->height = pk_be16(segment + 1);
    image->width = pk_be16(segment + 3);
    int count = segment[5];
    if (image->width == 0 || image->height == 0) return PK_ERROR_UNSUPPORTED;  // DNL
    if ((count != 1 && count != 3) || length < 6 + 3 * count) return PK_ERROR_UNSUPPORTED;
    for (int c = 0; c < count; c++) {
        const uint8_t *p = segment + 6 + 3 * c;
        pk_dc_component *component = &image->components[c];
        component->id = p[0];
        component->h = p[1] >> 4;
        component->v = p[1] & 15;
        component->table = p[2];
        if (component->h < 1 || component->h > 4 || component->v < 1 || component->v > 4 || component->table > 3)
            return PK_ERROR_UNSUPPORTED;
        for (int other = 0; other < c; other++)
            if (image->components[other].id == component->id) return PK_ERROR_UNSUPPORTED;
        if (component->h > image->max_h) image->max_h = component->h;
        if (component->v > image->max_v) image->max_v = component->v;
    }
    // libjpeg takes three components labelled R, G, B as RGB, not YCbCr.
    if (count == 3 && image->components[0].id == 'R' && image->components[1].id == 'G' && image->components[2].id == 'B')
        return PK_ERROR_UNSUPPORTED;
    image->component_count = count;
    size_t mcus_wide = ((size_t)image->width + 8 * (size_t)image->max_h - 1) / (8 * (size_t)image->max_h);
    size_t mcus_tall = ((size_t)image->height + 8 * (size_t)image->max_v - 1) / (8 * (size_t)image->max_v);
    for (int c = 0; c < count; c++) {
        pk_dc_component *component = &image->components[c];
        size_t samples_wide = ((size_t)image->width * (size_t)component->h + (size_t)image->max_h - 1) / (size_t)image->max_h;
        size_t samples_tall = ((size_t)image->height * (size_t)component->v + (size_t)image->max_v - 1) / (size_t)image->max_v;
        component->blocks_wide = (int)((samples_wide + 7) / 8);
        component->blocks_tall = (int)((samples_tall + 7) / 8);
        component->padded_wide = (int)(mcus_wide * (size_t)component->h);
        component->padded_tall = (int)(mcus_tall * (size_t)component->v);
        component->dc = calloc((size_t)component->padded_wide * (size_t)component->padded_tall, sizeof(int16_t));
        if (!component->dc) return PK_ERROR_NO_MEMORY;
        component->low_bit = 99;
    }
    return PK_OK;
}

static pk_status pk_dc_read_tables(pk_dc_image *image, const uint8_t *segment, int length) {
    int at = 0;
    while (at < length) {
        if (length - at < 17) return PK_ERROR_UNSUPPORTED;
        int class = segment[at] >> 4, slot = segment[at] & 15;
        int total = 0;
        for (int i = 0; i < 16; i++) total += segment[at + 1 + i];
        if (class > 1 || slot > 3 || total > 256 || length - at - 17 < total) return PK_ERROR_UNSUPPORTED;
        if (class == 0) {
            // A DC symbol is a bit count: at most 11 for 8-bit samples.
            for (int i = 0; i < total; i++) if (segment[at + 17 + i] > 11) return PK_ERROR_UNSUPPORTED;
            if (!pk_huffman_build(&image->dc_tables[slot], segment + at + 1, segment + at + 17, total))
                return PK_ERROR_UNSUPPORTED;
        }
        at += 17 + total;
    }
    return PK_OK;
}

static pk_status pk_dc_read_quantizers(pk_dc_image *image, const uint8_t *segment, int length) {
    int at = 0;
    while (at < length) {
        int precision = segment[at] >> 4, slot = segment[at] & 15;
        int size = precision ? 129 : 65;
        if (precision > 1 || slot > 3 || length - at < size) return PK_ERROR_UNSUPPORTED;
        // The first value, in zig-zag order, is the DC quantizer.
        image->quantizers[slot] = precision ? pk_be16(segment + at + 1) : segment[at + 1];
        at += size;
    }
    return PK_OK;
}

// One DC scan, first or refining, with its restart markers. `*position`
// starts after the scan header and ends at the marker after the scan.
static pk_status pk_dc_read_scan(pk_dc_image *image, pk_dc_component **members, const int *tables, int member_count,
                                 int high_bit, int low_bit, const uint8_t *data, size_t size, size_t *position) {
    for (int m = 0; m < member_count; m++) {
        pk_dc_component *component = members[m];
        if (high_bit == 0) {
            if (component->seen || !image->dc_tables[tables[m]].defined) return PK_ERROR_UNSUPPORTED;
            if (image->quantizers[component->table] < 0) return PK_ERROR_UNSUPPORTED;
            component->quantizer = image->quantizers[component->table];
        } else if (!component->seen || high_bit != component->low_bit || low_bit != high_bit - 1) {
            return PK_ERROR_UNSUPPORTED;
        }
        component->predictor = 0;
    }
    int blocks_per_mcu = 0;
    for (int m = 0; m < member_count; m++) blocks_per_mcu += member_count == 1 ? 1 : members[m]->h * members[m]->v;
    if (blocks_per_mcu > 10) return PK_ERROR_UNSUPPORTED;

    // An interleaved scan's MCUs hold h × v blocks of each component; a
    // scan of one component goes block by block over its own blocks only.
    int mcus_wide, mcus_tall;
    if (member_count == 1) {
        mcus_wide = members[0]->blocks_wide;
        mcus_tall = members[0]->blocks_tall;
    } else {
        mcus_wide = (image->width + 8 * image->max_h - 1) / (8 * image->max_h);
        mcus_tall = (image->height + 8 * image->max_v - 1) / (8 * image->max_v);
    }
    pk_bits reader = { data, size, *position, 0, 0, 0, 0 };
    long mcus = (long)mcus_wide * mcus_tall, until_restart = image->restart_interval;
    for (long mcu = 0; mcu < mcus; mcu++) {
        if (image->restart_interval && until_restart == 0) {
            // Byte-aligned at a restart marker: the bits left are padding.
            if (pk_bits_overran(&reader) || !reader.at_marker || reader.position + 1 >= size) return PK_ERROR_UNSUPPORTED;
            uint8_t code = data[reader.position + 1];
            if (code < 0xD0 || code > 0xD7) return PK_ERROR_UNSUPPORTED;
            reader.position += 2;
            reader.bits = 0;
            reader.count = 0;
            reader.at_marker = 0;
            reader.padding = 0;
            for (int m = 0; m < member_count; m++) members[m]->predictor = 0;
            until_restart = image->restart_interval;
        }
        until_restart--;
        // Past the end of the data every block reads as zeros: stop there, not after millions of them.
        if (pk_bits_overran(&reader)) return PK_ERROR_UNSUPPORTED;
        int mcu_x = (int)(mcu % mcus_wide), mcu_y = (int)(mcu / mcus_wide);
        for (int m = 0; m < member_count; m++) {
            pk_dc_component *component = members[m];
            int h = member_count == 1 ? 1 : component->h, v = member_count == 1 ? 1 : component->v;
            for (int by = 0; by < v; by++) {
                for (int bx = 0; bx < h; bx++) {
                    int16_t *block = &component->dc[(size_t)(mcu_y * v + by) * (size_t)component->padded_wide +
                                                    (size_t)(mcu_x * h + bx)];
                    if (high_bit == 0) {
                        int bits = pk_huffman_decode(&reader, &image->dc_tables[tables[m]]);
                        if (bits < 0 || bits > 11) return PK_ERROR_UNSUPPORTED;
                        int difference = pk_bits_take(&reader, bits);
                        if (bits && difference < (1 << (bits - 1))) difference += 1 - (1 << bits);
                        component->predictor += difference;
                        // 8-bit DC values lie within ±2047 (11 bits); a larger sum is not a real file.
                        if (component->predictor < -2048 || component->predictor > 2047) return PK_ERROR_UNSUPPORTED;
                        int value = component->predictor * (1 << low_bit);
                        if (value < INT16_MIN || value > INT16_MAX) return PK_ERROR_UNSUPPORTED;
                        *block = (int16_t)value;
                    } else if (pk_bits_take(&reader, 1)) {
                        *block = (int16_t)(*block | (1 << low_bit));
                    }
                }
            }
        }
    }
    // The scan must end where its data did: bits taken past a marker were never sent.
    if (pk_bits_overran(&reader)) return PK_ERROR_UNSUPPORTED;
    for (int m = 0; m < member_count; m++) {
        members[m]->seen = 1;
        members[m]->low_bit = low_bit;
    }
    *position = pk_next_marker(data, size, reader.position);
    return PK_OK;
}

// x >> shift rounding towards minus infinity, whatever the sign (what
// libjpeg's RIGHT_SHIFT does on the machines it runs on).
static int64_t pk_floor_shift(int64_t x, int shift) {
    return x >= 0 ? x >> shift : -((-x + ((int64_t)1 << shift) - 1) >> shift);
}

static uint8_t pk_clamp(int64_t value) { return (uint8_t)(value < 0 ? 0 : value > 255 ? 255 : value); }

// A block's mean sample, as libjpeg's 1 × 1 inverse DCT gives it.
static int64_t pk_block_sample(const pk_dc_component *component, int x, int y) {
    int64_t dequantized = (int64_t)component->dc[(size_t)y * (size_t)component->padded_wide + (size_t)x] * component->quantizer;
    return pk_floor_shift(dequantized + 4, 3) + 128;
}

// Hands the picture to `sink` row by row: grey, or YCbCr turned into RGB
// with libjpeg's fixed-point coefficients (jdcolor.c), subsampled chroma
// replicated (at this scale libjpeg gives a 2 × 2 block from a chroma DC
// alone, which is the same).
static pk_status pk_dc_emit(const pk_dc_image *image, int output_width, int output_height, pk_row_sink sink, void *context) {
    uint8_t *row = malloc((size_t)output_width * 4);
    if (!row) return PK_ERROR_NO_MEMORY;
    const int64_t one_half = (int64_t)1 << 15;
    const int64_t cr_r = (int64_t)(1.40200 * 65536 + 0.5), cb_b = (int64_t)(1.77200 * 65536 + 0.5);
    const int64_t cr_g = (int64_t)(0.71414 * 65536 + 0.5), cb_g = (int64_t)(0.34414 * 65536 + 0.5);
    for (int y = 0; y < output_height; y++) {
        for (int x = 0; x < output_width; x++) {
            uint8_t *pixel = row + (size_t)x * 4;
            int64_t samples[PK_DC_MAX_COMPONENTS];
            for (int c = 0; c < image->component_count; c++) {
                const pk_dc_component *component = &image->components[c];
                int bx = x * component->h / image->max_h, by = y * component->v / image->max_v;
                if (bx >= component->padded_wide) bx = component->padded_wide - 1;
                if (by >= component->padded_tall) by = component->padded_tall - 1;
                samples[c] = pk_clamp(pk_block_sample(component, bx, by));
            }
            if (image->component_count == 1) {
                pixel[0] = pixel[1] = pixel[2] = (uint8_t)samples[0];
            } else {
                int64_t luma = samples[0], cb = samples[1] - 128, cr = samples[2] - 128;
                pixel[0] = pk_clamp(luma + pk_floor_shift(cr_r * cr + one_half, 16));
                pixel[1] = pk_clamp(luma + pk_floor_shift(-cb_g * cb + one_half - cr_g * cr, 16));
                pixel[2] = pk_clamp(luma + pk_floor_shift(cb_b * cb + one_half, 16));
            }
            pixel[3] = 255;
        }
        if (sink(context, y, 0, 1, output_width, row)) break;
    }
    free(row);
    return PK_OK;
}

// The zig-zag position of each coefficient in natural (row-major) order (parallax_jpeg.c).
extern const int pk_jpeg_zigzag_of_natural[64];

// Whether libjpeg's 1/8-scale decode reads AC coefficients `start`…`end`
// (zig-zag) of `component`: it gives a subsampled component a larger
// inverse DCT instead of upsampling it where the sampling factors allow
// (jdmaster.c: 2 × 2 for the chroma of 4:2:0), and that reads the block's
// first AC coefficients when they have arrived.
static int pk_dc_libjpeg_uses(const pk_dc_image *image, const pk_dc_component *component, int start, int end) {
    int scaled = 1;
    while (scaled < 8 && image->max_h % (component->h * scaled * 2) == 0 && image->max_v % (component->v * scaled * 2) == 0)
        scaled *= 2;
    for (int row = 0; row < scaled; row++)
        for (int column = 0; column < scaled; column++) {
            int zigzag = pk_jpeg_zigzag_of_natural[row * 8 + column];
            if (zigzag > 0 && zigzag >= start && zigzag <= end) return 1;
        }
    return 0;
}

pk_status pk_jpeg_decode_dc_rows(const uint8_t *data, size_t size, int max_missing_bits, int max_scans,
                                 int output_width, int output_height, pk_row_sink sink, void *context, int *scans_used) {
    if (!data || !sink || max_missing_bits < 0 || max_scans < 1 || output_width < 1 || output_height < 1)
        return PK_ERROR_ARGUMENT;
    if (size < 4 || data[0] != 0xFF || data[1] != 0xD8) return PK_ERROR_UNSUPPORTED;
    pk_dc_image image;
    memset(&image, 0, sizeof(image));
    for (int slot = 0; slot < 4; slot++) image.quantizers[slot] = -1;
    pk_status status = PK_ERROR_UNSUPPORTED;
    size_t position = 2;
    int scans = 0, complete = 0;
    while (!complete) {
        position = pk_next_marker(data, size, position);
        if (position + 4 > size) break;                                 // ended before the DC scans did
        uint8_t code = data[position + 1];
        position += 2;
        if (code == 0xD9) break;                                        // EOI before the DC scans ended
        if (code == 0x01) continue;                                     // TEM: no length
        size_t length = pk_be16(data + position);
        if (length < 2 || length > size - position) break;
        const uint8_t *segment = data + position + 2;
        int segment_length = (int)length - 2;
        position += length;
        if (code == 0xC2) {
            status = pk_dc_read_frame(&image, segment, segment_length);
        } else if ((code >= 0xC0 && code <= 0xCF && code != 0xC4 && code != 0xC8 && code != 0xCC) || code == 0xDC) {
            status = PK_ERROR_UNSUPPORTED;                              // not progressive Huffman, or DNL
        } else if (code == 0xC4) {
            status = pk_dc_read_tables(&image, segment, segment_length);
        } else if (code == 0xDB) {
            status = pk_dc_read_quantizers(&image, segment, segment_length);
        } else if (code == 0xDD) {
            status = segment_length >= 2 ? PK_OK : PK_ERROR_UNSUPPORTED;
            if (status == PK_OK) image.restart_interval = pk_be16(segment);
        } else if (code == 0xDA) {
            int count = segment_length >= 1 ? segment[0] : 0;
            if (!image.component_count || ++scans > max_scans || count < 1 || count > image.component_count ||
                segment_length < 1 + 2 * count + 3) {
                status = PK_ERROR_UNSUPPORTED;
                goto finish;
            }
            pk_dc_component *members[PK_DC_MAX_COMPONENTS];
            int tables[PK_DC_MAX_COMPONENTS];
            for (int m = 0; m < count; m++) {
                members[m] = NULL;
                for (int c = 0; c < image.component_count; c++)
                    if (image.components[c].id == segment[1 + 2 * m]) members[m] = &image.components[c];
                for (int other = 0; other < m; other++) if (members[other] == members[m]) members[m] = NULL;
                tables[m] = segment[2 + 2 * m] >> 4;
                if (!members[m] || tables[m] > 3) {
                    status = PK_ERROR_UNSUPPORTED;
                    goto finish;
                }
            }
            int start = segment[1 + 2 * count], end = segment[2 + 2 * count];
            int high_bit = segment[3 + 2 * count] >> 4, low_bit = segment[3 + 2 * count] & 15;
            if (start == 0) {
                if (end != 0 || low_bit > 13) {
                    status = PK_ERROR_UNSUPPORTED;
                    goto finish;
                }
                status = pk_dc_read_scan(&image, members, tables, count, high_bit, low_bit, data, size, &position);
                complete = status == PK_OK;
                for (int c = 0; c < image.component_count; c++) {
                    const pk_dc_component *component = &image.components[c];
                    if (!component->seen || component->low_bit > max_missing_bits) complete = 0;
                }
            } else {
                // An AC scan: not needed, and skipped, unless libjpeg would use it at this scale (see
                // pk_dc_libjpeg_uses), where the two decodes would differ.
                for (int m = 0; m < count; m++)
                    if (pk_dc_libjpeg_uses(&image, members[m], start, end)) {
                        status = PK_ERROR_UNSUPPORTED;
                        goto finish;
                    }
                status = PK_OK;
                position = pk_next_marker(data, size, position);
            }
        } else {
            status = PK_OK;                                             // APPn, COM and the like
        }
        if (status != PK_OK) goto finish;
    }
    if (!complete) {
        status = PK_ERROR_UNSUPPORTED;
        goto finish;
    }
    if (output_width != (image.width + 7) / 8 || output_height != (image.height + 7) / 8) {
        status = PK_ERROR_ARGUMENT;
        goto finish;
    }
    status = pk_dc_emit(&image, output_width, output_height, sink, context);
    if (scans_used) *scans_used = scans;
finish:
    for (int c = 0; c < PK_DC_MAX_COMPONENTS; c++) free(image.components[c].dc);
    return status;
}
