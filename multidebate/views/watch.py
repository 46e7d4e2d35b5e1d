"""`watch`: a debate folder live, one line per new, changed or removed turn file, per completed turn,
per verdict change.

Two layers.  `TurnWatcher` is the event logic and owns no thread: it is fed
watchdog's file-system events (anything with `event_type`, `src_path`,
`dest_path`, `is_directory`) and a clock, and says what to print, as
WatchEvents (watch_events.py); tests drive it with synthetic events.  `watch_folder` runs it on a live folder through
observe.FolderEvents.

Rules the logic keeps:
- A turn file is whatever `naming.parse_turn_name` accepts on the basename;
  temp files, editors' swap and backup files are ignored by that alone.
  Atomic writes arrive as *created* (our writer hard-links) or *moved* (other
  tools rename) events; both only say "look at this name".
- A file is reported once it is complete: it is not empty (E004) and its
  (size, mtime, inode) was the same at two looks SETTLE apart after its last
  event.  While a writer holds it open, or while it parses with errors (a
  half-written file usually lacks sections), it must stay unchanged for HOLD.
- Reports are de-duplicated by file + sha256; a later change of content is
  reported again, marked `edited` (turn files must never change).
- Many events at once (a sync, a copy) trigger one listing of the folder
  after the burst instead of a look per event; the verdict is judged once the
  folder is quiet, since judging is the costly part.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Protocol

from ..analysis.ending import settle
from ..analysis.verdict import AGREED_STATES, FINAL_STATES, Verdict
from ..protocol.errors import FolderError
from ..protocol.naming import parse_turn_name
from ..state.debate import Debate, Entry, load_debate, read_entry
from ..state.details import DetailStore
from ..state.folder import TurnFile, scan_folder, scan_of
from ..state.observe import SETTLE, FileLook, look
from ..state.task import TASK_FILE, Task, load_task
from .watch_events import (
    RemovedEvent,
    StateEvent,
    TurnCompleteEvent,
    TurnFileEvent,
    VerdictEvent,
    WatchEvent,
    state_of,
)

__all__ = ["HOLD", "TurnWatcher", "watch_folder", "reached", "missed"]

HOLD = 1.0  # quiet time asked of a file still open for writing, or that parses with errors
HEARTBEAT = 0.5  # the longest the loop sleeps: how soon a removed folder is noticed
RESCAN_EVERY = 5.0  # a listing now and then catches events the OS dropped
BURST_EVENTS = 64  # this many turn-file events within BURST_WINDOW make a burst
BURST_WINDOW = 0.5
SUMMARY_MAX_DELAY = 1.0  # judge at least this often while files keep arriving


class FileSystemEvent(Protocol):
    """The parts of a watchdog FileSystemEvent the logic reads."""

    @property
    def event_type(self) -> str: ...
    @property
    def src_path(self) -> bytes | str: ...
    @property
    def dest_path(self) -> bytes | str: ...
    @property
    def is_directory(self) -> bool: ...


@dataclass
class _Candidate:
    """A turn file that changed and has not been looked at twice since."""

    due: float
    seen: FileLook | None = None
    changed_at: float = 0.0
    writing: bool = False
    missing: bool = False  # gone at the last look: removed only if still gone at the next


@dataclass(frozen=True)
class _Known:
    """A reported turn file: what was read, and how the file looked then (to tell a later change)."""

    turn_file: TurnFile
    entry: Entry
    seen: FileLook | None


def reached(state: str, until: str | None) -> bool:
    """True when a verdict `state` ends a watch with --until `until` (converged, or end: any final state)."""
    if until == "converged":
        return state in AGREED_STATES  # unanimous at turn 1 is agreement too
    if until == "end":
        return state in FINAL_STATES
    return False


def missed(state: str, until: str | None) -> bool:
    """True when a verdict `state` is final without being what --until `until` waits for: it never will be."""
    return until is not None and state in FINAL_STATES and not reached(state, until)


class TurnWatcher:
    """The event logic of `watch` for one folder (see the module doc). Not thread-safe; owns no thread."""

    def __init__(self, folder: str, watch_path: str | None = None, observer: str = "") -> None:
        self.folder = folder
        self.watch_path = watch_path or os.path.realpath(folder)
        self.observer = observer
        self._known: dict[str, _Known] = {}
        self._candidates: dict[str, _Candidate] = {}
        self._task: Task | None = None
        self._has_task = False
        self._folder_id: tuple[int, int] | None = None
        self._gone = False
        self._burst_start = 0.0
        self._burst_count = 0
        self._rescan_at: float | None = None
        self._last_rescan = 0.0
        self._dirty_since: float | None = None
        self._task_dirty = False
        self._complete: set[int] = set()
        self._verdict: Verdict | None = None
        self._store = DetailStore()

    # -- start -----------------------------------------------------------

    def start(self, now: float) -> StateEvent:
        """Read the folder as it is (FolderError when it is none) and describe it."""
        self._folder_id = self._identity()
        if self._folder_id is None:
            raise FolderError(f"no such folder: {self.folder}")
        debate = load_debate(self.folder)
        self._store = debate.store  # details of the files as they are now, from the parse cache
        self._task, self._has_task = debate.task, debate.scan.has_task
        for turn_file in debate.scan.turns:
            entry = debate.entries[(turn_file.name.turn, turn_file.name.slug)]
            if any(f.code == "E004" for f in entry.findings):
                self._candidates[turn_file.filename] = _Candidate(due=now, changed_at=now)
            else:
                self._known[turn_file.filename] = _Known(turn_file, entry, look(turn_file.path))
        self._last_rescan = now
        debate, _problems, self._verdict = settle(self._debate())  # a file written after the end counts nowhere
        self._complete = self._complete_turns(debate)
        return state_of(debate, self._verdict, self.observer)

    # -- events ----------------------------------------------------------

    def feed(self, event: FileSystemEvent, now: float) -> None:
        """Take one watchdog event into account; nothing is read here."""
        src = os.fsdecode(event.src_path)
        dest = os.fsdecode(event.dest_path) if event.dest_path else ""
        if event.is_directory:
            if event.event_type in ("deleted", "moved") and os.path.normpath(src) == os.path.normpath(self.watch_path):
                self._gone = True
            return
        for path in (src, dest):
            if not path or os.path.dirname(os.path.normpath(path)) != os.path.normpath(self.watch_path):
                continue
            name = os.path.basename(path)
            if name == TASK_FILE:
                self._task_dirty = True
                self._mark_dirty(now)
            elif parse_turn_name(name) is not None:
                self._touch(name, event.event_type, now)

    def _touch(self, name: str, event_type: str, now: float) -> None:
        if now - self._burst_start > BURST_WINDOW:
            self._burst_start, self._burst_count = now, 0
        self._burst_count += 1
        if self._burst_count > BURST_EVENTS:
            # One listing after the burst replaces a look per event; it pushes itself
            # back while events keep coming.
            self._rescan_at = now + SETTLE
            return
        candidate = self._candidates.get(name)
        if candidate is None:
            candidate = self._candidates[name] = _Candidate(due=now, changed_at=now)
        candidate.due, candidate.seen, candidate.changed_at, candidate.missing = now, None, now, False
        if event_type == "modified":
            candidate.writing = True  # until a close-after-write event says the writer let go
        elif event_type in ("closed", "moved", "deleted"):
            candidate.writing = False

    def _mark_dirty(self, now: float) -> None:
        if self._dirty_since is None:
            self._dirty_since = now

    # -- looking at files ------------------------------------------------

    @property
    def busy(self) -> bool:
        """True while some file is still to be looked at."""
        return bool(self._candidates) or self._rescan_at is not None

    def due_in(self, now: float) -> float:
        """Seconds until `check_files` has something to do (HEARTBEAT at most)."""
        times = [c.due for c in self._candidates.values()]
        if self._rescan_at is not None:
            times.append(self._rescan_at)
        times.append(self._last_rescan + RESCAN_EVERY)
        return max(0.0, min(min(times) - now, HEARTBEAT))

    def check_files(self, now: float) -> list[WatchEvent]:
        """Look at the files whose time has come: new, changed and removed turn files, in file order.

        FolderError when the folder itself was removed, moved away or replaced.
        """
        if self._gone or self._identity() != self._folder_id:
            raise FolderError(f"the debate folder {self.folder} was removed or moved away; stopped watching")
        if (self._rescan_at is not None and now >= self._rescan_at) or now - self._last_rescan >= RESCAN_EVERY:
            self._rescan(now)
        events: list[WatchEvent] = []
        for name in sorted(n for n, c in self._candidates.items() if c.due <= now):
            event = self._look(name, self._candidates[name], now)
            if event is not None:
                events.append(event)
        if events:
            self._mark_dirty(now)
        return sorted(events, key=_event_order)

    def _rescan(self, now: float) -> None:
        self._rescan_at, self._last_rescan = None, now
        try:
            scan = scan_folder(self.folder)
        except FolderError as exc:
            raise FolderError(f"the debate folder {self.folder} was removed or moved away; stopped watching") from exc
        listed = {t.filename for t in scan.turns}
        for turn_file in scan.turns:
            name = turn_file.filename
            known = self._known.get(name)
            if name not in self._candidates and (known is None or known.seen != look(turn_file.path)):
                self._candidates[name] = _Candidate(due=now, changed_at=now)
        for name in self._known:
            if name not in listed and name not in self._candidates:
                self._candidates[name] = _Candidate(due=now, changed_at=now)
        if scan.has_task != self._has_task:
            self._task_dirty = True
            self._mark_dirty(now)

    def _look(self, name: str, candidate: _Candidate, now: float) -> WatchEvent | None:
        path = os.path.join(self.folder, name)
        seen = look(path)
        if seen is None:
            if not candidate.missing:
                # Editors replace a file by renaming it away and back, and a folder being
                # deleted loses its files first: only a file still gone later was removed.
                candidate.missing, candidate.due = True, now + SETTLE
                return None
            del self._candidates[name]
            known = self._known.pop(name, None)
            if known is None:
                return None
            return RemovedEvent(path, known.entry.turn, known.entry.slug)
        candidate.missing = False
        if seen != candidate.seen:
            # First look since an event, or it changed since the last look: look again later.
            if candidate.seen is not None:
                candidate.changed_at = now
            candidate.seen, candidate.due = seen, now + SETTLE
            return None
        known = self._known.get(name)
        if known is not None and known.seen == seen:
            del self._candidates[name]  # an event that changed nothing (a touch of the folder, a duplicate)
            return None
        turn_name = parse_turn_name(name)
        if turn_name is None:  # only turn names become candidates: nothing to report
            del self._candidates[name]
            return None
        turn_file = TurnFile(turn_name, path, seen.is_file, seen.is_symlink)
        read = read_entry(turn_file)
        entry = read.entry
        if any(f.code == "E004" for f in entry.findings):
            del self._candidates[name]  # empty: a writer has only created it; its next write is a new event
            return None
        held = candidate.writing or not entry.valid
        if held and now - candidate.changed_at < HOLD:
            candidate.due = candidate.changed_at + HOLD
            return None
        del self._candidates[name]
        self._store.remember(entry, read.details)
        self._known[name] = _Known(turn_file, entry, seen)
        if known is not None and known.entry.sha256 == entry.sha256:
            return None  # same bytes: already reported
        return TurnFileEvent(entry, path, edited=known is not None)

    # -- turns and verdict -----------------------------------------------

    def summary_due(self, now: float, more_coming: bool = False) -> bool:
        """Judge now?  Once the folder is quiet, or SUMMARY_MAX_DELAY after the first unjudged change."""
        if self._dirty_since is None:
            return False
        if not more_coming and not self.busy:
            return True
        return now - self._dirty_since >= SUMMARY_MAX_DELAY

    def summarise(self) -> list[WatchEvent]:
        """Newly complete turns, then the verdict when its state or turn changed."""
        self._dirty_since = None
        if self._task_dirty:
            self._task_dirty = False
            self._task = load_task(self.folder)
            self._has_task = self._task is not None
        debate, _problems, verdict = settle(self._debate())
        events: list[WatchEvent] = []
        complete = self._complete_turns(debate)
        for turn in sorted(complete - self._complete):
            entries = tuple(e for s in debate.participants if (e := debate.entry(turn, s)) is not None)
            events.append(TurnCompleteEvent(turn, entries))
        self._complete = complete
        previous = self._verdict
        self._verdict = verdict
        if previous is None or (previous.state, previous.turn) != (verdict.state, verdict.turn):
            events.append(VerdictEvent(verdict, previous.state if previous else ""))
        return events

    @property
    def verdict(self) -> Verdict | None:
        """The verdict as last judged."""
        return self._verdict

    def step(self, now: float) -> list[WatchEvent]:
        """check_files, then summarise when due: one round of the loop, for callers without threads."""
        events = self.check_files(now)
        if self.summary_due(now):
            events += self.summarise()
        return events

    def _debate(self) -> Debate:
        """The debate as reported so far: only complete files count, never one being written."""
        turns = [k.turn_file for k in self._known.values()]
        scan = scan_of(self.folder, turns, (), self._has_task)
        entries = {(k.entry.turn, k.entry.slug): k.entry for k in self._known.values()}
        return Debate(self.folder, scan, self._task, entries, {}, self._store)

    @staticmethod
    def _complete_turns(debate: Debate) -> set[int]:
        return {t for t in range(1, debate.current_turn + 1) if debate.complete(t)}

    def _identity(self) -> tuple[int, int] | None:
        try:
            info = os.stat(self.folder)
        except OSError:
            return None
        return (info.st_dev, info.st_ino) if os.path.isdir(self.folder) else None


def _event_order(event: WatchEvent) -> tuple[int, str]:
    # removals first, then new files, so a renamed turn reads "removed X" before "Y"
    return (0 if isinstance(event, RemovedEvent) else 1, os.path.basename(getattr(event, "path", "")))


def watch_folder(folder: str, poll: float | None = None, timeout: float | None = None,
                 clock: Callable[[], float] = time.monotonic) -> Generator[WatchEvent, None, None]:
    """Yield the state of `folder`, then events as they happen, until `timeout` seconds have passed.

    Runs forever without a timeout; FolderError when the folder is missing or
    is removed.  Close the iterator (or let it end) to stop the observer threads.
    """
    from ..state.observe import FolderEvents

    deadline = None if timeout is None else clock() + timeout
    with FolderEvents(folder, poll) as events:
        observer = events.mode + (f" ({events.fallback_reason})" if events.fallback_reason else "")
        watcher = TurnWatcher(folder, events.watch_path, observer)
        yield watcher.start(clock())
        while True:
            now = clock()
            if deadline is not None and now >= deadline:
                return
            wait = watcher.due_in(now) if deadline is None else min(watcher.due_in(now), deadline - now)
            batch = events.wait(wait)
            now = clock()
            for event in batch:
                watcher.feed(event, now)
            yield from watcher.check_files(now)
            if watcher.summary_due(now, more_coming=events.pending):
                yield from watcher.summarise()
