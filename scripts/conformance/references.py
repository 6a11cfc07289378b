#!/usr/bin/env python3
"""Builds the JPEG battery and writes a reference decode of every file in a
conformance corpus (see scripts/fetch-conformance.sh, which runs this).

    references.py CORPUS SOURCE_PPM

For every valid file it writes FILE.ref: the line "PKREF <width> <height>"
and then premultiplied RGBA8 pixels, upright (EXIF orientation applied).
MANIFEST.tsv lists every file: path, format, expectation (ok | error),
twin (the non-interlaced file an interlaced one must equal, or -) and a
note.

The reference is Pillow's decode, except where Pillow 9.4 (Debian 12) is
known to differ from every other decoder; those few files are decoded here
from their raw samples instead:
  - 16-bit grey: Pillow's convert() clips values above 255 instead of
    scaling; the reference keeps each sample's high byte (as libpng's
    strip_16, Pillow's own 16-bit colour unpackers and Chromium do);
  - tRNS on 1/2/4-bit grey, 16-bit grey and 16-bit colour: Pillow compares
    the transparent colour with the wrong bytes; here it is compared with
    the full-precision sample, as the PNG specification says.
"""
import os
import subprocess
import sys
import zlib

from PIL import Image, ImageOps

CORPUS, SOURCE = sys.argv[1], sys.argv[2]


# ---- The JPEG battery ---------------------------------------------------

def run(*args, stdin=None):
    return subprocess.run(args, check=True, stdout=subprocess.PIPE, input=stdin).stdout


def write_ppm(path, width, height, pixel):
    with open(path, "wb") as out:
        out.write(b"P6 %d %d 255\n" % (width, height))
        out.write(bytes(c for y in range(height) for x in range(width) for c in pixel(x, y)))


def with_orientation(jpeg, orientation):
    """The JPEG with an Exif APP1 segment (IFD0: Orientation only) after SOI."""
    tiff = b"II*\x00\x08\x00\x00\x00" + b"\x01\x00" + b"\x12\x01\x03\x00\x01\x00\x00\x00" \
        + bytes([orientation, 0, 0, 0]) + b"\x00\x00\x00\x00"
    payload = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + (len(payload) + 2).to_bytes(2, "big") + payload + jpeg[2:]


def battery(folder):
    """Variants of libjpeg-turbo's test photo, made with Debian's cjpeg and jpegtran."""
    made = {}
    def cjpeg(name, *options, source=SOURCE):
        made[name] = run("cjpeg", *options, source)
    cjpeg("b-444.jpg", "-quality", "90", "-sample", "1x1")
    cjpeg("b-422.jpg", "-quality", "90", "-sample", "2x1")
    cjpeg("b-440.jpg", "-quality", "90", "-sample", "1x2")
    cjpeg("b-420.jpg", "-quality", "90")
    cjpeg("b-411.jpg", "-quality", "90", "-sample", "4x1")
    cjpeg("b-grey.jpg", "-quality", "90", "-grayscale")
    cjpeg("b-progressive.jpg", "-quality", "90", "-progressive")
    cjpeg("b-arithmetic.jpg", "-quality", "90", "-arithmetic")
    cjpeg("b-progressive-arithmetic.jpg", "-quality", "90", "-progressive", "-arithmetic")
    cjpeg("b-restart.jpg", "-quality", "90", "-restart", "1")
    cjpeg("b-optimized.jpg", "-quality", "75", "-optimize")
    cjpeg("b-q100.jpg", "-quality", "100", "-sample", "1x1")
    cjpeg("b-q20.jpg", "-quality", "20")
    base = made["b-420.jpg"]
    made["b-tiny-7x5.jpg"] = run("jpegtran", "-crop", "7x5+0+0", stdin=base)
    made["b-tiny-1x1.jpg"] = run("jpegtran", "-crop", "1x1+8+8", stdin=base)
    for width, height in ((17, 4001), (4001, 17)):
        ppm = os.path.join(folder, "gradient.ppm")
        write_ppm(ppm, width, height, lambda x, y: ((x * 7) % 256, (y * 3) % 256, (x + y) % 256))
        cjpeg("b-%dx%d.jpg" % (width, height), "-quality", "90", source=ppm)
        os.remove(ppm)
    for orientation in (2, 3, 5, 6, 7, 8):
        made["b-exif-%d.jpg" % orientation] = with_orientation(base, orientation)
    cmyk = os.path.join(folder, "b-cmyk.jpg")
    # K = 0 throughout (Pillow's RGB to CMYK), where Pillow's subtractive
    # CMYK to RGB and the decoder's multiplicative one agree.
    Image.open(SOURCE).convert("CMYK").save(cmyk, quality=95)
    for name, data in made.items():
        with open(os.path.join(folder, name), "wb") as out:
            out.write(data)
    # Cut short: half of each, and half closed with an end-of-image marker.
    for name in ("b-420.jpg", "b-progressive.jpg"):
        data = made[name]
        with open(os.path.join(folder, "cut-" + name), "wb") as out:
            out.write(data[: len(data) // 2])
        with open(os.path.join(folder, "cut-eoi-" + name), "wb") as out:
            out.write(data[: len(data) // 2] + b"\xff\xd9")


# ---- A few lines of PNG decoding, for the cases Pillow gets wrong ----------

def png_chunks(data):
    offset = 8
    while offset + 8 <= len(data):
        length = int.from_bytes(data[offset:offset + 4], "big")
        yield data[offset + 4:offset + 8], data[offset + 8:offset + 8 + length]
        offset += 12 + length


def png_samples(data):
    """(width, height, bit depth, colour type, tRNS bytes, rows of samples):
    unfiltered, deinterlaced, every sample at its full precision."""
    header = next(body for kind, body in png_chunks(data) if kind == b"IHDR")
    width, height = int.from_bytes(header[0:4], "big"), int.from_bytes(header[4:8], "big")
    depth, colour, interlace = header[8], header[9], header[12]
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colour]
    trns = b"".join(body for kind, body in png_chunks(data) if kind == b"tRNS") or None
    raw = zlib.decompress(b"".join(body for kind, body in png_chunks(data) if kind == b"IDAT"))
    bits = depth * channels
    step = max(bits // 8, 1)
    rows = [[None] * width for _ in range(height)]
    passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)] \
        if interlace else [(0, 0, 1, 1)]
    offset = 0
    for x0, y0, dx, dy in passes:
        columns = (width - x0 + dx - 1) // dx if width > x0 else 0
        count = (height - y0 + dy - 1) // dy if height > y0 else 0
        if columns == 0 or count == 0:
            continue
        length = (columns * bits + 7) // 8
        previous = bytearray(length)
        for r in range(count):
            kind, line = raw[offset], bytearray(raw[offset + 1:offset + 1 + length])
            offset += 1 + length
            for i in range(length):
                a = line[i - step] if i >= step else 0
                b, c = previous[i], previous[i - step] if i >= step else 0
                if kind == 1: line[i] = (line[i] + a) & 255
                elif kind == 2: line[i] = (line[i] + b) & 255
                elif kind == 3: line[i] = (line[i] + (a + b) // 2) & 255
                elif kind == 4:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            previous = line
            for k in range(columns):
                pixel = []
                for ch in range(channels):
                    bit = (k * channels + ch) * depth
                    if depth >= 8:
                        pixel.append(int.from_bytes(line[bit // 8:bit // 8 + depth // 8], "big"))
                    else:
                        pixel.append((line[bit // 8] >> (8 - depth - bit % 8)) & ((1 << depth) - 1))
                rows[y0 + r * dy][x0 + k * dx] = pixel
    return width, height, depth, colour, trns, rows


def by_hand(data):
    """RGBA8 (straight) of a grey or colour PNG with tRNS or 16-bit grey."""
    width, height, depth, colour, trns, rows = png_samples(data)
    channels = 1 if colour in (0, 4) else 3
    key = None
    if trns is not None and colour in (0, 2):
        key = [int.from_bytes(trns[i:i + 2], "big") for i in range(0, 2 * channels, 2)]
    scale = (lambda v: v >> 8) if depth == 16 else (lambda v: v * 255 // ((1 << depth) - 1))
    out = bytearray()
    for row in rows:
        for pixel in row:
            colours = [scale(v) for v in pixel[:channels]]
            if channels == 1:
                colours *= 3
            if colour in (4, 6):
                alpha = scale(pixel[channels])
            else:
                alpha = 0 if key is not None and pixel[:channels] == key else 255
            out += bytes(colours + [alpha])
    return width, height, bytes(out)


# ---- References -----------------------------------------------------------

def premultiplied(rgba):
    out = bytearray(rgba)
    for i in range(0, len(out), 4):
        a = out[i + 3]
        if a != 255:
            for c in range(3):
                out[i + c] = (out[i + c] * a + 127) // 255
    return bytes(out)


def needs_hand_decoding(data):
    header = next(body for kind, body in png_chunks(data) if kind == b"IHDR")
    depth, colour = header[8], header[9]
    has_trns = any(kind == b"tRNS" for kind, _ in png_chunks(data))
    return (colour in (0, 4) and depth == 16) or (has_trns and colour in (0, 2) and depth != 8)


def reference(path):
    with open(path, "rb") as f:
        data = f.read()
    if data.startswith(b"\x89PNG") and needs_hand_decoding(data):
        return by_hand(data) + ("raw samples (Pillow 9.4 clips 16-bit grey or misreads this tRNS)",)
    image = Image.open(path)
    image.load()
    image = ImageOps.exif_transpose(image)
    return image.width, image.height, image.convert("RGBA").tobytes(), "Pillow %s" % Image.__version__


def main():
    battery(os.path.join(CORPUS, "jpeg"))
    rows = [("file", "format", "expect", "twin", "note")]
    for folder in ("pngsuite", "testpngs", "jpeg"):
        for name in sorted(os.listdir(os.path.join(CORPUS, folder))):
            relative = folder + "/" + name
            path = os.path.join(CORPUS, relative)
            kind = "png" if name.endswith(".png") else "jpeg"
            twin = "-"
            if folder == "pngsuite":
                plain = name.replace("interlaced-", "")
                if plain.startswith("i") and plain[1:] in os.listdir(os.path.join(CORPUS, folder)):
                    twin = folder + "/" + plain[1:]
            expected_error = name.startswith("cut-") or name == "testorig12.jpg"
            # libpng's crashers: some break the image, some only an ancillary chunk the decoder skips. Either
            # a typed error or, if Pillow decodes it too, the same picture.
            expectation = "any" if name.startswith("crasher-") else "ok"
            try:
                width, height, rgba, note = reference(path)
            except Exception as error:  # Pillow refuses it: no reference
                text = str(error).replace(path, os.path.basename(path)).replace("\t", " ").replace("\n", " ")
                note = "Pillow: %s" % text[:100]
                rows.append((relative, kind, "any" if expectation == "any" else "error", "-", note))
                continue
            if expected_error:
                rows.append((relative, kind, "error", "-", "Pillow decodes it; corrupt or unsupported by design"))
                continue
            with open(path + ".ref", "wb") as out:
                out.write(b"PKREF %d %d\n" % (width, height))
                out.write(premultiplied(rgba))
            rows.append((relative, kind, expectation, twin, note))
    with open(os.path.join(CORPUS, "MANIFEST.tsv"), "w") as out:
        for row in rows:
            out.write("\t".join(row) + "\n")


main()
