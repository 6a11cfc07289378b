#!/usr/bin/env bash
# Fetches the photo set pinned in scripts/photos/photos.tsv (real photographs
# from Debian 12 wallpaper packages) into a local cache, installing nothing.
# Each .deb is downloaded, checked against its SHA-256 and unpacked in a temp
# folder; each photo is checked against its own SHA-256. Any mismatch stops the
# script before the cache is touched, so the set cannot drift.
#
#   scripts/fetch-photos.sh [--force]
#
# Cache: ${PHOTO_CACHE:-<repo>/.cache/photos} (git-ignored): the photos as
# <package>__<name>.{jpg,png}, CREDITS.tsv (file, package, licence, credit)
# and, written last as it marks the cache complete, MANIFEST.tsv (file, width,
# height, megapixels, format, bytes; format: jpeg-baseline | jpeg-progressive |
# png). Both have a header row and come from photos.tsv (or $PHOTO_MANIFEST).
#
# Idempotent: when both TSV files are what photos.tsv gives and every photo is
# there with its size, it says so and exits 0, unless --force. Needs curl,
# sha256sum and dpkg-deb; apt-get only when a pinned .deb has left
# deb.debian.org (Debian 12 drops a version once the package is updated).
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${PHOTO_CACHE:-$REPO/.cache/photos}"
SOURCE="${PHOTO_MANIFEST:-$REPO/scripts/photos/photos.tsv}"
die() { echo "fetch-photos: $*" >&2; exit 1; }

force=0
for arg in "$@"; do
  case "$arg" in
    --force|-f) force=1 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "fetch-photos: unknown argument: $arg (try --help)" >&2; exit 2 ;;
  esac
done
for tool in curl sha256sum dpkg-deb; do command -v "$tool" >/dev/null || die "$tool is required (Debian packages curl, coreutils, dpkg)"; done
[[ -f $SOURCE ]] || die "no photo manifest at $SOURCE"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/fetch-photos.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

# Read photos.tsv once: the cache's two TSV files are derived from it here.
files=() sums=() sizes=() paths=() debs=() debs_seen=" " pixels=0 progressive=0
printf 'file\twidth\theight\tmegapixels\tformat\tbytes\n' > "$tmp/MANIFEST.tsv"
printf 'file\tpackage\tlicence\tcredit\n' > "$tmp/CREDITS.tsv"
while IFS=$'\t' read -r pkg version url deb_sum path file sum width height format bytes licence credit; do
  [[ $pkg == package ]] && continue   # the header row
  [[ -n $credit && $file != */* ]] || die "malformed row in $SOURCE: $pkg $file"
  # Megapixels to 2 decimals, rounded in integers (Python's "%.2f" made the old
  # files; the two agree except on exact ties, which no photo of the set is).
  mp=$(( (width * height + 5000) / 10000 )) pixels=$(( pixels + mp ))
  [[ $format == jpeg-progressive ]] && progressive=$(( progressive + 1 ))
  printf '%s\t%s\t%s\t%d.%02d\t%s\t%s\n' "$file" "$width" "$height" $((mp / 100)) $((mp % 100)) "$format" "$bytes" >> "$tmp/MANIFEST.tsv"
  printf '%s\t%s\t%s\t%s\n' "$file" "$pkg" "$licence" "$credit" >> "$tmp/CREDITS.tsv"
  files+=("$file") sums+=("$sum") sizes+=("$bytes") paths+=("$url $path")
  if [[ $debs_seen != *" $url "* ]]; then debs+=("$url $deb_sum $pkg=$version"); debs_seen+="$url "; fi
done < <(grep -v '^#' "$SOURCE")
[[ ${#files[@]} -gt 0 ]] || die "$SOURCE lists no photo"
summary="${#files[@]} photos, $(( (pixels + 5) / 100 )).$(( (pixels + 5) / 10 % 10 )) MP, $progressive progressive JPEG"

if [[ $force -eq 0 && -f $CACHE/MANIFEST.tsv ]]; then
  complete=1
  cmp -s "$tmp/MANIFEST.tsv" "$CACHE/MANIFEST.tsv" && cmp -s "$tmp/CREDITS.tsv" "$CACHE/CREDITS.tsv" || complete=0
  for i in "${!files[@]}"; do [[ $(stat -c %s "$CACHE/${files[i]}" 2>/dev/null) == "${sizes[i]}" ]] || complete=0; done
  [[ $complete -eq 0 ]] || { echo "photos already cached in $CACHE ($summary); use --force to fetch again"; exit 0; }
  echo "fetch-photos: $CACHE is incomplete or out of date, fetching again"
fi

# Download, check and unpack one .deb at a time; verified photos wait in stage/.
echo "Fetching photos into $CACHE"
mkdir -p "$tmp/stage"
for entry in "${debs[@]}"; do
  read -r url deb_sum pin <<< "$entry"
  rm -rf "$tmp/deb" && mkdir -p "$tmp/deb/root"
  if ! curl -fsSL --retry 2 -o "$tmp/deb/package.deb" "$url"; then
    # The URL goes away once Debian updates the package; apt may still know the pinned version.
    echo "fetch-photos: cannot download $url; trying apt-get download $pin" >&2
    opts=(); [[ $(id -u) -ne 0 ]] || opts=(-o APT::Sandbox::User=root)   # _apt cannot enter a mktemp folder
    (cd "$tmp/deb" && rm -f package.deb && apt-get download -q "${opts[@]}" "$pin" >&2) ||
      die "cannot fetch $pin either (apt-get update, or pin a newer .deb in photos.tsv)"
    mv "$tmp/deb"/*.deb "$tmp/deb/package.deb"
  fi
  got="$(sha256sum < "$tmp/deb/package.deb" | cut -d' ' -f1)"
  [[ $got == "$deb_sum" ]] || die "$pin: the .deb's SHA-256 is $got, not $deb_sum as $SOURCE pins; refusing it"
  dpkg-deb -x "$tmp/deb/package.deb" "$tmp/deb/root"
  count=0
  for i in "${!files[@]}"; do
    [[ ${paths[i]%% *} == "$url" ]] || continue
    src="$tmp/deb/root/${paths[i]#* }"
    [[ -f $src ]] || die "$pin has no ${paths[i]#* }"
    got="$(sha256sum < "$src" | cut -d' ' -f1)"
    [[ $got == "${sums[i]}" ]] || die "${files[i]}: SHA-256 is $got, not ${sums[i]} as $SOURCE pins; refusing it"
    install -m 644 "$src" "$tmp/stage/${files[i]}" && count=$(( count + 1 ))
  done
  echo "  $pin: $count photo$([[ $count -eq 1 ]] || echo s)"
done

# Everything checked: replace the previous set (MANIFEST.tsv first, so an
# interrupted run is seen as incomplete), then write MANIFEST.tsv last.
mkdir -p "$CACHE"
if [[ -f $CACHE/MANIFEST.tsv ]]; then
  mapfile -t old < <(tail -n +2 "$CACHE/MANIFEST.tsv" | cut -f1)
  rm -f "$CACHE/MANIFEST.tsv"
  for f in "${old[@]}"; do if [[ -n $f && $f != */* ]]; then rm -f -- "$CACHE/$f"; fi; done
fi
mv "$tmp/stage"/* "$CACHE/"
cp "$tmp/CREDITS.tsv" "$CACHE/CREDITS.tsv"
cp "$tmp/MANIFEST.tsv" "$CACHE/MANIFEST.tsv"
echo "Fetched $summary into $CACHE"
