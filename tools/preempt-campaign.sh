#!/usr/bin/env bash
# The lock-preemption scenario's campaigns (issue #31), under `nice`: the buggy variant is found by the
# default fuzz only with --preempt (and never without, over the same seeds), and the fixed variant is
# clean over 20,000 seeds with --preempt. Prints each campaign's summary line; exits 1 when a
# campaign disagrees. Usage: tools/preempt-campaign.sh [seeds]   (default 20000)
set -euo pipefail
cd "$(dirname "$0")/.."
seeds="${1:-20000}"
swift build --product simrun >/dev/null
bin=.build/debug/simrun
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0

run() {  # label, expected failures ("some" or "none"), fuzz arguments...
  local label=$1 expected=$2
  shift 2
  local log
  log=$(nice -n 10 "$bin" fuzz nslock-lost-cancel "$@" --no-show --no-shrink --out "$work/out" 2>&1 || true)
  local summary
  summary=$(echo "$log" | grep '^summary:' | tail -1)
  echo "$label: $summary"
  local failures
  failures=$(echo "$summary" | sed -nE 's/.* ([0-9]+) failures.*/\1/p')
  if [ -z "$failures" ]; then echo "  no summary line: $log" >&2; status=1; return; fi
  if [ "$expected" = none ] && [ "$failures" != 0 ]; then echo "  expected no failure" >&2; status=1; fi
  if [ "$expected" = some ] && [ "$failures" = 0 ]; then echo "  expected a failure" >&2; status=1; fi
}

run "buggy, default fuzz, --preempt" some --variant buggy --preempt --seeds 1000
run "buggy, default fuzz, no --preempt, $seeds seeds" none --variant buggy --seeds "$seeds"
run "fixed, default fuzz, --preempt, $seeds seeds" none --variant fixed --preempt --seeds "$seeds"
run "fixed, random, --preempt, $seeds seeds" none --variant fixed --strategy random --preempt --seeds "$seeds"
exit $status
