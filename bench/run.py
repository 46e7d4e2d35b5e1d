"""The benchmark of issue "fast enough to vanish": command times as ratios to a floor measured in the same run.

Run:  python bench/run.py            (about 10 minutes on 2 cores; prints a table)
      python bench/run.py --quick    (smaller folders, fewer runs: a smoke check)

Last, `status(new)`: `status` right after `write` adds one turn file, on 10x20 and 100x100 (the kept output
cannot answer it; each run adds the next participant's turn N+1).

For each synthetic folder (bench/generate.py: 3x3, 10x20, 50x100 and 100x100
turn files of about 4-5 KB, participants x turns) it first times one cold
`status` (every file parsed, the cache filled), then takes the median of N
runs of each command after one warm-up run (the parse cache is then warm, as
it is for a person who runs status often), and divides it by the floor:
`python -c "import click"` plus a plain Python read of every file in the
folder, in one process.  Commands run through the installed console script,
as people and sessions run them; `next` passes --key, as sessions do.  Peak memory comes
from /usr/bin/time when it is installed.  Token figures use a real BPE
tokenizer (bpe-openai, cl100k_base) when it is installed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from generate import generate, key_for  # noqa: E402

PY = sys.executable
FLOOR = ("import click, os, sys\nfolder = sys.argv[1]\nfor name in os.listdir(folder):\n"
         "    path = os.path.join(folder, name)\n    if os.path.isfile(path):\n"
         "        open(path, 'rb').read()\n")


def _once(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def timed(args: list[str], runs: int, floor: list[str] | None = None) -> tuple[float, float, float]:
    """(median time, median floor, median of the paired ratios).

    The floor is run right before each run of the command, so that a machine
    whose speed drifts (a shared one does) moves both alike.
    """
    _once(args)  # warm-up (and cache)
    times, floors, ratios = [], [], []
    for _ in range(runs):
        base = _once(floor) if floor else 1.0
        took = _once(args)
        times.append(took)
        floors.append(base)
        ratios.append(took / base)
    return statistics.median(times), statistics.median(floors), statistics.median(ratios)


def peak_kb(args: list[str]) -> int | None:
    if not os.path.exists("/usr/bin/time"):
        return None
    result = subprocess.run(["/usr/bin/time", "-f", "%M", *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    last = result.stderr.strip().splitlines()[-1] if result.stderr.strip() else ""
    return int(last) if last.isdigit() else None


# The console script, as people and sessions run it (`python -m` adds runpy's own start-up).
_SCRIPT = os.path.join(os.path.dirname(PY), "multidebate")


def md(*args: str) -> list[str]:
    if os.path.exists(_SCRIPT):
        return [_SCRIPT, *args]
    return [PY, "-m", "multidebate", *args]


def tokens() -> None:
    try:
        import bpe_openai
    except ImportError:
        print("tokens: install bpe-openai for real token counts")
        return
    enc = bpe_openai.get_encoding("cl100k_base")
    root = os.path.join(os.path.dirname(__file__), "..")
    skill = open(os.path.join(root, "multidebate", "skill", "SKILL.md"), encoding="utf-8").read().split("---", 2)[2]
    print(f"tokens (cl100k_base): SKILL.md body {len(enc.encode(skill))} (budget 1500)")
    import json

    with tempfile.TemporaryDirectory() as tmp:
        folder = generate(os.path.join(tmp, "d"), 3, 2)
        slug = "model-000"
        key = ["--key", key_for(slug)]
        out = subprocess.run(md("next", folder, "--slug", slug, *key), capture_output=True, text=True).stdout
        data = json.loads(subprocess.run(md("next", folder, "--slug", slug, *key, "--json"), capture_output=True,
                                         text=True).stdout)
        content = sum(len(enc.encode(p["text"])) for p in data["peers"])
        content += len(enc.encode(data["task"] or "")) + len(enc.encode(data["own_previous_answer"] or ""))
        framing = len(enc.encode(out)) - content
        print(f"tokens: `next` at turn 3 with {len(data['peers'])} peers: {len(enc.encode(out))} in all, of which "
              f"framing {framing} (budget 150; the rest is the task, own answer and peer text)")
        small = subprocess.run(md("next", folder, "--slug", slug, *key, "--sections", "answer,disagreements"),
                               capture_output=True, text=True).stdout
        print(f"tokens: the same with --sections answer,disagreements: {len(enc.encode(small))}")
        peers = [n for n in sorted(os.listdir(folder)) if n.startswith("turn-2-") and slug not in n]
        by_hand = sum(len(enc.encode(open(os.path.join(folder, n), encoding="utf-8").read())) for n in peers)
        by_hand += len(enc.encode("\n".join(os.listdir(folder))))
        print(f"a turn with the CLI: 2 tool calls (next, write); by hand with k={len(peers)} peers: "
              f"{len(peers) + 2} calls (list, read x{len(peers)}, write), {by_hand} tokens of whole files read")


_NEW_TURN = ("## Reasoning\nA new turn, as a live debate gets one.\n\n## Answer\n**Use SQLite in WAL mode.**\n\n"
             "It keeps one file and needs no server.\n\n## Agreements\n- None\n\n## Disagreements\n- None\n\n"
             "## Confidence\n70\n\n## Converged\nno\n")


def after_a_new_turn(folder: str, turns: int, runs: int, floor: list[str]) -> tuple[float, float, float]:
    """`status` right after one new turn file arrives (written by `write`, as sessions write), the case a live
    debate hits every turn: the kept output cannot answer it.  (median time, median floor, median ratio)."""
    _once(md("status", folder))  # warm: the parse cache and the kept output as a person leaves them
    times, floors, ratios = [], [], []
    for index in range(runs):
        slug = f"model-{index:03d}"
        subprocess.run(md("write", folder, "--slug", slug, "--key", key_for(slug)), input=_NEW_TURN.encode(),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        base = _once(floor)
        took = _once(md("status", folder))
        times.append(took)
        floors.append(base)
        ratios.append(took / base)
    return statistics.median(times), statistics.median(floors), statistics.median(ratios)


def scaling(ratios: dict[tuple[int, str], float]) -> None:
    """Growth from 5,000 to 10,000 files: the floor reads every file, so a ratio that stays put is linear."""
    for name in ("status", "validate"):
        small, large = ratios.get((5000, name)), ratios.get((10000, name))
        if small and large:
            print(f"scaling: {name} at {small:.2f}x the floor with 5,000 files, {large:.2f}x with 10,000 "
                  "(the floor grows linearly with the files)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--runs", type=int, default=5)
    opts = parser.parse_args()
    # 50x100 and 100x100 show how status and validate grow with the number of files
    sizes = [(3, 3), (10, 20)] + ([] if opts.quick else [(50, 100), (100, 100)])
    runs = 2 if opts.quick else opts.runs
    tmp = tempfile.mkdtemp(prefix="multidebate-bench-")
    ratios: dict[tuple[int, str], float] = {}
    try:
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores; median of {runs} runs after a warm-up; "
              "ratio: median of (command / floor run just before it)")
        print(f"{'folder':>8} {'command':>12} {'median s':>9} {'floor s':>8} {'ratio':>6} {'peak MB':>8}")
        for participants, turns in sizes:
            label = f"{participants}x{turns}"
            folder = generate(os.path.join(tmp, label), participants, turns)
            floor_args = [PY, "-c", FLOOR, folder]
            # the first status parses every file and fills the cache (one run: later ones are warm)
            base = _once(floor_args)
            cold = _once(md("status", folder))
            print(f"{label:>8} {'status(cold)':>12} {cold:9.3f} {base:8.3f} {cold / base:6.2f} {'-':>8}")
            commands = {
                "--version": md("--version"),
                "next": md("next", folder, "--slug", "model-000", "--key", key_for("model-000")),
                "status": md("status", folder),
                "validate": md("validate", folder),
                "report": md("report", folder, "--format", "json"),
            }
            for name, args in commands.items():
                if name == "report" and participants * turns > 1000 and (opts.quick or participants * turns < 10000):
                    continue  # report has no target; 10,000 files show its worst case
                median, floor, ratio = timed(args, runs, floor_args)
                ratios[(participants * turns, name)] = ratio
                peak = peak_kb(args) if name in ("status", "validate") else None
                mem = f"{peak / 1024:.0f}" if peak else "-"
                print(f"{label:>8} {name:>12} {median:9.3f} {floor:8.3f} {ratio:6.2f} {mem:>8}")
        # last: each adds a turn file (turn N+1 of one participant after another) to the folders timed above
        for participants, turns in [size for size in sizes if size in ((10, 20), (100, 100))]:
            label = f"{participants}x{turns}"
            folder = os.path.join(tmp, label)
            median, floor, ratio = after_a_new_turn(folder, turns, runs, [PY, "-c", FLOOR, folder])
            print(f"{label:>8} {'status(new)':>12} {median:9.3f} {floor:8.3f} {ratio:6.2f} {'-':>8}")
        scaling(ratios)
        tokens()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
