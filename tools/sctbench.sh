#!/usr/bin/env bash
# SCTBench measured as the field measures it (issue #32), beside the published figures.
#
# For every ported benchmark (`simrun list --group sctbench`) and every randomized strategy: TRIALS
# trials (default 20), trial k running the seeds k*W ..< (k+1)*W (W = 10,000, the artifacts' budget)
# until the first bug. A cell is the mean schedules to the first bug over the trials that found it,
# with found/trials. `dfs` is a systematic search (its "seeds" are run numbers, not randomness): it
# runs once, and its cell is the schedules its search took to the first bug. Each row also says
# whether the `fifo` schedule (oldest ready job first: round-robin, one operation at a time) and the
# non-preemptive default schedule (continue the running thread until it blocks, as the study's and
# CHESS's default; `dfs:preemptions=0`'s one schedule) fail: such rows are trivial.
#
# Beside ours: the published per-benchmark figures of tools/sctbench-artifacts.tsv (the SURW and RFF
# artifacts' 20-trial data, PERIOD's reported figures, SCTBench's own Rand/PCT found-lists; made by
# tools/sctbench-artifacts.py) and tools/sctbench-published.tsv (MapleAlg, the study's threads and
# scheduling points). Rewrites the section between the sctbench markers in BENCHMARKS.md and prints it.
#
# Usage: tools/sctbench.sh [--trials N] [--window W] [--dfs-budget R] [--parallel P] [--until HH:MM]
#                          [--only a,b,...] [--keep DIR] [--render DIR]
#   --trials N     trials per cell (default 20)
#   --window W     schedules per trial (default 10000)
#   --dfs-budget R schedules the one systematic search may take (default 2000: every row's search
#                  that finds its bug does so within 800; at 101 threads `twostage_100_bad`'s bound-2
#                  tree is far larger, and its cell then says "not found in R runs")
#   --parallel P   campaigns measured at once (default 2). The unit of work is one trial of one
#                  strategy on one benchmark, or one benchmark's fifo/default/dfs probe.
#   --until HH:MM  UTC: start no campaign after this time (cells then say how many trials ran;
#                  the costly cells run last, so they are the ones a deadline cuts)
#   --only LIST    measure only these benchmarks (the table then holds only them)
#   --keep DIR     keep the raw per-benchmark results in DIR (default: a temporary directory)
#   --resume       with --keep: go on with a run stopped midway in DIR (same binary), skipping the
#                  units it finished (a unit's cell depends only on its seeds, not on when it ran);
#                  the table then says when it was resumed
#   --render DIR   measure nothing: render the table from the raw results a --keep run left in DIR
# Build: one release build of simrun (`swift build -c release --product simrun`) before measuring.
set -euo pipefail
cd "$(dirname "$0")/.."
command="tools/sctbench.sh $*"
trials=20
window=10000
dfsbudget=2000
parallel=2
until=""
only=""
keep=""
render=""
resume=""
while [ $# -gt 0 ]; do
  case "$1" in
    --trials) trials="$2"; shift 2 ;;
    --window) window="$2"; shift 2 ;;
    --dfs-budget) dfsbudget="$2"; shift 2 ;;
    --parallel) parallel="$2"; shift 2 ;;
    --until) until="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --keep) keep="$2"; shift 2 ;;
    --render) render="$2"; shift 2 ;;
    --resume) resume=1; shift ;;
    *) echo "sctbench.sh: unknown argument '$1' (see the usage at the top of the script)" >&2; exit 64 ;;
  esac
done
strategies="surw rff pos pct:depth=3 pct:depth=10 random nsurw portfolio delay:bound=2 coverage"
systematic="dfs:preemptions=2"
artifacts=tools/sctbench-artifacts.tsv
published=tools/sctbench-published.tsv
if [ -n "$render" ] || [ -n "$keep" ]; then
  out="${render:-$keep}"
  mkdir -p "$out"
else
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
fi

if [ -z "$render" ]; then
# SCTBENCH_BIN: a simrun binary already built (skips the release build; for trying the script out).
bin="${SCTBENCH_BIN:-}"
if [ -z "$bin" ]; then
  swift build -c release --product simrun >/dev/null
  bin=.build/release/simrun
fi
benches=$($bin list --group sctbench | awk '/^[A-Za-z]/ {print $1}')
if [ -n "$only" ]; then benches=$(echo "$only" | tr ',' '\n'); fi
deadline=0
if [ -n "$until" ]; then deadline=$(date -u -d "$until" +%s); fi
started=$(date -u '+%Y-%m-%d %H:%M UTC')
load_start=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)
runcommit=$(git rev-parse --short HEAD)
resumed=""
if [ -n "$resume" ]; then
  if [ -z "$keep" ] || [ ! -s "$out/meta" ]; then
    echo "sctbench.sh: --resume needs --keep DIR holding a stopped run" >&2
    exit 64
  fi
  prev() { sed -nE "s/^$1\t//p" "$out/meta"; }
  if [ "$(prev trials)" != "$trials" ] || [ "$(prev window)" != "$window" ] || [ "$(prev dfsbudget)" != "$dfsbudget" ]; then
    echo "sctbench.sh: --resume: the stopped run in $out measured other trials, window or dfs budget" >&2
    exit 64
  fi
  # The binary's code: Sources and Package.swift, not the documentation catalogs.
  if ! git diff --quiet "$(prev commit)" HEAD -- Sources Package.swift ':(exclude,glob)Sources/**/*.docc/**'; then
    echo "sctbench.sh: --resume: Sources changed since the stopped run's commit $(prev commit); measure afresh" >&2
    exit 64
  fi
  resumed="$(prev resumed)"
  resumed="$resumed${resumed:+; }at $(date -u '+%H:%M UTC') with \`$command\`"
  command=$(prev command)
  started=$(prev started)
  load_start=$(prev load_start)
  runcommit=$(prev commit)
fi

# One unit of work, "<bench> probe" or "<bench> <trial> <strategy>": writes
# "$out/cells/<bench>.<unit>" with lines `strategy<TAB>trial<TAB>first-bug-or-0`, and (probe)
# `fifo`/`nonpreemptive` lines (1 when that schedule fails) and the systematic search's line. Units
# go trial by trial, so a deadline leaves a benchmark's strategies within one trial of each other.
measure() {
  local bench="$1" unit="$2" s="${3:-}" file traces lo hi first report status
  file="$out/cells/$bench.$unit${s:+.$s}"
  traces="$out/traces/$bench.$unit${s:+.$s}"
  if [ "$deadline" -gt 0 ] && [ "$(date -u +%s)" -ge "$deadline" ]; then return 0; fi
  if [ -e "$file" ]; then return 0; fi # --resume: measured before the stop
  mkdir -p "$traces"
  : > "$file.part"
  if [ "$unit" = probe ]; then
    status=0
    $bin run "$bench" --strategy fifo --seed 0 --failure-dir "$traces" >/dev/null 2>&1 || status=$?
    printf 'fifo\t-\t%s\n' "$([ "$status" = 1 ] && echo 1 || echo 0)" >> "$file.part"
    report=$($bin fuzz "$bench" --strategy dfs:preemptions=0 --seeds 1 --no-shrink --no-show --out "$traces" 2>/dev/null || true)
    printf 'nonpreemptive\t-\t%s\n' "$(echo "$report" | grep -q '^FAIL at seed' && echo 1 || echo 0)" >> "$file.part"
    report=$($bin fuzz "$bench" --strategy "$systematic" --seeds "0..<$dfsbudget" --jobs 1 --no-shrink --no-show \
      --out "$traces" 2>/dev/null || true)
    first=$(echo "$report" | sed -nE 's/^FAIL at seed ([0-9]+).*/\1/p' | head -1)
    runs=$(echo "$report" | sed -nE 's/^summary: ([0-9]+) schedules.*/\1/p')
    exhausted=$(echo "$report" | grep -q 'space exhausted' && echo exhausted || echo open)
    printf '%s\t-\t%s\t%s\t%s\n' "$systematic" "$([ -n "$first" ] && echo $((first + 1)) || echo 0)" "$runs" "$exhausted" >> "$file.part"
  else
    lo=$((unit * window))
    hi=$((lo + window))
    report=$($bin fuzz "$bench" --strategy "$s" --seeds "$lo..<$hi" --jobs 1 --no-shrink --no-show \
      --out "$traces" 2>/dev/null || true)
    first=$(echo "$report" | sed -nE 's/^FAIL at seed ([0-9]+).*/\1/p' | head -1)
    printf '%s\t%s\t%s\n' "$s" "$unit" "$([ -n "$first" ] && echo $((first - lo + 1)) || echo 0)" >> "$file.part"
  fi
  # Only a finished unit counts: one stopped midway (Ctrl-C) leaves its .part behind, not a cell.
  mv "$file.part" "$file"
  rm -rf "$traces"
}
export -f measure
export bin out trials window dfsbudget strategies systematic deadline
mkdir -p "$out/cells" "$out/traces"
rm -rf "$out/traces"/* "$out/cells"/*.part
echo "$benches" > "$out/order"
printf 'command\t%s\nstarted\t%s\nfinished\t\nload_start\t%s\nload_end\tnot measured (stopped)\ncommit\t%s\n' \
  "$command" "$started" "$load_start" "$runcommit" > "$out/meta"
printf 'trials\t%s\nwindow\t%s\ndfsbudget\t%s\nresumed\t%s\n' "$trials" "$window" "$dfsbudget" "$resumed" >> "$out/meta"
# Order: every probe first (the systematic searches are budgeted, so they all finish); then every
# cell that finds its bug early; then `twostage_100_bad`'s `surw` and `rff` (the rows' targets,
# hundreds to thousands of schedules a trial); then, trial by trial, the cells that miss or nearly
# miss (each trial up to 10,000 schedules): `reorder_10/20_bad`'s pos, random, delay and coverage,
# and `twostage_100_bad`'s other strategies, whose 101-thread schedules cost ~4-8 ms of CPU each.
# A deadline thus cuts only those costly cells, and leaves each within a trial of the others.
cost() { # bench strategy -> class 0 (cheap) to 2
  case "$1:$2" in
    twostage_100_bad:surw | twostage_100_bad:rff) echo 1 ;;
    reorder_10_bad:pos | reorder_10_bad:random | reorder_10_bad:delay:bound=2 | reorder_10_bad:coverage) echo 2 ;;
    reorder_20_bad:pos | reorder_20_bad:random | reorder_20_bad:delay:bound=2 | reorder_20_bad:coverage) echo 2 ;;
    twostage_100_bad:*) echo 2 ;;
    *) echo 0 ;;
  esac
}
{
  for b in $benches; do echo "$b probe"; done
  for class in 0 1 2; do
    for k in $(seq 0 $((trials - 1))); do
      for b in $benches; do
        for s in $strategies; do if [ "$(cost "$b" "$s")" = "$class" ]; then echo "$b $k $s"; fi; done
      done
    done
  done
} | xargs -P "$parallel" -L 1 bash -c 'measure "$@"' _
finished=$(date -u '+%Y-%m-%d %H:%M UTC')
load_end=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)
echo "$benches" > "$out/order"
printf 'command\t%s\nstarted\t%s\nfinished\t%s\nload_start\t%s\nload_end\t%s\ncommit\t%s\n' "$command" "$started" \
  "$finished" "$load_start" "$load_end" "$runcommit" > "$out/meta"
printf 'trials\t%s\nwindow\t%s\ndfsbudget\t%s\nresumed\t%s\n' "$trials" "$window" "$dfsbudget" "$resumed" >> "$out/meta"
fi
meta() { sed -nE "s/^$1\t//p" "$out/meta"; }
command=$(meta command)
started=$(meta started)
finished=$(meta finished)
load_start=$(meta load_start)
load_end=$(meta load_end)
trials=$(meta trials)
window=$(meta window)
dfsbudget=$(meta dfsbudget)
resumed=$(meta resumed)
dfsbudget=${dfsbudget:-$window}
if [ "$finished" = "" ] || [ ! -s "$out/order" ]; then
  # A measurement stopped before it ended: render what it wrote, and say so.
  finished="(not finished: rendered from the results written so far)"
fi

# ---- Rendering: everything below reads $out/cells, the artifacts and the published data. ----
# Each benchmark's finished units (probe and trials; not a stopped unit's .part) into one file.
while read -r b; do
  [ -n "$b" ] || continue
  units=$(find "$out/cells" -maxdepth 1 -name "$b.*" ! -name '*.part' | sort)
  if [ -n "$units" ]; then cat $units > "$out/cells/$b"; fi
done < "$out/order"
commit=$(meta commit)
if [ -z "$render" ] && ! git diff --quiet HEAD -- Sources; then commit="$commit (with uncommitted changes to Sources)"; fi
cpu=$(sed -nE 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
machine="$(uname -sm), $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?') cores${cpu:+ ($cpu)}"
table="$out/table.md"
awk -F'\t' -v order="$out/order" -v cells="$out/cells" -v strategies="$strategies" -v systematic="$systematic" \
  -v artifacts="$artifacts" -v published="$published" -v trials="$trials" -v window="$window" -v dfsbudget="$dfsbudget" \
  -v commit="$commit" -v machine="$machine" -v started="$started" -v finished="$finished" \
  -v load_start="$load_start" -v load_end="$load_end" -v command="$command" -v resumed="$resumed" '
function cell(b, s,    n, f, sum) {
  n = runs[b, s]; f = found[b, s]; sum = total[b, s]
  if (n == 0) return "not run (deadline)"
  if (f == 0) return "— (0/" n ")"
  return sprintf("%.1f (%d/%d)", sum / f, f, n)
}
function mean(b, s) { return found[b, s] > 0 ? total[b, s] / found[b, s] : -1 }
function pub(b, tool, src,    key) {
  key = b SUBSEP tool SUBSEP src
  if (!(key in pfound)) return "—"
  if (tool == "PERIOD (reported)") return pmean[key]
  if (pmean[key] == "") return "— (" pfound[key] "/" ptrials[key] ")"
  return pmean[key] " (" pfound[key] "/" ptrials[key] ")"
}
function listed(b, tool,    key) {
  key = b SUBSEP tool SUBSEP "phd"
  return (key in pfound) ? "found" : "—"
}
BEGIN {
  ns = split(strategies, S, " ")
  nb = 0
  while ((getline line < order) > 0) if (line != "") B[++nb] = line
  for (i = 1; i <= nb; i++) {
    file = cells "/" B[i]
    while ((getline line < file) > 0) {
      split(line, f, "\t")
      b = B[i]
      if (f[1] == "fifo") fifo[b] = f[3]
      else if (f[1] == "nonpreemptive") np[b] = f[3]
      else if (f[1] == systematic) { dfs[b] = f[3]; dfsruns[b] = f[4]; dfsstate[b] = f[5] }
      else { runs[b, f[1]]++; if (f[3] > 0) { found[b, f[1]]++; total[b, f[1]] += f[3] } }
    }
  }
  while ((getline line < artifacts) > 0) {
    if (line ~ /^#/) continue
    split(line, f, "\t")
    src = (f[2] ~ /^zhaohuanqdcn/) ? "surw" : (f[2] ~ /^dylanjwolff/) ? "rff" : "phd"
    key = f[1] SUBSEP f[3] SUBSEP src
    pfound[key] = f[4]; ptrials[key] = f[5]; pmean[key] = f[6]
    if (src != "phd") artifactRow[f[1]] = 1
  }
  while ((getline line < published) > 0) {
    if (line ~ /^#/ || line ~ /^benchmark/) continue
    split(line, f, "\t")
    maple[f[1]] = (f[3] == 1 ? "found, " : "not found, ") f[4]
    study[f[1]] = f[5] " / " f[6]
  }

  print "Measured " started " to " finished " on commit " commit ", " machine "; load average (1, 5, 15 min) " load_start " at the start, " load_end " at the end (other work shared the machine; the counts do not depend on it, only the time taken)."
  print "Command: `" command "` (release build; " trials " trials per cell, trial k on seeds k·" window " ..< (k+1)·" window ", each stopping at its first bug)."
  if (resumed != "") print "Stopped and resumed " resumed " (`--resume`: the same commit'"'"'s binary; the units the stopped run finished are kept, a unit'"'"'s cell depending only on its seeds)."
  print ""
  print "**Our strategies.** Cell: mean schedules to the first bug over the trials that found it (found/trials run). `" systematic "`: the schedules its one search took, at most " dfsbudget " (a systematic search is the same every trial; \"not found in N runs\" when the budget ended the search first, \"space exhausted\" when the bound'"'"'s whole tree held no bug). Trivial: the bug shows on the `fifo` schedule (F: oldest ready job first, round-robin one operation at a time) or on the non-preemptive default schedule (N: the running thread continues until it blocks)."
  print ""
  header = "| benchmark | trivial"
  rule = "|---|---"
  for (j = 1; j <= ns; j++) { header = header " | " S[j]; rule = rule "|---" }
  print header " | " systematic " |"
  print rule "|---|"
  for (i = 1; i <= nb; i++) {
    b = B[i]
    triv = (fifo[b] == 1 ? "F" : "") (np[b] == 1 ? (fifo[b] == 1 ? ", N" : "N") : "")
    row = "| " b " | " (triv == "" ? "" : triv)
    for (j = 1; j <= ns; j++) row = row " | " cell(b, S[j])
    if (dfs[b] > 0) d = dfs[b]
    else if (dfsruns[b] == "") d = "not run"
    else d = (dfsstate[b] == "exhausted" ? "— (space exhausted in " dfsruns[b] " runs)" : "not found in " dfsruns[b] " runs")
    print row " | " d " |"
  }
  print ""
  line = "Found in at least one trial (of " nb " benchmarks):"
  for (j = 1; j <= ns; j++) {
    c = 0; all = 0
    for (i = 1; i <= nb; i++) { if (found[B[i], S[j]] > 0) c++; if (found[B[i], S[j]] == runs[B[i], S[j]] && runs[B[i], S[j]] > 0) all++ }
    line = line " " S[j] " " c " (every trial " all ");"
  }
  c = 0
  for (i = 1; i <= nb; i++) if (dfs[B[i]] > 0) c++
  print line " " systematic " " c "."
  nt = 0
  for (i = 1; i <= nb; i++) if (fifo[B[i]] == 1 || np[B[i]] == 1) nt++
  print "Trivial rows (found by the fifo or the non-preemptive schedule): " nt " of " nb "."
  print ""

  print "**Beside the published figures** (same programs: PERIOD'"'"'s copies of SCTBench, which both artifacts run; `WorkStealQueue-1stealer` is the program they run). Published cells: mean schedules to the first bug over the trials that found it (found/trials), computed by tools/sctbench-artifacts.py from zhaohuanqdcn/SURW@2a4c5de `stats/period/<suite>/<bench>/<config>-<trial>.json` (counted as its `scripts/analyze/eval_period.py` counts: the profiling dry run is one more schedule, except for pos and rw) and dylanjwolff/RFF@b717e06 `scripts/data-analysis/full-data.csv` (its `scripts/data-analysis/analyze.py` names: RFF = power-coe-always-rand-schedfuzz) and `prior_work.csv` (PERIOD as its paper reports it: one figure, no trials). Ratio: ours / published; target: at or below 1.5 with every trial finding it where the published tool found it in 20/20."
  print ""
  print "| benchmark | surw | SURW (SURW art.) | ratio | rff | RFF (RFF art.) | ratio | nsurw | N-S (SURW art.) | pct:depth=3 | PCT-3 (SURW art.) | PCT3 (RFF art.) | pct:depth=10 | PCT-10 (SURW art.) | pos | POS (SURW art.) | POS (RFF art.) | random | RW (SURW art.) | PERIOD (reported) |"
  print "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
  for (i = 1; i <= nb; i++) {
    b = B[i]
    if (!(b in artifactRow)) continue
    row = "| " b
    split("surw SURW surw|rff RFF rff", pairs, "|")
    for (p = 1; p <= 2; p++) {
      split(pairs[p], q, " ")
      ours = q[1]; tool = q[2]; src = q[3]; key = b SUBSEP tool SUBSEP src
      ratio = "—"
      if (runs[b, ours] == 0) {
        ratio = "not measured"
        if ((key in pfound) && pfound[key] > 0) unmeasured[ours] = unmeasured[ours] " " b
      } else if ((key in pmean) && pmean[key] != "" && found[b, ours] > 0) {
        r = mean(b, ours) / pmean[key]
        ratio = sprintf("%.2f", r)
        met = (r <= 1.5) && !(pfound[key] == 20 && found[b, ours] < runs[b, ours])
        ratio = ratio (met ? "" : " **missed**")
        targets[ours]++; if (met) hit[ours]++; else misses[ours] = misses[ours] " " b " (" sprintf("%.1f×", r) (pfound[key] == 20 && found[b, ours] < runs[b, ours] ? ", found " found[b, ours] "/" runs[b, ours] : "") ")"
      } else if ((key in pfound) && pfound[key] > 0) {
        ratio = "**missed** (not found)"; targets[ours]++; misses[ours] = misses[ours] " " b " (not found in " runs[b, ours] " trials)"
      }
      row = row " | " cell(b, ours) " | " pub(b, tool, src) " | " ratio
    }
    row = row " | " cell(b, "nsurw") " | " pub(b, "N-S", "surw")
    row = row " | " cell(b, "pct:depth=3") " | " pub(b, "PCT-3", "surw") " | " pub(b, "PCT3", "rff")
    row = row " | " cell(b, "pct:depth=10") " | " pub(b, "PCT-10", "surw")
    row = row " | " cell(b, "pos") " | " pub(b, "POS", "surw") " | " pub(b, "POS", "rff")
    row = row " | " cell(b, "random") " | " pub(b, "RW", "surw") " | " pub(b, "PERIOD (reported)", "rff") " |"
    print row
  }
  print ""
  for (p = 1; p <= 2; p++) {
    ours = (p == 1) ? "surw" : "rff"
    print "Target for `" ours "`: met on " hit[ours] + 0 " of " targets[ours] + 0 " rows" (misses[ours] == "" ? "" : "; missed on" misses[ours]) (unmeasured[ours] == "" ? "." : "; not measured (no trial ran):" unmeasured[ours] ".")
  }
  print ""
  print "**The study'"'"'s own data** (mc-imperial/sctbench@d59ab26 `benchmarks/mapleRes.txt` and `benchmarks/buggy.txt`, via tools/sctbench-published.tsv; barrucadu/phd@01446d1 `thesis/data/random.txt` and `pct.txt`, the assertion failures SCTBench'"'"'s own Rand and PCT runs hit — deadlocks are not in those lists):"
  print ""
  print "| benchmark | MapleAlg: found?, schedules | study threads / scheduling points | SCT Rand | SCT PCT |"
  print "|---|---|---|---|---|"
  for (i = 1; i <= nb; i++) {
    b = B[i]
    m = (b in maple) ? maple[b] : "not in the data"
    t = (b in study) ? study[b] : "not in the data"
    print "| " b " | " m " | " t " | " listed(b, "SCT Rand") " | " listed(b, "SCT PCT") " |"
  }
}' /dev/null > "$table"

cat "$table"
if grep -q '<!-- sctbench:begin -->' BENCHMARKS.md; then
  awk -v table="$table" '
    /<!-- sctbench:begin -->/ { print; while ((getline line < table) > 0) print line; skip = 1; next }
    /<!-- sctbench:end -->/ { skip = 0 }
    !skip { print }
  ' BENCHMARKS.md > "$out/BENCHMARKS.md"
  cp "$out/BENCHMARKS.md" BENCHMARKS.md
fi
