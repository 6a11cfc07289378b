#!/usr/bin/env bash
# Makes WebP, HEIF and AVIF copies of a few photos of the set (every eighth
# JPEG of .cache/photos/MANIFEST.tsv) for the thumbnail benchmark's rows per
# format, with Debian's own encoders, into a local cache (never committed):
#
#   WebP: cwebp -q 80 (lossy, as cameras' and the web's WebPs are)
#   HEIF: heif-enc -q 80 -t 320 (HEVC with a 320-pixel thumbnail item, as phones write)
#   AVIF: avifenc --min 18 --max 30 (AV1, 4:2:0, 8-bit)
# at the encoders' fastest settings (x265's ultrafast preset, avifenc -s 10):
# the decoder's work hardly depends on them, and slow presets take minutes a
# photo on a shared 2-core machine.
#
# The copies decode to the same photos, so the rows compare codecs, not
# pictures. Cache: ${FORMAT_PHOTO_CACHE:-<repo>/.cache/photos-formats}: the
# files and MANIFEST.tsv (the photo set's columns; format webp | heif | avif),
# written last. Files already there are kept; --force makes them again.
#
#   scripts/make-format-photos.sh [--force]
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PHOTOS="${PHOTO_CACHE:-$REPO/.cache/photos}"
CACHE="${FORMAT_PHOTO_CACHE:-$REPO/.cache/photos-formats}"
[[ "${1:-}" == "--force" ]] && rm -rf "$CACHE"
[[ -f "$CACHE/MANIFEST.tsv" ]] && { echo "Format copies already in $CACHE ($(($(wc -l < "$CACHE/MANIFEST.tsv") - 1)) files)"; exit 0; }
[[ -f "$PHOTOS/MANIFEST.tsv" ]] || { echo "make-format-photos: no photo set in $PHOTOS (scripts/fetch-photos.sh)" >&2; exit 1; }
"$REPO/scripts/ensure-packages.sh" webp libheif-examples libavif-bin python3-pil
mkdir -p "$CACHE"
manifest="$(mktemp)"
trap 'rm -f "$manifest"' EXIT
printf 'file\twidth\theight\tmegapixels\tformat\tbytes\n' > "$manifest"
awk -F'\t' 'NR > 1 && $5 ~ /^jpeg/ { if (n++ % 8 == 0) print $1 "\t" $2 "\t" $3 "\t" $4 }' "$PHOTOS/MANIFEST.tsv" |
while IFS=$'\t' read -r file width height megapixels; do
  base="${file%.*}" source="$PHOTOS/$file"
  # The encoders read PNG (heif-enc and avifenc apply no EXIF orientation to JPEG input either way).
  png="$(mktemp --suffix=.png)"
  /usr/bin/python3 -c "import sys; from PIL import Image; Image.open(sys.argv[1]).convert('RGB').save(sys.argv[2], compress_level=1)" "$source" "$png"
  for format in webp heif avif; do
    case $format in
      webp) out="$base.webp"; [[ -f "$CACHE/$out" ]] || cwebp -quiet -q 80 "$png" -o "$CACHE/$out" ;;
      heif) out="$base.heic"; [[ -f "$CACHE/$out" ]] || heif-enc -q 80 -t 320 -p preset=ultrafast "$png" -o "$CACHE/$out" >/dev/null ;;
      avif) out="$base.avif"; [[ -f "$CACHE/$out" ]] || avifenc -j 2 -s 10 --min 18 --max 30 "$png" "$CACHE/$out" >/dev/null ;;
    esac
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$out" "$width" "$height" "$megapixels" "$format" "$(stat -c %s "$CACHE/$out")" >> "$manifest"
    echo "make-format-photos: $out"
  done
  rm -f "$png"
done
mv "$manifest" "$CACHE/MANIFEST.tsv"
echo "Format copies in $CACHE ($(($(wc -l < "$CACHE/MANIFEST.tsv") - 1)) files)"
