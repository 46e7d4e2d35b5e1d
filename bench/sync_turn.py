"""What a turn costs through a git remote: from one clone's `write` returning to another clone's `next --wait`
returning, each clone running `multidebate sync --watch` (a local bare repository stands for the remote).

    python bench/sync_turn.py [--turns 6] [--interval 1.0]

Also measured in the same run, as the floor: one `sync` with nothing to do (a fetch), and one that commits and
pushes a turn.  Everything runs on 127.0.0.1's file system: no network.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# a new answer each turn: a debate whose positions stop moving ends (stalled), and the syncs with it
BODY = ("## Reasoning\nr\n\n## Answer\n**Use TOML {turn}.**\n\n{extra}## Confidence\n80\n\n## Converged\nno\n")
EXTRA = "## Agreements\n- None\n\n## Disagreements\n- None\n\n"


def git(where: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=where, check=True, capture_output=True)


def md(where: Path, *args: str, data: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "multidebate", *args], cwd=where, input=data, text=True,
                          capture_output=True, check=True)


def body(turn: int) -> str:
    return BODY.format(turn=turn, extra=EXTRA if turn > 1 else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=6)
    parser.add_argument("--interval", type=float, default=1.0)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        git(root, "init", "-q", "--bare", "-b", "main", "remote.git")
        clones = []
        for name in ("writer", "reader"):
            git(root, "clone", "-q", "remote.git", name)
            git(root / name, "config", "user.name", name)
            git(root / name, "config", "user.email", f"{name}@example.invalid")
            git(root / name, "checkout", "-q", "-B", "main")
            clones.append(root / name)
        writer, reader = clones
        (writer / "README").write_text("debates\n")
        git(writer, "add", "README")
        git(writer, "commit", "-q", "-m", "first")
        git(writer, "push", "-q", "-u", "origin", "main")
        git(reader, "pull", "-q", "origin", "main")
        md(writer, "init", "d", "--task", "Pick a format.", "--participants", "w,r")

        idle, pushing = [], []
        started = time.perf_counter()
        md(writer, "sync", "d")
        pushing.append(time.perf_counter() - started)
        for _ in range(5):
            started = time.perf_counter()
            md(reader, "sync", "d")
            idle.append(time.perf_counter() - started)

        watchers = [subprocess.Popen([sys.executable, "-m", "multidebate", "sync", "d", "--interval",
                                      str(options.interval)], cwd=c, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL) for c in clones]
        keys: dict[str, str] = {}
        latencies = []

        def turn_of(slug: str, where: Path, turn: int) -> None:
            key = ["--key", keys[slug]] if slug in keys else []
            md(where, "next", "d", "--slug", slug, *key)
            done = md(where, "write", "d", "--slug", slug, "--json", *key, data=body(turn))
            keys.setdefault(slug, json.loads(done.stdout)["key"])

        try:
            for turn in range(1, options.turns + 1):
                # the reader writes turn N, then waits with `next --wait` for the writer's turn N
                turn_of("r", reader, turn)
                waiting = subprocess.Popen([sys.executable, "-m", "multidebate", "next", "d", "--slug", "r", "--key",
                                            keys["r"], "--wait", "--timeout", "120"], cwd=reader,
                                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
                time.sleep(0.5)  # a bench, not a test: let `next --wait` start watching before the write
                turn_of("w", writer, turn)
                wrote_at = time.perf_counter()
                waiting.communicate(timeout=180)
                latencies.append(time.perf_counter() - wrote_at)
        finally:
            for watcher in watchers:
                watcher.terminate()
                watcher.wait()
    print(f"{os.cpu_count()} CPU(s), Python {sys.version.split()[0]}, "
          f"{subprocess.run(['git', '--version'], capture_output=True, text=True).stdout.strip()}")
    print(f"floor: sync with nothing to do   median {statistics.median(idle) * 1000:7.0f} ms  (5 runs)")
    print(f"       sync that pushes a turn   {pushing[0] * 1000:14.0f} ms")
    print(f"write -> peer's next --wait, --interval {options.interval:g}: median {statistics.median(latencies):.2f} s, "
          f"max {max(latencies):.2f} s over {len(latencies)} turns "
          f"({statistics.median(latencies) / statistics.median(idle):.1f}x the idle sync)")


if __name__ == "__main__":
    main()
