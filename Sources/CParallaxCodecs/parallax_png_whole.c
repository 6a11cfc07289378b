// A PNG's rows decoded here instead of by libpng, for the files photos and
// screenshots come as: 8-bit RGB or RGBA, not interlaced, without tRNS or a
// palette.
//
// Whole: libpng inflates a PNG's image data through zlib, a few kilobytes at
// a time, and for a photo-sized PNG that inflate is half the decode.
// libdeflate inflates a whole zlib stream at once three to five times
// faster, given the whole output buffer: a PNG's size is exactly known from
// its header (one filter byte and the row's bytes, per row; PNG
// specification, 7.2). This path finds the IDAT chunks, inflates them in one
// call into that buffer, undoes each row's filter (specification, 9) in
// place, and hands the rows over as libpng's path would, RGBA and
// premultiplied, pixel for pixel the same.
//
// Row by row (at the end of the file): the same files when their whole image
// is more memory than a decode may hold, zlib inflating a few rows at a time.
//
// The whole path decides no error: every check is made before the first row
// is handed over: the chunks' layout and lengths, the CRC of IHDR and of
// every IDAT (libpng's default for critical chunks), the zlib stream's
// header, Adler-32 and exact size, and every row's filter type. A file that
// fails any of them, or is of another kind, gets PK_ERROR_UNSUPPORTED and
// is decoded by libpng, which says what is wrong with it (or, for a benign
// flaw such as extra data after the image, decodes it anyway). One flaw
// goes the other way: a zlib header claiming a smaller window than its data
// uses, which zlib refuses and libdeflate (always keeping 32 KB) decodes.

#include "parallax_codecs.h"

#include <libdeflate.h>
#include <zlib.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

// libpng's own default limit on each side (png_set_user_limits in parallax_png.c).
enum { PK_PNG_WHOLE_MAX_SIDE = 1000000 };
// What libdeflate's decompressor takes besides the buffers (about 10 KB in libdeflate 1.14), rounded up.
enum { PK_PNG_WHOLE_STATE_BYTES = 64 << 10 };

// The bytes whole-image decodes hold together: at most the limit each is given (PK_PNG_WHOLE_SHARED_LIMIT
// through pk_png_decode_rows). A decode that would pass it takes libpng's rows (the same pixels, in a few
// hundred kilobytes) instead of waiting, so decodes on every core at once add at most that much.
static _Atomic size_t pk_png_whole_in_use = 0;

static int pk_png_whole_claim(size_t bytes, size_t limit) {
    size_t used = atomic_load(&pk_png_whole_in_use);
    do {
        if (used > limit || bytes > limit - used) return 0;
    } while (!atomic_compare_exchange_weak(&pk_png_whole_in_use, &used, used + bytes));
    return 1;
}

static void pk_png_whole_release(size_t bytes) { atomic_fetch_sub(&pk_png_whole_in_use, bytes); }

// The image's buffers are mapped from the kernel and unmapped after: given back at once, never kept in
// malloc's free lists (glibc serves blocks below its mmap threshold, which rises to the size of each mapped
// block it frees, from arenas that keep them). They are populated in one call: touched page by page, a
// 6-megapixel image's would fault 4,500 times (about a tenth of the decode's time).
static void *pk_png_map(size_t bytes) {
#ifdef MAP_POPULATE
    int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE;
#else
    int flags = MAP_PRIVATE | MAP_ANONYMOUS;
#endif
    void *block = mmap(NULL, bytes, PROT_READ | PROT_WRITE, flags, -1, 0);
    return block == MAP_FAILED ? NULL : block;
}

static void pk_png_unmap(void *block, size_t bytes) {
    if (block) munmap(block, bytes);
}

typedef struct {
    uint32_t width, height;
    int channels;                   // 3 (RGB) or 4 (RGBA)
    size_t row_bytes;               // the filter byte and the row's samples
    size_t raw_bytes;               // row_bytes × height
    const uint8_t *first_idat;      // the first IDAT's data
    size_t idat_bytes;              // every IDAT's data, in all
    int idat_count;
} pk_png_whole_layout;

static uint32_t pk_be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

// The chunk at `offset`: its data length and where its data starts. 0 when
// the file has no whole chunk there (its length, type, data and CRC).
static int pk_png_chunk(const uint8_t *data, size_t size, size_t offset, uint32_t *length, const uint8_t **type) {
    if (offset > size || size - offset < 12) return 0;
    uint32_t claimed = pk_be32(data + offset);
    if (claimed > 0x7FFFFFFFu || size - offset - 12 < claimed) return 0;   // the specification's limit, and the file's end
    for (int i = 4; i < 8; i++) {                                          // letters only, as libpng insists
        uint8_t letter = data[offset + i] & 0xDF;
        if (letter < 'A' || letter > 'Z') return 0;
    }
    *length = claimed;
    *type = data + offset + 4;
    return 1;
}

static int pk_png_crc_matches(const uint8_t *data, size_t offset, uint32_t length) {
    uint32_t stored = pk_be32(data + offset + 8 + length);
    return libdeflate_crc32(0, data + offset + 4, (size_t)length + 4) == stored;
}

// Reads the layout of a file this path takes; 0 for any other file.
static int pk_png_whole_scan(const uint8_t *data, size_t size, pk_png_whole_layout *layout) {
    static const uint8_t signature[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n' };
    if (!data || size < 8 || memcmp(data, signature, 8) != 0) return 0;
    size_t offset = 8;
    uint32_t length;
    const uint8_t *type;
    if (!pk_png_chunk(data, size, offset, &length, &type) || memcmp(type, "IHDR", 4) != 0 || length != 13 ||
        !pk_png_crc_matches(data, offset, length)) return 0;
    const uint8_t *header = type + 4;
    uint32_t width = pk_be32(header), height = pk_be32(header + 4);
    int depth = header[8], color = header[9];
    if (width == 0 || height == 0 || width > PK_PNG_WHOLE_MAX_SIDE || height > PK_PNG_WHOLE_MAX_SIDE) return 0;
    if (depth != 8 || (color != 2 && color != 6) || header[10] != 0 || header[11] != 0 || header[12] != 0) return 0;
    memset(layout, 0, sizeof(*layout));
    layout->width = width;
    layout->height = height;
    layout->channels = color == 6 ? 4 : 3;
    layout->row_bytes = 1 + (size_t)width * (size_t)layout->channels;     // at most 4,000,001
    if ((size_t)height > SIZE_MAX / layout->row_bytes) return 0;
    layout->raw_bytes = layout->row_bytes * height;
    offset += 12 + length;

    // Up to the IDATs: ancillary chunks are skipped (as libpng skips them here, its CRC flaws only warned
    // of); a critical one (PLTE, or one this path does not know) and tRNS are libpng's.
    while (1) {
        if (!pk_png_chunk(data, size, offset, &length, &type)) return 0;
        if (memcmp(type, "IDAT", 4) == 0) break;
        if (!(type[0] & 0x20) || memcmp(type, "tRNS", 4) == 0) return 0;
        offset += 12 + length;
    }
    // The IDATs, one after another (libpng reads no further once the image is complete).
    layout->first_idat = type + 4;
    while (pk_png_chunk(data, size, offset, &length, &type) && memcmp(type, "IDAT", 4) == 0) {
        if (!pk_png_crc_matches(data, offset, length)) return 0;
        if (layout->idat_bytes > SIZE_MAX - length) return 0;
        layout->idat_bytes += length;
        layout->idat_count++;
        offset += 12 + length;
    }
    return layout->idat_bytes > 0;
}

// The memory a decode of `layout` takes: the image's bytes, the gathered IDATs, the RGBA row, the zeros
// above the first row and libdeflate's state. 0 if that overflows.
static size_t pk_png_whole_bytes(const pk_png_whole_layout *layout) {
    size_t bytes = layout->raw_bytes;
    size_t extras[] = { layout->idat_count > 1 ? layout->idat_bytes : 0, (size_t)layout->width * 4, layout->row_bytes,
                        PK_PNG_WHOLE_STATE_BYTES };
    for (size_t i = 0; i < sizeof extras / sizeof extras[0]; i++) {
        if (bytes > SIZE_MAX - extras[i]) return 0;
        bytes += extras[i];
    }
    return bytes;
}

size_t pk_png_whole_image_bytes(const uint8_t *data, size_t size) {
    pk_png_whole_layout layout;
    return pk_png_whole_scan(data, size, &layout) ? pk_png_whole_bytes(&layout) : 0;
}

// The Paeth predictor (specification, 9.4), as libpng computes it: the
// nearest of a (left), b (above) and c (above left) to a + b - c, ties to
// a, then b; two conditional moves, no branch to mispredict.
static inline int pk_paeth(int a, int b, int c) {
    int p = b - c, q = a - c;
    int pa = abs(p), pb = abs(q), pc = abs(p + q);
    int predictor = a;
    if (pb < pa) { pa = pb; predictor = b; }
    if (pc < pa) predictor = c;
    return predictor;
}

#if defined(__SSE2__)
// Paeth rows with SSE2 (every x86-64 processor has it): one pixel a step,
// its three or four bytes side by side as 16-bit lanes, so a step is a few
// vector instructions instead of the scalar predictor once per byte. The
// rows are serial (each pixel's left neighbour is the one just decoded),
// so this is as wide as it gets. On the sample photos' PNGs, where the
// Paeth filter is nearly every row, whole decodes take 0.81 of the scalar
// version's time (inflate included: 316 ms against 390 for the seven).
#include <emmintrin.h>

// A pixel's bytes as 16-bit lanes. Three bytes are put together in a
// register, never through memory: a load that spans several smaller stores
// cannot be forwarded from them, and stalls until they are written.
static inline __m128i pk_paeth_load(const uint8_t *pixel, int bpp) {
    uint32_t bytes;
    if (bpp == 4) memcpy(&bytes, pixel, 4);
    else bytes = (uint32_t)pixel[0] | (uint32_t)pixel[1] << 8 | (uint32_t)pixel[2] << 16;
    return _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)bytes), _mm_setzero_si128());
}

static inline void pk_paeth_store(uint8_t *pixel, __m128i lanes, int bpp) {
    uint32_t bytes = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(lanes, lanes));
    if (bpp == 4) {
        memcpy(pixel, &bytes, 4);
    } else {
        pixel[0] = (uint8_t)bytes;
        pixel[1] = (uint8_t)(bytes >> 8);
        pixel[2] = (uint8_t)(bytes >> 16);
    }
}

static inline __m128i pk_paeth_abs(__m128i x) { return _mm_max_epi16(x, _mm_sub_epi16(_mm_setzero_si128(), x)); }

static inline __m128i pk_paeth_pick(__m128i mask, __m128i chosen, __m128i otherwise) {
    return _mm_or_si128(_mm_and_si128(mask, chosen), _mm_andnot_si128(mask, otherwise));
}

// One Paeth step: the pixel `x` (filtered) decoded against its left `a`, above `b` and above-left `c`.
static inline __m128i pk_paeth_step(__m128i x, __m128i a, __m128i b, __m128i c) {
    const __m128i low_byte = _mm_set1_epi16(0xFF);
    __m128i p = _mm_sub_epi16(b, c), q = _mm_sub_epi16(a, c);
    __m128i pa = pk_paeth_abs(p), pb = pk_paeth_abs(q), pc = pk_paeth_abs(_mm_add_epi16(p, q));
    // The nearest, ties to a, then b: c unless b is the smallest, a if it is.
    __m128i smallest = _mm_min_epi16(pc, _mm_min_epi16(pa, pb));
    __m128i predictor = pk_paeth_pick(_mm_cmpeq_epi16(pb, smallest), b, c);
    predictor = pk_paeth_pick(_mm_cmpeq_epi16(pa, smallest), a, predictor);
    return _mm_and_si128(_mm_add_epi16(x, predictor), low_byte);
}

// `bpp` is a constant where this is inlined, so each pixel's loads and store are one move.
static inline __attribute__((always_inline)) void pk_png_paeth_pixels(uint8_t *row, const uint8_t *previous,
                                                                      size_t count, int bpp) {
    __m128i a = _mm_setzero_si128(), c = _mm_setzero_si128();
    for (size_t i = 0; i + (size_t)bpp <= count; i += (size_t)bpp) {
        __m128i b = pk_paeth_load(previous + i, bpp);
        a = pk_paeth_step(pk_paeth_load(row + i, bpp), a, b, c);
        pk_paeth_store(row + i, a, bpp);
        c = b;
    }
}

static void pk_png_paeth(uint8_t *row, const uint8_t *previous, size_t count, int bpp) {
    if (bpp == 4) pk_png_paeth_pixels(row, previous, count, 4);
    else pk_png_paeth_pixels(row, previous, count, 3);
}

// Two Paeth rows, one under the other, a pixel of each a step. A row alone
// is one chain of dependent steps (each pixel needs the one to its left):
// the processor waits on each step's latency with most of its units idle.
// The second row's pixel x needs the first row's x and x - 1, so it runs a
// pixel behind the first, and the two chains overlap: on the sample PNGs
// (nearly every row Paeth) unfiltering takes about three quarters of the
// time it took a row at a time.
// The first row's pixels reach the second from registers, not memory.
static inline __attribute__((always_inline)) void pk_png_paeth_pair_pixels(uint8_t *first, uint8_t *second,
                                                                           const uint8_t *above, size_t count,
                                                                           int bpp) {
    // The first row's left (a) and above-left (c); the second row's left; the first row's pixel
    // two to the left of the current one (the second row's above-left).
    __m128i a = _mm_setzero_si128(), c = _mm_setzero_si128(), second_a = _mm_setzero_si128();
    __m128i first_before_a = _mm_setzero_si128();
    size_t pixels = count / (size_t)bpp;
    for (size_t i = 0; i < pixels; i++) {
        size_t at = i * (size_t)bpp;
        __m128i b = pk_paeth_load(above + at, bpp);
        __m128i decoded = pk_paeth_step(pk_paeth_load(first + at, bpp), a, b, c);
        pk_paeth_store(first + at, decoded, bpp);
        if (i > 0) {                          // the second row's pixel i - 1: above it a, above-left first_before_a
            size_t behind = at - (size_t)bpp;
            second_a = pk_paeth_step(pk_paeth_load(second + behind, bpp), second_a, a, first_before_a);
            pk_paeth_store(second + behind, second_a, bpp);
        }
        first_before_a = a;
        a = decoded;
        c = b;
    }
    if (pixels > 0) {                          // the second row's last pixel
        size_t behind = (pixels - 1) * (size_t)bpp;
        second_a = pk_paeth_step(pk_paeth_load(second + behind, bpp), second_a, a, first_before_a);
        pk_paeth_store(second + behind, second_a, bpp);
    }
}

static void pk_png_paeth_pair(uint8_t *first, uint8_t *second, const uint8_t *above, size_t count, int bpp) {
    if (bpp == 4) pk_png_paeth_pair_pixels(first, second, above, count, 4);
    else pk_png_paeth_pair_pixels(first, second, above, count, 3);
}
#else
// Paeth rows of 3- and 4-byte pixels: the left pixel and the one above it
// are kept in variables of their own, not read back from the row just
// written, so each byte's dependency chain is the predictor alone (a
// store's round trip through memory would add more than the arithmetic).
#define PK_PAETH_STEP(k) do { \
        int b##k = previous[i + k]; \
        a##k = row[i + k] = (uint8_t)(row[i + k] + pk_paeth(a##k, b##k, c##k)); \
        c##k = b##k; \
    } while (0)

static void pk_png_paeth3(uint8_t *row, const uint8_t *previous, size_t count) {
    int a0 = 0, a1 = 0, a2 = 0, c0 = 0, c1 = 0, c2 = 0;
    for (size_t i = 0; i + 3 <= count; i += 3) {
        PK_PAETH_STEP(0); PK_PAETH_STEP(1); PK_PAETH_STEP(2);
    }
}

static void pk_png_paeth4(uint8_t *row, const uint8_t *previous, size_t count) {
    int a0 = 0, a1 = 0, a2 = 0, a3 = 0, c0 = 0, c1 = 0, c2 = 0, c3 = 0;
    for (size_t i = 0; i + 4 <= count; i += 4) {
        PK_PAETH_STEP(0); PK_PAETH_STEP(1); PK_PAETH_STEP(2); PK_PAETH_STEP(3);
    }
}

static void pk_png_paeth(uint8_t *row, const uint8_t *previous, size_t count, int bpp) {
    if (bpp == 4) pk_png_paeth4(row, previous, count);
    else pk_png_paeth3(row, previous, count);
}

static void pk_png_paeth_pair(uint8_t *first, uint8_t *second, const uint8_t *above, size_t count, int bpp) {
    pk_png_paeth(first, above, count, bpp);
    pk_png_paeth(second, first, count, bpp);
}
#endif

// Undoes `row`'s filter in place against `previous` (the row above, unfiltered; zeros for the first), for
// `bpp` (3 or 4) bytes a pixel; `count` is a multiple of it. Filter types were checked before.
static void pk_png_unfilter(int filter, uint8_t *row, const uint8_t *previous, size_t count, int bpp) {
    size_t i;
    switch (filter) {
    case 1:
        for (i = (size_t)bpp; i < count; i++) row[i] = (uint8_t)(row[i] + row[i - bpp]);
        break;
    case 2:
        for (i = 0; i < count; i++) row[i] = (uint8_t)(row[i] + previous[i]);
        break;
    case 3:
        for (i = 0; i < (size_t)bpp; i++) row[i] = (uint8_t)(row[i] + (previous[i] >> 1));
        for (; i < count; i++) row[i] = (uint8_t)(row[i] + ((row[i - bpp] + previous[i]) >> 1));
        break;
    case 4:
        pk_png_paeth(row, previous, count, bpp);
        break;
    default:
        break;
    }
}

// Undoes the filters of `row` and, when there is one, of `next` (the row under it), both with their filter
// byte first, against `above` (unfiltered samples). Two Paeth rows, the usual case in photos, are done as a
// pair (pk_png_paeth_pair).
static void pk_png_unfilter_rows(uint8_t *row, uint8_t *next, const uint8_t *above, size_t samples, int bpp) {
    if (next && row[0] == 4 && next[0] == 4) {
        pk_png_paeth_pair(row + 1, next + 1, above, samples, bpp);
        return;
    }
    pk_png_unfilter(row[0], row + 1, above, samples, bpp);
    if (next) pk_png_unfilter(next[0], next + 1, row + 1, samples, bpp);
}

// An unfiltered row as premultiplied RGBA, as libpng's path hands it over.
static void pk_png_row_to_rgba(const uint8_t *samples, uint8_t *rgba, const pk_png_whole_layout *layout) {
    if (layout->channels == 4) {
        memcpy(rgba, samples, (size_t)layout->width * 4);
        pk_png_premultiply(rgba, (int)layout->width);
        return;
    }
    uint32_t x = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    // A pixel a move: its three bytes and the next pixel's first read as one word, whose top byte becomes
    // the alpha (a byte at a time was a tenth of a large PNG's decode). The last pixel, whose word would
    // read past the row, goes a byte at a time.
    for (; x + 1 < layout->width; x++) {
        uint32_t word;
        memcpy(&word, samples + 3 * (size_t)x, 4);
        word |= 0xFF000000u;
        memcpy(rgba + 4 * (size_t)x, &word, 4);
    }
#endif
    for (; x < layout->width; x++) {
        rgba[4 * (size_t)x] = samples[3 * (size_t)x];
        rgba[4 * (size_t)x + 1] = samples[3 * (size_t)x + 1];
        rgba[4 * (size_t)x + 2] = samples[3 * (size_t)x + 2];
        rgba[4 * (size_t)x + 3] = 0xFF;
    }
}

pk_status pk_png_whole_decode_rows(const uint8_t *data, size_t size, size_t max_memory, size_t shared_limit,
                                   pk_row_sink sink, void *context, size_t *peak_memory) {
    pk_png_whole_layout layout;
    if (!sink || !pk_png_whole_scan(data, size, &layout)) return PK_ERROR_UNSUPPORTED;
    size_t needed = pk_png_whole_bytes(&layout);
    if (needed == 0 || needed > max_memory || !pk_png_whole_claim(needed, shared_limit)) return PK_ERROR_UNSUPPORTED;

    // The image data in one piece: in place when it is one IDAT, else gathered.
    size_t gathered_bytes = layout.idat_count > 1 ? layout.idat_bytes : 0;
    uint8_t *gathered = gathered_bytes ? pk_png_map(gathered_bytes) : NULL;
    const uint8_t *compressed = layout.first_idat;
    if (gathered) {
        size_t offset = (size_t)(layout.first_idat - data) - 8, filled = 0;
        uint32_t length;
        const uint8_t *type;
        for (int i = 0; i < layout.idat_count && pk_png_chunk(data, size, offset, &length, &type); i++) {
            memcpy(gathered + filled, type + 4, length);
            filled += length;
            offset += 12 + length;
        }
        compressed = gathered;
    }
    uint8_t *raw = pk_png_map(layout.raw_bytes);
    uint8_t *rgba = malloc((size_t)layout.width * 4);
    struct libdeflate_decompressor *inflater = libdeflate_alloc_decompressor();
    pk_status status = PK_ERROR_UNSUPPORTED;
    // Exactly the image's bytes, no fewer (a NULL actual size asks for that), Adler-32 checked.
    if ((gathered || !gathered_bytes) && raw && rgba && inflater &&
        libdeflate_zlib_decompress(inflater, compressed, layout.idat_bytes, raw, layout.raw_bytes, NULL) == LIBDEFLATE_SUCCESS) {
        int valid = 1;
        for (uint32_t y = 0; y < layout.height && valid; y++) valid = raw[(size_t)y * layout.row_bytes] <= 4;
        if (valid) {
            size_t samples = layout.row_bytes - 1;
            const uint8_t *previous = NULL;
            // The first row's "row above" is zeros: the filters' formulas with b = c = 0.
            uint8_t *zeros = calloc(1, samples);
            if (zeros) {
                previous = zeros;
                status = PK_OK;
                int stopped = 0;
                for (uint32_t y = 0; y < layout.height && !stopped; y += 2) {
                    uint8_t *row = raw + (size_t)y * layout.row_bytes;
                    uint8_t *next = y + 1 < layout.height ? row + layout.row_bytes : NULL;
                    pk_png_unfilter_rows(row, next, previous, samples, layout.channels);
                    pk_png_row_to_rgba(row + 1, rgba, &layout);
                    stopped = sink(context, (int)y, 0, 1, (int)layout.width, rgba);
                    if (next && !stopped) {
                        pk_png_row_to_rgba(next + 1, rgba, &layout);
                        stopped = sink(context, (int)y + 1, 0, 1, (int)layout.width, rgba);
                    }
                    previous = (next ? next : row) + 1;
                }
                free(zeros);
            }
        }
    }
    if (status == PK_OK && peak_memory) *peak_memory = needed;
    if (inflater) libdeflate_free_decompressor(inflater);
    free(rgba);
    pk_png_unmap(raw, layout.raw_bytes);
    pk_png_unmap(gathered, gathered_bytes);
    pk_png_whole_release(needed);
    return status;
}

// ---- Row by row: zlib's inflate, a few rows at a time ----
//
// The same files, when their whole image is more than the memory a decode
// may hold (large PNG photos) or decoded ahead of need: zlib inflates a
// block of rows at a time (64 KB of them, at least two), and the rows are
// unfiltered here (the SSE2 Paeth above, two rows together) instead of by
// libpng, whose Paeth filter goes a byte at a time and was most of a large
// PNG's decode. Memory: the block, the row above it, the RGBA row and
// zlib's state and 32 KB window.
//
// zlib inflates 10-15% faster into 64 KB than a row (9 KB for a 3,000-pixel
// photo) at a time. The stream's Adler-32 is libdeflate's (vectorised;
// zlib's own was a tenth of the decode), checked against the stream's
// trailer when zlib reaches it, as zlib itself would.
//
// The checks the chunks allow (layout, lengths, CRCs) are made before the
// first row, as for whole images, and a file failing them is libpng's. The
// zlib stream and the filter types can only be checked as the rows come:
// a flaw there, once rows have been handed over, ends the decode with the
// status libpng gives the same flaw, every row before it handed over
// (PNGWholeImageTests compares them): PK_ERROR_TRUNCATED when the image
// data runs out, PK_ERROR_CORRUPT for a zlib error, a wrong Adler-32 or a
// filter type over 4. A flaw before the first row leaves the file to
// libpng, as the whole path does.

// zlib's state and window (about 7 KB and 32 KB in zlib 1.2.13), rounded up.
enum { PK_PNG_ZLIB_STATE_BYTES = 64 << 10 };
// The rows zlib inflates at a time, in bytes (at least two rows).
enum { PK_PNG_BLOCK_BYTES = 64 << 10 };

static size_t pk_png_block_rows(const pk_png_whole_layout *layout) {
    size_t rows = PK_PNG_BLOCK_BYTES / layout->row_bytes;
    if (rows > layout->height) rows = layout->height;
    return rows < 2 ? 2 : rows;
}

// The block of rows and the row above it, the RGBA row and zlib's state.
static size_t pk_png_streamed_layout_bytes(const pk_png_whole_layout *layout) {
    return (1 + pk_png_block_rows(layout)) * layout->row_bytes + (size_t)layout->width * 4 + PK_PNG_ZLIB_STATE_BYTES;
}

size_t pk_png_streamed_bytes(const uint8_t *data, size_t size) {
    pk_png_whole_layout layout;
    return pk_png_whole_scan(data, size, &layout) ? pk_png_streamed_layout_bytes(&layout) : 0;
}

// The image data as zlib is fed it, an IDAT at a time, and the Adler-32 of
// the bytes inflated so far.
typedef struct {
    const uint8_t *data;
    size_t size, offset;            // the file, and the next chunk's offset
    int left;                       // IDATs not yet fed
    z_stream stream;
    uint32_t adler;                 // of the bytes inflated so far
    int checks_adler;               // 1 when zlib leaves the check to this
} pk_png_inflow;

// The next IDAT's data into the stream; 0 when there is none.
static int pk_png_next_idat(pk_png_inflow *in) {
    uint32_t length;
    const uint8_t *type;
    while (in->left > 0 && pk_png_chunk(in->data, in->size, in->offset, &length, &type)) {
        in->offset += 12 + (size_t)length;
        in->left--;
        if (length == 0) continue;
        in->stream.next_in = (Bytef *)(uintptr_t)(type + 4);
        in->stream.avail_in = length;
        return 1;
    }
    return 0;
}

// Inflates the next `count` rows (each its filter byte and samples) into `rows`, and says in `*whole` how
// many came whole before a flaw, if there is one: the status is the flaw's.
//
// zlib goes on past the last row's bytes to the stream's end and its trailer when they are in the IDAT it is
// fed, and then (as zlib would) the trailer is checked, a wrong one a flaw of the last row: the IDATs after
// it are not read, by libpng either.
static pk_status pk_png_inflate_rows(pk_png_inflow *in, uint8_t *rows, size_t count, size_t row_bytes,
                                     size_t *whole) {
    size_t bytes = count * row_bytes;
    in->stream.next_out = rows;
    in->stream.avail_out = (uInt)bytes;
    int ended = 0;
    pk_status status = PK_OK;
    while (status == PK_OK && in->stream.avail_out > 0) {
        if (in->stream.avail_in == 0 && !pk_png_next_idat(in)) {
            status = PK_ERROR_TRUNCATED;                                      // libpng: "Not enough image data"
            break;
        }
        int result = inflate(&in->stream, Z_NO_FLUSH);
        if (result == Z_STREAM_END) {
            if (in->stream.avail_out > 0) status = PK_ERROR_TRUNCATED;
            ended = 1;
        } else if (result != Z_OK && !(result == Z_BUF_ERROR && in->stream.avail_in == 0)) {
            status = result == Z_MEM_ERROR ? PK_ERROR_NO_MEMORY : PK_ERROR_CORRUPT;
        }
    }
    size_t produced = bytes - in->stream.avail_out;
    *whole = produced / row_bytes;
    // A flaw zlib meets right after a row's last byte (the next block's header, say) is that row's, as it is
    // for a decode a row at a time (zlib reads on past a full row while it has input): libpng's too.
    if (status == PK_ERROR_CORRUPT && *whole > 0 && produced % row_bytes == 0) *whole -= 1;
    if (status == PK_OK && in->checks_adler) {
        in->adler = libdeflate_adler32(in->adler, rows, bytes);
        // The stream ended in the IDAT being fed (it is not fed another once the rows are full): its trailer,
        // the four bytes zlib read last, is there.
        if (ended && pk_be32(in->stream.next_in - 4) != in->adler) {
            status = PK_ERROR_CORRUPT;                                         // zlib: "incorrect data check"
            *whole = count - 1;
        }
    }
    for (size_t i = 0; i < *whole; i++) {
        if (rows[i * row_bytes] > 4) {                                       // libpng: "bad adaptive filter value"
            *whole = i;
            return PK_ERROR_CORRUPT;
        }
    }
    return status;
}

pk_status pk_png_streamed_rows(const uint8_t *data, size_t size, size_t max_memory, pk_row_sink sink, void *context,
                               size_t *peak_memory) {
    pk_png_whole_layout layout;
    if (!sink || !pk_png_whole_scan(data, size, &layout)) return PK_ERROR_UNSUPPORTED;
    size_t needed = pk_png_streamed_layout_bytes(&layout);
    if (needed > max_memory) return PK_ERROR_UNSUPPORTED;
    size_t block_rows = pk_png_block_rows(&layout), row_bytes = layout.row_bytes, samples = row_bytes - 1;
    // The row above the block (zeros above the first), then the block.
    uint8_t *above = calloc(1 + block_rows, row_bytes);
    uint8_t *block = above ? above + row_bytes : NULL;
    uint8_t *rgba = malloc((size_t)layout.width * 4);
    pk_png_inflow in;
    memset(&in, 0, sizeof in);
    in.data = data;
    in.size = size;
    in.offset = (size_t)(layout.first_idat - data) - 8;
    in.left = layout.idat_count;
    in.adler = 1;
    int inflating = above && rgba && inflateInit(&in.stream) == Z_OK;
#if ZLIB_VERNUM >= 0x1290
    // zlib still reads the trailer, and ends the stream after it, but leaves the sum to libdeflate.
    if (inflating) in.checks_adler = inflateValidate(&in.stream, 0) == Z_OK;
#endif
    pk_status status = inflating ? PK_OK : PK_ERROR_NO_MEMORY;
    uint32_t handed = 0;
    int stopped = 0;
    while (status == PK_OK && !stopped && handed < layout.height) {
        size_t count = layout.height - handed < block_rows ? layout.height - handed : block_rows, whole = 0;
        pk_status flaw = pk_png_inflate_rows(&in, block, count, row_bytes, &whole);
        const uint8_t *previous = above + 1;
        for (size_t i = 0; i < whole && !stopped; i += 2) {
            uint8_t *row = block + i * row_bytes, *next = i + 1 < whole ? row + row_bytes : NULL;
            pk_png_unfilter_rows(row, next, previous, samples, layout.channels);
            pk_png_row_to_rgba(row + 1, rgba, &layout);
            stopped = sink(context, (int)handed++, 0, 1, (int)layout.width, rgba);
            if (next && !stopped) {
                pk_png_row_to_rgba(next + 1, rgba, &layout);
                stopped = sink(context, (int)handed++, 0, 1, (int)layout.width, rgba);
            }
            previous = (next ? next : row) + 1;
        }
        if (!stopped) status = flaw;
        if (whole > 0) memcpy(above, block + (whole - 1) * row_bytes, row_bytes);   // above the next block
    }
    // A flaw before the first row: libpng's to decode or to name.
    if (status != PK_OK && status != PK_ERROR_NO_MEMORY && handed == 0) status = PK_ERROR_UNSUPPORTED;
    if (status == PK_OK && peak_memory) *peak_memory = needed;
    if (inflating) inflateEnd(&in.stream);
    free(above);
    free(rgba);
    return status;
}
