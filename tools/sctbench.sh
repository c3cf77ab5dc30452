#!/usr/bin/env bash
# The SCTBench side-by-side table (issue 17): for every ported benchmark (`simrun list --group
# sctbench`) and strategy, the schedules to the first bug from seed 0 and how many of the first
# N schedules (default 10,000, the study's limit) were buggy, one job, no shrinking; beside them the
# published per-benchmark data in tools/sctbench-published.tsv (MapleAlg, and the study's thread and
# scheduling-point counts). Rewrites the table between the sctbench markers in BENCHMARKS.md and
# prints it.
# Usage: tools/sctbench.sh [schedules]    (default 10000; runs every strategy, ~40 minutes)
#        tools/sctbench.sh --published-only
#          keeps our cells from the table in BENCHMARKS.md and re-renders the published columns,
#          notes and totals from tools/sctbench-published.tsv (no build, no runs)
set -euo pipefail
cd "$(dirname "$0")/.."
published=tools/sctbench-published.tsv
strategies="random pct:depth=3 pos surw coverage delay:bound=2 dfs:preemptions=2"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

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

# The published cells of one benchmark: MapleAlg's verdict and schedules, the study's threads and
# scheduling points. A benchmark missing from the data file says so in both cells.
published_cells() {
  awk -F'\t' -v b="$1" '
    /^#/ || $1 == "benchmark" { next }
    $1 == b {
      verdict = ($3 == 1) ? "found" : "not found"
      printf "%s, %s | %s / %s", verdict, $4, $5, $6
      hit = 1
      exit
    }
    END { if (!hit) printf "not in %s | not in %s", FILENAME, FILENAME }
  ' "$published"
}

# Renders the table from raw rows ("benchmark|cell|cell|…", one cell per strategy in order).
render() {
  local raw="$1" limit="$2"
  local count found maple
  count=$(wc -l < "$raw")
  echo "| benchmark | $(echo "$strategies" | sed 's/ / | /g') | MapleAlg: found?, schedules (mc-imperial/sctbench benchmarks/mapleRes.txt) | study threads / scheduling points (mc-imperial/sctbench benchmarks/buggy.txt) | note |"
  echo "|---|$(for _ in $strategies; do printf -- '---|'; done)---|---|---|"
  while IFS='|' read -r bench cells; do
    echo "| $bench | $(echo "$cells" | sed 's/|/ | /g') | $(published_cells "$bench") | $(note "$bench") |"
  done < "$raw"
  echo
  printf "Bugs found within %s schedules (of %s benchmarks):" "$limit" "$count"
  local column=2
  for strategy in $strategies; do
    found=$(cut -d'|' -f"$column" "$raw" | grep -cv '^—' || true)
    printf " %s %s;" "$strategy" "$found"
    column=$((column + 1))
  done
  maple=0
  while IFS='|' read -r bench _; do
    case "$(published_cells "$bench")" in found,*) maple=$((maple + 1)) ;; esac
  done < "$raw"
  printf " published MapleAlg (its own stopping rule, not a schedule limit) %s." "$maple"
  echo
}

raw="$out/raw"
: > "$raw"
if [ "${1:-}" = "--published-only" ]; then
  # Our cells are the first 1 + (number of strategies) cells of each existing row.
  table=$(sed -n '/<!-- sctbench:begin -->/,/<!-- sctbench:end -->/p' BENCHMARKS.md)
  limit=$(echo "$table" | sed -nE 's/^Bugs found within ([0-9]+) schedules.*/\1/p')
  if [ -z "$limit" ]; then
    echo "sctbench.sh: no sctbench table with a totals line between the markers in BENCHMARKS.md" >&2
    exit 1
  fi
  header=$(echo "$table" | sed -n '2p')
  if [ "$(echo "$header" | cut -d'|' -f3-$(( $(echo "$strategies" | wc -w) + 2 )) | sed 's/ //g')" \
    != "$(echo "$strategies" | sed 's/ /|/g')" ]; then
    echo "sctbench.sh: the table's strategy columns are not: $strategies" >&2
    exit 1
  fi
  n=$(echo "$strategies" | wc -w)
  echo "$table" | sed -n '4,$p' | grep '^| ' | while IFS= read -r row; do
    echo "$row" | awk -F' \\| ' -v n="$n" '{
      sub(/^\| /, "", $1)
      line = $1
      for (i = 2; i <= n + 1; i++) line = line "|" $i
      print line
    }'
  done > "$raw"
else
  limit="${1:-10000}"
  swift build -c release --product simrun >/dev/null
  bin=.build/release/simrun
  for bench in $($bin list --group sctbench | awk '/^[A-Za-z]/ {print $1}'); do
    row="$bench"
    for strategy in $strategies; do
      report=$($bin fuzz "$bench" --strategy "$strategy" --seeds "0..<$limit" --jobs 1 --keep-going \
        --no-shrink --no-show --out "$out/traces" 2>/dev/null || true)
      first=$(echo "$report" | sed -nE 's/^FAIL at seed ([0-9]+).*/\1/p' | sort -n | head -1)
      runs=$(echo "$report" | sed -nE 's/^summary: ([0-9]+) schedules.*/\1/p')
      fails=$(echo "$report" | sed -nE 's/^summary: .* ([0-9]+) failures.*/\1/p')
      if [ -n "$first" ]; then
        row="$row|$((first + 1)) ($fails/$runs)"
      else
        row="$row|— (0/$runs)"
      fi
    done
    echo "$row" >> "$raw"
  done
fi

table="$out/table.md"
render "$raw" "$limit" > "$table"
cat "$table"
if grep -q '<!-- sctbench:begin -->' BENCHMARKS.md; then
  awk -v table="$table" '
    /<!-- sctbench:begin -->/ { print; while ((getline line < table) > 0) print line; skip = 1; next }
    /<!-- sctbench:end -->/ { skip = 0 }
    !skip { print }
  ' BENCHMARKS.md > "$out/BENCHMARKS.md"
  cp "$out/BENCHMARKS.md" BENCHMARKS.md
fi
