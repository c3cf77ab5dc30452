#!/usr/bin/env bash
# Schedules until the first failure, per buggy scenario and strategy (seeds from 0, one job, no shrink),
# without noise and with `--noise 3` (three background lanes whose jobs touch nothing: the irrelevant
# decisions every real app has), and the fixed variants' check: dfs to exhaustion where it ends
# within the budget, else 100,000 portfolio schedules. Prints markdown tables.
# Usage: tools/effectiveness.sh [max-seeds]   (default 1000)
#        SIMRUN=path/to/simrun tools/effectiveness.sh ...   (measure that binary; no release build)
#        FIXED_CHECK=0 tools/effectiveness.sh ...             (the buggy table only)
set -euo pipefail
cd "$(dirname "$0")/.."
max="${1:-1000}"
if [ -n "${SIMRUN:-}" ]; then
  bin=$SIMRUN
else
  swift build -c release --product simrun >/dev/null
  bin=.build/release/simrun
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

scenarios=$($bin list | awk '/^[a-z]/ {print $1}')
strategies="fifo random pct delay dfs"

noises="0 3"
header="| scenario (buggy) |"
rule="|---|"
for noise in $noises; do
  for strategy in $strategies; do
    if [ "$noise" = 0 ]; then header="$header $strategy |"; else header="$header $strategy +noise $noise |"; fi
    rule="$rule---|"
  done
done
echo "$header"
echo "$rule"
for scenario in $scenarios; do
  $bin list | grep -A5 "^$scenario " | grep -q "^  buggy" || continue
  row="| $scenario |"
  for noise in $noises; do
    for strategy in $strategies; do
      line=$($bin fuzz "$scenario" --variant buggy --strategy "$strategy" --seeds "0..<$max" --jobs 1 \
        --noise "$noise" --no-shrink --no-show --out "$out" 2>/dev/null | grep -m1 -E '^(FAIL|CRASH) at seed' || true)
      if [ -n "$line" ]; then
        seed=$(echo "$line" | sed -E 's/^(FAIL|CRASH) at seed ([0-9]+).*/\2/')
        row="$row $((seed + 1)) |"
      else
        row="$row not in $max |"
      fi
    done
  done
  echo "$row"
done

[ "${FIXED_CHECK:-1}" = 0 ] && exit 0
echo
echo "| scenario (fixed) | check | schedules | failures |"
echo "|---|---|---|---|"
for scenario in $scenarios; do
  $bin list | grep -A5 "^$scenario " | grep -q "^  fixed" || continue
  summary=$($bin fuzz "$scenario" --variant fixed --strategy dfs --seeds "0..<100000" --jobs 1 --no-show \
    --out "$out" 2>/dev/null | grep '^summary:' || true)
  if echo "$summary" | grep -q "space exhausted"; then
    runs=$(echo "$summary" | awk '{print $2}')
    fails=$(echo "$summary" | sed -E 's/.* ([0-9]+) failures.*/\1/')
    echo "| $scenario | dfs exhausted | $runs | $fails |"
  else
    summary=$($bin fuzz "$scenario" --variant fixed --strategy portfolio --seeds "0..<100000" --jobs 2 \
      --keep-going --no-show --out "$out" 2>/dev/null | grep '^summary:' || true)
    runs=$(echo "$summary" | awk '{print $2}')
    fails=$(echo "$summary" | sed -E 's/.* ([0-9]+) failures.*/\1/')
    echo "| $scenario | portfolio | $runs | $fails |"
  fi
done
