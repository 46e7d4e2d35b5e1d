"""Mutation testing of the modules that decide verdicts, with mutmut, outside CI.

    pip install mutmut                      # not in the `test` extra: CI never runs this
    python bench/mutation.py                # verdict, trajectory and final (about 35 minutes on 2 cores)
    python bench/mutation.py --module comparison --tests tests/test_comparison.py tests/test_corpus.py
    python bench/mutation.py --show         # and the diff of every mutant that survived

mutmut changes one thing at a time in a module (a comparison flipped, a
constant changed, an `and` made an `or`, an argument dropped, ...) and runs
the tests that reach the changed function; a mutant the tests do not notice
"survives".  The score is the share of mutants killed; each survivor is either
a test to write or a change that cannot alter behaviour (an equivalent
mutant), judged by reading it.  docs/measurements.md has the last run's
figures.

mutmut wants the project's root as its working folder and writes `mutants/`
and a `setup.cfg` section there, so this script runs it in a copy of the
package, the tests and the data they read (`--workdir`, kept between runs:
mutmut re-tests only functions whose code changed since).  Nothing in the
checkout is changed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODULES = ("verdict", "trajectory", "final")
# the tests that exercise these modules through real folders (and the schema tests, which hold every key of
# their JSON); each mutant runs only those of them that reach the function it changed (mutmut records which
# test reaches which function in a first, traced run).  tests/test_corpus.py is left out: its 3 s on every
# verdict mutant would double the run; pass it with --tests to include it.
TESTS = ("tests/test_verdict.py", "tests/test_report.py", "tests/test_review.py", "tests/test_schemas.py")
COPIED = ("multidebate", "tests", "examples", "bench/corpus", "bench/verdicts.py", "bench/quotes.py",
          "pyproject.toml")
DETECTED = ("killed", "timeout")  # a mutant that hangs the tests is caught too: the run stops it


def _config(modules: list[str], tests: list[str]) -> str:
    """mutmut's setup.cfg section (pyproject.toml has no [tool.mutmut], so mutmut reads this one)."""
    def lines(values: list[str]) -> str:
        return "".join(f"\n    {v}" for v in values)

    return ("[mutmut]\nsource_paths=multidebate\n"
            f"only_mutate={lines([f'multidebate/analysis/{m}.py' for m in modules])}\n"
            f"pytest_add_cli_args_test_selection={lines(tests)}\n"
            "pytest_add_cli_args=\n    -p\n    no:cacheprovider\n"
            f"also_copy={lines(['examples/', 'bench/'])}\n"
            # the copy is no git checkout; mutmut re-tests what changed by each function's own hash
            "use_git_change_detection=false\n")


def _copy_sources(workdir: str) -> None:
    """The package, tests and test data, fresh from the checkout (no caches, no earlier mutants' copies)."""
    def junk(folder: str, names: list[str]) -> set[str]:
        # a debate's .multidebate/ keeps its ledger and keys (the examples' record); its cache is local
        local = {"cache", "served"} if os.path.basename(folder) == ".multidebate" else set()
        return {n for n in names if n == "__pycache__" or n.endswith(".pyc") or n in local}

    for name in COPIED:
        source, target = os.path.join(ROOT, name), os.path.join(workdir, name)
        if os.path.isdir(target):
            shutil.rmtree(target)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if os.path.isdir(source):
            shutil.copytree(source, target, ignore=junk, symlinks=True)
        else:
            shutil.copy2(source, target)


def _mutmut(workdir: str, *args: str, quiet: bool = False) -> subprocess.CompletedProcess[str]:
    """mutmut in `workdir`; `quiet`: its output captured, else shown (its progress line)."""
    return subprocess.run([sys.executable, "-m", "mutmut", *args], cwd=workdir, capture_output=quiet, text=True,
                          check=True)


def _results(workdir: str) -> dict[str, str]:
    """Every mutant's name and outcome, from `mutmut results --all true`."""
    out = _mutmut(workdir, "results", "--all", "true", quiet=True).stdout
    found = {}
    for line in out.splitlines():
        name, sep, state = line.strip().rpartition(": ")
        if sep and "__mutmut_" in name:
            found[name] = state
    return found


def _module_of(mutant: str) -> str:
    return mutant.split(".")[2] if mutant.startswith("multidebate.analysis.") else mutant.split(".")[0]


def _function_of(mutant: str) -> str:
    """`multidebate.analysis.verdict.x__judge__mutmut_12` -> `_judge`; a method `xǁClassǁmethod` -> `Class.method`."""
    tail = re.sub(r"__mutmut_\d+$", "", mutant.split(".")[-1])
    if tail.startswith("x\u01c1"):
        return tail[2:].replace("\u01c1", ".")
    return tail.removeprefix("x_")


def report(results: dict[str, str], show: bool, workdir: str) -> int:
    """Print the score per module and the survivors; the exit code is 0 (a run that finished)."""
    print(f"{'module':<12} {'mutants':>7} {'killed':>7} {'timeout':>7} {'survived':>8} {'no tests':>8} {'score':>6}")
    per_module: dict[str, Counter[str]] = {}
    for name, state in results.items():
        per_module.setdefault(_module_of(name), Counter())[state] += 1
    every: Counter[str] = Counter()
    for module, counts in sorted(per_module.items()):
        every.update(counts)
        print(_row(module, counts))
    print(_row("all", every))
    survivors = sorted((n for n, s in results.items() if s not in DETECTED), key=_natural)
    print(f"\n{len(survivors)} mutants not detected (read each: a test to write, or a change that cannot alter "
          "behaviour):")
    by_function: Counter[str] = Counter(f"{_module_of(n)}.{_function_of(n)}" for n in survivors)
    for function, count in sorted(by_function.items()):
        print(f"  {function}: {count}")
    if show:
        for name in survivors:
            print()
            print(_mutmut(workdir, "show", name, quiet=True).stdout.rstrip())
    return 0


def _row(label: str, counts: Counter[str]) -> str:
    total = sum(counts.values())
    detected = sum(counts[s] for s in DETECTED)
    score = f"{detected / total:.0%}" if total else "-"
    return (f"{label:<12} {total:>7} {counts['killed']:>7} {counts['timeout']:>7} {counts['survived']:>8} "
            f"{counts['no tests']:>8} {score:>6}")


def _natural(name: str) -> tuple[str, int]:
    stem, _, number = name.rpartition("__mutmut_")
    return stem, int(number) if number.isdigit() else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--module", action="append", choices=("verdict", "trajectory", "final", "comparison", "words", "minimal_pairs"),
                        help="a module of multidebate/analysis to mutate (repeatable; default: "
                             f"{', '.join(MODULES)})")
    parser.add_argument("--tests", nargs="+", default=list(TESTS), metavar="PATH",
                        help=f"the tests to run against each mutant (default: {' '.join(TESTS)})")
    parser.add_argument("--workdir", default=os.path.join(tempfile.gettempdir(), "multidebate-mutation"),
                        help="where the copy and mutmut's mutants/ live, kept between runs (default: %(default)s)")
    parser.add_argument("--fresh", action="store_true", help="forget the earlier run's results first")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="mutants tested at once")
    parser.add_argument("--show", action="store_true", help="print the diff of every mutant not detected")
    parser.add_argument("--report-only", action="store_true", help="print the last run's results, run nothing")
    args = parser.parse_args()
    try:
        import mutmut  # noqa: F401
    except ImportError:
        print("mutmut is not installed: pip install mutmut", file=sys.stderr)
        return 1
    modules = args.module or list(MODULES)
    os.makedirs(args.workdir, exist_ok=True)
    if not args.report_only:
        if args.fresh:
            shutil.rmtree(os.path.join(args.workdir, "mutants"), ignore_errors=True)
        _copy_sources(args.workdir)
        with open(os.path.join(args.workdir, "setup.cfg"), "w", encoding="utf-8") as handle:
            handle.write(_config(modules, args.tests))
        started = time.monotonic()
        print(f"mutmut on {', '.join(modules)}, against {' '.join(args.tests)}, in {args.workdir}", flush=True)
        _mutmut(args.workdir, "run", "--max-children", str(args.jobs))
        print(f"took {time.monotonic() - started:.0f} s with {args.jobs} jobs\n")
    results = {n: s for n, s in _results(args.workdir).items() if _module_of(n) in modules}
    if not results:
        print(f"no results in {args.workdir}: run without --report-only first", file=sys.stderr)
        return 1
    with open(os.path.join(args.workdir, "results.json"), "w", encoding="utf-8") as handle:
        json.dump(results, handle, indent=1, sort_keys=True)
    return report(results, args.show, args.workdir)


if __name__ == "__main__":
    sys.exit(main())
