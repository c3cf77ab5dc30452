#!/usr/bin/env bash
# simrun's mutation check: generates mutants of the verdict-deciding files (tools/mutation/generator,
# swift-syntax, over targets.toml; equivalents.toml judges the equivalent ones), or takes the curated
# list (mutants.toml, --curated), applies each to scratch copies of this checkout
# (.build/mutation/worker-N, kept so later runs build incrementally), runs its focused tests, then the
# whole suite if they passed, and prints the score, each survivor's file, line and change, and every
# mutant that could not be applied.
#
#   tools/mutation/run.sh --list                          generate and list (no simrun build)
#   tools/mutation/run.sh --curated --list                check every curated anchor (seconds)
#   nice -n 10 tools/mutation/run.sh --sample 60 --seed 1 --jobs 2 --budget 90
#   tools/mutation/run.sh --curated                       the curated list
#   tools/mutation/run.sh --only G0042,M14                some mutants, by id or key
#   tools/mutation/run.sh --help                          every option
#
# Exit 0: score >= threshold (90% generated, 95% curated) with nothing unapplied or stale; 1: below,
# or something unapplied; 2: the unmutated copy does not build or its tests fail. Needs git, Swift
# and Python >= 3.11.
set -euo pipefail
cd "$(dirname "$0")/../.."
exec python3 tools/mutation/mutate.py "$@"
