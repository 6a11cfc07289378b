#!/bin/sh
# Makes the tiny photos the capture-date and header tests read, with Debian's
# own tools (vips, exiftool, ImageMagick, heif-enc, avifenc, cwebp), and writes them as
# base64 into Tests/ParallaxImagesTests/MetadataFixtures.swift (and, with Python's zlib, the inflater's test streams).
# Run again only to change the fixtures; the tests do not need the tools.
set -eu
out="$(cd "$(dirname "$0")/.." && pwd)/Tests/ParallaxImagesTests/MetadataFixtures.swift"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
et() { exiftool -q -overwrite_original "$@"; }

vips black base.png 16 12 --bands 3
vips black alpha.png 16 12 --bands 4
vips copy base.png base.jpg
exiftool -q -overwrite_original -all= base.jpg

# JPEG: little-endian EXIF with offset and fraction; big-endian with only the digitized date; only IFD0's DateTime; XMP.
cp base.jpg dated.jpg
et -ExifByteOrder=II -DateTimeOriginal="2024:06:15 14:30:05" -OffsetTimeOriginal="+02:00" -SubSecTimeOriginal="25" \
   -CreateDate="2024:06:15 14:30:06" -ModifyDate="2024:07:01 09:00:00" -Orientation#=6 dated.jpg
cp base.jpg digitized.jpg && et -ExifByteOrder=MM -CreateDate="2003:02:01 10:11:12" digitized.jpg
cp base.jpg modified.jpg && et -ModifyDate="2010:10:10 10:10:10" -OffsetTime="-03:30" modified.jpg
cp base.jpg xmp.jpg && et -XMP-photoshop:DateCreated="2018-05-06T07:08:09Z" xmp.jpg
cp base.jpg unknown.jpg && et -DateTimeOriginal#="0000:00:00 00:00:00" -CreateDate#="    :  :     :  :  " unknown.jpg

# PNG: eXIf (big-endian, exiftool's default), XMP in iTXt, tIME.
cp base.png exif.png && et -DateTimeOriginal="2021:03:04 05:06:07" -OffsetTimeOriginal="-05:00" exif.png
cp base.png xmp.png && et -XMP-exif:DateTimeOriginal="2020-02-29T23:10:00+05:30" xmp.png
cp base.png time.png && et -PNG:ModifyDate="2019:01:02 03:04:05" time.png

# PNG as ImageMagick 6 writes it from a JPEG: tIME before the image data, eXIf after it; and XMP as a zlib-compressed
# raw profile (zTXt), with the date chunks left out.
convert dated.jpg late.png
convert xmp.jpg -define png:exclude-chunk=date,time rawxmp.png
# A raw EXIF profile in a zTXt chunk, as GIMP and older ImageMagick write it (hexadecimal of "Exif\0\0" and the TIFF data,
# 72 digits a line), made with Python's zlib from dated.jpg's EXIF.
exiftool -b -EXIF dated.jpg > exif.bin
python3 - <<'PY'
import struct, zlib
exif = b"Exif\0\0" + open("exif.bin", "rb").read()
hexed = exif.hex()
text = b"\nexif\n%8d\n" % len(exif) + b"\n".join(hexed[i:i + 72].encode() for i in range(0, len(hexed), 72)) + b"\n"
data = b"Raw profile type exif\0\0" + zlib.compress(text, 9)
chunk = struct.pack(">I", len(data)) + b"zTXt" + data + struct.pack(">I", zlib.crc32(b"zTXt" + data))
png = open("base.png", "rb").read()
open("rawexif.png", "wb").write(png[:33] + chunk + png[33:])
# Inflater vectors: one text compressed as stored blocks, with fixed codes and with dynamic codes.
plain = b"".join(b"line %d of the inflater's test text, " % i + bytes(range(i % 7, 40 + i % 11)) for i in range(48))
open("plain.bin", "wb").write(plain)
open("stored.zlib", "wb").write(zlib.compress(plain, 0))
fixed = zlib.compressobj(9, zlib.DEFLATED, 15, 9, zlib.Z_FIXED)
open("fixed.zlib", "wb").write(fixed.compress(plain) + fixed.flush())
open("dynamic.zlib", "wb").write(zlib.compress(plain, 9))
PY

# WebP: lossy VP8X with EXIF after the image data, XMP, lossless VP8L, VP8X with alpha.
cwebp -quiet -metadata exif dated.jpg -o dated.webp
cwebp -quiet -metadata xmp xmp.jpg -o xmp.webp
cwebp -quiet -lossless base.png -o lossless.webp
cwebp -quiet alpha.png -o alpha.webp

# HEIF (libheif copies the JPEG's EXIF and XMP into items) and AVIF (avifenc turns orientation 6 into irot).
heif-enc -q 50 -o dated.heic dated.jpg >/dev/null
heif-enc -q 50 -o xmp.heic xmp.jpg >/dev/null
avifenc dated.jpg dated.avif >/dev/null
avifenc --irot 1 --imir 0 base.png rotated.avif >/dev/null

{
    echo "// Made by scripts/make-metadata-fixtures.sh with vips, exiftool, ImageMagick, heif-enc, avifenc, cwebp and Python's zlib; do not edit."
    echo "import Foundation"
    echo
    echo "/// Tiny photos (16 × 12) with known metadata, made by Debian's tools."
    echo "enum MetadataFixtures {"
    for file in dated.jpg digitized.jpg modified.jpg xmp.jpg unknown.jpg exif.png xmp.png time.png late.png rawxmp.png rawexif.png \
                dated.webp xmp.webp lossless.webp alpha.webp dated.heic xmp.heic dated.avif rotated.avif \
                plain.bin stored.zlib fixed.zlib dynamic.zlib; do
        name=$(echo "$file" | sed 's/\.\(.\)/\U\1/; s/Jpg$/JPEG/; s/Png$/PNG/; s/Webp$/WebP/; s/Heic$/HEIC/; s/Avif$/AVIF/; s/Zlib$/Zlib/; s/Bin$/Text/; s/^rawxmp/rawXMP/; s/^rawexif/rawExif/')
        echo "    /// \`$file\`: $(exiftool -q -q -m -s -s -s -DateTimeOriginal -OffsetTimeOriginal -CreateDate -ModifyDate -XMP-photoshop:DateCreated -XMP-exif:DateTimeOriginal -Orientation -Rotation "$file" 2>/dev/null | tr '\n' ' ' | sed 's/ *$//')"
        printf '    static let %s = Data(base64Encoded: "%s")!\n' "$name" "$(base64 -w0 "$file")"
    done
    echo "}"
} > "$out"
echo "wrote $out"
