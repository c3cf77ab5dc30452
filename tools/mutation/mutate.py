#!/usr/bin/env python3
"""simrun's own mutation check: does the test suite notice a wrong answer?

Each mutant in mutants.toml is one small semantic change to the code that decides what simrun
answers (an exact anchor text in one file, and its replacement). For each, on a scratch copy of the
checkout (never the checkout itself), the tool builds, runs the mutant's focused tests, and only if
they all pass runs the whole suite. A mutant is killed when a test fails (or the test process traps
or times out); it survives when the whole suite passes. The score is killed / (killed + survived).

Nothing is skipped silently: an anchor that is missing or matches more than once, a mutant that
does not compile, and a focused filter that matches no test are each counted and listed, and make
the exit status non-zero. Equivalent mutants (no test could tell them apart) stay in the list with
their reason and are not run.

muter and swift-mutation-testing are the established Swift tools; neither is used here: they could
not be fetched on the machines this was written on (no network beyond the listed packages), the
Swift Package Index shows both failing to build on Linux, and they pick mutants by syntax, not by
what decides a verdict. This tool is deliberately small.

Usage: tools/mutation/run.sh [options]   (run.sh calls this file; see --help)
Exit: 0 when the score reaches --threshold and nothing was missing, ambiguous, uncompilable or
unmatched; 1 otherwise; 2 when the unmutated copy does not build or its tests fail (no score).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time

if sys.version_info < (3, 11):
    sys.exit("tools/mutation needs Python 3.11 or later (for tomllib); this is " + sys.version.split()[0])

import tomllib  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DEFAULT_LIST = os.path.join(ROOT, "tools", "mutation", "mutants.toml")
DEFAULT_SCRATCH = os.path.join(ROOT, ".build", "mutation")


class Mutant:
    def __init__(self, table: dict, index: int):
        self.id = str(table.get("id", f"#{index + 1}"))
        self.file = table.get("file", "")
        self.find = table.get("find", "")
        self.replace = table.get("replace", "")
        self.tests = table.get("tests", "")
        self.what = table.get("what", "")
        self.area = table.get("area", "")
        self.equivalent = table.get("equivalent")
        self.status = "pending"  # killed / survived / equivalent / missing / ambiguous / build-error / ...
        self.detail = ""
        self.seconds = 0.0
        self.problems = []
        for key in ("file", "find", "replace", "what"):
            if not table.get(key):
                self.problems.append(f"no '{key}'")
        if not self.equivalent and not self.tests:
            self.problems.append("no 'tests' (focused filter)")
        if self.find and self.find == self.replace:
            self.problems.append("'replace' is the same as 'find'")


def load(path: str) -> list[Mutant]:
    with open(path, "rb") as handle:
        data = tomllib.load(handle)
    mutants = [Mutant(table, index) for index, table in enumerate(data.get("mutant", []))]
    seen = set()
    for mutant in mutants:
        if mutant.id in seen:
            mutant.problems.append("duplicate id")
        seen.add(mutant.id)
    return mutants


def check_anchor(mutant: Mutant, root: str) -> None:
    """Sets the mutant's status to missing/ambiguous/invalid when it cannot be applied to `root`."""
    if mutant.problems:
        mutant.status, mutant.detail = "invalid", "; ".join(mutant.problems)
        return
    path = os.path.join(root, mutant.file)
    if not os.path.isfile(path):
        mutant.status, mutant.detail = "missing", f"{mutant.file} does not exist"
        return
    with open(path, encoding="utf-8") as handle:
        count = handle.read().count(mutant.find)
    if count == 0:
        mutant.status, mutant.detail = "missing", f"anchor not found in {mutant.file} (re-anchor it)"
    elif count > 1:
        mutant.status, mutant.detail = "ambiguous", f"anchor matches {count} times in {mutant.file} (lengthen it)"


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


def main() -> int:
    parser = argparse.ArgumentParser(
        description="Apply each curated mutant to a scratch copy, run its focused tests, then the whole suite.")
    parser.add_argument("--list", action="store_true", help="only check every anchor and print the list (no build)")
    parser.add_argument("--only", default="", help="comma-separated mutant ids to run (default: all)")
    parser.add_argument("--mutants", default=DEFAULT_LIST, help="the mutants file (default: %(default)s)")
    parser.add_argument("--scratch", default=DEFAULT_SCRATCH,
                        help="scratch directory, kept between runs so builds stay incremental (default: %(default)s)")
    parser.add_argument("--timeout", type=float, default=900, help="seconds per build or test run (default: 900)")
    parser.add_argument("--threshold", type=float, default=95, help="score (percent) needed for exit 0 (default: 95)")
    parser.add_argument("--no-baseline-tests", action="store_true",
                        help="skip the unmutated suite run (said in the report; the score is then unchecked)")
    parser.add_argument("--report", default="", help="also write the result table (markdown) to this file")
    arguments = parser.parse_args()

    mutants = load(arguments.mutants)
    only = {name.strip() for name in arguments.only.split(",") if name.strip()}
    unknown = only - {mutant.id for mutant in mutants}
    if unknown:
        print(f"mutation: no mutant with id {', '.join(sorted(unknown))}", file=sys.stderr)
        return 1
    for mutant in mutants:
        check_anchor(mutant, ROOT)
        if mutant.status == "pending" and mutant.equivalent:
            mutant.status, mutant.detail = "equivalent", mutant.equivalent
    selected = [m for m in mutants if not only or m.id in only]

    if arguments.list:
        for mutant in selected:
            state = mutant.status if mutant.status != "pending" else "ok"
            print(f"{mutant.id:5} {state:10} {mutant.file}: {mutant.what}" + (f" — {mutant.detail}" if mutant.detail else ""))
        broken = [m for m in selected if m.status in ("missing", "ambiguous", "invalid")]
        print(f"{len(selected)} mutants, {len(broken)} that cannot be applied"
              + (": " + ", ".join(m.id for m in broken) if broken else ""))
        return 1 if broken else 0

    scratch = os.path.abspath(arguments.scratch)
    checkout = os.path.join(scratch, "checkout")
    logs = os.path.join(scratch, "logs")
    os.makedirs(logs, exist_ok=True)
    if os.path.commonpath([checkout, ROOT]) == ROOT and not checkout.startswith(os.path.join(ROOT, ".build")):
        print("mutation: the scratch directory must not be inside the checkout's sources", file=sys.stderr)
        return 2
    copied = sync(ROOT, checkout)
    print(f"mutation: scratch copy {checkout} ({copied} files updated); logs in {logs}", flush=True)

    started = time.monotonic()
    status, output = run(["swift", "build", "--build-tests"], checkout, os.path.join(logs, "baseline-build.log"),
                         arguments.timeout * 2)
    if status != 0:
        print(f"mutation: the unmutated copy does not build (see {logs}/baseline-build.log); no score", flush=True)
        return 2
    if arguments.no_baseline_tests:
        print("mutation: WARNING: the unmutated suite was not run (--no-baseline-tests): a red suite would "
              "count every mutant as killed", flush=True)
    else:
        status, output = run(["swift", "test", "--skip-build"], checkout, os.path.join(logs, "baseline-test.log"),
                             arguments.timeout)
        if status != 0:
            print(f"mutation: the unmutated suite fails (see {logs}/baseline-test.log); no score", flush=True)
            return 2
    print(f"mutation: baseline built and green in {time.monotonic() - started:.0f} s", flush=True)

    runnable = [m for m in selected if m.status == "pending"]
    for number, mutant in enumerate(runnable, 1):
        path = os.path.join(checkout, mutant.file)
        with open(path, encoding="utf-8") as handle:
            original = handle.read()
        if original.count(mutant.find) != 1:
            mutant.status, mutant.detail = "missing", "anchor not unique in the scratch copy"
            continue
        begun = time.monotonic()
        try:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(original.replace(mutant.find, mutant.replace, 1))
            build_status, _ = run(["swift", "build", "--build-tests"], checkout,
                                  os.path.join(logs, f"{mutant.id}-build.log"), arguments.timeout)
            if build_status != 0:
                mutant.status, mutant.detail = "build-error", f"does not compile (see {logs}/{mutant.id}-build.log)"
            else:
                focused_status, focused = run(["swift", "test", "--skip-build", "--filter", mutant.tests], checkout,
                                              os.path.join(logs, f"{mutant.id}-focused.log"), arguments.timeout)
                if focused_status != 0:
                    mutant.status = "killed"
                    mutant.detail = "focused: " + ("timed out" if focused_status == -9 else failing_tests(focused))
                elif matched_no_test(focused):
                    mutant.status, mutant.detail = "no-tests", f"the filter '{mutant.tests}' matched no test"
                else:
                    full_status, full = run(["swift", "test", "--skip-build"], checkout,
                                            os.path.join(logs, f"{mutant.id}-full.log"), arguments.timeout)
                    if full_status != 0:
                        mutant.status = "killed"
                        mutant.detail = "full suite only: " + ("timed out" if full_status == -9 else failing_tests(full))
                    else:
                        mutant.status, mutant.detail = "survived", "every test passed"
        finally:
            # The original text with a new modification time, so the next build recompiles the file.
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(original)
        mutant.seconds = time.monotonic() - begun
        print(f"[{number}/{len(runnable)}] {mutant.id:5} {mutant.status:11} {mutant.seconds:5.0f} s  "
              f"{mutant.file}: {mutant.what}" + (f" — {mutant.detail}" if mutant.status != "killed" else
                                                  f" ({mutant.detail})"), flush=True)

    return report(selected, arguments, time.monotonic() - started)


def report(mutants: list[Mutant], arguments: argparse.Namespace, seconds: float) -> int:
    killed = [m for m in mutants if m.status == "killed"]
    survived = [m for m in mutants if m.status == "survived"]
    equivalent = [m for m in mutants if m.status == "equivalent"]
    broken = [m for m in mutants if m.status in ("missing", "ambiguous", "invalid", "build-error", "no-tests")]
    scored = len(killed) + len(survived)
    score = 100.0 * len(killed) / scored if scored else 0.0
    lines = ["", f"## Mutation score: {len(killed)} of {scored} killed ({score:.1f}%), threshold {arguments.threshold:g}%",
             f"{len(mutants)} mutants: {len(killed)} killed, {len(survived)} survived, {len(equivalent)} equivalent "
             f"(not run), {len(broken)} not applied or not testable; {seconds / 60:.1f} min", ""]
    if survived:
        lines.append("SURVIVORS (a test is missing):")
        lines += [f"  {m.id}  {m.file}: {m.what}" for m in survived]
        lines.append("")
    if broken:
        lines.append("NOT APPLIED OR NOT TESTABLE (counted, fix the list):")
        lines += [f"  {m.id}  {m.status}: {m.detail} — {m.what}" for m in broken]
        lines.append("")
    if equivalent:
        lines.append("EQUIVALENT (not run; why no test can tell them apart):")
        lines += [f"  {m.id}  {m.file}: {m.what} — {m.detail}" for m in equivalent]
        lines.append("")
    lines.append("| id | area | file | change | result | killed by | time |")
    lines.append("|---|---|---|---|---|---|---|")
    for m in mutants:
        by = m.detail if m.status == "killed" else ""
        lines.append(f"| {m.id} | {m.area} | {m.file} | {m.what} | {m.status} | {by} | {m.seconds:.0f} s |")
    text = "\n".join(lines)
    print(text, flush=True)
    if arguments.report:
        with open(arguments.report, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")
    passed = scored > 0 and score >= arguments.threshold and not broken
    if arguments.no_baseline_tests:
        passed = False
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
