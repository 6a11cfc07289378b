#!/usr/bin/env bash
# Makes a camera-style copy of the photo set: every JPEG of .cache/photos with
# a 160-pixel thumbnail embedded in its Exif data (IFD1, as cameras and phones
# write one), made with Debian's own tools (vipsthumbnail for the thumbnail,
# exiftool to embed it), into a local cache (never committed). The gallery
# shows such a thumbnail as a photo's preview before the photo is decoded
# (ImageLoader.embeddedPreview); this set is what that is measured on.
#
# Cache: ${CAMERA_PHOTO_CACHE:-<repo>/.cache/photos-camera}. Files already
# there are kept; --force makes them again.
#
#   scripts/make-camera-photos.sh [--force]
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PHOTOS="${PHOTO_CACHE:-$REPO/.cache/photos}"
CACHE="${CAMERA_PHOTO_CACHE:-$REPO/.cache/photos-camera}"
[[ "${1:-}" == "--force" ]] && rm -rf "$CACHE"
[[ -f "$CACHE/.complete" ]] && { echo "Camera-style photos already in $CACHE ($(ls "$CACHE" | wc -l) files)"; exit 0; }
[[ -f "$PHOTOS/MANIFEST.tsv" ]] || { echo "make-camera-photos: no photo set in $PHOTOS (scripts/fetch-photos.sh)" >&2; exit 1; }
"$REPO/scripts/ensure-packages.sh" libimage-exiftool-perl libvips-tools
mkdir -p "$CACHE"
thumb="$(mktemp --suffix=.jpg)"
trap 'rm -f "$thumb"' EXIT
count=0
for source in "$PHOTOS"/*.jpg "$PHOTOS"/*.jpeg "$PHOTOS"/*.JPG; do
  [[ -f "$source" ]] || continue
  out="$CACHE/$(basename "$source")"
  if [[ ! -f "$out" ]]; then
    # The thumbnail of the photo as stored (cameras write it unrotated; the photo's orientation turns both).
    vipsthumbnail "$source" --size 160x160 --no-rotate -o "$thumb[Q=85,strip]"
    cp "$source" "$out.partial"
    exiftool -q -overwrite_original "-ThumbnailImage<=$thumb" "$out.partial"
    mv "$out.partial" "$out"
  fi
  count=$((count + 1))
done
touch "$CACHE/.complete"
echo "Camera-style photos in $CACHE ($count JPEGs with an embedded thumbnail)"
