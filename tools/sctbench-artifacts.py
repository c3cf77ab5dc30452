#!/usr/bin/env python3
"""Extracts the published per-benchmark SCTBench figures of three artifacts into
tools/sctbench-artifacts.tsv (read by tools/sctbench.sh). Each row: our benchmark, the source
(repository@commit:file), the tool as the source names it, trials that found the bug, trials, and the
mean schedules to the first bug over the trials that found it (empty when none did or the source
gives no count).

Usage: tools/sctbench-artifacts.py SURW_GIT RFF_GIT PHD_GIT > tools/sctbench-artifacts.tsv
  where each argument is a git directory of zhaohuanqdcn/SURW, dylanjwolff/RFF, barrucadu/phd
  (a clone or a bare mirror); the pinned commits are read, whatever is checked out.
"""
import csv
import io
import json
import subprocess
import sys

SURW_COMMIT = "2a4c5de"
RFF_COMMIT = "b717e06"
PHD_COMMIT = "01446d1"

# Our benchmark -> the artifacts' program (PERIOD's copy of SCTBench). WorkStealQueue runs there
# without arguments, i.e. the original's default of 1 stealer: our WorkStealQueue-1stealer.
ARTIFACT_NAME = {
    "account_bad": "CS/account", "bluetooth_driver_bad": "CS/bluetooth_driver",
    "carter01_bad": "CS/carter01", "circular_buffer_bad": "CS/circular_buffer",
    "deadlock01_bad": "CS/deadlock01", "lazy01_bad": "CS/lazy01", "queue_bad": "CS/queue",
    "reorder_3_bad": "CS/reorder_3", "reorder_4_bad": "CS/reorder_4", "reorder_5_bad": "CS/reorder_5",
    "reorder_10_bad": "CS/reorder_10", "reorder_20_bad": "CS/reorder_20", "stack_bad": "CS/stack",
    "token_ring_bad": "CS/token_ring", "twostage_bad": "CS/twostage", "twostage_100_bad": "CS/twostage_100",
    "wronglock_bad": "CS/wronglock", "wronglock_3_bad": "CS/wronglock_3",
    "stringbuffer-jdk1.4": "CB/stringbuffer-jdk1.4", "WorkStealQueue-1stealer": "Chess/WorkStealQueue",
}

# The SURW artifact's configurations, named as its scripts/analyze/eval_period.py names them.
SURW_CONFIGS = [("rp-urw", "SURW"), ("basicurw", "N-S"), ("pct3", "PCT-3"), ("pct10", "PCT-10"),
                ("pos", "POS"), ("rw", "RW")]
# The RFF artifact's tools, named as its scripts/data-analysis/analyze.py names them.
RFF_TOOLS = [("power-coe-always-rand-schedfuzz", "RFF"), ("pos-only-schedfuzz", "POS"),
             ("pct-no-rff-always-rand-schedfuzz", "PCT3"), ("qlearning-schedfuzz", "QLearning RF")]


def git(repo, *args):
    return subprocess.run(["git", "--git-dir", repo, *args], check=True, capture_output=True,
                          text=True).stdout


def row(bench, source, tool, found, trials, mean):
    shown = "" if mean is None else f"{mean:.1f}"
    print(f"{bench}\t{source}\t{tool}\t{found}\t{trials}\t{shown}")


def surw(repo):
    files = git(repo, "ls-tree", "-r", "--name-only", SURW_COMMIT, "stats/period").split()
    for bench, program in ARTIFACT_NAME.items():
        for config, name in SURW_CONFIGS:
            prefix = f"stats/period/{program}/{config}-"
            counts, trials = [], 0
            for path in files:
                if not path.startswith(prefix) or not path[len(prefix):-5].isdigit():
                    continue
                data = json.loads(git(repo, "show", f"{SURW_COMMIT}:{path}"))
                trials += 1
                if data["found"]:
                    # As eval_period.py counts: the dry run is one more schedule, except for pos and rw.
                    counts.append(data["iterations"] + (0 if config in ("pos", "rw") else 1))
            if trials:
                mean = sum(counts) / len(counts) if counts else None
                row(bench, f"zhaohuanqdcn/SURW@{SURW_COMMIT}:stats/period/{program}/{config}-*.json", name,
                    len(counts), trials, mean)


def rff(repo):
    text = git(repo, "show", f"{RFF_COMMIT}:scripts/data-analysis/full-data.csv")
    reader = csv.reader(io.StringIO(text))
    next(reader)
    runs = {}
    for fields in reader:
        if len(fields) < 7 or not fields[0]:
            continue
        tool, program, buggy, to_bug = fields[0], fields[1], fields[4], fields[5]
        found = buggy not in ("", "0", "0.0") and float(buggy) > 0
        runs.setdefault((tool, program), []).append(float(to_bug) if found and to_bug else None)
    for bench, program in ARTIFACT_NAME.items():
        for tool, name in RFF_TOOLS:
            trials = runs.get((tool, program))
            if not trials:
                continue
            counts = [c for c in trials if c is not None]
            mean = sum(counts) / len(counts) if counts else None
            row(bench, f"dylanjwolff/RFF@{RFF_COMMIT}:scripts/data-analysis/full-data.csv", name, len(counts),
                len(trials), mean)
    prior = git(repo, "show", f"{RFF_COMMIT}:scripts/data-analysis/prior_work.csv")
    reported = {r["benchmark"]: r["PERIOD (reported)"] for r in csv.DictReader(io.StringIO(prior))}
    for bench, program in ARTIFACT_NAME.items():
        value = reported.get(program, "")
        if value:
            # A single figure as PERIOD's paper reports it (no trial count).
            row(bench, f"dylanjwolff/RFF@{RFF_COMMIT}:scripts/data-analysis/prior_work.csv", "PERIOD (reported)",
                "", "", float(value))


def phd(repo):
    for file, name in (("random.txt", "SCT Rand"), ("pct.txt", "SCT PCT")):
        text = git(repo, "show", f"{PHD_COMMIT}:thesis/data/{file}")
        listed = set()
        for line in text.splitlines():
            head = line.split(":", 1)[0]
            if head.endswith(".x"):
                listed.add(head[:-2])
            elif "stringbuffer.cpp" in line:
                listed.add("stringbuffer-jdk1.4")
        for bench in sorted(listed):
            row(bench, f"barrucadu/phd@{PHD_COMMIT}:thesis/data/{file}", name, 1, 1, None)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    print("# Generated by tools/sctbench-artifacts.py; columns: benchmark, source, tool, found, trials, mean")
    surw(sys.argv[1])
    rff(sys.argv[2])
    phd(sys.argv[3])
