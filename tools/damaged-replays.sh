#!/usr/bin/env bash
# One verdict on damaged input: N damaged variants of the committed Traces/ (every other one cut
# short at a random byte, the rest with 1-3 random bytes flipped; deterministic, seed 22) are each
# replayed through the `simrun` binary (`replay --json`) and through SimTesting
# (`TraceCorpus(executable:).verdict(of:)`). Fails unless both give the same verdict and exit code,
# none exits 0 and none dies of a signal; prints the tally (kind, verdict, exit → count).
# Usage: tools/damaged-replays.sh [N]      (default 1000; `swift test` itself runs 24)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-1000}
swift build --build-tests >/dev/null
SIMRUN_DAMAGED_COUNT=$count nice -n 10 swift test --skip-build --filter theCommandAndSimTestingAgreeOnDamagedTraces 2>&1 |
  grep -E "damaged replays:|✘|Test run with"
