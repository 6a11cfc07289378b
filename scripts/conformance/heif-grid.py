#!/usr/bin/env python3
"""Makes a HEIF grid image out of a HEIF holding several images of one size
(heif-enc A.png B.png … -o tiles.heic writes them as top-level images):
adds a `grid` item of COLUMNS x ROWS of them, in the order given, with its
`ispe`, `dimg` references and grid data in `idat`, and makes it the primary
image. heif-enc 1.15 cannot write a grid of several tiles, and iPhones
write every photo as one (512 x 512 tiles), so the tests need this.

    heif-grid.py TILES.heic OUT.heic COLUMNS ROWS WIDTH HEIGHT

WIDTH x HEIGHT is the grid's output size (at most the tiles' total; the
rest is cropped away, as the specification allows). Only what heif-enc
writes is handled: one meta box, items in one mdat, iloc construction 0.
"""
import struct
import sys


def boxes(data, start=0, end=None):
    end = len(data) if end is None else end
    offset = start
    while offset + 8 <= end:
        size, kind = struct.unpack(">I4s", data[offset:offset + 8])
        header = 8
        if size == 1:
            size, header = struct.unpack(">Q", data[offset + 8:offset + 16])[0], 16
        elif size == 0:
            size = end - offset
        yield kind.decode("latin-1"), offset, offset + header, offset + size
        offset += size


def box(kind, body):
    return struct.pack(">I4s", 8 + len(body), kind.encode("latin-1")) + body


def full_box(kind, version, flags, body):
    return box(kind, struct.pack(">I", (version << 24) | flags) + body)


def read_uint(data, offset, size):
    return (int.from_bytes(data[offset:offset + size], "big") if size else 0), offset + size


def main():
    source, target, columns, rows, width, height = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:7])
    data = open(source, "rb").read()
    top = {kind: (start, body, end) for kind, start, body, end in boxes(data)}
    meta_start, meta_body, meta_end = top["meta"]
    mdat_start = top["mdat"][0]
    children = {kind: (start, body, end) for kind, start, body, end in boxes(data, meta_body + 4, meta_end)}

    # iloc: every item's extents (absolute offsets into the file).
    start, body, end = children["iloc"]
    version = data[body]
    sizes = data[body + 4], data[body + 5]
    offset_size, length_size, base_size = sizes[0] >> 4, sizes[0] & 15, sizes[1] >> 4
    index_size = sizes[1] & 15 if version in (1, 2) else 0
    at = body + 6
    count, at = read_uint(data, at, 2 if version < 2 else 4)
    items = []
    for _ in range(count):
        item, at = read_uint(data, at, 2 if version < 2 else 4)
        if version in (1, 2):
            method, at = read_uint(data, at, 2)
            assert method & 15 == 0, "only construction method 0 is handled"
        _, at = read_uint(data, at, 2)                 # data reference index
        base, at = read_uint(data, at, base_size)
        extents_count, at = read_uint(data, at, 2)
        extents = []
        for _ in range(extents_count):
            _, at = read_uint(data, at, index_size)
            offset, at = read_uint(data, at, offset_size)
            length, at = read_uint(data, at, length_size)
            extents.append((base + offset, length))
        items.append((item, extents))

    # iinf: the image items, in order; the grid takes the next free id.
    start, body, end = children["iinf"]
    iinf_version = data[body]
    entries_at = body + 4 + (2 if iinf_version == 0 else 4)
    infes = [data[s:e] for kind, s, b, e in boxes(data, entries_at, end) if kind == "infe"]
    ids = [item for item, _ in items]
    tiles = [item for item, _ in items if item not in ()][: columns * rows]
    assert len(tiles) == columns * rows, "the file holds %d images, the grid needs %d" % (len(tiles), columns * rows)
    grid = max(ids) + 1

    # ipco and ipma: a new ispe for the grid, associated with it.
    start, body, end = children["iprp"]
    iprp = {kind: (s, b, e) for kind, s, b, e in boxes(data, body, end)}
    s, b, e = iprp["ipco"]
    properties = [data[ps:pe] for _, ps, _, pe in boxes(data, b, e)]
    properties.append(full_box("ispe", 0, 0, struct.pack(">II", width, height)))
    ispe_index = len(properties)                       # 1-based
    s, b, e = iprp["ipma"]
    ipma_version, ipma_flags = data[b], int.from_bytes(data[b + 1:b + 4], "big")
    ipma_count = int.from_bytes(data[b + 4:b + 8], "big")
    ipma_entries = data[b + 8:e]
    item_id = struct.pack(">I" if ipma_version >= 1 else ">H", grid)
    association = struct.pack(">H", ispe_index) if ipma_flags & 1 else bytes([ispe_index])
    ipma = full_box("ipma", ipma_version, ipma_flags,
                    struct.pack(">I", ipma_count + 1) + ipma_entries + item_id + bytes([1]) + association)
    new_iprp = box("iprp", box("ipco", b"".join(properties)) + ipma)

    infe = full_box("infe", 2, 0, struct.pack(">HH4s", grid, 0, b"grid") + b"\0")
    new_iinf = full_box("iinf", 0, 0, struct.pack(">H", len(infes) + 1) + b"".join(infes) + infe)
    dimg = box("dimg", struct.pack(">HH", grid, len(tiles)) + b"".join(struct.pack(">H", t) for t in tiles))
    old_iref = b""
    if "iref" in children:
        s, b, e = children["iref"]
        assert data[b] == 0, "only iref version 0 is handled"
        old_iref = data[b + 4:e]
    new_iref = full_box("iref", 0, 0, old_iref + dimg)
    grid_data = struct.pack(">BBBBHH", 0, 0, rows - 1, columns - 1, width, height)
    new_idat = box("idat", grid_data)
    new_pitm = full_box("pitm", 0, 0, struct.pack(">H", grid))

    def iloc(mdat_shift):
        entries = b""
        for item, extents in items:
            entries += struct.pack(">HHHH", item, 0, 0, len(extents))
            entries += b"".join(struct.pack(">II", offset + mdat_shift, length) for offset, length in extents)
        entries += struct.pack(">HHHH", grid, 1, 0, 1) + struct.pack(">II", 0, len(grid_data))
        return full_box("iloc", 1, 0, bytes([0x44, 0x00]) + struct.pack(">H", len(items) + 1) + entries)

    kept = b"".join(data[s:e] for kind, s, b, e in boxes(data, meta_body + 4, meta_end)
                    if kind not in ("pitm", "iloc", "iinf", "iprp", "iref", "idat"))
    before_meta = data[:meta_start]
    between = data[meta_end:mdat_start]
    for shift in (0, 0):
        meta = full_box("meta", 0, 0, kept + new_pitm + iloc(shift) + new_iinf + new_iref + new_iprp + new_idat)
        new_mdat_start = len(before_meta) + len(meta) + len(between)
        shift = new_mdat_start - mdat_start
        meta = full_box("meta", 0, 0, kept + new_pitm + iloc(shift) + new_iinf + new_iref + new_iprp + new_idat)
    with open(target, "wb") as out:
        out.write(before_meta + meta + between + data[mdat_start:])


main()
