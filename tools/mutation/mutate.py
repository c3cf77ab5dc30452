#!/usr/bin/env python3
"""simrun's own mutation check: does the test suite notice a wrong answer?

Two inputs, one runner:

- generated (the default): tools/mutation/generator (a small Swift executable over swift-syntax, a
  package of its own) makes every mutant its operators find in the verdict-deciding files listed in
  targets.toml: relational and boundary flips, `&&`/`||`, negated conditions, removed negations,
  `true`/`false`, `allSatisfy`/`contains(where:)`, `first`/`last` (and `min`/`max`, `prefix`/
  `suffix`, …), `+`/`-`, off-by-one literals, removed statements and removed early exits.
  Mutants judged equivalent are in equivalents.toml, by key, each with its reason; they are listed,
  not run.
- curated (`--curated`): mutants.toml, one hand-written change each (an exact anchor text and its
  replacement), kept from the audits.

For each mutant, on a scratch copy of the checkout (never the checkout itself; one copy per worker,
each with its own build directory, kept between runs so every build is incremental), the runner
builds, runs the mutant's focused tests, and only if they all pass runs the whole suite. A mutant is
killed when a test fails (or the test process traps or times out); it survives when the whole suite
passes. The score is killed / (killed + survived). A generated mutant that does not compile is
*unviable* (the type checker killed it: counted apart, not in the score); a curated one that does
not compile is an error in the list.

Nothing is skipped silently: a curated anchor that is missing or matches more than once, an
equivalents key that matches no generated mutant, and a focused filter that matches no test are each
listed and make the exit status non-zero. A sample (`--sample N --seed S`) and a time budget
(`--budget MIN`) say in the score line that the score covers only what ran.

muter and swift-mutation-testing are the established Swift tools; neither is used here: they could
not be fetched on the machines this was written on (no network beyond the listed packages), and the
Swift Package Index shows both failing to build on Linux.

Usage: tools/mutation/run.sh [options]   (run.sh calls this file; see --help)
Exit: 0 when the score reaches --threshold and nothing was missing, ambiguous, stale or unmatched;
1 otherwise; 2 when the unmutated copy does not build or its tests fail (no score).
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import random
import re
import shutil
import subprocess
import sys
import threading
import time

if sys.version_info < (3, 11):
    sys.exit("tools/mutation needs Python 3.11 or later (for tomllib); this is " + sys.version.split()[0])

import tomllib  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
HERE = os.path.join(ROOT, "tools", "mutation")
DEFAULT_LIST = os.path.join(HERE, "mutants.toml")
DEFAULT_TARGETS = os.path.join(HERE, "targets.toml")
DEFAULT_EQUIVALENTS = os.path.join(HERE, "equivalents.toml")
DEFAULT_SCRATCH = os.path.join(ROOT, ".build", "mutation")
GENERATOR = os.path.join(HERE, "generator")

PRINT_LOCK = threading.Lock()


def say(text: str) -> None:
    with PRINT_LOCK:
        print(text, flush=True)


class Mutant:
    """One mutant from either input: a file, the change, the focused filter."""

    def __init__(self) -> None:
        self.id = ""
        self.key = ""
        self.file = ""
        self.line = 0
        self.tests = ""
        self.what = ""
        self.area = ""
        self.equivalent = None
        self.status = "pending"  # killed / survived / equivalent / unviable / missing / ambiguous / ...
        self.detail = ""
        self.seconds = 0.0
        self.problems: list[str] = []
        # curated: find/replace; generated: byte range
        self.find = ""
        self.replace = ""
        self.start = -1
        self.end = -1
        self.original = ""
        self.generated = False

    def apply(self, text: bytes) -> bytes | None:
        """The mutated file, or None when the mutant no longer matches this text."""
        if self.generated:
            if text[self.start:self.end].decode("utf-8", "replace") != self.original:
                return None
            return text[:self.start] + self.replace.encode() + text[self.end:]
        find = self.find.encode()
        if text.count(find) != 1:
            return None
        return text.replace(find, self.replace.encode(), 1)

    def where(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file


# ---- curated input --------------------------------------------------------------------------------

def load_curated(path: str) -> list[Mutant]:
    with open(path, "rb") as handle:
        data = tomllib.load(handle)
    mutants = []
    seen = set()
    for index, table in enumerate(data.get("mutant", [])):
        mutant = Mutant()
        mutant.id = str(table.get("id", f"#{index + 1}"))
        mutant.key = mutant.id
        mutant.file = table.get("file", "")
        mutant.find = table.get("find", "")
        mutant.replace = table.get("replace", "")
        mutant.tests = table.get("tests", "")
        mutant.what = table.get("what", "")
        mutant.area = table.get("area", "")
        mutant.equivalent = table.get("equivalent")
        for key in ("file", "find", "replace", "what"):
            if not table.get(key):
                mutant.problems.append(f"no '{key}'")
        if not mutant.equivalent and not mutant.tests:
            mutant.problems.append("no 'tests' (focused filter)")
        if mutant.find and mutant.find == mutant.replace:
            mutant.problems.append("'replace' is the same as 'find'")
        if mutant.id in seen:
            mutant.problems.append("duplicate id")
        seen.add(mutant.id)
        mutants.append(mutant)
    return mutants


def check_anchor(mutant: Mutant, root: str) -> None:
    """Sets a curated mutant's status to missing/ambiguous/invalid when it cannot be applied."""
    if mutant.problems:
        mutant.status, mutant.detail = "invalid", "; ".join(mutant.problems)
        return
    path = os.path.join(root, mutant.file)
    if not os.path.isfile(path):
        mutant.status, mutant.detail = "missing", f"{mutant.file} does not exist"
        return
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    count = text.count(mutant.find)
    if count == 0:
        mutant.status, mutant.detail = "missing", f"anchor not found in {mutant.file} (re-anchor it)"
    elif count > 1:
        mutant.status, mutant.detail = "ambiguous", f"anchor matches {count} times in {mutant.file} (lengthen it)"
    else:
        mutant.line = text[:text.index(mutant.find)].count("\n") + 1 + (1 if mutant.find.startswith("\n") else 0)


# ---- generated input ------------------------------------------------------------------------------

def build_generator(scratch: str, timeout: float) -> str:
    """Builds tools/mutation/generator (debug); the executable's path."""
    os.makedirs(scratch, exist_ok=True)
    log = os.path.join(scratch, "generator-build.log")
    # Its own package's .build (tools/mutation/generator/.build): swift-syntax builds once.
    command = ["swift", "build", "--package-path", GENERATOR]
    status, _ = run(command, ROOT, log, timeout)
    if status != 0:
        raise SystemExit(f"mutation: the generator does not build (see {log})")
    path = subprocess.run(command + ["--show-bin-path"], capture_output=True, text=True, check=True).stdout.strip()
    return os.path.join(path, "simrun-mutants")


def load_targets(path: str) -> list[dict]:
    with open(path, "rb") as handle:
        targets = tomllib.load(handle).get("target", [])
    for target in targets:
        for key in ("file", "tests"):
            if not target.get(key):
                raise SystemExit(f"mutation: a target in {path} has no '{key}'")
    return targets


def load_equivalents(path: str) -> dict[str, str]:
    if not os.path.exists(path):
        return {}
    with open(path, "rb") as handle:
        entries = tomllib.load(handle).get("equivalent", [])
    judged = {}
    for entry in entries:
        if not entry.get("key") or not entry.get("why"):
            raise SystemExit(f"mutation: an entry in {path} needs both 'key' and 'why'")
        judged[entry["key"]] = entry["why"]
    return judged


def generate(generator: str, targets: list[dict], equivalents: dict[str, str]) -> tuple[list[Mutant], list[str]]:
    """Every generated mutant of the targets (in file order), and the equivalents keys none matched."""
    missing = [t["file"] for t in targets if not os.path.isfile(os.path.join(ROOT, t["file"]))]
    if missing:
        raise SystemExit("mutation: targets.toml names files that do not exist: " + ", ".join(missing))
    output = subprocess.run([generator] + [t["file"] for t in targets], cwd=ROOT, capture_output=True, text=True)
    if output.returncode != 0:
        raise SystemExit("mutation: the generator failed: " + output.stderr.strip())
    by_file = {t["file"]: t for t in targets}
    mutants = []
    for number, line in enumerate(output.stdout.splitlines(), 1):
        record = json.loads(line)
        target = by_file[record["file"]]
        mutant = Mutant()
        mutant.generated = True
        mutant.key = record["key"]
        mutant.file = record["file"]
        mutant.line = record["line"]
        mutant.start, mutant.end = record["start"], record["end"]
        mutant.original, mutant.replace = record["original"], record["replacement"]
        mutant.tests = target["tests"]
        mutant.area = target.get("area", "")
        mutant.what = f"{record['operator']}: {record['change']} in {record['function']}"
        if mutant.key in equivalents:
            mutant.status, mutant.detail = "equivalent", equivalents[mutant.key]
        mutants.append(mutant)
    width = len(str(len(mutants)))
    for number, mutant in enumerate(mutants, 1):
        mutant.id = f"G{number:0{width}d}"
    stale = sorted(set(equivalents) - {m.key for m in mutants})
    return mutants, stale


# ---- running --------------------------------------------------------------------------------------

def source_files(root: str) -> list[str]:
    """The checkout's files as the user has them: tracked and untracked, not ignored."""
    output = subprocess.run(
        ["git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        check=True, capture_output=True,
    ).stdout
    return sorted({name for name in output.decode().split("\0") if name and os.path.isfile(os.path.join(root, name))})


def sync(root: str, scratch: str) -> int:
    """Copies the checkout into `scratch` (only files that differ, so the build stays incremental),
    and removes files the checkout no longer has. Returns the number of files copied."""
    os.makedirs(scratch, exist_ok=True)
    manifest = os.path.join(scratch, ".mutation-files")
    wanted = source_files(root)
    previous = []
    if os.path.exists(manifest):
        with open(manifest, encoding="utf-8") as handle:
            previous = [line.rstrip("\n") for line in handle if line.strip()]
    copied = 0
    for name in wanted:
        source, target = os.path.join(root, name), os.path.join(scratch, name)
        with open(source, "rb") as handle:
            content = handle.read()
        if os.path.exists(target):
            with open(target, "rb") as handle:
                if handle.read() == content:
                    continue
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(source, target)
        copied += 1
    for name in set(previous) - set(wanted):
        target = os.path.join(scratch, name)
        if os.path.isfile(target):
            os.remove(target)
    with open(manifest, "w", encoding="utf-8") as handle:
        handle.write("\n".join(wanted) + "\n")
    return copied


def run(command: list[str], cwd: str, log: str, timeout: float) -> tuple[int, str]:
    """Runs `command`, writing its output to `log`; (exit status, output). A timeout is status -9."""
    with open(log, "w", encoding="utf-8", errors="replace") as handle:
        handle.write("$ " + " ".join(command) + "\n")
        handle.flush()
        process = subprocess.Popen(command, cwd=cwd, stdout=handle, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            status = process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, 9)
            process.wait()
            handle.write(f"\n[mutation] timed out after {timeout:.0f} s\n")
            status = -9
        except BaseException:
            # Ctrl-C reaches only this process (the child has its own session): stop the child too.
            os.killpg(process.pid, 9)
            process.wait()
            raise
    with open(log, encoding="utf-8", errors="replace") as handle:
        return status, handle.read()


def failing_tests(output: str) -> str:
    """The tests a run reports as failed (Swift Testing's `✘ Test name(…) failed`), for the table."""
    names = []
    for line in output.splitlines():
        match = re.match(r"^✘ Test (.+?\(.*?\)) (?:failed|recorded)", line)
        if match and match.group(1) not in names:
            names.append(match.group(1))
    if not names:
        return "the test process failed" if "Test run with" in output else "the test process stopped"
    shown = ", ".join(names[:3])
    return shown + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def matched_no_test(output: str) -> bool:
    """True when a test run reports that it ran nothing (Swift Testing and XCTest both say so)."""
    ran_testing = "Test run with 0 tests" in output or "Test run with" not in output
    ran_xctest = "Executed 0 tests" in output or "Executed " not in output
    return ran_testing and ran_xctest


class Worker:
    """One scratch copy of the checkout with its own build directory."""

    def __init__(self, index: int, scratch: str, timeout: float) -> None:
        self.index = index
        self.checkout = os.path.join(scratch, f"worker-{index}")
        self.logs = os.path.join(scratch, "logs")
        self.timeout = timeout
        self.ready = False

    def prepare(self) -> tuple[bool, str]:
        copied = sync(ROOT, self.checkout)
        os.makedirs(self.logs, exist_ok=True)
        status, _ = run(["swift", "build", "--build-tests"], self.checkout,
                        os.path.join(self.logs, f"baseline-build-{self.index}.log"), self.timeout * 3)
        self.ready = status == 0
        return self.ready, f"worker {self.index}: {copied} files updated, " + ("built" if status == 0 else "BUILD FAILED")

    def test(self, mutant: Mutant, full_suite: bool) -> None:
        path = os.path.join(self.checkout, mutant.file)
        with open(path, "rb") as handle:
            original = handle.read()
        mutated = mutant.apply(original)
        if mutated is None:
            mutant.status, mutant.detail = "missing", "no longer matches the scratch copy"
            return
        log = os.path.join(self.logs, mutant.id)
        try:
            with open(path, "wb") as handle:
                handle.write(mutated)
            build_status, _ = run(["swift", "build", "--build-tests"], self.checkout, log + "-build.log", self.timeout)
            if build_status != 0:
                if mutant.generated:
                    mutant.status, mutant.detail = "unviable", "does not compile"
                else:
                    mutant.status, mutant.detail = "build-error", f"does not compile (see {log}-build.log)"
                return
            focused_status, focused = run(["swift", "test", "--skip-build", "--filter", mutant.tests],
                                          self.checkout, log + "-focused.log", self.timeout)
            if focused_status != 0:
                mutant.status = "killed"
                mutant.detail = "focused: " + ("timed out" if focused_status == -9 else failing_tests(focused))
                return
            if matched_no_test(focused):
                mutant.status, mutant.detail = "no-tests", f"the filter '{mutant.tests}' matched no test"
                return
            if not full_suite:
                mutant.status, mutant.detail = "survived-focused", "the focused tests passed (--focused-only)"
                return
            full_status, full = run(["swift", "test", "--skip-build"], self.checkout, log + "-full.log", self.timeout)
            if full_status != 0:
                mutant.status = "killed"
                mutant.detail = "full suite only: " + ("timed out" if full_status == -9 else failing_tests(full))
            else:
                mutant.status, mutant.detail = "survived", "every test passed"
        finally:
            # The original text with a new modification time, so the next build recompiles the file.
            with open(path, "wb") as handle:
                handle.write(original)


def main() -> int:
    parser = argparse.ArgumentParser(
        description="Generate mutants of the verdict-deciding files (or take the curated list), run each on a "
                    "scratch copy: its focused tests, then the whole suite if they passed; print the score.")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--generated", action="store_true",
                        help="mutants generated over targets.toml's files (the default)")
    source.add_argument("--curated", action="store_true", help="the curated list, mutants.toml")
    parser.add_argument("--list", action="store_true",
                        help="generate (or check every curated anchor) and print the mutants; no build of simrun")
    parser.add_argument("--only", default="", help="comma-separated ids (M01, G0042) or generated keys to run")
    parser.add_argument("--files", default="", help="generated: only targets whose path contains one of these "
                                                   "comma-separated strings")
    parser.add_argument("--operators", default="", help="generated: only these comma-separated operators")
    parser.add_argument("--sample", type=int, default=0, help="run a random sample of N mutants (with --seed)")
    parser.add_argument("--seed", type=int, default=1, help="the sample's seed (default: 1)")
    parser.add_argument("--jobs", type=int, default=2,
                        help="workers, each a scratch copy with its own build (default: 2; each needs ~3 GB)")
    parser.add_argument("--budget", type=float, default=0,
                        help="minutes after which no new mutant starts (0: none); the report says what did not run")
    parser.add_argument("--focused-only", action="store_true",
                        help="never run the whole suite: a mutant the focused tests miss is 'survived-focused'")
    parser.add_argument("--mutants", default=DEFAULT_LIST, help="the curated list (default: %(default)s)")
    parser.add_argument("--targets", default=DEFAULT_TARGETS, help="the generated input's files (default: %(default)s)")
    parser.add_argument("--equivalents", default=DEFAULT_EQUIVALENTS,
                        help="generated mutants judged equivalent (default: %(default)s)")
    parser.add_argument("--scratch", default=DEFAULT_SCRATCH,
                        help="scratch directory, kept between runs so builds stay incremental (default: %(default)s)")
    parser.add_argument("--timeout", type=float, default=900, help="seconds per build or test run (default: 900)")
    parser.add_argument("--threshold", type=float, default=None,
                        help="score (percent) needed for exit 0 (default: 90 generated, 95 curated)")
    parser.add_argument("--no-baseline-tests", action="store_true",
                        help="skip the unmutated suite run (said in the report; the score is then unchecked)")
    parser.add_argument("--report", default="", help="also write the result table (markdown) to this file")
    arguments = parser.parse_args()
    curated = arguments.curated
    if arguments.threshold is None:
        arguments.threshold = 95 if curated else 90
    scratch = os.path.abspath(arguments.scratch)
    os.makedirs(os.path.join(scratch, "logs"), exist_ok=True)

    stale: list[str] = []
    if curated:
        mutants = load_curated(arguments.mutants)
        for mutant in mutants:
            check_anchor(mutant, ROOT)
            if mutant.status == "pending" and mutant.equivalent:
                mutant.status, mutant.detail = "equivalent", mutant.equivalent
    else:
        targets = load_targets(arguments.targets)
        if arguments.files:
            wanted = [part.strip() for part in arguments.files.split(",") if part.strip()]
            targets = [t for t in targets if any(part in t["file"] for part in wanted)]
            if not targets:
                print(f"mutation: --files {arguments.files} matches no target", file=sys.stderr)
                return 1
        say("mutation: building the generator (tools/mutation/generator)")
        generator = build_generator(scratch, arguments.timeout * 2)
        mutants, stale = generate(generator, targets, load_equivalents(arguments.equivalents))
        if arguments.files:
            stale = []  # keys of other files are not stale, just not generated this time
        if arguments.operators:
            wanted = {part.strip() for part in arguments.operators.split(",") if part.strip()}
            mutants = [m for m in mutants if m.what.split(":")[0] in wanted]

    only = {name.strip() for name in arguments.only.split(",") if name.strip()}
    if only:
        unknown = only - {m.id for m in mutants} - {m.key for m in mutants}
        if unknown:
            print(f"mutation: no mutant with id or key {', '.join(sorted(unknown))}", file=sys.stderr)
            return 1
        mutants = [m for m in mutants if m.id in only or m.key in only]
    population = len([m for m in mutants if m.status == "pending"])
    if arguments.sample:
        candidates = [m for m in mutants if m.status == "pending"]
        chosen = {id(m) for m in random.Random(arguments.seed).sample(candidates, min(arguments.sample, len(candidates)))}
        mutants = [m for m in mutants if id(m) in chosen or m.status == "equivalent"]

    if arguments.list:
        for mutant in mutants:
            state = mutant.status if mutant.status != "pending" else "ok"
            print(f"{mutant.id:6} {state:10} {mutant.where()}: {mutant.what}"
                  + (f" — {mutant.detail}" if mutant.detail else ""))
            if mutant.generated and mutant.status == "pending":
                print(f"       key {mutant.key}")
        broken = [m for m in mutants if m.status in ("missing", "ambiguous", "invalid")]
        counts: dict[str, int] = {}
        for mutant in mutants:
            if mutant.generated:
                name = mutant.what.split(":")[0]
                counts[name] = counts.get(name, 0) + 1
        if counts:
            print("by operator: " + ", ".join(f"{name} {count}" for name, count in sorted(counts.items())))
        for key in stale:
            print(f"STALE equivalents.toml key (no generated mutant has it; re-judge or remove it): {key}")
        print(f"{len(mutants)} mutants, {len(broken)} that cannot be applied"
              + (": " + ", ".join(m.id for m in broken) if broken else "")
              + (f", {len(stale)} stale equivalents keys" if stale else ""))
        return 1 if broken or stale else 0

    if os.path.commonpath([scratch, ROOT]) == ROOT and not scratch.startswith(os.path.join(ROOT, ".build")):
        print("mutation: the scratch directory must not be inside the checkout's sources", file=sys.stderr)
        return 2
    started = time.monotonic()
    workers = [Worker(index, scratch, arguments.timeout) for index in range(1, max(1, arguments.jobs) + 1)]
    # Every copy builds at once (its own directory); the first also runs the unmutated suite, and no
    # mutant starts before that suite is green.
    baseline = {"ok": None}
    baseline_done = threading.Event()

    def prepare(worker: Worker) -> None:
        ok, line = worker.prepare()
        say(f"mutation: {line}")
        if not ok:
            baseline["ok"] = False
            say(f"mutation: the unmutated copy does not build (see {worker.logs}/baseline-build-{worker.index}.log)")
            baseline_done.set()
            return
        if worker.index != 1:
            return
        if arguments.no_baseline_tests:
            say("mutation: WARNING: the unmutated suite was not run (--no-baseline-tests): a red suite would "
                "count every mutant as killed")
            baseline["ok"] = True
        else:
            status, _ = run(["swift", "test", "--skip-build"], worker.checkout,
                            os.path.join(scratch, "logs", "baseline-test.log"), arguments.timeout)
            baseline["ok"] = status == 0
            if status != 0:
                say(f"mutation: the unmutated suite fails (see {scratch}/logs/baseline-test.log); no score")
        baseline_done.set()

    runnable = [m for m in mutants if m.status == "pending"]
    # File order, so a worker's consecutive mutants mostly touch the same file (one file recompiled).
    work: queue.Queue[tuple[int, Mutant]] = queue.Queue()
    for number, mutant in enumerate(runnable, 1):
        work.put((number, mutant))
    deadline = started + arguments.budget * 60 if arguments.budget else None

    def worker_ready(worker: Worker) -> bool:
        return worker.ready

    def drive(worker: Worker) -> None:
        prepare(worker)
        baseline_done.wait()
        if not baseline["ok"] or not worker_ready(worker):
            return
        if worker.index == 1:
            say(f"mutation: baseline built and green in {time.monotonic() - started:.0f} s")
        while True:
            try:
                number, mutant = work.get_nowait()
            except queue.Empty:
                return
            if deadline and time.monotonic() > deadline:
                mutant.status, mutant.detail = "not-run", "the time budget ran out"
                continue
            begun = time.monotonic()
            try:
                worker.test(mutant, not arguments.focused_only)
            except Exception as error:  # noqa: BLE001 — said, counted, never a pass
                mutant.status, mutant.detail = "error", f"the runner failed: {error}"
            mutant.seconds = time.monotonic() - begun
            say(f"[{number}/{len(runnable)}] {mutant.id:6} {mutant.status:11} {mutant.seconds:5.0f} s  "
                f"{mutant.where()}: {mutant.what}" + (f" ({mutant.detail})" if mutant.detail else ""))

    threads = [threading.Thread(target=drive, args=(worker,)) for worker in workers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if not baseline["ok"]:
        return 2
    return report(mutants, arguments, time.monotonic() - started, population, stale)


def report(mutants: list[Mutant], arguments: argparse.Namespace, seconds: float, population: int,
           stale: list[str]) -> int:
    killed = [m for m in mutants if m.status == "killed"]
    survived = [m for m in mutants if m.status in ("survived", "survived-focused")]
    equivalent = [m for m in mutants if m.status == "equivalent"]
    unviable = [m for m in mutants if m.status == "unviable"]
    not_run = [m for m in mutants if m.status == "not-run"]
    broken = [m for m in mutants if m.status in ("missing", "ambiguous", "invalid", "build-error", "no-tests", "error")]
    scored = len(killed) + len(survived)
    score = 100.0 * len(killed) / scored if scored else 0.0
    kind = "curated" if arguments.curated else "generated"
    scope = ""
    if arguments.sample:
        scope = f", a sample of {arguments.sample} (seed {arguments.seed}) of {population} {kind} mutants"
    timed_out = [m for m in killed if "timed out" in m.detail]
    lines = ["", f"## Mutation score ({kind}{scope}): {len(killed)} of {scored} killed ({score:.1f}%), "
                 f"threshold {arguments.threshold:g}%",
             f"of the killed, {len(timed_out)} only by a timeout (--timeout {arguments.timeout:g} s: on a loaded "
             f"machine that may be the load, not the mutant; re-run them with --only)"
             + (": " + ", ".join(m.id for m in timed_out) if timed_out else ""),
             f"{len(mutants)} mutants: {len(killed)} killed, {len(survived)} survived, {len(unviable)} unviable "
             f"(do not compile), {len(equivalent)} equivalent (not run), {len(not_run)} not run (time budget), "
             f"{len(broken)} not applied or not testable; {seconds / 60:.1f} min", ""]
    if arguments.focused_only:
        lines.append("FOCUSED ONLY: survivors were not run against the whole suite; the score is a lower bound.")
        lines.append("")
    if survived:
        lines.append("SURVIVORS (a test is missing, or the mutant is equivalent: judge it in equivalents.toml):")
        for m in survived:
            lines.append(f"  {m.id}  {m.where()}: {m.what}")
            if m.generated:
                lines.append(f"         key {m.key}")
        lines.append("")
    if not_run:
        lines.append(f"NOT RUN: {len(not_run)} mutants (the time budget ran out; the score covers only those run)")
        lines.append("")
    if broken:
        lines.append("NOT APPLIED OR NOT TESTABLE (counted, fix the list):")
        lines += [f"  {m.id}  {m.status}: {m.detail} — {m.what}" for m in broken]
        lines.append("")
    if stale:
        lines.append("STALE equivalents.toml keys (no generated mutant has them; re-judge or remove):")
        lines += [f"  {key}" for key in stale]
        lines.append("")
    if equivalent:
        lines.append("EQUIVALENT (not run; why no test can tell them apart):")
        lines += [f"  {m.id}  {m.where()}: {m.what} — {m.detail}" for m in equivalent]
        lines.append("")
    lines.append("| id | area | where | change | result | killed by | time |")
    lines.append("|---|---|---|---|---|---|---|")
    for m in mutants:
        if m.status == "equivalent":
            continue
        by = m.detail if m.status == "killed" else ""
        change = m.what.replace("|", "\\|")
        lines.append(f"| {m.id} | {m.area} | {m.where()} | {change} | {m.status} | {by.replace('|', '/')} | "
                     f"{m.seconds:.0f} s |")
    text = "\n".join(lines)
    print(text, flush=True)
    if arguments.report:
        with open(arguments.report, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")
    passed = scored > 0 and score >= arguments.threshold and not broken and not stale
    if arguments.no_baseline_tests or arguments.focused_only:
        passed = False
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
