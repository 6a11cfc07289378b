#!/usr/bin/env bash
# Fetches real photographs from Debian wallpaper packages into a local cache,
# without installing anything: each package is fetched with `apt-get download`
# into a temporary folder, unpacked there with `dpkg-deb -x`, and only the
# chosen photo files are copied to the cache.
#
#   scripts/fetch-photos.sh [--force] [--verbose]
#
# Cache: ${PHOTO_CACHE:-<repo>/.cache/photos} (git-ignored). It receives
#   <package>__<name>.{jpg,png}  the photos
#   MANIFEST.tsv   file, width, height, megapixels, format, bytes
#                  (format: jpeg-baseline | jpeg-progressive | png)
#   CREDITS.tsv    file, package, licence, author/credit (from the package's
#                  DEP-5 usr/share/doc/<pkg>/copyright; upstream notes found
#                  beside the photo are appended to the credit)
# Both TSV files start with a header row.
#
# Idempotent: when MANIFEST.tsv exists and every file it lists is present,
# it says so and exits 0, unless --force. A package that cannot be downloaded
# is warned about and skipped; the exit status is non-zero only when no photo
# at all was fetched. Needs apt-get, dpkg-deb and python3 (stdlib only). Root
# is needed only for `apt-get update`, which runs (through sudo when not root)
# only if the package lists do not know the packages yet.
#
# Which files count as photographs is decided by the PHOTOS table in the
# embedded Python below (chosen by looking at every image in these package
# versions); rendered/abstract art, SVGs, previews under 1 MP, symlinked
# aliases and smaller resolutions of the same wallpaper are skipped.
# --verbose lists every skipped image with its reason.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${PHOTO_CACHE:-$REPO/.cache/photos}"
PACKAGES=(
  lomiri-wallpapers-16.04
  lomiri-wallpapers-20.04
  mate-backgrounds
  plasma-workspace-wallpapers
  lxqt-themes
)

force=0
verbose=0
for arg in "$@"; do
  case "$arg" in
    --force|-f) force=1 ;;
    --verbose|-v) verbose=1 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "fetch-photos: unknown argument: $arg (try --help)" >&2; exit 2 ;;
  esac
done

for tool in apt-get apt-cache dpkg-deb python3; do
  command -v "$tool" >/dev/null || { echo "fetch-photos: $tool is required" >&2; exit 1; }
done

manifest_summary() {  # prints "N photos, X MP, P progressive JPEG" for a manifest
  python3 - "$1" <<'EOF'
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1], encoding="utf-8")][1:]
rows = [r for r in rows if len(r) >= 6]
mp = sum(float(r[3]) for r in rows)
prog = sum(r[4] == "jpeg-progressive" for r in rows)
print(f"{len(rows)} photos, {mp:.1f} MP, {prog} progressive JPEG")
EOF
}

# --- already cached? ---------------------------------------------------------
if [ -f "$CACHE/MANIFEST.tsv" ] && [ "$force" -eq 0 ]; then
  complete=1
  while IFS=$'\t' read -r file _; do
    [ -n "$file" ] || continue
    [ -f "$CACHE/$file" ] || { complete=0; break; }
  done < <(tail -n +2 "$CACHE/MANIFEST.tsv")
  if [ "$complete" -eq 1 ] && [ "$(tail -n +2 "$CACHE/MANIFEST.tsv" | grep -c .)" -gt 0 ]; then
    echo "photos already cached in $CACHE ($(manifest_summary "$CACHE/MANIFEST.tsv")); use --force to fetch again"
    exit 0
  fi
  echo "fetch-photos: $CACHE/MANIFEST.tsv is incomplete, fetching again"
fi

tmp="$(mktemp -d "${TMPDIR:-/tmp}/fetch-photos.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
# Downloads go to the current directory; apt hands them to the unprivileged
# _apt user when run as root, which cannot enter a private mktemp folder, so
# as root the download stays with root (what apt falls back to anyway).
apt_download_opts=()
[ "$(id -u)" -eq 0 ] && apt_download_opts=(-o APT::Sandbox::User=root)

# --- make sure apt knows the packages ----------------------------------------
candidate() { apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ {print $2; exit}'; }
unknown=()
for pkg in "${PACKAGES[@]}"; do
  c="$(candidate "$pkg")"
  [ -n "$c" ] && [ "$c" != "(none)" ] || unknown+=("$pkg")
done
if [ ${#unknown[@]} -gt 0 ]; then
  echo "fetch-photos: apt does not know ${unknown[*]} yet; running apt-get update"
  if [ "$(id -u)" -eq 0 ]; then
    apt-get update -qq || echo "fetch-photos: warning: apt-get update failed" >&2
  elif command -v sudo >/dev/null; then
    sudo apt-get update -qq || echo "fetch-photos: warning: sudo apt-get update failed" >&2
  else
    echo "fetch-photos: warning: not root and no sudo; cannot run apt-get update" >&2
  fi
fi

# --- the photo selection, header parser and licence matcher -------------------
cat > "$tmp/photos.py" <<'PYEOF'
import fnmatch, json, os, re, shutil, struct, sys

# Per package: "photos" are the photographs (globs relative to the unpacked
# package root); "exclude" takes out files the photo globs would catch; every
# other image gets the first matching reason from "others". Every image in these
# package versions was looked at: "art" means renders, illustrations, vector
# or logo art.
PHOTOS = {
    "lomiri-wallpapers-16.04": {
        "photos": ["usr/share/backgrounds/*.jpg"],
        "exclude": {"usr/share/backgrounds/umang_by_Abhishek_Mudgal.jpg": "rendered abstract art"},
    },
    "lomiri-wallpapers-20.04": {
        "photos": ["usr/share/backgrounds/Kleiber_by_Lukas_Baubkus.jpg"],
        "others": {
            "usr/share/backgrounds/Fossa_by_Jasper_Roks.jpg": "rendered abstract art",
            "usr/share/backgrounds/Infinite-Sea_by_Aury88.jpg": "digital art (milky-way composite)",
            "usr/share/backgrounds/Painting-Colors_by__herobrine7gamer.jpg": "flat vector art",
        },
    },
    "mate-backgrounds": {
        "photos": ["usr/share/backgrounds/mate/nature/*.jpg"],
        "others": {
            "usr/share/backgrounds/mate/abstract/*": "abstract/rendered art",
            "usr/share/backgrounds/mate/desktop/*": "rendered desktop/logo art",
        },
    },
    "plasma-workspace-wallpapers": {
        "photos": ["usr/share/wallpapers/%s/contents/images/*" % name for name in (
            "BytheWater", "ColdRipple", "ColorfulCups", "DarkestHour", "EveningGlow",
            "FallenLeaf", "Grey", "Kite", "OneStandsOut", "Path", "summer_1am")],
        "others": {
            "usr/share/wallpapers/*/contents/screenshot.*": "preview thumbnail",
            "usr/share/wallpapers/Volna/*": "3D render (low-poly beach), not a photo",
            "usr/share/wallpapers/Autumn/*": "illustration",
            "usr/share/wallpapers/*": "rendered/illustrated art",
        },
    },
    "lxqt-themes": {
        "photos": ["usr/share/lxqt/wallpapers/%s" % f for f in (
            "Butterfly-Kenneth-Wimer.jpg", "after-the-rain.jpg", "fog.jpg",
            "this-is-not-windows.jpg", "Valendas.png", "appleflower.png", "beam.png",
            "butterfly.png", "cloud.png", "drop.png", "flowers.png")],
        "others": {
            "usr/share/lxqt/wallpapers/*": "rendered/logo art",
            "usr/share/lxqt/themes/*": "theme UI graphics",
        },
    },
}
MIN_PIXELS = 1_000_000
IMAGE_EXT = (".jpg", ".jpeg", ".png", ".svg", ".svgz", ".webp", ".gif", ".bmp", ".tif", ".tiff", ".xpm")


def image_info(path):
    """(width, height, format) from the JPEG SOF or PNG IHDR header, or None."""
    with open(path, "rb") as f:
        head = f.read(33)
        if head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR":
            w, h = struct.unpack(">II", head[16:24])
            return w, h, "png"
        if head[:2] != b"\xff\xd8":
            return None
        f.seek(2)
        while True:
            b = f.read(1)
            if not b:
                return None
            if b != b"\xff":
                continue
            m = f.read(1)
            while m == b"\xff":          # fill bytes
                m = f.read(1)
            if not m:
                return None
            m = m[0]
            if m == 0x01 or 0xD0 <= m <= 0xD8:   # markers without a length
                continue
            if m == 0xD9:
                return None
            seg = f.read(2)
            if len(seg) < 2:
                return None
            length = struct.unpack(">H", seg)[0]
            if m in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
                sof = f.read(5)
                h, w = struct.unpack(">HH", sof[1:5])
                kind = {0xC0: "jpeg-baseline", 0xC1: "jpeg-baseline", 0xC2: "jpeg-progressive"}
                return w, h, kind.get(m, "jpeg-sof%x" % m)
            f.seek(length - 2, 1)


def parse_dep5(path):
    """List of stanzas, each a dict of lower-cased field -> value (continuations joined by \\n)."""
    stanzas, cur, key = [], {}, None
    try:
        text = open(path, encoding="utf-8", errors="replace").read()
    except OSError:
        return []
    for line in text.splitlines():
        if not line.strip():
            if cur:
                stanzas.append(cur)
            cur, key = {}, None
        elif line[0] in " \t":
            if key:
                cur[key] += "\n" + line.strip()
        elif ":" in line:
            key, value = line.split(":", 1)
            key = key.strip().lower()
            cur[key] = value.strip()
    if cur:
        stanzas.append(cur)
    return stanzas


def clean(text):
    parts = [p.strip().rstrip("´`") for p in re.split(r"[\n\t]+", text or "")]
    return "; ".join(p for p in parts if p and p != ".")


def dep5_match(stanzas, relpath):
    """(licence, copyright) of the stanza that best matches relpath.

    DEP-5 patterns are paths in the *source* tree (e.g. 16.04/x.jpg, nature/x.jpg),
    so a pattern matches when it matches a trailing part of the installed path;
    a literal pattern whose directory differs still matches on the file name.
    Specific beats generic; among equals the last stanza wins, as DEP-5 says.
    """
    parts = relpath.split("/")
    suffixes = ["/".join(parts[i:]) for i in range(len(parts))]
    base = parts[-1]
    best, best_rank = None, -1
    for stanza in stanzas:
        if "files" not in stanza:
            continue
        for pat in stanza["files"].split():
            wild = any(c in pat for c in "*?[")
            rank = -1
            if any(fnmatch.fnmatchcase(s, pat) for s in suffixes):
                rank = 0 if pat == "*" else (1 if wild else 3)
            elif not wild and pat.rsplit("/", 1)[-1] == base:
                rank = 2
            if rank >= best_rank and rank >= 0:
                best, best_rank = stanza, rank
    if best is None:   # package-wide fallback: header licence, else the only licence used
        header = stanzas[0] if stanzas and "files" not in stanzas[0] else {}
        lic = header.get("license", "").split("\n")[0]
        if not lic:
            lics = {s["license"].split("\n")[0] for s in stanzas if "files" in s and "license" in s}
            lic = lics.pop() if len(lics) == 1 else "unknown"
        return lic, clean(header.get("copyright", ""))
    return best.get("license", "unknown").split("\n")[0].strip(), clean(best.get("copyright", ""))


def upstream_notes(root, relpath):
    """Credits found beside the photo: KDE metadata.json, an LXQt-style License file."""
    notes = []
    d = os.path.dirname(os.path.join(root, relpath))
    for _ in range(3):   # the photo's folder and two above (wallpapers/<Name>/contents/images)
        meta = os.path.join(d, "metadata.json")
        if os.path.isfile(meta):
            try:
                plugin = json.load(open(meta, encoding="utf-8")).get("KPlugin", {})
                who = ", ".join(
                    a.get("Name", "") + (" <%s>" % a["Email"] if a.get("Email") else "")
                    for a in plugin.get("Authors", []))
                lic = plugin.get("License")
                notes.append("metadata.json: %s%s" % (who or "?", ", licence " + lic if lic else ""))
            except (ValueError, OSError, AttributeError):
                pass
            break
        d = os.path.dirname(d)
    lic_file = os.path.join(os.path.dirname(os.path.join(root, relpath)), "License")
    if os.path.isfile(lic_file):
        text = open(lic_file, encoding="utf-8", errors="replace").read()
        m = re.search(r"Licensed under (\S+)", text)
        stem = os.path.splitext(os.path.basename(relpath))[0].lower()
        who = None
        blocks = [b.strip().splitlines() for b in re.split(r"\n\s*\n", text)]
        for b in blocks:
            if len(b) == 2 and b[1].rstrip().endswith(";"):
                names = [n.strip().lower() for n in b[1].rstrip(" ;").split(",")]
                if any(n == stem or n == stem + "s" or stem.endswith("-" + n) for n in names):
                    who = b[0].strip()
        note = "%s: %s" % (os.path.basename(lic_file), m.group(1) if m else "see file")
        if who:
            note += ", credit " + who
        notes.append(note)
    return notes


def cache_name(pkg, relpath):
    m = re.search(r"wallpapers/([^/]+)/contents/images[^/]*/([^/]+)$", relpath)
    name = "%s_%s" % m.groups() if m else os.path.basename(relpath)
    return "%s__%s" % (pkg, name)


def select(pkg, root, cache, stage, verbose):
    table = PHOTOS.get(pkg, {})
    exclude, others = table.get("exclude", {}), table.get("others", {})
    images = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for fn in sorted(filenames):
            if fn.lower().endswith(IMAGE_EXT):
                full = os.path.join(dirpath, fn)
                images.append((os.path.relpath(full, root), full))
    skipped, chosen, seen = [], [], {}
    for rel, full in images:
        excluded = next((r for p, r in exclude.items() if fnmatch.fnmatchcase(rel, p)), None)
        is_photo = not excluded and any(fnmatch.fnmatchcase(rel, p) for p in table.get("photos", []))
        reason = None
        if os.path.islink(full):
            reason = "symlink alias of another file"
        elif not is_photo:
            reason = excluded or next((r for p, r in others.items() if fnmatch.fnmatchcase(rel, p)),
                                      "not a photograph (not in the photo list)")
        else:
            info = image_info(full)
            if info is None or info[2].startswith("jpeg-sof"):
                reason = "not a baseline/progressive JPEG or PNG"
            elif info[0] * info[1] < MIN_PIXELS:
                reason = "under 1 MP (thumbnail/preview)"
        if reason:
            skipped.append((rel, reason))
            continue
        w, h, fmt = info
        # One file per wallpaper: keep the largest resolution of a KDE wallpaper package.
        m = re.search(r"(.*/wallpapers/[^/]+)/contents/images/", rel)
        key = m.group(1) if m else rel
        if key in seen:
            prev = seen[key]
            if w * h > prev[2] * prev[3]:
                skipped.append((prev[0], "smaller resolution of the same wallpaper"))
                chosen.remove(prev)
            else:
                skipped.append((rel, "smaller resolution of the same wallpaper"))
                continue
        entry = (rel, full, w, h, fmt)
        seen[key] = entry
        chosen.append(entry)
    for pat in table.get("photos", []):
        if not any(fnmatch.fnmatchcase(e[0], pat) for e in chosen):
            print("fetch-photos: warning: %s: no photo matches %s (package changed?)" % (pkg, pat),
                  file=sys.stderr)

    stanzas = parse_dep5(os.path.join(root, "usr/share/doc", pkg, "copyright"))
    names = set()
    with open(stage, "a", encoding="utf-8") as out:
        for rel, full, w, h, fmt in chosen:
            name = cache_name(pkg, rel)
            if name in names:
                name = "%s__%s" % (pkg, rel.replace("/", "_"))
            names.add(name)
            shutil.copyfile(full, os.path.join(cache, name))
            os.chmod(os.path.join(cache, name), 0o644)
            lic, copy = dep5_match(stanzas, rel)
            credit = "; ".join([copy or "unknown"] + ["upstream " + n for n in upstream_notes(root, rel)])
            row = [name, str(w), str(h), "%.2f" % (w * h / 1e6), fmt, str(os.path.getsize(full)),
                   pkg, lic, credit]
            out.write("\t".join(c.replace("\t", " ").replace("\n", " ") for c in row) + "\n")
    reasons = {}
    for rel, r in skipped:
        reasons[r] = reasons.get(r, 0) + 1
    print("  %s: %d photo%s; skipped %s" % (pkg, len(chosen), "" if len(chosen) == 1 else "s",
          ", ".join("%d %s" % (n, r) for r, n in sorted(reasons.items(), key=lambda x: -x[1])) or "nothing"))
    if verbose:
        for rel, r in skipped:
            print("      skip %s  (%s)" % (rel, r))


def finish(cache, stage):
    rows = [l.rstrip("\n").split("\t") for l in open(stage, encoding="utf-8") if l.strip()]
    with open(os.path.join(cache, "MANIFEST.tsv.new"), "w", encoding="utf-8") as m, \
         open(os.path.join(cache, "CREDITS.tsv.new"), "w", encoding="utf-8") as c:
        m.write("file\twidth\theight\tmegapixels\tformat\tbytes\n")
        c.write("file\tpackage\tlicence\tcredit\n")
        for r in rows:
            m.write("\t".join(r[:6]) + "\n")
            c.write("\t".join([r[0]] + r[6:9]) + "\n")
    # CREDITS first: MANIFEST is what marks the cache complete.
    os.replace(os.path.join(cache, "CREDITS.tsv.new"), os.path.join(cache, "CREDITS.tsv"))
    os.replace(os.path.join(cache, "MANIFEST.tsv.new"), os.path.join(cache, "MANIFEST.tsv"))
    print(len(rows))


if __name__ == "__main__":
    if sys.argv[1] == "select":
        select(*sys.argv[2:6], verbose=sys.argv[6] == "1")
    elif sys.argv[1] == "finish":
        finish(*sys.argv[2:4])
PYEOF

# --- fetch -------------------------------------------------------------------
mkdir -p "$CACHE"
if [ "$force" -eq 1 ] && [ -f "$CACHE/MANIFEST.tsv" ]; then
  # Forget the previous set, so photos dropped from the list do not linger.
  tail -n +2 "$CACHE/MANIFEST.tsv" | cut -f1 | while IFS= read -r file; do
    [ -n "$file" ] && [ "${file#*/}" = "$file" ] && rm -f -- "$CACHE/$file"
  done
fi
rm -f "$CACHE/MANIFEST.tsv"   # written again at the end, once the set is complete
: > "$tmp/stage.tsv"
echo "Fetching photos into $CACHE"
failed=()
for pkg in "${PACKAGES[@]}"; do
  dl="$tmp/dl-$pkg"
  mkdir -p "$dl"
  if ! (cd "$dl" && apt-get download -q "${apt_download_opts[@]}" "$pkg" >"$tmp/apt.log" 2>&1); then
    echo "fetch-photos: warning: cannot download $pkg, skipping it:" >&2
    sed 's/^/    /' "$tmp/apt.log" >&2
    failed+=("$pkg"); rm -rf "$dl"; continue
  fi
  deb="$(find "$dl" -maxdepth 1 -name '*.deb' | head -n 1)"
  if [ -z "$deb" ] || ! dpkg-deb -x "$deb" "$dl/root"; then
    echo "fetch-photos: warning: cannot unpack $pkg, skipping it" >&2
    failed+=("$pkg"); rm -rf "$dl"; continue
  fi
  python3 "$tmp/photos.py" select "$pkg" "$dl/root" "$CACHE" "$tmp/stage.tsv" "$verbose"
  rm -rf "$dl"   # keep at most one unpacked package in the temp folder
done

count="$(python3 "$tmp/photos.py" finish "$CACHE" "$tmp/stage.tsv")"
if [ "$count" -eq 0 ]; then
  rm -f "$CACHE/MANIFEST.tsv" "$CACHE/CREDITS.tsv"
  echo "fetch-photos: no photos fetched" >&2
  exit 1
fi
[ ${#failed[@]} -eq 0 ] || echo "fetch-photos: warning: missing packages: ${failed[*]} (run again with --force to retry)" >&2
echo "Fetched $(manifest_summary "$CACHE/MANIFEST.tsv") into $CACHE"
