#!/bin/sh
# Counts public declarations without a `///` doc comment in the modules a user programs against.
# A declaration is a line declaring something `public` or `open` (attributes such as
# `@discardableResult` may sit between it and its comment); it is documented when the nearest line
# above it that is not an attribute is a `///` line.
#
#   tools/doc-coverage.sh            per-module figures; exit 1 unless every declaration is documented
#   tools/doc-coverage.sh --list     also every undocumented declaration, as file:line: text
#   MODULES="SimCore SimTrace" tools/doc-coverage.sh   other modules
set -eu
cd "$(dirname "$0")/.."
list=false
[ "${1:-}" = "--list" ] && list=true
modules=${MODULES:-"SimCore SimModels SimTrace SimEngine SimTesting"}
missing_total=0
for module in $modules; do
    [ -d "Sources/$module" ] || { echo "doc-coverage: no Sources/$module" >&2; exit 64; }
    result=$(find "Sources/$module" -name '*.swift' | LC_ALL=C sort | xargs awk -v list="$list" '
        FNR == 1 { previous = "" }
        {
            line = $0
            sub(/^[ \t]+/, "", line)
            if (line ~ /^(@[A-Za-z_]+(\([^)]*\))?[ \t]+)*(public|open)[ \t(]/ && line !~ /^(public|open)[ \t]+(extension|import)[ \t]/) {
                total++
                if (previous !~ /^\/\/\//) {
                    missing++
                    if (list == "true") printf "%s:%d: %s\n", FILENAME, FNR, line > "/dev/stderr"
                }
            }
            if (line !~ /^@[A-Za-z_]+(\([^)]*\))?$/) previous = line
        }
        END { printf "%d %d\n", total, missing }')
    total=${result% *}
    missing=${result#* }
    if [ "$total" -gt 0 ]; then percent=$(( (total - missing) * 100 / total )); else percent=100; fi
    echo "$module: $total public declarations, $missing without a /// comment ($percent% documented)"
    missing_total=$((missing_total + missing))
done
if [ "$missing_total" -gt 0 ]; then
    echo "doc-coverage: $missing_total public declarations without a doc comment (tools/doc-coverage.sh --list)"
    exit 1
fi
