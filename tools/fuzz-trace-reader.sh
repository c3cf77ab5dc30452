#!/usr/bin/env bash
# Builds a libFuzzer target (with AddressSanitizer) over SimTrace's reader and runs it, seeded from
# Traces/ and from traces recorded with the built simrun. Not part of CI: run it by hand.
#
#   tools/fuzz-trace-reader.sh [RUNS] [extra libFuzzer flags…]     (default 200000 runs)
#
# A crash leaves crash-<sha1> in .build/fuzz-trace-reader/findings/: add its bytes to the damaged-
# trace test (Tests/SimRunKitTests/DamagedTraceTests.swift) once fixed.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS="${1:-200000}"
shift || true
OUT=.build/fuzz-trace-reader
mkdir -p "$OUT/obj" "$OUT/corpus" "$OUT/findings"
FLAGS=(-O -g -parse-as-library -sanitize=fuzzer,address -I "$OUT/obj" -I Sources/CZstd)

echo "building SimCore, SimTrace and the fuzz entry point with -sanitize=fuzzer,address" >&2
swiftc "${FLAGS[@]}" -wmo -c -module-name SimCore -emit-module -emit-module-path "$OUT/obj/SimCore.swiftmodule" \
    $(find Sources/SimCore -name '*.swift' | sort) -o "$OUT/obj/SimCore.o"
swiftc "${FLAGS[@]}" -wmo -c -module-name SimTrace -emit-module -emit-module-path "$OUT/obj/SimTrace.swiftmodule" \
    $(find Sources/SimTrace -name '*.swift' | sort) -o "$OUT/obj/SimTrace.o"
swiftc "${FLAGS[@]}" -module-name FuzzTraceReader tools/fuzz/FuzzTraceReader.swift \
    "$OUT/obj/SimCore.o" "$OUT/obj/SimTrace.o" -lzstd -o "$OUT/fuzz-trace-reader"

# Seeds: the committed corpus, plus fresh recordings (whole, and cut at a few places).
if [ -d Traces ]; then find Traces -name '*.simtrace' -exec cp {} "$OUT/corpus/" \; ; fi
SIMRUN=.build/debug/simrun
if [ ! -x "$SIMRUN" ]; then swift build >&2; fi
SEEDS="$OUT/seeds"
rm -rf "$SEEDS" && mkdir -p "$SEEDS"
for seed in 1 2 3 4; do
    "$SIMRUN" run counter-race --seed "$seed" --out "$SEEDS/counter-$seed.simtrace" >/dev/null || true
    "$SIMRUN" run lost-input-navigation --seed "$seed" --out "$SEEDS/lost-input-$seed.simtrace" >/dev/null || true
    "$SIMRUN" run cart-login-barrier --seed "$seed" --out "$SEEDS/cart-$seed.simtrace" >/dev/null || true
done
for t in "$SEEDS"/*.simtrace; do
    cp "$t" "$OUT/corpus/"
    size=$(stat -c %s "$t")
    head -c $((size / 2)) "$t" > "$OUT/corpus/$(basename "$t").half"
    head -c $((size - 7)) "$t" > "$OUT/corpus/$(basename "$t").cut"
done

# The same traces as decompressed frames (the harness's second input shape; see FuzzTraceReader.swift).
SIMTRACE_FUZZ_EMIT_RAW="$OUT/corpus" ASAN_OPTIONS=detect_leaks=0 "$OUT/fuzz-trace-reader" "$SEEDS"/*.simtrace \
    >/dev/null 2>&1

echo "fuzzing for $RUNS runs over $(ls "$OUT/corpus" | wc -l) corpus files" >&2
ASAN_OPTIONS=detect_leaks=0 "$OUT/fuzz-trace-reader" "$OUT/corpus" -runs="$RUNS" -max_len=65536 -timeout=10 \
    -rss_limit_mb=1024 -malloc_limit_mb=512 -artifact_prefix="$OUT/findings/" -print_final_stats=1 "$@"
