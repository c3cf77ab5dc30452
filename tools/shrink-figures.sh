#!/usr/bin/env bash
# Shrinking with and without noise: for every buggy variant, the first failure `fuzz` finds (pct,
# seeds from 0) without noise and with `--noise 3`, its non-fifo decisions before → after shrinking,
# and what `replay --variant fixed` of the shrunk trace says (exit status and how much it followed).
# Prints a markdown table (the article "Replaying on other code", Sources/SimRunKit/SimRunKit.docc).
# Usage: tools/shrink-figures.sh             (builds the release binary)
#        SIMRUN=path/to/simrun tools/shrink-figures.sh
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${SIMRUN:-}" ]; then
  bin=$SIMRUN
else
  swift build -c release --product simrun >/dev/null
  bin=.build/release/simrun
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "| bug (variant) | non-fifo, shrunk | with --noise 3 | replay --variant fixed (noise 3) |"
echo "|---|---|---|---|"
for scenario in $($bin list | awk '/^[a-z]/ {print $1}'); do
  variants=$($bin list | awk -v s="$scenario" '$1==s {on=1; next} /^[a-z]/ {on=0} on {print $1}')
  for variant in $variants; do
    case "$variant" in buggy*|checked-*) ;; *) continue ;; esac
    row="| $scenario ($variant) |"
    fixed=""
    for noise in 0 3; do
      rm -rf "$out/t"
      log=$($bin fuzz "$scenario" --variant "$variant" --seeds '0..<20000' --noise "$noise" --no-show \
        --out "$out/t" 2>/dev/null || true)
      counts=$(echo "$log" | sed -nE 's/.*\(non-fifo ([0-9]+ → [0-9]+)\).*/\1/p' | head -1 || true)
      row="$row ${counts:-no failure} |"
      trace=$(ls "$out/t"/*.simtrace 2>/dev/null | head -1 || true)
      if [ "$noise" = 3 ] && [ -n "$trace" ] && echo "$variants" | grep -qx fixed; then
        status=0
        summary=$($bin replay "$trace" --variant fixed 2>/dev/null) || status=$?
        followed=$(echo "$summary" | grep '^followed' | sed -E 's/ decisions.*\((.*)\).*/ (\1)/' || true)
        fixed="exit $status: ${followed:-no summary (a crashed trace replays in a child process)}"
        # The one replay rule's evidence, when the fix removes the race or the replay is inconclusive.
        removed=$(echo "$summary" | sed -nE 's/.*instead, (pct seeds [^ ]+ on fixed: [0-9]+ failures).*/\1/p' || true)
        [ -n "$removed" ] && fixed="exit $status: the fix removes the race; $removed"
        echo "$summary" | grep -q '^inconclusive:' && fixed="$fixed; inconclusive"
      fi
    done
    echo "$row ${fixed:-—} |"
  done
done
