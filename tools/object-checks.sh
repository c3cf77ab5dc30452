#!/bin/sh
# The object checks' long campaign (issue #25): every fixed variant of the built-in object checks
# (and the ticket dispenser's linearizable variant) must pass at least 100,000 interleavings — each
# seed is a generated scenario of concurrent calls and one schedule of it — and every buggy variant
# must be found. Runs the release build under `nice`; prints one line per variant and exits 1 on a
# false positive or a bug not found.
#
#   tools/object-checks.sh                 100,000 seeds per fixed variant, pct then random
#   SEEDS=20000 JOBS=1 tools/object-checks.sh
set -eu
cd "$(dirname "$0")/.."
seeds=${SEEDS:-100000}
jobs=${JOBS:-2}
swift build -c release --product simrun >/dev/null
simrun=.build/release/simrun
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
status=0
for entry in cache-check:fixed counter-check:fixed token-refresher-check:fixed bounded-buffer-check:fixed \
    semaphore-check:fixed ticket-dispenser-check:linearizable main-actor-draft-check:fixed; do
    name=${entry%%:*}
    variant=${entry#*:}
    for strategy in pct random; do
        line=$(nice -n 10 "$simrun" fuzz "$name" --variant "$variant" --strategy "$strategy" \
            --seeds "0..<$seeds" --jobs "$jobs" --out "$out" --quiet 2>&1 | tail -1) || status=1
        echo "$name/$variant $strategy: $line"
    done
done
for entry in cache-check:buggy counter-check:buggy token-refresher-check:buggy bounded-buffer-check:buggy \
    semaphore-check:buggy ticket-dispenser-check:atomic main-actor-draft-check:buggy; do
    name=${entry%%:*}
    variant=${entry#*:}
    if nice -n 10 "$simrun" fuzz "$name" --variant "$variant" --seeds "0..<1000" --out "$out" --quiet >/dev/null 2>&1; then
        echo "$name/$variant: NOT FOUND in 1,000 seeds"
        status=1
    else
        echo "$name/$variant: found"
    fi
done
exit $status
