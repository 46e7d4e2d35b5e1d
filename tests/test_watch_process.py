"""`multidebate watch` end to end: a real folder, a real process, turns written while it runs.

Every wait is on an expected output line or on the exit, with a generous
timeout; nothing sleeps to synchronise.
"""

from __future__ import annotations

import os
import shutil
import signal
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from helpers import make_debate, turn_body, write_keyed
from processes import WAIT, Running


@pytest.fixture
def start() -> Iterator[Callable[..., Running]]:
    running: list[Running] = []

    def launch(*args: str) -> Running:
        running.append(Running(*args))
        return running[-1]

    yield launch
    for proc in running:
        proc.close()


def write(folder: str, slug: str, turn: int, answer: str = "**Use TOML for the config**",
          converged: bool = False) -> str:
    return write_keyed(folder, slug, turn_body(turn, answer, converged=converged).encode()).path


def test_until_converged_exits_0(tmp_path: Path, start: Callable[..., Running]) -> None:
    folder = make_debate(str(tmp_path / "d"), [], participants=("a", "b"), min_turns=2)  # no end at turn 1
    watch = start("watch", folder, "--json", "--until", "converged")
    state = watch.expect_type("state")
    assert state["current_turn"] == 0
    assert state["verdict"]["state"] == "empty"
    assert state["observer"]
    write(folder, "a", 1)
    line = watch.expect_type("turn_file", file="turn-1-a.md")
    assert (line["slug"], line["turn"], line["confidence"], line["converged"], line["valid"]) == ("a", 1, 70, False, True)
    write(folder, "b", 1)
    watch.expect_type("turn_complete", turn=1)
    write(folder, "a", 2, converged=True)
    watch.expect_type("turn_file", file="turn-2-a.md")
    write(folder, "b", 2, converged=True)
    done = watch.expect_type("turn_complete", turn=2)
    assert [(e["slug"], e["converged"]) for e in done["entries"]] == [("a", True), ("b", True)]
    verdict = watch.expect_type("verdict", state="converged")
    assert verdict["turn"] == 2
    assert "one bold line, word for word" in verdict["detail"]
    assert watch.finish() == 0
    kinds = Counter(d["type"] for d in watch.stdout_objects())
    assert kinds == {"state": 1, "turn_file": 4, "turn_complete": 2, "verdict": 3}


def test_until_converged_exits_0_when_turn_1_is_unanimous(tmp_path: Path, start: Callable[..., Running]) -> None:
    """#36: all answer turn 1 alike, independently: the debate ended in agreement, which --until converged awaits."""
    folder = make_debate(str(tmp_path / "d"), [], participants=("a", "b"))
    watch = start("watch", folder, "--json", "--until", "converged")
    watch.expect_type("state")
    write(folder, "a", 1)
    watch.expect_type("turn_file", file="turn-1-a.md")
    write(folder, "b", 1)
    verdict = watch.expect_type("verdict", state="unanimous")
    assert verdict["turn"] == 1
    assert "answered turn 1 independently" in verdict["detail"]
    assert watch.finish() == 0


def test_already_converged_exits_at_once(tmp_path: Path, start: Callable[..., Running]) -> None:
    folder = make_debate(str(tmp_path / "d"), [{"a": "**YAML**", "b": "**TOML**"},
                                              {"a": ("**TOML**", True), "b": ("**TOML**", True)}])
    watch = start("watch", folder, "--until", "end", "--json")
    assert watch.expect_type("state")["verdict"]["state"] == "converged"
    assert watch.finish() == 0


HOLLOW = [{"a": "**Use TOML.**", "b": "**Use YAML, not TOML.**"}] + [
    {"a": ("**Use TOML.**", True), "b": ("**Use YAML, not TOML.**", True)}] * 2  # #32: two all-yes turns


def test_until_converged_on_an_ended_debate_exits_3_at_once(tmp_path: Path, start: Callable[..., Running]) -> None:
    folder = make_debate(str(tmp_path / "d"), HOLLOW)
    watch = start("watch", folder, "--json", "--until", "converged")
    assert watch.expect_type("state")["verdict"]["state"] == "hollow"
    assert watch.finish() == 3
    assert watch.errors == ["Stopped: the debate ended hollow at turn 3, so it will never reach --until converged "
                            "(exit 3)."]


def test_until_converged_exits_3_when_the_debate_ends_otherwise(tmp_path: Path,
                                                                start: Callable[..., Running]) -> None:
    folder = make_debate(str(tmp_path / "d"), [{"a": "**TOML**", "b": "**YAML**"}], participants=("a", "b"),
                         max_turns=2)
    watch = start("watch", folder, "--json", "--until", "converged")
    assert watch.expect_type("state")["verdict"]["state"] == "in_progress"
    write(folder, "a", 2, "**TOML**")
    watch.expect_type("turn_file", file="turn-2-a.md")
    write(folder, "b", 2, "**YAML**")
    assert watch.expect_type("verdict")["state"] == "max_turns"
    assert watch.finish() == 3
    assert "ended max_turns at turn 2" in watch.errors[0]


def test_timeout_exits_3(tmp_path: Path, start: Callable[..., Running]) -> None:
    folder = make_debate(str(tmp_path / "d"), [{"a": "**TOML**"}])
    watch = start("watch", folder, "--json", "--timeout", "0.5", "--until", "converged")
    assert watch.expect_type("state")["written"] == ["a"]
    assert watch.finish() == 3


def test_folder_removed_exits_1(tmp_path: Path, start: Callable[..., Running]) -> None:
    folder = make_debate(str(tmp_path / "d"), [{"a": "**TOML**", "b": "**YAML**"}])
    watch = start("watch", folder, "--json")
    watch.expect_type("state")
    shutil.rmtree(folder)
    error = watch.expect_type("error")
    assert "was removed" in error["message"]
    assert watch.finish() == 1
    assert any(line.startswith("Error: the debate folder") for line in watch.errors)
    assert not any("Traceback" in line for line in watch.errors)


def test_sigint_exits_130_without_traceback(tmp_path: Path, start: Callable[..., Running]) -> None:
    folder = make_debate(str(tmp_path / "d"), [])
    watch = start("watch", folder)  # plain text this time
    first = watch.out.get(timeout=WAIT)
    assert first is not None
    assert "watching" in first
    assert "no turn files yet" in first
    watch.proc.send_signal(signal.SIGINT)
    assert watch.finish() == 130
    assert watch.errors == []  # no traceback, no "Aborted!"


def test_polling_sees_new_and_removed_files(tmp_path: Path, start: Callable[..., Running]) -> None:
    folder = make_debate(str(tmp_path / "d"), [], participants=("a", "b"))
    watch = start("watch", folder, "--json", "--poll", "0.2")
    assert watch.expect_type("state")["observer"] == "polling every 0.2 s"
    path = write(folder, "a", 1)
    watch.expect_type("turn_file", file="turn-1-a.md")
    os.remove(path)
    removed = watch.expect_type("removed")
    assert (removed["file"], removed["slug"], removed["turn"]) == ("turn-1-a.md", "a", 1)


def test_burst_of_200_files_each_reported_once(tmp_path: Path, start: Callable[..., Running]) -> None:
    folder = str(tmp_path / "d")
    os.makedirs(folder)
    staged = []
    for index in range(200):  # real writer output, staged in the folder under names that are no turns
        scratch = str(tmp_path / "scratch" / str(index))
        os.makedirs(scratch)
        path = write(scratch, f"s{index}", 1)
        stage = os.path.join(folder, f".stage-{index}.part")
        os.rename(path, stage)
        staged.append((stage, os.path.join(folder, os.path.basename(path))))
    watch = start("watch", folder, "--json")
    watch.expect_type("state")
    for stage, final in staged:  # arrive all at once, as renames
        os.rename(stage, final)
    reported: Counter[str] = Counter()
    while len(reported) < 200:
        reported[watch.expect_type("turn_file")["file"]] += 1
    # A file that arrives after the burst: once its line is out, the watcher has caught up with the burst.
    os.makedirs(tmp_path / "scratch" / "last")
    os.rename(write(str(tmp_path / "scratch" / "last"), "last", 1), os.path.join(folder, "turn-1-last.md"))
    watch.expect_type("turn_file", file="turn-1-last.md")
    watch.proc.send_signal(signal.SIGINT)
    assert watch.finish() == 130
    files = Counter(d["file"] for d in watch.stdout_objects() if d["type"] == "turn_file")
    assert len(files) == 201
    assert set(files.values()) == {1}


def test_file_written_in_place_is_reported_once(tmp_path: Path, start: Callable[..., Running]) -> None:
    folder = make_debate(str(tmp_path / "d"), [], participants=("a", "b"))
    scratch = make_debate(str(tmp_path / "scratch"), [])
    full = Path(write(scratch, "a", 1)).read_bytes()
    watch = start("watch", folder, "--json")
    watch.expect_type("state")
    with open(os.path.join(folder, "turn-1-a.md"), "wb") as handle:  # a tool that writes in place, in two goes
        handle.write(full[: len(full) // 2])
        handle.flush()
        os.fsync(handle.fileno())
        handle.write(full[len(full) // 2:])
    line = watch.expect_type("turn_file", file="turn-1-a.md")
    assert line["valid"]
    assert not line["edited"]
    assert line["findings"] == []
    write(folder, "b", 1)
    watch.expect_type("turn_complete", turn=1)
    watch.proc.send_signal(signal.SIGINT)
    assert watch.finish() == 130
    files = [d["file"] for d in watch.stdout_objects() if d["type"] == "turn_file"]
    assert files == ["turn-1-a.md", "turn-1-b.md"]
