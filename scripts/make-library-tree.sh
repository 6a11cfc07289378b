#!/usr/bin/env bash
# Builds a photo library as people keep one, for the library-scale
# benchmarks: COUNT photos in a nested tree of hard links to the photos in
# SRC (never copied, never modified: a link costs a directory entry, so
# 300,000 photos take a few tens of megabytes of file system metadata).
#
#   scripts/make-library-tree.sh SRC DEST COUNT
#
# Layout, deterministic for a COUNT: about 70 % of the photos in
# YYYY/MM-place/NAME.jpg folders (2006-2025, camera names such as
# DSC_0042.jpg), the rest in phone-style YYYY/DCIM/1NNAPPLE/IMG_NNNN.JPG
# branches; 100-300 photos a folder. Beside the photos, as a real library
# has them: one video (a .MOV link to a photo: only the name is read) per
# ~50 DCIM photos and one .xmp sidecar per ~100 camera photos, a hidden
# .thumbnails folder per year, all of which the gallery counts or skips.
# DEST must not exist or be a tree this script made for the same COUNT
# (then nothing is done); "$DEST.complete" marks a finished tree.
set -euo pipefail
if [[ $# -ne 3 ]]; then
    echo "usage: $0 SRC DEST COUNT" >&2
    exit 2
fi
SRC="$1" DEST="$2" COUNT="$3"
[[ -d "$SRC" ]] || { echo "$0: no photo folder at $SRC" >&2; exit 1; }
[[ "$COUNT" =~ ^[0-9]+$ && "$COUNT" -gt 0 ]] || { echo "$0: COUNT must be a positive number" >&2; exit 2; }
if [[ -e "$DEST.complete" && "$(cat "$DEST.complete")" == "$COUNT" ]]; then
    echo "$DEST: $COUNT photos already" >&2
    exit 0
fi
[[ ! -e "$DEST" ]] || { echo "$0: $DEST exists and is not a finished tree of $COUNT photos; remove it first" >&2; exit 1; }

/usr/bin/python3 - "$SRC" "$DEST" "$COUNT" <<'PYTHON'
import os, random, sys

src, dest, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
photos = sorted(os.path.join(src, name) for name in os.listdir(src)
                if name.lower().endswith((".jpg", ".jpeg", ".png")) and not name.startswith("."))
if not photos:
    sys.exit(f"no JPEG or PNG photos in {src}")
rng = random.Random(count)
places = ["trip", "home", "beach", "mountains", "wedding", "birthday", "garden", "city", "school", "christmas",
          "lake", "zoo", "concert", "hike", "market", "snow", "museum", "party", "harbour", "cousins"]
os.makedirs(dest)
made, number, source = 0, 0, 0

def link(folder, name):
    global source
    os.link(photos[source % len(photos)], os.path.join(folder, name))
    source += 1

while made < count:
    year = 2006 + rng.randrange(20)
    size = min(rng.randint(100, 300), count - made)
    if rng.random() < 0.7:
        folder = os.path.join(dest, str(year), f"{rng.randint(1, 12):02d}-{rng.choice(places)}")
        prefix = rng.choice(["DSC_", "IMG_", "P", "DSCF"])
        os.makedirs(folder, exist_ok=True)
        for index in range(size):
            number += 1
            extension = os.path.splitext(photos[source % len(photos)])[1].lower()
            name = f"{prefix}{number:05d}{extension}"
            while os.path.exists(os.path.join(folder, name)):
                number += 1
                name = f"{prefix}{number:05d}{extension}"
            link(folder, name)
            if index % 100 == 99:
                open(os.path.join(folder, name.rsplit(".", 1)[0] + ".xmp"), "w").close()
    else:
        branch = 100
        while os.path.exists(os.path.join(dest, str(year), "DCIM", f"{branch}APPLE")):
            branch += 1
        folder = os.path.join(dest, str(year), "DCIM", f"{branch}APPLE")
        os.makedirs(folder)
        for index in range(size):
            number += 1
            extension = os.path.splitext(photos[source % len(photos)])[1].upper()
            link(folder, f"IMG_{number:05d}{extension}")
            if index % 50 == 49:
                link(folder, f"IMG_{number:05d}.MOV")
    thumbnails = os.path.join(dest, str(year), ".thumbnails")
    if not os.path.exists(thumbnails):
        os.makedirs(thumbnails)
        link(thumbnails, "cache.jpg")
    made += size
print(f"{dest}: {made} photos in a tree of hard links to {len(photos)} photos in {src}", file=sys.stderr)
PYTHON
echo "$COUNT" >"$DEST.complete"
