#!/usr/bin/env python3
"""Builds the JPEG battery and writes a reference decode of every file in a
conformance corpus (see scripts/fetch-conformance.sh, which runs this).

    references.py CORPUS SOURCE_PPM

For every valid file it writes FILE.ref: the line "PKREF <width> <height>"
and then premultiplied RGBA8 pixels, upright (EXIF orientation applied).
MANIFEST.tsv lists every file: path, format, expectation (ok | error),
twin (the non-interlaced file an interlaced one must equal, or -) and a
note.

It also makes the WebP, HEIF and AVIF battery (see codec_battery) and
decodes those files with the codecs' own command-line tools, which Pillow
9.4 cannot read: dwebp for WebP, heif-convert for HEIF (libheif applies
irot, imir and clap itself), avifdec for AVIF (8-bit output, not strict), except AVIFs
with irot or imir (avifdec 0.11 writes the stored pixels), which
heif-convert decodes through its own AV1 plugin. Their PNGs are read with
Pillow and premultiplied.

The JPEG and PNG reference is Pillow's decode, except where Pillow 9.4
(Debian 12) is known to differ from every other decoder; those few files
are decoded here from their raw samples instead:
  - 16-bit grey: Pillow's convert() clips values above 255 instead of
    scaling; the reference keeps each sample's high byte (as libpng's
    strip_16, Pillow's own 16-bit colour unpackers and Chromium do);
  - tRNS on 1/2/4-bit grey, 16-bit grey and 16-bit colour: Pillow compares
    the transparent colour with the wrong bytes; here it is compared with
    the full-precision sample, as the PNG specification says.
"""
import glob
import os
import struct
import subprocess
import sys
import tempfile
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


# ---- The WebP, HEIF and AVIF battery ----------------------------------------

def codec_battery(root):
    """Variants of libjpeg-turbo's test photo (227 x 149) in the newer
    formats, made with Debian's cwebp, heif-enc, avifenc, heif-orient
    (scripts/conformance/heif-orient.c, which writes irot/imir boxes) and
    heif-grid.py (which makes a grid of several tiles)."""
    work = tempfile.mkdtemp()
    photo = Image.open(SOURCE).convert("RGB")
    photo.save(os.path.join(work, "photo.png"))
    photo.save(os.path.join(work, "photo.ppm"))
    alpha = photo.copy()
    alpha.putalpha(Image.linear_gradient("L").rotate(90).resize(photo.size))
    alpha.save(os.path.join(work, "alpha.png"))
    photo.crop((0, 0, 224, 144)).save(os.path.join(work, "grid.png"))
    # heif-enc writes an odd size as a grid of one larger tile, cropped: HEIFs are made of an even crop,
    # but one, and that one is the grid.
    photo.crop((0, 0, 226, 148)).save(os.path.join(work, "even.png"))
    photo.crop((0, 0, 226, 148)).save(os.path.join(work, "even.ppm"))
    alpha.crop((0, 0, 226, 148)).save(os.path.join(work, "even-alpha.png"))
    # 16 bits a sample, each 8-bit value v written as v * 257, for the 10- and 12-bit files.
    rows = b"".join(b"\0" + b"".join(struct.pack(">HHH", *(c * 257 for c in photo.getpixel((x, y))))
                                     for x in range(photo.width)) for y in range(photo.height))
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    with open(os.path.join(work, "deep.png"), "wb") as out:
        out.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", photo.width, photo.height, 16, 2, 0, 0, 0))
                  + chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b""))
    w = lambda name: os.path.join(work, name)
    out = lambda folder, name: os.path.join(root, folder, name)
    commands = [
        ("webp", "b-lossy.webp", ["cwebp", "-quiet", "-q", "85", w("photo.png"), "-o"]),
        ("webp", "b-lossless.webp", ["cwebp", "-quiet", "-lossless", w("photo.png"), "-o"]),
        ("webp", "b-alpha.webp", ["cwebp", "-quiet", "-q", "85", "-alpha_q", "100", w("alpha.png"), "-o"]),
        ("webp", "b-alpha-lossless.webp", ["cwebp", "-quiet", "-lossless", "-exact", w("alpha.png"), "-o"]),
        ("heif", "b-q85.heic", ["heif-enc", "-q", "85", w("even.png"), "-o"]),
        ("heif", "b-thumbnail.heic", ["heif-enc", "-q", "85", "-t", "96", w("even.png"), "-o"]),
        ("heif", "b-alpha.heic", ["heif-enc", "-q", "85", w("even-alpha.png"), "-o"]),
        ("heif", "b-10bit.heic", ["heif-enc", "-q", "85", "-b", "10", w("deep.png"), "-o"]),
        ("heif", "b-444-lossless.heic", ["heif-enc", "-L", "-p", "chroma=444", w("even.png"), "-o"]),
        ("avif", "b-q.avif", ["avifenc", "--min", "10", "--max", "30", w("photo.png")]),
        ("avif", "b-lossless.avif", ["avifenc", "-l", w("photo.png")]),
        ("avif", "b-alpha.avif", ["avifenc", "--min", "10", "--max", "30", w("alpha.png")]),
        ("avif", "b-10bit.avif", ["avifenc", "--min", "10", "--max", "30", "-d", "10", w("deep.png")]),
        ("avif", "b-12bit-444.avif", ["avifenc", "--min", "10", "--max", "30", "-d", "12", "-y", "444", w("deep.png")]),
        ("avif", "b-grid.avif", ["avifenc", "--min", "10", "--max", "30", "--grid", "2x2", w("grid.png")]),
    ]
    for angle in range(1, 4):
        commands.append(("avif", "b-irot%d.avif" % angle, ["avifenc", "--min", "10", "--max", "30", "--irot", str(angle), w("photo.png")]))
    for mode in range(2):
        commands.append(("avif", "b-irot1-imir%d.avif" % mode,
                         ["avifenc", "--min", "10", "--max", "30", "--irot", "1", "--imir", str(mode), w("photo.png")]))
    for folder, name, command in commands:
        subprocess.run(command + [out(folder, name)], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # The photo (227 x 149) is written by heif-enc as a grid of one 228 x 150 tile, cropped.
    subprocess.run(["heif-enc", "-q", "85", w("photo.png"), "-o", out("heif", "b-odd-grid.heic")], check=True,
                   stdout=subprocess.DEVNULL)
    for orientation in (2, 3, 5, 6, 7, 8):
        subprocess.run([os.environ["HEIF_ORIENT"], w("even.ppm"), out("heif", "b-orientation-%d.heic" % orientation),
                        str(orientation)], check=True)
    # A 2 x 2 grid of tiles cut from the photo, cropped to 226 x 148 (scripts/conformance/heif-grid.py).
    tiles = []
    for index, (x, y) in enumerate([(0, 0), (114, 0), (0, 76), (114, 76)]):
        tiles.append(w("tile%d.png" % index))
        photo.crop((x, y, x + 114, y + 76)).save(tiles[-1])
    subprocess.run(["heif-enc", "-q", "85"] + tiles + ["-o", w("tiles.heic")], check=True, stdout=subprocess.DEVNULL)
    subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "heif-grid.py"),
                    w("tiles.heic"), out("heif", "b-grid-2x2.heic"), "2", "2", "226", "148"], check=True)
    # Cut short: half of each of three.
    for folder, name in (("webp", "b-lossy.webp"), ("heif", "b-q85.heic"), ("avif", "b-q.avif")):
        with open(out(folder, name), "rb") as f:
            data = f.read()
        with open(out(folder, "cut-" + name), "wb") as f:
            f.write(data[: len(data) // 2])


def tool_reference(path):
    """(width, height, straight RGBA) from the codec's own tool, or an exception."""
    work = tempfile.mkdtemp()
    png = os.path.join(work, "out.png")
    name = os.path.basename(path)
    if path.endswith(".webp"):
        command, tool = ["dwebp", "-quiet", path, "-o", png], "dwebp"
    elif path.endswith(".avif") and ("irot" not in name and "imir" not in name):
        # Not strict, as browsers and ParallaxKit's decoder are (libheif's example lacks a pixi property).
        command, tool = ["avifdec", "--no-strict", "-d", "8", path, png], "avifdec"
    else:
        command, tool = ["heif-convert", "--quiet", path, png], "heif-convert"
    result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    # heif-convert numbers its outputs (from 1) when a file holds several top-level images; heif-info lists
    # them in the same order and marks the primary one.
    outputs = [png] if os.path.exists(png) else []
    if not outputs and tool == "heif-convert":
        listing = subprocess.run(["heif-info", path], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout.decode()
        images = [line for line in listing.splitlines() if line.startswith("image:")]
        primary = next((i + 1 for i, line in enumerate(images) if "primary" in line), 1)
        outputs = glob.glob(os.path.join(work, "out-%d.png" % primary))
    if result.returncode != 0 or not outputs:
        raise RuntimeError("%s: %s" % (tool, result.stderr.decode(errors="replace").strip()[:100]))
    image = Image.open(outputs[0])
    image.load()
    return image.width, image.height, image.convert("RGBA").tobytes(), tool


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
    if path.endswith((".webp", ".heic", ".avif")):
        return tool_reference(path)
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
    codec_battery(CORPUS)
    rows = [("file", "format", "expect", "twin", "note")]
    for folder in ("pngsuite", "testpngs", "jpeg", "webp", "heif", "avif"):
        for name in sorted(os.listdir(os.path.join(CORPUS, folder))):
            relative = folder + "/" + name
            path = os.path.join(CORPUS, relative)
            kind = folder if folder in ("webp", "heif", "avif") else "png" if name.endswith(".png") else "jpeg"
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
                note = text[:100] if kind in ("webp", "heif", "avif") else "Pillow: %s" % text[:100]
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
