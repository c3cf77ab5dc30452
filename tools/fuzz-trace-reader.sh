#!/usr/bin/env bash
# Builds a libFuzzer target (with AddressSanitizer) over SimTrace's reader and runs it, seeded from
# Traces/ and from traces recorded with the built simrun. Not part of CI: run it by hand. Linux only.
#
#   tools/fuzz-trace-reader.sh [RUNS] [extra libFuzzer flags…]     (default 200000 runs)
#
# SwiftPM builds SimTrace and everything under it (SimCore, CSimInterpose, HeapModule,
# InternalCollectionsUtilities, SystemPackage, CSystem) instrumented, in a build path of its own, so
# the dependencies get the settings their manifests ask for; only the harness is compiled and linked
# here, by hand, since it is not a target of the package.
#
# A crash leaves crash-<sha1> in .build/fuzz-trace-reader/findings/: add its bytes to the damaged-
# trace test (Tests/SimRunKitTests/DamagedTraceTests.swift) once fixed.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS="${1:-200000}"
shift || true
OUT=.build/fuzz-trace-reader
mkdir -p "$OUT/corpus" "$OUT/findings"
SPM="$OUT/spm"
# -sanitize=fuzzer on the library targets only instruments them (coverage for libFuzzer); libFuzzer's
# own main comes in at the harness's link below. Building just the SimTrace target links nothing, so
# no executable with a main of its own (simrun, the tests) ever gets the fuzzer's main as well.
SPM_FLAGS=(-c release --build-path "$SPM" -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address)

echo "building SimTrace and what it depends on with -sanitize=fuzzer,address (SwiftPM, $SPM)" >&2
swift build "${SPM_FLAGS[@]}" --target SimTrace >&2
BIN=$(swift build "${SPM_FLAGS[@]}" --show-bin-path)

# SimTrace's dependency closure in Package.swift and in swift-collections' and swift-system's
# manifests: a target added there and missing here shows as undefined symbols at the link below.
TARGETS=(CSimInterpose SimCore InternalCollectionsUtilities HeapModule CSystem SystemPackage SimTrace)
OBJECTS=()
for target in "${TARGETS[@]}"; do OBJECTS+=("$BIN/$target.build/"*.o); done
# The C modules SimCore's and SystemPackage's interfaces refer to: CSimInterpose's module map is the
# one SwiftPM writes (the target has none of its own), CSystem's is in swift-system's checkout.
# -lzstd for CZstd, -ldl for CSimInterpose (its linker setting in Package.swift); CSimInterpose's
# dispatch.c also calls libdispatch and the Blocks runtime, which nothing else in this link brings
# in. lld (the toolchain's): gold prints a warning for each of ASan's local __asan_check_* symbols.
echo "building the fuzz entry point" >&2
swiftc -O -g -parse-as-library -sanitize=fuzzer,address -use-ld=lld -I "$BIN/Modules" -I Sources/CZstd \
    -Xcc -fmodule-map-file="$BIN/CSimInterpose.build/module.modulemap" \
    -Xcc -fmodule-map-file="$SPM/checkouts/swift-system/Sources/CSystem/include/module.modulemap" \
    -module-name FuzzTraceReader tools/fuzz/FuzzTraceReader.swift "${OBJECTS[@]}" \
    -lzstd -ldl -ldispatch -lBlocksRuntime -o "$OUT/fuzz-trace-reader"

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
