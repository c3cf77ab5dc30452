#!/usr/bin/env bash
# Cost growth (issue #26): how each cost grows with the size of what is measured, as markdown tables
# for BENCHMARKS.md ("Growth curves").
#
#   1. Instructions per unit (callgrind) of `simrun bench --quick --only kernel|async|replay
#      --scale S` for S in SCALES: kernel jobs, async jobs, recording, replay, decode and raw zstd
#      per event as the run (trace) grows. Counts, not timings: the machine's load does not move
#      them. A flat row is linear cost.
#   2. fuzz schedules/s against events per run: `simrun fuzz X --strategy random --keep-going
#      --jobs 1` over SCTBench ports of growing size (din_phil2..7_sat, reorder_3..20_bad); events
#      per run from `simrun run X --seed 0 --json`.
#   3. dfs schedules to exhaust (default preemption bound 2) against the number of philosophers.
#   4. shrink runs and seconds against the decisions of the failing trace: the first pct failure of
#      reorder_N_bad (seeds 0..<20000), shrunk.
# Everything runs under `nice -n 10`, one measurement at a time; the tables go to stdout.
#
# Usage: tools/growth.sh                       (builds the release binary and libSimAllocCount)
#        SIMRUN=path/to/simrun tools/growth.sh
#        SCALES="1 2 4" SEEDS=2000 tools/growth.sh
# Needs valgrind and python3. Scale 8 takes a few minutes under callgrind.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${SIMRUN:-}" ]; then
  bin=$SIMRUN
else
  swift build -c release >/dev/null
  bin=$PWD/.build/release/simrun
fi
scales=${SCALES:-"1 2 4 8"}
seeds=${SEEDS:-20000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run() { (cd "$work" && nice -n 10 "$bin" "$@" 2>/dev/null); }
field() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))' "$1"; }

echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD), load average $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "**Instructions per unit against size** (\`valgrind --tool=callgrind simrun bench --quick --only G --scale S\`, the binary stripped of DWARF, which valgrind 3.19 cannot read; inclusive instructions ÷ units of \`Simulation.run\`, \`Scenario.run\`, \`Recorder.record\`, the timed replay closure, \`TraceReader.nextEvent(into:)\` and \`RawZstd.decompressedSize\`; the quick sizes at S = 1: 100,000 kernel jobs, ~5,000 async jobs, ~100,000 recorded events). Instruction counts do not depend on the machine's load; a flat row is linear cost:"
echo
echo "| S | kernel: \`Simulation.run\` / job | async: \`Scenario.run\` / job (jobs) | record / event | replay / event (events) | decode / event | raw zstd / event | decode share of raw zstd |"
echo "|---|---|---|---|---|---|---|---|"
stripped=$work/simrun-stripped
cp "$bin" "$stripped"
strip --strip-debug "$stripped"
for s in $scales; do
  for g in kernel async replay; do
    (cd "$work" && nice -n 10 valgrind --tool=callgrind --callgrind-out-file="$work/cg.$g" "$stripped" bench --quick --json \
      --only "$g" --scale "$s" >"$work/$g.json" 2>/dev/null)
    callgrind_annotate --inclusive=yes "$work/cg.$g" >"$work/cg.$g.txt" 2>/dev/null
  done
  python3 - "$s" "$work" <<'PY'
import json, re, sys
s, work = sys.argv[1], sys.argv[2]
def inclusive(group, pattern):
    for line in open(f"{work}/cg.{group}.txt"):
        if re.search(pattern, line):
            return int(line.split()[0].replace(",", ""))
    # A function renamed since this script was written: say so and fail, not a "?" in the table
    # (the replay column showed "?" for a session before anyone noticed).
    sys.exit(f"growth.sh: no function matching {pattern!r} in the {group} profile (renamed?)")
def figures(group):
    return {x["key"]: x for x in json.load(open(f"{work}/{group}.json"))["figures"]}
kernel_jobs = int(re.match(r"(\d+) jobs", figures("kernel")["kernel_jobs_per_second"]["note"]).group(1))
async_jobs = int(re.match(r"(\d+) jobs", figures("async")["async_jobs_per_second"]["note"]).group(1))
replay = figures("replay")
events = int(re.match(r"(\d+) events", replay["replay_events_per_second"]["note"]).group(1))
k = inclusive("kernel", r"\$s7SimCore10SimulationC3runAA9RunResultVyF ")
a = inclusive("async", r"\$s7SimCore8ScenarioV3run7variant4seed8strategy4sink6limits.*tF ")
rec = inclusive("replay", r"RecorderO6record4plan4seed8strategy0G4Name2to")
rep = inclusive("replay", r"replayAndDecodeFigures.*VYKFyyKXEfU0_ ")
dec = inclusive("replay", r"0B6ReaderC9nextEvent4intoSb")
raw = inclusive("replay", r"RawZstdO16decompressedSize")
f = lambda v, n: f"{v / n:,.0f}"
share = f"{raw / dec * 100:.1f}%"
print(f"| {s} | {f(k, kernel_jobs)} | {f(a, async_jobs)} ({async_jobs}) | {f(rec, events)} | {f(rep, events)} ({events}) | {f(dec, events)} | {f(raw, events)} | {share} |")
PY
done
echo
echo "**Fuzz schedules/s against events per run** (\`simrun fuzz X --strategy random --seeds '0..<$seeds' --keep-going --jobs 1\`; wall clock, so the rates move with the machine's load):"
echo
echo "| scenario | events per run (seed 0) | decisions per run | schedules/s |"
echo "|---|---|---|---|"
for x in din_phil2_sat din_phil4_sat din_phil6_sat reorder_3_bad reorder_5_bad reorder_10_bad reorder_20_bad; do
  one=$(run run "$x" --seed 0 --strategy random --json || true)
  events=$(echo "$one" | field 'd["events"]')
  decisions=$(echo "$one" | field 'd["decisions"]')
  rate=$(run fuzz "$x" --strategy random --seeds "0..<$seeds" --keep-going --jobs 1 --no-show --json | field 'd["rate"]' || true)
  echo "| $x | $events | $decisions | $rate |"
done

echo
echo "**dfs schedules to exhaust** (\`simrun fuzz din_philN_sat --strategy dfs --seeds '0..<1000000' --keep-going --jobs 1\`, preemption bound 2):"
echo
echo "| philosophers | schedules | exhausted | seconds | events per run (seed 0) |"
echo "|---|---|---|---|---|"
for n in 2 3 4 5 6; do
  out=$(run fuzz "din_phil${n}_sat" --strategy dfs --seeds '0..<1000000' --keep-going --jobs 1 --no-show --json || true)
  events=$(run run "din_phil${n}_sat" --seed 0 --json | field 'd["events"]' || true)
  echo "| $n | $(echo "$out" | field 'd["schedules"]') | $(echo "$out" | field 'd.get("exhausted")') | $(echo "$out" | field 'd["seconds"]') | $events |"
done

echo
echo "**Shrinking against the failing trace's decisions** (the first \`pct\` failure of \`simrun fuzz X --seeds '0..<$seeds'\`, then \`simrun shrink\`):"
echo
echo "| scenario | decisions (non-fifo) before | after | shrink runs | seconds |"
echo "|---|---|---|---|---|"
for x in reorder_3_bad reorder_4_bad reorder_5_bad reorder_10_bad reorder_20_bad; do
  rm -rf "$work/t"
  run fuzz "$x" --strategy pct --seeds "0..<$seeds" --no-show --out "$work/t" >/dev/null 2>&1 || true
  trace=$(ls "$work"/t/*.simtrace 2>/dev/null | head -1 || true)
  if [ -z "$trace" ]; then echo "| $x | no failure in $seeds seeds | | | |"; continue; fi
  start=$(date +%s.%N)
  out=$(run shrink "$trace" --json || true)
  end=$(date +%s.%N)
  python3 - "$x" "$start" "$end" <<PY
import json, sys
d = json.loads('''$out''')
print(f"| {sys.argv[1]} | {d['before']['decisions']} ({d['before']['nonFifo']}) | {d['after']['decisions']} ({d['after']['nonFifo']}) | {d['runs']} | {float(sys.argv[3]) - float(sys.argv[2]):.2f} |")
PY
done
