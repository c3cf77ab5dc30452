#!/usr/bin/env bash
# Is a campaign deterministic on a loaded machine? (issue #23: virtual clocks, exact sleeps)
#
# 1. Keeps every core busy (one busy loop per core, at the campaign's own `nice`), then runs the same
#    campaign REPEATS times — `frame-loop-search`, a debounced @MainActor search beside a 16 ms
#    @MainActor frame loop, with --keep-going — and checks that every repeat counts the same failures.
# 2. Runs `fuzz --check-determinism` (every seed, two more processes each) over every built-in async
#    scenario, both variants, under the same load, and checks that no seed differs.
# Exit 0 only when the counts are identical and no difference was found.
#
# Usage: tools/determinism-under-load.sh [SEEDS] [CHECK_SEEDS] [REPEATS]   (default 5000 2000 5)
#        SIMRUN=path/to/simrun tools/determinism-under-load.sh ...   (that binary; no release build)
#        BUSY=0 tools/determinism-under-load.sh ...                   (no busy loops: the idle baseline)
set -euo pipefail
cd "$(dirname "$0")/.."
seeds="${1:-5000}"
check_seeds="${2:-2000}"
repeats="${3:-5}"
if [ -n "${SIMRUN:-}" ]; then
  bin=$SIMRUN
else
  swift build -c release --product simrun >/dev/null
  bin=.build/release/simrun
fi
out=$(mktemp -d)
busy_pids=()
cleanup() {
  for pid in "${busy_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$out"
}
trap cleanup EXIT

cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
if [ "${BUSY:-1}" != 0 ]; then
  for _ in $(seq 1 "$cores"); do
    sh -c 'while :; do :; done' &
    busy_pids+=("$!")
  done
  echo "load: $cores busy loops (one per core)"
else
  echo "load: none (BUSY=0)"
fi

# The number after "failures": in a --json document.
json_number() { sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p" | head -1; }

status=0
echo "campaign: $bin fuzz frame-loop-search --strategy random --seeds 0..<$seeds --keep-going --no-shrink, $repeats times"
counts=()
for run in $(seq 1 "$repeats"); do
  document=$("$bin" fuzz frame-loop-search --strategy random --seeds "0..<$seeds" --keep-going --no-shrink \
    --no-show --out "$out/campaign" --json 2>/dev/null || true)
  failures=$(echo "$document" | json_number failures)
  echo "  repeat $run: ${failures:-?} failures in $(echo "$document" | json_number schedules) schedules"
  counts+=("${failures:-?}")
done
if [ "$(printf '%s\n' "${counts[@]}" | sort -u | wc -l)" = 1 ] && [ "${counts[0]}" != "?" ]; then
  echo "  identical: ${counts[0]} failures every time"
else
  echo "  DIFFERENT failure counts: ${counts[*]}"
  status=1
fi

echo "check: $bin fuzz SCENARIO --variant V --strategy random --seeds 0..<$check_seeds --check-determinism --keep-going --no-shrink"
total_checked=0
total_differences=0
for scenario in actor-reentrancy-cache search-debounce-task double-tap-submit frame-loop-search; do
  for variant in buggy fixed; do
    document=$("$bin" fuzz "$scenario" --variant "$variant" --strategy random --seeds "0..<$check_seeds" \
      --check-determinism --keep-going --no-shrink --no-show --out "$out/check" --json 2>/dev/null || true)
    determinism=$(echo "$document" | sed -n 's/.*"determinism":{\([^}]*\)}.*/\1/p')
    checked=$(echo "{$determinism}" | json_number checked)
    differences=$(echo "{$determinism}" | json_number differences)
    echo "  $scenario/$variant: ${checked:-?} seeds checked, ${differences:-?} differences"
    if [ -z "$checked" ] || [ -z "$differences" ] || [ "$checked" -lt "$check_seeds" ] || [ "$differences" != 0 ]; then
      status=1
    fi
    total_checked=$((total_checked + ${checked:-0}))
    total_differences=$((total_differences + ${differences:-0}))
  done
done
echo "  total: $total_checked seeds checked, $total_differences differences"
exit $status
