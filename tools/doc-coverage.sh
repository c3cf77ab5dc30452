#!/bin/sh
# Builds the documentation of every public module with DocC and checks it: no DocC warning (a broken
# symbol link, a missing article or resource is an error: --warnings-as-errors), and DocC's own
# coverage (--experimental-documentation-coverage) shows every public symbol with an abstract.
# Symbols the compiler synthesizes (Hashable's hash(into:), a protocol's default implementations)
# are left out (--experimental-skip-synthesized-symbols): no one can write their comment; inherited
# documentation is on (--enable-inherited-docs) for what a conformance takes from its protocol.
#
# This replaces an awk count of `public` lines without a `///` line above: it missed what DocC sees
# (each case of `case a, b, c`, members a declaration brings in) and could not check links.
#
#   tools/doc-coverage.sh                  every module below; exit 1 on a warning or a missing comment
#   MODULES="SimCore SimTesting" tools/doc-coverage.sh    some of them
#
# About 10–20 s per module once the package is built (DocC itself takes 2–10 s of it).
set -eu
cd "$(dirname "$0")/.."
modules=${MODULES:-"SimCore SimCapture SimTrace SimModels SimScenarios SimEngine SimTesting SimRunKit"}
outputs=.build/plugins/Swift-DocC/outputs
failed=""
for module in $modules; do
    [ -d "Sources/$module" ] || { echo "doc-coverage: no Sources/$module" >&2; exit 64; }
    log=$(mktemp "${TMPDIR:-/tmp}/doc-coverage-XXXXXX")
    if ! swift package --disable-sandbox generate-documentation --target "$module" --warnings-as-errors \
        --enable-inherited-docs --experimental-skip-synthesized-symbols --experimental-documentation-coverage --coverage-summary-level brief >"$log" 2>&1; then
        grep -E "^(error|warning):|^ *--> " "$log" >&2 || tail -20 "$log" >&2
        echo "doc-coverage: $module: DocC failed (warnings are errors)" >&2
        failed="$failed $module"
        rm -f "$log"
        continue
    fi
    rm -f "$log"
    swift tools/doc-coverage-check.swift "$outputs/$module.doccarchive/documentation-coverage.json" "$module" \
        || failed="$failed $module"
done
if [ -n "$failed" ]; then
    echo "doc-coverage: failed:$failed" >&2
    exit 1
fi
echo "doc-coverage: every module's documentation builds without warnings, every public symbol documented"
