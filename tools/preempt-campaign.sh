#!/usr/bin/env bash
# The lock-preemption scenarios' campaigns (issues #31, #40, #41), under `nice`: each buggy variant is found
# by the default fuzz only with --preempt (and never without, over the same seeds), and each fixed
# variant is clean over 20,000 seeds with --preempt. Prints each campaign's summary line; exits 1 when
# a campaign disagrees. Usage: tools/preempt-campaign.sh [seeds]   (default 20000)
set -euo pipefail
cd "$(dirname "$0")/.."
seeds="${1:-20000}"
swift build --product simrun >/dev/null
bin=.build/debug/simrun
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0

run() {  # label, expected failures ("some" or "none"), scenario, fuzz arguments...
  local label=$1 expected=$2 scenario=$3
  shift 3
  local log
  log=$(nice -n 10 "$bin" fuzz "$scenario" "$@" --no-show --no-shrink --out "$work/out" 2>&1 || true)
  local summary
  summary=$(echo "$log" | grep '^summary:' | tail -1)
  echo "$label: $summary"
  local failures
  failures=$(echo "$summary" | sed -nE 's/.* ([0-9]+) failures.*/\1/p')
  if [ -z "$failures" ]; then echo "  no summary line: $log" >&2; status=1; return; fi
  if [ "$expected" = none ] && [ "$failures" != 0 ]; then echo "  expected no failure" >&2; status=1; fi
  if [ "$expected" = some ] && [ "$failures" = 0 ]; then echo "  expected a failure" >&2; status=1; fi
}

for scenario in nslock-lost-cancel subject-cancel-deadlock shared-dependency-deadlock mutex-coupon-redeem; do
  run "$scenario buggy, default fuzz, --preempt" some "$scenario" --variant buggy --preempt --seeds 1000
  run "$scenario buggy, default fuzz, no --preempt, $seeds seeds" none "$scenario" --variant buggy --seeds "$seeds"
  run "$scenario fixed, default fuzz, --preempt, $seeds seeds" none "$scenario" --variant fixed --preempt --seeds "$seeds"
  run "$scenario fixed, random, --preempt, $seeds seeds" none "$scenario" --variant fixed --strategy random --preempt --seeds "$seeds"
done
run "subject-cancel-deadlock buggy-reorder, default fuzz, --preempt" some subject-cancel-deadlock --variant buggy-reorder --preempt --seeds 1000
exit $status
