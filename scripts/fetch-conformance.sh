#!/usr/bin/env bash
# Fetches the decoder's conformance corpus into a local cache (never
# committed) and writes an independent reference decode of every file:
#
#   - libpng 1.6.39's contrib/pngsuite (basic formats, transparency, and an
#     interlaced twin of each) and contrib/testpngs (every colour type and
#     depth, gamma and colour-space variants, and "crashers"), from Debian's
#     pinned source tarball;
#   - libjpeg-turbo 2.1.5's testimages (baseline, progressive, arithmetic,
#     12-bit), from Debian's pinned source tarball, plus a battery made from
#     them with Debian's cjpeg/jpegtran and Pillow: every chroma subsampling,
#     greyscale, restart markers, arithmetic, CMYK, EXIF rotations, tiny and
#     extreme-aspect sizes, and files cut short;
#   - libheif 1.15.1's example HEIF and AVIF and the small HEIFs of its
#     fuzzing corpus (valid pictures, and files that once crashed it), and
#     libwebp 1.2.4's example WebPs, from Debian's pinned source tarballs,
#     plus a battery made from libjpeg-turbo's test photo with Debian's
#     cwebp, heif-enc, avifenc and scripts/conformance/heif-orient.c: lossy,
#     lossless, alpha, 10- and 12-bit, thumbnail items, a grid, irot and
#     imir, and files cut short.
#
# Both tarballs are checked against their SHA-256 before anything is used.
# References come from Pillow (Debian's python3-pil), the decoder most
# Python tooling trusts, with EXIF orientation applied and colours
# premultiplied by alpha as ParallaxKit's are (WebP, HEIF and AVIF from the
# codecs' own tools: dwebp, heif-convert and avifdec); where Pillow 9.4 is known to
# be wrong (16-bit grey is clipped, not scaled; tRNS of low-depth grey and
# 16-bit colour is compared with the wrong bytes) the reference is decoded
# by scripts/conformance/references.py's own few lines instead (see there).
#
#   scripts/fetch-conformance.sh [--force]
#
# Cache: ${CONFORMANCE_CACHE:-<repo>/.cache/conformance}: the files, a .ref
# per valid file, and MANIFEST.tsv (file, format, expectation, twin, note).
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${CONFORMANCE_CACHE:-$REPO/.cache/conformance}"
MIRRORS=(http://deb.debian.org/debian http://snapshot.debian.org/archive/debian/20250520T000000Z)
# path in the archive | SHA-256
TARBALLS=(
  "pool/main/libp/libpng1.6/libpng1.6_1.6.39.orig.tar.gz|a00e9d2f2f664186e4202db9299397f851aea71b36a35e74910b8820e380d441"
  "pool/main/libj/libjpeg-turbo/libjpeg-turbo_2.1.5.orig.tar.gz|254f3642b04e309fee775123133c6464181addc150499561020312ec61c1bf7c"
  "pool/main/libh/libheif/libheif_1.15.1.orig.tar.gz|28d5a376fe7954d2d03453f983aaa0b7486f475c27c7806bda31df9102325556"
  "pool/main/libw/libwebp/libwebp_1.2.4.orig.tar.gz|7bf5a8a28cc69bcfa8cb214f2c3095703c6b73ac5fba4d5480c205331d9494df"
)

force=0
for arg in "$@"; do
  case "$arg" in
    --force|-f) force=1 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "fetch-conformance: unknown argument: $arg (try --help)" >&2; exit 2 ;;
  esac
done

# A cache from before the WebP, HEIF and AVIF files were added is made again.
if [[ $force -eq 0 && -f "$CACHE/MANIFEST.tsv" ]] && grep -q "^avif/" "$CACHE/MANIFEST.tsv"; then
  echo "Conformance corpus already in $CACHE ($(($(wc -l < "$CACHE/MANIFEST.tsv") - 1)) files)"
  exit 0
fi

"$REPO/scripts/ensure-packages.sh" python3 python3-pil libjpeg-turbo-progs curl webp libheif-examples libheif-dev libavif-bin

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for entry in "${TARBALLS[@]}"; do
  path="${entry%%|*}" sum="${entry##*|}" file="$work/$(basename "${entry%%|*}")"
  fetched=0
  for mirror in "${MIRRORS[@]}"; do
    if curl -fsSL --retry 2 -o "$file" "$mirror/$path"; then fetched=1; break; fi
  done
  [[ $fetched -eq 1 ]] || { echo "fetch-conformance: cannot download $path" >&2; exit 1; }
  echo "$sum  $file" | sha256sum --check --quiet - || { echo "fetch-conformance: $path fails its SHA-256" >&2; exit 1; }
  tar -xzf "$file" -C "$work"
done

rm -rf "$CACHE.new"
mkdir -p "$CACHE.new/pngsuite" "$CACHE.new/testpngs" "$CACHE.new/jpeg" "$CACHE.new/webp" "$CACHE.new/heif" "$CACHE.new/avif"
cp "$work"/libpng-1.6.39/contrib/pngsuite/*.png "$CACHE.new/pngsuite/"
for file in "$work"/libpng-1.6.39/contrib/pngsuite/interlaced/*.png; do
  cp "$file" "$CACHE.new/pngsuite/interlaced-$(basename "$file")"
done
cp "$work"/libpng-1.6.39/contrib/testpngs/*.png "$CACHE.new/testpngs/"
for file in "$work"/libpng-1.6.39/contrib/testpngs/crashers/*.png; do
  cp "$file" "$CACHE.new/testpngs/crasher-$(basename "$file")"
done
cp "$work"/libjpeg-turbo-2.1.5/testimages/*.jpg "$CACHE.new/jpeg/"
cp "$work"/libjpeg-turbo-2.1.5/testimages/testorig.ppm "$work/source.ppm"
cp "$work"/libheif-1.15.1/examples/example.heic "$CACHE.new/heif/"
cp "$work"/libheif-1.15.1/examples/example.avif "$CACHE.new/avif/"
for file in "$work"/libheif-1.15.1/fuzzing/corpus/*.heic; do
  case "$(basename "$file")" in
    colors-*) cp "$file" "$CACHE.new/heif/" ;;
    *) cp "$file" "$CACHE.new/heif/crasher-$(basename "$file")" ;;
  esac
done
cp "$work"/libwebp-1.2.4/examples/test.webp "$CACHE.new/webp/"
# The helper that writes irot/imir boxes, for the HEIF battery.
# The Swift toolchain's clang (a fresh Debian may have no cc), else cc.
compiler="$(dirname "$(readlink -f "$(command -v swift || echo /nonexistent)")")/clang"
[[ -x "$compiler" ]] || compiler=cc
"$compiler" "$REPO/scripts/conformance/heif-orient.c" -lheif -o "$work/heif-orient"
export HEIF_ORIENT="$work/heif-orient"

# Debian's python3-pil is installed for the system interpreter, which may not be first on PATH.
/usr/bin/python3 "$REPO/scripts/conformance/references.py" "$CACHE.new" "$work/source.ppm"
rm -rf "$CACHE"
mv "$CACHE.new" "$CACHE"
echo "Conformance corpus in $CACHE ($(($(wc -l < "$CACHE/MANIFEST.tsv") - 1)) files)"
