#!/usr/bin/env bash
# The SCTBench side-by-side table (issue 17): for every ported benchmark (`simrun list --group
# sctbench`) and strategy, the schedules to the first bug from seed 0 and how many of the first
# N schedules (default 10,000, the study's limit) were buggy, one job, no shrinking. Rewrites the
# table between the sctbench markers in BENCHMARKS.md and prints it.
# Usage: tools/sctbench.sh [schedules]   (default 10000)
set -euo pipefail
cd "$(dirname "$0")/.."
limit="${1:-10000}"
swift build -c release --product simrun >/dev/null
bin=.build/release/simrun
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

strategies="random pct:depth=3 pos surw coverage delay:bound=2 dfs:preemptions=2"
benchmarks=$($bin list --group sctbench | awk '/^[A-Za-z]/ {print $1}')

# Where a port's schedule is not the study's, or the published row is missing, say so.
note() {
  case "$1" in
    WorkStealQueue) echo "slot accesses ride with the head/tail accesses (the study may have split them)" ;;
    fsbench_bad) echo "fails before any scheduling choice, as in the original (index past the lock array)" ;;
    arithmetic_prog_bad | din_phil*_sat | phase01_bad | sync01_bad | sync02_bad)
      echo "buggy in (almost) every schedule: trivial in the study too" ;;
    stringbuffer-jdk1.4) echo "one append and one erase+append, as in the harness (no loops)" ;;
    *) echo "" ;;
  esac
}

table="$out/table.md"
found="$out/found"
: > "$found"
{
  echo "| benchmark | $(echo "$strategies" | sed 's/ / | /g') | published (TOPC 2016, Fray 2025) | note |"
  echo "|---|$(for _ in $strategies; do printf -- '---|'; done)---|---|"
  for bench in $benchmarks; do
    row="| $bench |"
    for strategy in $strategies; do
      report=$($bin fuzz "$bench" --strategy "$strategy" --seeds "0..<$limit" --jobs 1 --keep-going \
        --no-shrink --no-show --out "$out/traces" 2>/dev/null || true)
      first=$(echo "$report" | sed -nE 's/^FAIL at seed ([0-9]+).*/\1/p' | sort -n | head -1)
      runs=$(echo "$report" | sed -nE 's/^summary: ([0-9]+) schedules.*/\1/p')
      fails=$(echo "$report" | sed -nE 's/^summary: .* ([0-9]+) failures.*/\1/p')
      if [ -n "$first" ]; then
        row="$row $((first + 1)) ($fails/$runs) |"
        echo "$strategy" >> "$found"
      else
        row="$row — (0/$runs) |"
      fi
    done
    echo "$row not found | $(note "$bench") |"
  done
  echo
  printf "Bugs found within %s schedules (of %s benchmarks):" "$limit" "$(echo "$benchmarks" | wc -w)"
  for strategy in $strategies; do printf " %s %s;" "$strategy" "$(grep -cx "$strategy" "$found" || true)"; done
  echo
} > "$table"

cat "$table"
if grep -q '<!-- sctbench:begin -->' BENCHMARKS.md; then
  awk -v table="$table" '
    /<!-- sctbench:begin -->/ { print; while ((getline line < table) > 0) print line; skip = 1; next }
    /<!-- sctbench:end -->/ { skip = 0 }
    !skip { print }
  ' BENCHMARKS.md > "$out/BENCHMARKS.md"
  cp "$out/BENCHMARKS.md" BENCHMARKS.md
fi
