#!/usr/bin/env bash
# Fuzzes the decoder with libFuzzer (the Swift toolchain's clang):
#   codecs-fuzzer   the C layer alone (Sources/CParallaxCodecs, Fuzz/C),
#                   with AddressSanitizer and UndefinedBehaviorSanitizer;
#   decoder-fuzzer  the Swift entry point, CodecImageDecoder.thumbnail
#                   (the Fuzz package), with AddressSanitizer (and UBSan on
#                   the C layer beneath it).
# The corpus is seeded from the conformance corpus (scripts/fetch-conformance.sh)
# and the WebP, HEIF and AVIF test fixtures (Tests/Fixtures/codecs), and kept
# in .cache/fuzz/<target> between runs; a crash, sanitizer report,
# leak or 10-second input fails the run and leaves the input in .cache/fuzz.
#
#   scripts/fuzz.sh [SECONDS]   seconds per target (default $FUZZ_SECONDS or 300)
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SECONDS_PER_TARGET="${1:-${FUZZ_SECONDS:-300}}"
BUILD="$REPO/.build-fuzz"
CACHE="$REPO/.cache/fuzz"
cd "$REPO"

scripts/fetch-conformance.sh
mkdir -p "$BUILD" "$CACHE/seeds" "$CACHE/codecs-fuzzer" "$CACHE/decoder-fuzzer" "$CACHE/artifacts"
# Seeds: every conformance file under 64 KB (the large ones only slow the fuzzer down), and the fixtures.
find .cache/conformance -type f \( -name "*.png" -o -name "*.jpg" -o -name "*.webp" -o -name "*.heic" -o -name "*.avif" \) \
    -size -64k -exec cp {} "$CACHE/seeds/" \;
cp Tests/Fixtures/codecs/* "$CACHE/seeds/"

# The Swift toolchain's own clang, which carries libFuzzer and the sanitizer runtimes.
CLANG="$(dirname "$(readlink -f "$(command -v swift)")")/clang"
[[ -x "$CLANG" ]] || CLANG=clang
# Built once: again only when one of its sources is newer than the binary.
c_sources=(Fuzz/C/codecs_fuzzer.c Sources/CParallaxCodecs/*.c Sources/CParallaxCodecs/include/*.h)
if [[ ! -x "$BUILD/codecs-fuzzer" ]] || [[ -n "$(find "${c_sources[@]}" -newer "$BUILD/codecs-fuzzer" 2>/dev/null)" ]]; then
    echo "fuzz: building the C-layer target"
    "$CLANG" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -fuse-ld=lld \
        -I Sources/CParallaxCodecs/include Fuzz/C/codecs_fuzzer.c Sources/CParallaxCodecs/*.c -ljpeg -lpng -lisal -lwebp -lwebpdemux -lheif -lavif \
        -o "$BUILD/codecs-fuzzer"
fi
echo "fuzz: building the Swift target"
flags=(--package-path Fuzz --scratch-path "$BUILD/swift" --sanitize=fuzzer --sanitize=address
       -Xcc -fsanitize=undefined -Xlinker -fuse-ld=lld)
# An incremental build can trip over files moved since the last one ("missing inputs"): then once
# more from scratch, and only that failure counts.
if ! swift build "${flags[@]}" > "$BUILD/swift-build.log" 2>&1; then
    rm -rf "$BUILD/swift"
    swift build "${flags[@]}" > "$BUILD/swift-build.log" 2>&1 \
        || { grep -v "ld.gold: warning" "$BUILD/swift-build.log" | tail -30; echo "fuzz: the Swift target does not build" >&2; exit 1; }
fi
swift_bin="$(swift build "${flags[@]}" --show-bin-path)"

# The two targets run side by side, one per core (libFuzzer runs one process each): the same fuzzing
# time per target in half the wall time.
fuzz() {
    local target="$1" binary="$2" log="$CACHE/$1.log"
    if ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS="suppressions=$REPO/Fuzz/lsan-suppressions.txt" "$binary" -max_total_time="$SECONDS_PER_TARGET" -rss_limit_mb=2048 -timeout=10 \
        -print_final_stats=1 -artifact_prefix="$CACHE/artifacts/$target-" \
        "$CACHE/$target" "$CACHE/seeds" >"$log" 2>&1; then
        runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$')
        coverage=$(grep -o 'DONE *cov: [0-9]*' "$log" | grep -o '[0-9]*$')
        corpus=$(ls "$CACHE/$target" | wc -l)
        echo "fuzz: $target: $runs runs, no crash, no leak, no timeout; coverage $coverage edges; corpus $corpus inputs"
    else
        echo "fuzz: $target FAILED; the end of its log ($log):"
        tail -40 "$log"
        return 1
    fi
}
echo "fuzz: codecs-fuzzer and decoder-fuzzer for ${SECONDS_PER_TARGET} s each, side by side"
fuzz codecs-fuzzer "$BUILD/codecs-fuzzer" > "$BUILD/codecs-fuzzer.out" &
codecs=$!
fuzz decoder-fuzzer "$swift_bin/decoder-fuzzer" > "$BUILD/decoder-fuzzer.out" &
decoder=$!
status=0
wait "$codecs" || status=1
wait "$decoder" || status=1
cat "$BUILD/codecs-fuzzer.out" "$BUILD/decoder-fuzzer.out"
exit $status
