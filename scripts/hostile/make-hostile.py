#!/usr/bin/env python3
"""Writes the hostile files of the decoder's memory benchmark into FOLDER:
headers that lie about their size, chunks that lie about their length, and
honest files whose pictures are enormous for their bytes.

    make-hostile.py FOLDER
"""
import os
import struct
import subprocess
import sys
import zlib

folder = sys.argv[1]
os.makedirs(folder, exist_ok=True)


def chunk(kind, data, claimed=None):
    body = kind + data
    return struct.pack(">I", len(data) if claimed is None else claimed) + body + struct.pack(">I", zlib.crc32(body))


def png_header(width, height, depth=8, colour=6):
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, 0))


def write(name, data):
    with open(os.path.join(folder, name), "wb") as out:
        out.write(data)


# A 14000 x 14000 header and an empty deflate stream: no pixel data at all.
write("png-header-14000.png", png_header(14000, 14000) + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b""))
# A small picture with an iTXt chunk that claims a gigabyte.
write("png-huge-itxt.png", png_header(8, 8) + chunk(b"iTXt", b"key\0\0\0\0\0text", claimed=0x40000000))
# An honest 14000 x 14000 grey PNG: 196 megapixels in well under a megabyte.
row = b"\0" + b"\x80" * (14000 * 3)
deflate = zlib.compressobj(9)
data = b"".join(deflate.compress(row) for _ in range(14000)) + deflate.flush()
write("png-solid-14000.png", png_header(14000, 14000, colour=2) + chunk(b"IDAT", data) + chunk(b"IEND", b""))


def cjpeg(name, width, height, *options):
    """An honest grey JPEG of width x height, encoded by cjpeg from a streamed PPM."""
    with open(os.path.join(folder, name), "wb") as out:
        encoder = subprocess.Popen(["cjpeg", "-quality", "75", *options], stdin=subprocess.PIPE, stdout=out)
        encoder.stdin.write(b"P6 %d %d 255\n" % (width, height))
        line = b"\x80\x80\x80" * width
        for _ in range(height):
            encoder.stdin.write(line)
        encoder.stdin.close()
        if encoder.wait() != 0:
            sys.exit("cjpeg failed")


cjpeg("jpeg-solid-14000.jpg", 14000, 14000)
cjpeg("jpeg-solid-14000-progressive.jpg", 14000, 14000, "-progressive")
# A small JPEG whose header is then made to claim 14000 x 14000 (SOF0 height and width).
small = bytearray(subprocess.run(["cjpeg", "-quality", "75"], input=b"P6 16 16 255\n" + b"\x40\x80\xc0" * 256,
                                 stdout=subprocess.PIPE, check=True).stdout)
sof = small.index(b"\xff\xc0")
small[sof + 5:sof + 9] = struct.pack(">HH", 14000, 14000)
write("jpeg-header-14000.jpg", bytes(small))
