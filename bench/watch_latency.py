"""How long `multidebate watch` takes to report a new turn file (a benchmark, not a test).

Starts `python -m multidebate watch FOLDER --json` on a fresh temporary folder,
writes turn files one at a time the way `multidebate write` does (a fully
written, fsynced temporary file hard-linked to its final name), and measures
for each file the delay from the link that makes it appear to the moment
watch's `turn_file` line for it is read.  Runs once with native events and
once with `--poll 0.5`, and prints p50, p95 and max.

    python bench/watch_latency.py [--files 200] [--interval 0.05]

Target (issue "Live debates"): p95 <= 250 ms with native events (inotify).
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from typing import IO

SLUGS = ("opus-4-7", "gpt-5-5", "gemini-3", "grok-4")


def turn_text(turn: int, slug: str) -> str:
    """A valid hand-written turn (no frontmatter), with an answer that moves a little each turn."""
    parts = [f"# Turn {turn} \u2014 {slug}\n", "## Reasoning\nWeighing the options again.\n",
             f"## Answer\n**Use TOML for the config, revision {turn % 3}**\n\nDetails for turn {turn}.\n"]
    if turn > 1:
        parts += ["## Agreements\n- None\n", "## Disagreements\n- None\n"]
    parts += [f"## Confidence\n{50 + turn % 40}\n", "## Converged\nno\n"]
    return "\n".join(parts)


def create_like_the_writer(folder: str, name: str, text: str) -> float:
    """Create folder/name atomically as atomic.create_exclusive does; the monotonic time it appeared."""
    fd, tmp = tempfile.mkstemp(prefix=".md-tmp-", suffix=".part", dir=folder)
    with os.fdopen(fd, "wb") as handle:
        handle.write(text.encode("utf-8"))
        handle.flush()
        os.fsync(handle.fileno())
    appeared = time.monotonic()
    os.link(tmp, os.path.join(folder, name))
    os.unlink(tmp)
    return appeared


def _read_lines(stream: IO[str], sink: queue.Queue[tuple[float, str] | None]) -> None:
    for line in stream:
        sink.put((time.monotonic(), line))
    sink.put(None)


def run(files: int, interval: float, poll: float | None) -> list[float]:
    """Delays in seconds, one per file, for one watch process."""
    folder = tempfile.mkdtemp(prefix="watch-latency-")
    args = [sys.executable, "-m", "multidebate", "watch", folder, "--json"]
    if poll is not None:
        args += ["--poll", str(poll)]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    lines: queue.Queue[tuple[float, str] | None] = queue.Queue()
    reader = threading.Thread(target=_read_lines, args=(proc.stdout, lines), daemon=True)
    reader.start()
    reported: dict[str, float] = {}

    def take(until: float, want: str | None = None) -> None:
        while (want is None or want not in reported) and time.monotonic() < until:
            try:
                item = lines.get(timeout=max(0.0, until - time.monotonic()))
            except queue.Empty:
                return
            if item is None:
                raise SystemExit(f"watch ended early with status {proc.wait()}")
            at, line = item
            data = json.loads(line)
            if data["type"] == "turn_file":
                reported.setdefault(data["file"], at)
            elif data["type"] == "state" and want == "state":
                reported["state"] = at

    try:
        take(time.monotonic() + 60, "state")
        created: dict[str, float] = {}
        for index in range(files):
            turn, slug = index // len(SLUGS) + 1, SLUGS[index % len(SLUGS)]
            name = f"turn-{turn}-{slug}.md"
            created[name] = create_like_the_writer(folder, name, turn_text(turn, slug))
            take(time.monotonic() + interval)  # spaced out; read what has come meanwhile
        for name in created:
            take(time.monotonic() + 60, name)
        missing = [n for n in created if n not in reported]
        if missing:
            raise SystemExit(f"no line for {len(missing)} file(s), e.g. {missing[0]}")
        return [reported[n] - created[n] for n in created]
    finally:
        proc.terminate()
        proc.wait(30)
        reader.join(30)
        shutil.rmtree(folder, ignore_errors=True)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=200, help="turn files to write per run (default 200)")
    parser.add_argument("--interval", type=float, default=0.05, help="seconds between two files (default 0.05)")
    options = parser.parse_args()
    print(f"{options.files} files, one every {options.interval * 1000:.0f} ms, {os.cpu_count()} CPU(s), "
          f"Python {sys.version.split()[0]}")
    for label, poll in (("native (inotify on Linux)", None), ("--poll 0.5", 0.5)):
        delays = [d * 1000 for d in run(options.files, options.interval, poll)]
        print(f"{label:>26}: p50 {statistics.median(delays):6.1f} ms   p95 {percentile(delays, 0.95):6.1f} ms   "
              f"max {max(delays):6.1f} ms")


if __name__ == "__main__":
    main()
