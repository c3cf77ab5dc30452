#!/usr/bin/env bash
# Regenerates Traces/: for every scenario with a buggy variant, fuzz it with pct from seed 0, shrink
# the first failure, and save it under a name for the bug; then rewrite Traces/README.md.
# Run after any change that alters events or digests (the regression tests say when).
set -euo pipefail
cd "$(dirname "$0")/.."
# The debug build, as `swift test` replays the corpus with it: task identities are the same in every
# build configuration, but an actor call's method is named from the async functions the optimizer
# may merge (`actor.call … method=`), so a release recording can differ from a debug replay there.
# Known gap: a trace the simrun executable records carries its build id, and TraceRegressionTests'
# CLI-against-SimTesting check needs the committed traces without one (a recording by another build
# is judged as such): the traces re-recorded in #24 were rewritten in a test process (Recorder.record
# of each trace's own tape there writes no build id), their events compared equal with `simrun show`.
swift build --product simrun >/dev/null
bin=.build/debug/simrun
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

rm -f Traces/*.simtrace
{
  echo "# Recorded traces"
  echo
  echo "Each trace is a shrunk failing schedule of a buggy variant, replayed by \`TraceRegressionTests\` on"
  echo "every test run (no divergence, same verdict) and on the \`fixed\` variant (must pass with every"
  echo "non-fifo decision followed; where the fix itself removes the race, a pct campaign on \`fixed\`)."
  echo "Regenerate with \`tools/regenerate-traces.sh\`."
  echo
} > "$work/README.md"

for scenario in $($bin list | awk '/^[a-z]/ {print $1}'); do
  variants=$($bin list | awk -v s="$scenario" '$1==s {on=1; next} /^[a-z]/ {on=0} on {print $1}')
  for variant in $variants; do
    case "$variant" in buggy*) ;; *) continue ;; esac
    rm -rf "$work/out"
    # Races inside synchronous code are only reachable with lock preemption (issue #31).
    extra=()
    case "$scenario" in nslock-lost-cancel | subject-cancel-deadlock | shared-dependency-deadlock | thread-avatar-decode | mutex-coupon-redeem) extra=(--preempt) ;; esac
    # The corpus is recorded as the build `corpus`, not as this release binary's build id: the tests
    # replay it with the debug binary (`--build-label corpus`), which must count as the same build.
    log=$($bin fuzz "$scenario" --variant "$variant" --strategy pct --seeds '0..<1000' --jobs 2 --no-show \
      --build-label corpus "${extra[@]}" --out "$work/out" 2>/dev/null || true)
    found=$(ls "$work/out"/*.simtrace 2>/dev/null | head -1 || true)
    if [ -z "$found" ]; then echo "no failure found for $scenario/$variant" >&2; continue; fi
    name="$(basename "$found")"
    cp "$found" "Traces/$name"
    # A run that traps is a CRASH finding (its trace is sealed `crashed`, and not shrunk).
    seed=$(echo "$log" | sed -nE 's/^(FAIL|CRASH) at seed ([0-9]+): .*/\2/p' | head -1)
    bug=$(echo "$log" | sed -nE 's/^(FAIL|CRASH) at seed [0-9]+: (.*)/\2/p' | head -1)
    shrink=$(echo "$log" | sed -nE 's/^  shrunk in [0-9]+ runs: (.*)/\1/p' | head -1)
    echo "- \`$name\` — ${bug%.}. Scenario \`$scenario\`, variant \`$variant\`; found by \`simrun fuzz --strategy pct${extra[*]:+ ${extra[*]}}\` at seed $seed; shrunk: ${shrink:-not shrunk (a crash)}." >> "$work/README.md"
  done
done
cp "$work/README.md" Traces/README.md
ls -l Traces
