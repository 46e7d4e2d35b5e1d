"""The watcher's event logic, driven by synthetic watchdog events and an explicit clock: no threads.

Files are real (a temporary folder, turns written through `write`); only the
events and the time are made up, so every case is deterministic.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from helpers import make_debate, turn_body, write_keyed
from watchdog.events import (
    DirDeletedEvent,
    FileClosedEvent,
    FileCreatedEvent,
    FileDeletedEvent,
    FileModifiedEvent,
    FileMovedEvent,
)

import multidebate.views.watch as watch_module
from multidebate.protocol.errors import FolderError
from multidebate.state.observe import SETTLE
from multidebate.state.task import create_task, render_task
from multidebate.views.watch import HOLD, TurnWatcher
from multidebate.views.watch_events import (
    RemovedEvent,
    TurnCompleteEvent,
    TurnFileEvent,
    VerdictEvent,
    WatchEvent,
    json_line,
    text_line,
)

LATER = SETTLE + 0.001  # just past a second look


def started(folder: str) -> TurnWatcher:
    watcher = TurnWatcher(folder)
    watcher.start(0.0)
    return watcher


def path_in(watcher: TurnWatcher, name: str) -> str:
    """An event path as the observer gives it: under the watched (real) path."""
    return os.path.join(watcher.watch_path, name)


def settle(watcher: TurnWatcher, now: float) -> tuple[list[WatchEvent], float]:
    """Step until nothing is left to look at; returns every event and the time reached."""
    events: list[WatchEvent] = []
    for _ in range(100):
        events += watcher.step(now)
        if not watcher.busy:
            return events, now
        now += LATER
    raise AssertionError("the watcher never settled")


def files(events: list[WatchEvent]) -> list[str]:
    return [os.path.basename(r.path) for r in events if isinstance(r, TurnFileEvent)]


def written(folder: str, slug: str, answer: str = "**Use TOML**", converged: bool = False) -> str:
    turn = sum(1 for n in os.listdir(folder) if n.startswith("turn-") and n.endswith(f"-{slug}.md")) + 1
    return write_keyed(folder, slug, turn_body(turn, answer, converged=converged).encode()).path


@pytest.fixture
def folder(tmp_path: Path) -> str:
    return make_debate(str(tmp_path / "d"), [], participants=("a", "b"))


def test_created_file_is_reported_after_two_looks(folder: str) -> None:
    watcher = started(folder)
    path = written(folder, "a")
    watcher.feed(FileCreatedEvent(path_in(watcher, "turn-1-a.md")), 1.0)
    assert watcher.step(1.0) == []  # first look only records size and mtime
    events = watcher.step(1.0 + LATER)
    assert files(events) == ["turn-1-a.md"]
    event = events[0]
    assert isinstance(event, TurnFileEvent)
    assert event.path == path
    assert not event.edited
    assert (event.entry.slug, event.entry.turn, event.entry.confidence, event.entry.converged) == ("a", 1, 70, False)
    # a repeated event for the same bytes reports nothing
    watcher.feed(FileModifiedEvent(path_in(watcher, "turn-1-a.md")), 2.0)
    watcher.feed(FileCreatedEvent(path_in(watcher, "turn-1-a.md")), 2.0)
    assert files(settle(watcher, 2.0)[0]) == []


def test_moved_event_reports_its_destination(folder: str, tmp_path: Path) -> None:
    watcher = started(folder)
    written(str(tmp_path / "d"), "a")
    tmp = os.path.join(folder, ".md-tmp-abc.part")
    os.rename(os.path.join(folder, "turn-1-a.md"), tmp)
    assert files(settle(watcher, 1.0)[0]) == []  # nothing was said to the watcher yet
    os.rename(tmp, os.path.join(folder, "turn-1-a.md"))
    watcher.feed(FileMovedEvent(path_in(watcher, ".md-tmp-abc.part"), path_in(watcher, "turn-1-a.md")), 2.0)
    assert files(settle(watcher, 2.0)[0]) == ["turn-1-a.md"]


@pytest.mark.parametrize("name", [".turn-1-a.md.swp", "turn-1-a.md~", "turn-1-a.md.swp", "4913", "#turn-1-a.md#",
                                  ".md-tmp-x1.part", "Turn-1-a.md", "turn-01-a.md", "notes.md"])
def test_scratch_and_look_alike_names_are_ignored(folder: str, name: str) -> None:
    watcher = started(folder)
    Path(folder, name).write_text(turn_body(1, "**Use TOML**"))
    for event in (FileCreatedEvent(path_in(watcher, name)), FileModifiedEvent(path_in(watcher, name)),
                  FileMovedEvent(path_in(watcher, name), path_in(watcher, name + ".x"))):
        watcher.feed(event, 1.0)
    assert not watcher.busy
    assert watcher.step(1.0 + HOLD) == []


def test_file_written_in_place_is_reported_once_when_complete(folder: str, tmp_path: Path) -> None:
    scratch = make_debate(str(tmp_path / "scratch"), [])
    full = Path(written(scratch, "a")).read_bytes()
    target = Path(folder, "turn-1-a.md")
    watcher = started(folder)
    name = path_in(watcher, "turn-1-a.md")
    target.write_bytes(b"")  # a tool opens the file for writing...
    watcher.feed(FileCreatedEvent(name), 1.0)
    assert settle(watcher, 1.0)[0] == []  # empty: not a turn yet
    half = full[: len(full) // 2]
    target.write_bytes(half)
    os.utime(target, ns=(1, 1_000_000_000))
    watcher.feed(FileModifiedEvent(name), 2.0)
    events = []
    now = 2.0
    for _ in range(3):  # the writer pauses mid-file for longer than SETTLE, without closing it
        now += LATER
        events += watcher.step(now)
    assert events == []
    assert watcher.busy
    target.write_bytes(full)
    os.utime(target, ns=(2, 2_000_000_000))
    watcher.feed(FileModifiedEvent(name), now)
    watcher.feed(FileClosedEvent(name), now)
    events, now = settle(watcher, now)
    assert files(events) == ["turn-1-a.md"]
    event = events[0]
    assert isinstance(event, TurnFileEvent)
    assert event.entry.valid
    assert not event.edited
    assert files(settle(watcher, now + 10)[0]) == []


def test_open_file_is_held_until_quiet_even_when_valid(folder: str) -> None:
    watcher = started(folder)
    written(folder, "a")
    name = path_in(watcher, "turn-1-a.md")
    watcher.feed(FileModifiedEvent(name), 1.0)  # a writer has it open: no close event yet
    assert watcher.step(1.0) + watcher.step(1.0 + LATER) == []
    assert files(watcher.step(1.0 + HOLD)) == ["turn-1-a.md"]


def test_invalid_file_is_reported_with_its_errors_after_hold(folder: str) -> None:
    watcher = started(folder)
    Path(folder, "turn-1-a.md").write_text("# Turn 1 — a\n\n## Reasoning\nx\n\n## Answer\n**TOML**\n\n"
                                           "## Confidence\n101\n\n## Converged\nno\n")
    watcher.feed(FileCreatedEvent(path_in(watcher, "turn-1-a.md")), 1.0)
    assert watcher.step(1.0) + watcher.step(1.0 + LATER) == []  # errors: maybe still being written
    events = watcher.step(1.0 + HOLD)
    assert files(events) == ["turn-1-a.md"]
    event = events[0]
    assert isinstance(event, TurnFileEvent)
    assert not event.entry.valid
    assert [f.code for f in event.entry.findings if f.severity == "error"] == ["E041"]
    assert "E041" in text_line(event)
    assert "confidence" in text_line(event)


def test_changed_content_is_reported_again_as_edited(folder: str) -> None:
    watcher = started(folder)
    path = written(folder, "a")
    name = path_in(watcher, "turn-1-a.md")
    watcher.feed(FileCreatedEvent(name), 1.0)
    assert files(settle(watcher, 1.0)[0]) == ["turn-1-a.md"]
    same = Path(path).read_bytes()
    Path(folder, "copy").write_bytes(same)
    os.replace(os.path.join(folder, "copy"), path)  # same bytes, new inode: nothing to say
    watcher.feed(FileMovedEvent(path_in(watcher, "copy"), name), 5.0)
    assert settle(watcher, 5.0)[0] == []
    Path(path).write_bytes(same.replace(b"70", b"75"))
    watcher.feed(FileModifiedEvent(name), 9.0)
    watcher.feed(FileClosedEvent(name), 9.0)
    events = settle(watcher, 9.0)[0]
    assert files(events) == ["turn-1-a.md"]
    assert isinstance(events[0], TurnFileEvent)
    assert events[0].edited
    assert events[0].entry.confidence == 75


def test_deleted_and_renamed_files_are_removed(folder: str) -> None:
    written(folder, "a")
    written(folder, "b")
    watcher = started(folder)  # both known from the start: not reported again
    os.remove(os.path.join(folder, "turn-1-a.md"))
    watcher.feed(FileDeletedEvent(path_in(watcher, "turn-1-a.md")), 1.0)
    assert watcher.step(1.0) == []  # gone once is not yet removed
    events = settle(watcher, 1.0)[0]
    assert [type(r) for r in events] == [RemovedEvent, VerdictEvent]
    removed = events[0]
    assert isinstance(removed, RemovedEvent)
    assert (removed.slug, removed.turn) == ("a", 1)
    os.rename(os.path.join(folder, "turn-1-b.md"), os.path.join(folder, "turn-1-b.md.bak"))
    watcher.feed(FileMovedEvent(path_in(watcher, "turn-1-b.md"), path_in(watcher, "turn-1-b.md.bak")), 5.0)
    events = settle(watcher, 5.0)[0]
    assert [(type(r), getattr(r, "slug", "")) for r in events] == [(RemovedEvent, "b"), (VerdictEvent, "")]
    verdict = events[-1]
    assert isinstance(verdict, VerdictEvent)
    assert verdict.verdict.state == "empty"


def test_file_renamed_away_and_back_is_not_removed(folder: str) -> None:
    path = written(folder, "a")
    watcher = started(folder)
    name = path_in(watcher, "turn-1-a.md")
    os.rename(path, path + "~")  # how some editors save
    watcher.feed(FileMovedEvent(name, name + "~"), 1.0)
    assert watcher.step(1.0) == []
    os.rename(path + "~", path)
    watcher.feed(FileMovedEvent(name + "~", name), 1.05)
    assert settle(watcher, 1.05)[0] == []


def test_folder_deleted_event_stops_the_watch(folder: str) -> None:
    watcher = started(folder)
    watcher.feed(DirDeletedEvent(watcher.watch_path), 1.0)
    with pytest.raises(FolderError, match="was removed or moved away"):
        watcher.step(1.0)


def test_folder_removed_without_an_event_is_noticed(folder: str) -> None:
    watcher = started(folder)
    shutil.rmtree(folder)
    with pytest.raises(FolderError, match="was removed or moved away"):
        watcher.step(1.0)


def test_missing_folder_at_start(tmp_path: Path) -> None:
    with pytest.raises(FolderError, match="no such folder"):
        TurnWatcher(str(tmp_path / "nope")).start(0.0)


def test_turns_complete_and_verdict_changes(folder: str) -> None:
    watcher = started(folder)
    assert watcher.verdict is not None
    assert watcher.verdict.state == "empty"
    lines: list[WatchEvent] = []
    now = 1.0
    # a starts elsewhere: one line at turn 1 would end the debate there (unanimous)
    for slug, converged, answer in (("a", False, "**Use YAML**"), ("b", False, "**Use TOML**"),
                                    ("a", True, "**Use TOML**"), ("b", True, "**Use TOML**")):
        path = written(folder, slug, answer, converged)
        watcher.feed(FileCreatedEvent(path_in(watcher, os.path.basename(path))), now)
        events, now = settle(watcher, now)
        lines += events
        now += 1
    kinds = [(r.type, getattr(r, "turn", None)) for r in lines]
    assert kinds == [("turn_file", None), ("verdict", None), ("turn_file", None), ("turn_complete", 1),
                     ("verdict", None), ("turn_file", None), ("turn_file", None), ("turn_complete", 2),
                     ("verdict", None)]
    verdicts = [r.verdict.state for r in lines if isinstance(r, VerdictEvent)]
    assert verdicts == ["in_progress", "in_progress", "converged"]
    complete = [r for r in lines if isinstance(r, TurnCompleteEvent)][-1]
    assert [(e.slug, e.converged) for e in complete.entries] == [("a", True), ("b", True)]
    assert text_line(complete).endswith("turn 2 complete: a 70 yes, b 70 yes")
    data = json.loads(json_line(lines[-1]))
    assert data["type"] == "verdict"
    assert data["state"] == "converged"
    assert data["previous"] == "in_progress"


def test_roster_change_in_task_file_is_taken_into_account(tmp_path: Path) -> None:
    folder = str(tmp_path / "d")
    os.makedirs(folder)
    written(folder, "a")
    written(folder, "b")
    watcher = started(folder)
    assert watcher.verdict is not None
    assert watcher.verdict.turn == 1  # everyone who wrote: turn 1 complete
    create_task(folder, render_task("Pick one.", ("a", "b", "c")))
    watcher.feed(FileCreatedEvent(path_in(watcher, "TASK.md")), 1.0)
    events = settle(watcher, 1.0)[0]
    assert [r.type for r in events] == ["verdict"]
    verdict = events[0]
    assert isinstance(verdict, VerdictEvent)
    assert verdict.verdict.missing == ("c",)


def test_empty_file_at_start_is_reported_once_filled(folder: str, tmp_path: Path) -> None:
    scratch = make_debate(str(tmp_path / "scratch"), [])
    full = Path(written(scratch, "a")).read_bytes()
    target = Path(folder, "turn-1-a.md")
    target.write_bytes(b"")
    watcher = started(folder)
    assert files(settle(watcher, 0.0)[0]) == []
    target.write_bytes(full)
    watcher.feed(FileModifiedEvent(path_in(watcher, "turn-1-a.md")), 1.0)
    watcher.feed(FileClosedEvent(path_in(watcher, "turn-1-a.md")), 1.0)
    assert files(settle(watcher, 1.0)[0]) == ["turn-1-a.md"]


def test_burst_is_one_listing_and_one_verdict(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = str(tmp_path / "d")
    scratch = str(tmp_path / "scratch")
    os.makedirs(folder)
    watcher = started(folder)
    listings: list[str] = []
    judged: list[int] = []
    real_scan, real_settle = watch_module.scan_folder, watch_module.settle
    monkeypatch.setattr(watch_module, "scan_folder", lambda f: listings.append(f) or real_scan(f))
    monkeypatch.setattr(watch_module, "settle", lambda d: judged.append(1) or real_settle(d))
    names = []
    for index in range(200):
        slug = f"s{index}"
        os.makedirs(os.path.join(scratch, slug))
        path = written(os.path.join(scratch, slug), slug)
        names.append(os.path.basename(path))
        os.rename(path, os.path.join(folder, names[-1]))
        watcher.feed(FileMovedEvent(path_in(watcher, f".stage-{index}"), path_in(watcher, names[-1])), 1.0)
    events = settle(watcher, 1.0)[0]
    assert sorted(files(events)) == sorted(names)  # each file exactly once
    assert len(listings) == 1
    assert len(judged) == 1
    assert [r.type for r in events][-2:] == ["turn_complete", "verdict"]
