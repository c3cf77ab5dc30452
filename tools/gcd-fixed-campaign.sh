#!/usr/bin/env bash
# The GCD scenarios' fixed variants over 20,000 seeds each, with pct (fuzz's default) and random
# (issue #31): every one must pass. Heavy, so not a test: run it under nice, as CI's slow job would.
#   tools/gcd-fixed-campaign.sh            # builds release simrun first
#   SIMRUN=.build/debug/simrun tools/gcd-fixed-campaign.sh
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${SIMRUN:-}" ]; then
  swift build -c release --product simrun >/dev/null
  SIMRUN=.build/release/simrun
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for scenario in gcd-image-loader gcd-debounce gcd-semaphore-deadlock dispatch-group-double-leave; do
  for strategy in pct random; do
    if out=$(nice -n 10 "$SIMRUN" fuzz "$scenario" --variant fixed --strategy "$strategy" --seeds '0..<20000' \
      --no-show --out "$work/$scenario-$strategy" 2>&1); then
      echo "$scenario fixed, $strategy: $(echo "$out" | grep '^summary:')"
    else
      echo "$scenario fixed, $strategy: FAILED" >&2
      echo "$out" | tail -20 >&2
      status=1
    fi
  done
done
exit $status
