#!/usr/bin/env bash
# Writes the small WebP, HEIF and AVIF files the decoder's tests read
# (Tests/Fixtures/codecs, committed: a few hundred bytes to a few KB each,
# all made from synthetic pictures, never photos). Run it again only to
# change them; the tests do not need the tools.
#
# Made with Debian 12's cwebp, webpmux and img2webp (webp), heif-enc
# (libheif-examples), avifenc (libavif-bin), Pillow (python3-pil) and, for a
# HEIF with an irot box, scripts/conformance/heif-orient.c (libheif-dev), and
# for a HEIF grid of several tiles, scripts/conformance/heif-grid.py.
#
#   scripts/make-codec-fixtures.sh
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$REPO/Tests/Fixtures/codecs"
"$REPO/scripts/ensure-packages.sh" python3-pil webp libheif-examples libheif-dev libavif-bin
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$OUT"

# The pictures: quadrants red, green / blue, white (any turn or mirror moves them), 96 × 64; the same
# with alpha rising from 0 on the left to 255 on the right; a 16-bit twin; 128 × 128 for a 2 × 2 grid.
/usr/bin/python3 - "$work" <<'PY'
import sys
from PIL import Image
work = sys.argv[1]
def quadrant(x, y, w, h):
    return {(True, True): (255, 0, 0), (False, True): (0, 255, 0), (True, False): (0, 0, 255), (False, False): (255, 255, 255)}[(x < w // 2, y < h // 2)]
def picture(w, h, alpha=False):
    image = Image.new("RGBA" if alpha else "RGB", (w, h))
    image.putdata([quadrant(x, y, w, h) + ((x * 255 // (w - 1),) if alpha else ()) for y in range(h) for x in range(w)])
    return image
picture(96, 64).save(f"{work}/quad.png")
picture(96, 64).save(f"{work}/quad.ppm")
picture(95, 63).save(f"{work}/odd.png")
picture(128, 128).save(f"{work}/grid.png")
for index, colour in enumerate([(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]):
    Image.new("RGB", (64, 64), colour).save(f"{work}/tile{index}.png")
picture(96, 64, alpha=True).save(f"{work}/alpha.png")
inverted = Image.eval(picture(96, 64), lambda v: 255 - v)
inverted.save(f"{work}/inverted.png")
# 16 bits a sample (I;16 per channel is not writable by Pillow as RGB: write it by hand with zlib).
import struct, zlib
rows = b"".join(b"\0" + b"".join(struct.pack(">HHH", *(c * 257 for c in quadrant(x, y, 96, 64))) for x in range(96)) for y in range(64))
def chunk(kind, body): return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 96, 64, 16, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")
open(f"{work}/quad16.png", "wb").write(png)
# An EXIF block (TIFF, little-endian, IFD0: Orientation = 6) for webpmux.
tiff = b"II*\x00\x08\x00\x00\x00" + b"\x01\x00" + b"\x12\x01\x03\x00\x01\x00\x00\x00\x06\x00\x00\x00" + b"\x00\x00\x00\x00"
open(f"{work}/exif6.bin", "wb").write(tiff)
PY

quiet() { "$@" >/dev/null 2>&1 || { echo "make-codec-fixtures: failed: $*" >&2; exit 1; }; }
# WebP
quiet cwebp -q 90 "$work/quad.png" -o "$OUT/quad.webp"
quiet cwebp -lossless "$work/quad.png" -o "$OUT/quad-lossless.webp"
quiet cwebp -q 90 -alpha_q 100 "$work/alpha.png" -o "$OUT/alpha.webp"
quiet cwebp -lossless -exact "$work/alpha.png" -o "$OUT/alpha-lossless.webp"
quiet webpmux -set exif "$work/exif6.bin" "$OUT/quad.webp" -o "$OUT/quad-exif6.webp"
quiet img2webp -lossless "$work/quad.png" -d 100 "$work/inverted.png" -o "$OUT/animated.webp"
# HEIF
quiet heif-enc -q 90 "$work/quad.png" -o "$OUT/quad.heic"
quiet heif-enc -q 90 -t 48 "$work/quad.png" -o "$OUT/quad-thumbnail.heic"
quiet heif-enc -q 90 "$work/odd.png" -o "$OUT/odd-grid.heic"           # an odd size: libheif writes a grid
# A 2 × 2 grid of 64 × 64 tiles (red, green / blue, white) cropped to 120 × 100: heif-enc writes the
# tiles as images, scripts/conformance/heif-grid.py adds the grid item.
quiet heif-enc -q 90 "$work"/tile0.png "$work"/tile1.png "$work"/tile2.png "$work"/tile3.png -o "$work/tiles.heic"
quiet /usr/bin/python3 "$REPO/scripts/conformance/heif-grid.py" "$work/tiles.heic" "$OUT/grid-2x2.heic" 2 2 120 100
quiet heif-enc -q 90 "$work/alpha.png" -o "$OUT/alpha.heic"
quiet heif-enc -q 90 -b 10 "$work/quad16.png" -o "$OUT/quad-10bit.heic"
compiler="$(dirname "$(readlink -f "$(command -v swift || echo /nonexistent)")")/clang"   # the toolchain's, else cc
[[ -x "$compiler" ]] || compiler=cc
"$compiler" "$REPO/scripts/conformance/heif-orient.c" -lheif -o "$work/heif-orient"
quiet "$work/heif-orient" "$work/quad.ppm" "$OUT/quad-irot.heic" 6
# AVIF
quiet avifenc --min 0 --max 10 "$work/quad.png" "$OUT/quad.avif"
quiet avifenc -l "$work/quad.png" "$OUT/quad-lossless.avif"
quiet avifenc --min 0 --max 10 --irot 1 "$work/quad.png" "$OUT/quad-irot1.avif"
quiet avifenc --min 0 --max 10 --irot 1 --imir 0 "$work/quad.png" "$OUT/quad-irot1-imir0.avif"
quiet avifenc --min 0 --max 10 --imir 1 "$work/quad.png" "$OUT/quad-imir1.avif"
quiet avifenc --min 0 --max 10 --minalpha 0 --maxalpha 0 "$work/alpha.png" "$OUT/alpha.avif"
quiet avifenc --min 0 --max 10 -d 10 "$work/quad16.png" "$OUT/quad-10bit.avif"
quiet avifenc --min 0 --max 10 -d 12 "$work/quad16.png" "$OUT/quad-12bit.avif"
quiet avifenc --min 0 --max 10 --grid 2x2 "$work/grid.png" "$OUT/grid.avif"
ls -l "$OUT" | awk 'NR > 1 { total += $5; print "  " $9 ": " $5 " bytes" } END { print "make-codec-fixtures: " NR - 1 " files, " total " bytes in Tests/Fixtures/codecs" }'
