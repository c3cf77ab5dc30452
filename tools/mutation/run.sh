#!/usr/bin/env bash
# simrun's mutation check: applies each mutant of tools/mutation/mutants.toml to a scratch copy of
# this checkout (.build/mutation/checkout, kept so later runs build incrementally), runs its focused
# tests, then the whole suite if they passed, and prints the score, the survivors and every mutant
# that could not be applied (missing or ambiguous anchor, no compile, no matching test).
#
#   tools/mutation/run.sh --list            check every anchor (seconds, no build)
#   nice -n 10 tools/mutation/run.sh        the whole list (40 min on a shared 2-core machine)
#   tools/mutation/run.sh --only M01,M14    some mutants
#   tools/mutation/run.sh --help            every option
#
# Exit 0: score >= threshold (default 95%) with nothing unapplied; 1: below, or something unapplied;
# 2: the unmutated copy does not build or its tests fail. Needs git and Python >= 3.11.
set -euo pipefail
cd "$(dirname "$0")/../.."
exec python3 tools/mutation/mutate.py "$@"
