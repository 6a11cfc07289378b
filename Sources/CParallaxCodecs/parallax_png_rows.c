// A PNG's rows decoded here instead of by libpng, for the files photos and
// screenshots come as: 8-bit RGB or RGBA, not interlaced, without tRNS or a
// palette.
//
// libpng inflates a PNG's image data through zlib, a few kilobytes at a
// time, and undoes the rows' filters a byte at a time: for a photo-sized
// PNG those two are nearly the whole decode. Here the image data is
// inflated by Intel's ISA-L (`isal_inflate`, Debian's libisal), which
// streams as zlib does at three times its speed, a block of rows at a time,
// and the filters (specification, 9) are undone with SSE2, two Paeth rows
// together. The rows are handed over as libpng's path would, RGBA and
// premultiplied, pixel for pixel the same, in memory that depends on the
// row, not on the image. On the 7 sample PNGs: about 2.5 times as fast as
// libpng's rows, and a little faster than inflating each whole image at
// once with libdeflate (which needs the whole image's memory: this path did
// that for images up to 16 MiB before).
//
// The checks the chunks allow are made before the first row is handed
// over: the chunks' layout and lengths, the CRC of IHDR and of every IDAT
// (libpng's default for critical chunks) and the zlib stream's header. A
// file that fails any of them, or is of another kind, gets
// PK_ERROR_UNSUPPORTED and is decoded by libpng, which says what is wrong
// with it (or, for a benign flaw such as extra data after the image,
// decodes it anyway). The zlib stream and the filter types can only be
// checked as the rows come: a flaw there, once rows have been handed over,
// ends the decode with the status libpng gives the same flaw, every row
// before it handed over (PNGRowsTests compares them): PK_ERROR_TRUNCATED
// when the image data runs out, PK_ERROR_CORRUPT for a flaw in the stream,
// a wrong Adler-32 or a filter type over 4.

#include "parallax_codecs.h"

#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// libpng's own default limit on each side (png_set_user_limits in parallax_png.c).
enum { PK_PNG_MAX_SIDE = 1000000 };

typedef struct {
    uint32_t width, height;
    int channels;                   // 3 (RGB) or 4 (RGBA)
    size_t row_bytes;               // the filter byte and the row's samples
    const uint8_t *first_idat;      // the first IDAT's data
    size_t idat_bytes;              // every IDAT's data, in all
    int idat_count;
} pk_png_layout;

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
    return crc32_gzip_refl(0, data + offset + 4, (uint64_t)length + 4) == stored;   // CRC-32 as PNG and zlib use it
}

// Whether a zlib stream's header is one zlib (so libpng) inflates: deflate, a window of at most 32 KB, its
// check right and no preset dictionary (RFC 1950, 2.2). ISA-L does not look at the window or the dictionary.
static int pk_png_zlib_header_is_zlibs(uint8_t method, uint8_t flags) {
    return (method & 0x0F) == 8 && (method >> 4) <= 7 && ((unsigned)method << 8 | flags) % 31 == 0 && !(flags & 0x20);
}

// Reads the layout of a file this path takes; 0 for any other file.
static int pk_png_scan(const uint8_t *data, size_t size, pk_png_layout *layout) {
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
    if (width == 0 || height == 0 || width > PK_PNG_MAX_SIDE || height > PK_PNG_MAX_SIDE) return 0;
    if (depth != 8 || (color != 2 && color != 6) || header[10] != 0 || header[11] != 0 || header[12] != 0) return 0;
    memset(layout, 0, sizeof(*layout));
    layout->width = width;
    layout->height = height;
    layout->channels = color == 6 ? 4 : 3;
    layout->row_bytes = 1 + (size_t)width * (size_t)layout->channels;     // at most 4,000,001
    offset += 12 + length;

    // Up to the IDATs: ancillary chunks are skipped (as libpng skips them here, its CRC flaws only warned
    // of); a critical one (PLTE, or one this path does not know) and tRNS are libpng's.
    while (1) {
        if (!pk_png_chunk(data, size, offset, &length, &type)) return 0;
        if (memcmp(type, "IDAT", 4) == 0) break;
        if (!(type[0] & 0x20) || memcmp(type, "tRNS", 4) == 0) return 0;
        offset += 12 + length;
    }
    // The IDATs, one after another (libpng reads no further once the image is complete), and the zlib
    // stream's first two bytes, its header, wherever they fall.
    layout->first_idat = type + 4;
    uint8_t header_bytes[2];
    while (pk_png_chunk(data, size, offset, &length, &type) && memcmp(type, "IDAT", 4) == 0) {
        if (!pk_png_crc_matches(data, offset, length)) return 0;
        if (layout->idat_bytes > SIZE_MAX - length) return 0;
        for (uint32_t i = 0; i < length && layout->idat_bytes + i < 2; i++) header_bytes[layout->idat_bytes + i] = type[4 + i];
        layout->idat_bytes += length;
        layout->idat_count++;
        offset += 12 + length;
    }
    return layout->idat_bytes >= 2 && pk_png_zlib_header_is_zlibs(header_bytes[0], header_bytes[1]);
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
// so this is as wide as it gets, a row at a time (two rows together, below,
// overlap). On the sample photos' PNGs, where the Paeth filter is nearly
// every row, decodes inflated whole took 0.81 of the scalar version's time
// (inflate included: 316 ms against 390 for the seven).
#include <emmintrin.h>

// A pixel's bytes as 16-bit lanes. Three bytes are put together in a
// register, never through memory: a load that spans several smaller stores
// cannot be forwarded from them, and stalls until they are written.
//
// A 3-byte pixel is read as a word, with the next pixel's first byte, which
// only adds a lane the pixel's arithmetic ignores: the rows' buffer has a
// byte to spare after its last row (PK_PNG_READ_SLACK). The word never
// spans a byte just stored (the pixel to the left ends before it), so the
// load is not held up waiting for a store to be forwarded; a store is a
// 16-bit and an 8-bit move, not three bytes shifted out of a register.
static inline __m128i pk_paeth_load(const uint8_t *pixel, int bpp) {
    (void)bpp;
    uint32_t bytes;
    memcpy(&bytes, pixel, 4);
    return _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)bytes), _mm_setzero_si128());
}

static inline void pk_paeth_store(uint8_t *pixel, __m128i lanes, int bpp) {
    uint32_t bytes = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(lanes, lanes));
    if (bpp == 4) {
        memcpy(pixel, &bytes, 4);
    } else {
        uint16_t low = (uint16_t)bytes;
        memcpy(pixel, &low, 2);
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
static void pk_png_row_to_rgba(const uint8_t *samples, uint8_t *rgba, const pk_png_layout *layout) {
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

// ---- Inflating: ISA-L, a block of rows at a time ----
//
// 64 KB of rows at a time (at least two): the inflater streams faster into
// larger buffers (zlib, before it, 10-15% faster than a row at a time), and
// two rows are unfiltered together. Memory: the block, the row above it,
// the RGBA row and the inflater's state (87 KB, its window included).

// The rows inflated at a time, in bytes (at least two rows).
enum { PK_PNG_BLOCK_BYTES = 64 << 10 };
// Bytes after the last row that a 3-byte pixel's word-sized read may touch (pk_paeth_load).
enum { PK_PNG_READ_SLACK = 4 };

static size_t pk_png_block_rows(const pk_png_layout *layout) {
    size_t rows = PK_PNG_BLOCK_BYTES / layout->row_bytes;
    if (rows > layout->height) rows = layout->height;
    return rows < 2 ? 2 : rows;
}

// The block of rows and the row above it, the RGBA row and the inflater's state.
static size_t pk_png_streamed_layout_bytes(const pk_png_layout *layout) {
    return (1 + pk_png_block_rows(layout)) * layout->row_bytes + PK_PNG_READ_SLACK + (size_t)layout->width * 4
        + sizeof(struct inflate_state);
}

size_t pk_png_streamed_bytes(const uint8_t *data, size_t size) {
    pk_png_layout layout;
    return pk_png_scan(data, size, &layout) ? pk_png_streamed_layout_bytes(&layout) : 0;
}

// ISA-L's inflate runs AVX2 code and returns with the upper halves of the
// vector registers in use; the SSE2 unfiltering after it then pays for a
// state transition on its instructions (on the 7 sample PNGs, on this AMD
// EPYC, 220 ms against 150 with the state cleared). `vzeroupper` clears
// them, where the processor and the system have AVX (elsewhere ISA-L runs
// no AVX code, and the instruction does not exist).
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#include <stdatomic.h>

static int pk_has_avx(void) {
    static _Atomic int known = -1;
    int value = atomic_load_explicit(&known, memory_order_relaxed);
    if (value < 0) {
        unsigned a, b, c, d;
        value = 0;
        if (__get_cpuid(1, &a, &b, &c, &d) && (c & bit_OSXSAVE) && (c & bit_AVX)) {
            unsigned low, high;                      // XCR0: the system saves the SSE and AVX registers
            __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
            value = (low & 6) == 6;
        }
        atomic_store_explicit(&known, value, memory_order_relaxed);
    }
    return value;
}

__attribute__((target("avx"))) static void pk_clear_upper_vector_state(void) { _mm256_zeroupper(); }

static void pk_png_after_inflating(void) {
    if (pk_has_avx()) pk_clear_upper_vector_state();
}
#else
static void pk_png_after_inflating(void) {}
#endif

// The image data as the inflater is fed it, an IDAT at a time.
typedef struct {
    const uint8_t *data;
    size_t size, offset;            // the file, and the next chunk's offset
    int left;                       // IDATs not yet fed
    struct inflate_state *state;
} pk_png_inflow;

// The next IDAT's data into the inflater; 0 when there is none.
static int pk_png_next_idat(pk_png_inflow *in) {
    uint32_t length;
    const uint8_t *type;
    while (in->left > 0 && pk_png_chunk(in->data, in->size, in->offset, &length, &type)) {
        in->offset += 12 + (size_t)length;
        in->left--;
        if (length == 0) continue;
        in->state->next_in = (uint8_t *)(uintptr_t)(type + 4);
        in->state->avail_in = length;
        return 1;
    }
    return 0;
}

// Inflates the next `count` rows (each its filter byte and samples) into `rows`, and says in `*whole` how
// many came whole before a flaw, if there is one: the status is the flaw's.
static pk_status pk_png_inflate_rows(pk_png_inflow *in, uint8_t *rows, size_t count, size_t row_bytes,
                                     size_t *whole) {
    size_t bytes = count * row_bytes;
    struct inflate_state *state = in->state;
    state->next_out = rows;
    state->avail_out = (uint32_t)bytes;
    pk_status status = PK_OK;
    while (state->avail_out > 0) {
        // Out of input, the next IDAT; with none left, the inflater may still hold output to hand over.
        if (state->avail_in == 0) pk_png_next_idat(in);
        uint32_t room = state->avail_out, left = state->avail_in;
        int result = isal_inflate(state);
        pk_png_after_inflating();
        if (result != ISAL_DECOMP_OK) {
            status = PK_ERROR_CORRUPT;                                        // zlib: "invalid ...", "incorrect data check"
            break;
        }
        // Nothing out and nothing taken: the image data ran out, or the stream ended before the image did
        // (libpng: "Not enough image data"), or, with input left, the inflater is stuck, which a stream must
        // not make it.
        if (state->avail_out == room && state->avail_in == left) {
            status = left == 0 || state->block_state == ISAL_BLOCK_FINISH ? PK_ERROR_TRUNCATED : PK_ERROR_CORRUPT;
            break;
        }
    }
    // The inflater goes on past the last row's bytes to the stream's end and its trailer when they are in
    // the IDAT it is fed; a wrong Adler-32 there is the last row's flaw, as zlib finds it (the IDATs after it
    // are not read, by libpng either).
    size_t produced = bytes - state->avail_out;
    *whole = produced / row_bytes;
    // A flaw met right after a row's last byte (the next deflate block's header, the trailer) is that row's,
    // as it is for zlib and libpng, which read on past a full row while they have input.
    if (status == PK_ERROR_CORRUPT && *whole > 0 && produced % row_bytes == 0) *whole -= 1;
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
    pk_png_layout layout;
    if (!sink || !pk_png_scan(data, size, &layout)) return PK_ERROR_UNSUPPORTED;
    size_t needed = pk_png_streamed_layout_bytes(&layout);
    if (needed > max_memory) return PK_ERROR_UNSUPPORTED;
    size_t block_rows = pk_png_block_rows(&layout), row_bytes = layout.row_bytes, samples = row_bytes - 1;
    // The row above the block (zeros above the first), then the block.
    uint8_t *above = calloc(1, (1 + block_rows) * row_bytes + PK_PNG_READ_SLACK);
    uint8_t *block = above ? above + row_bytes : NULL;
    uint8_t *rgba = malloc((size_t)layout.width * 4);
    pk_png_inflow in = { .data = data, .size = size, .offset = (size_t)(layout.first_idat - data) - 8,
                         .left = layout.idat_count, .state = malloc(sizeof(struct inflate_state)) };
    pk_status status = above && rgba && in.state ? PK_OK : PK_ERROR_NO_MEMORY;
    if (status == PK_OK) {
        isal_inflate_init(in.state);
        in.state->crc_flag = ISAL_ZLIB;          // the zlib header read, and the Adler-32 checked
    }
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
    free(in.state);
    free(above);
    free(rgba);
    return status;
}
