"""What `next --wait` waits on: a change to the debate's turn files or TASK.md, never to any other file.

Issue 33: the judge's `next --wait` burned 11-13 CPU-seconds of a 15-second wait while a program rewrote
`notes.txt` in the folder: every event woke the waiting loop, and the observer's threads turned each of the
kernel's events into Python objects even when nothing was waiting on them.  Here:

- events for other files are dropped in the observer's thread (FolderEvents `wanted`), so they wake no one;
- the first such event stops the observer for PAUSE seconds, so that the kernel queues nothing for this
  process while the folder is busy; when it starts again, the turn files are compared with how they were when
  the waiter last woke (names, sizes, mtimes, inodes), so a change made meanwhile is still seen;
- the turn files' own events wake the waiter at most once per PAUSE (a turn file rewritten in a loop would
  otherwise keep it as busy), the rest again by that comparison.

A folder that is busy with other files is thus looked at once per PAUSE, with a listing and a few `lstat`s.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from types import TracebackType

from ..protocol.errors import FolderError
from ..protocol.naming import parse_turn_name
from ..state.observe import NOISE, FileLook, FolderEvents, look
from ..state.task import TASK_FILE

__all__ = ["PAUSE", "TurnEvents", "is_awaited_name"]

PAUSE = 0.5  # seconds: what a turn file written while the folder is busy may wait to be seen


def is_awaited_name(name: str) -> bool:
    """A file whose change may change what `next` answers: a turn file or TASK.md."""
    return name == TASK_FILE or parse_turn_name(name) is not None


def _state(folder: str) -> dict[str, FileLook | None]:
    try:
        names = [n for n in os.listdir(folder) if is_awaited_name(n)]
    except OSError:
        return {}  # a folder gone: the waiter finds out itself
    return {name: look(os.path.join(folder, name)) for name in names}


class TurnEvents:
    """Wait for the turn files or TASK.md of one folder to change (see the module doc).  A context manager."""

    def __init__(self, folder: str, poll: float | None = None, pause: float = PAUSE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.folder = folder
        self._events = FolderEvents(folder, poll, wanted=is_awaited_name)
        self._pause = pause
        self._clock = clock
        self._seen: dict[str, FileLook | None] = {}
        self._woke = float("-inf")
        self._resume_at: float | None = None  # observing stopped until then
        self._asleep = threading.Event()  # never set: a bounded sleep that is no busy loop

    def __enter__(self) -> TurnEvents:
        self._events.start()
        self._seen = _state(self.folder)  # after starting: a change after this look gives an event
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self._events.stop()

    def _wake(self, now: float) -> bool:
        self._woke = now
        self._seen = _state(self.folder)  # before the caller looks: what changes later is seen again
        return True

    def wait(self, timeout: float) -> bool:
        """Block up to `timeout` seconds: True when a turn file or TASK.md may have changed, else False."""
        deadline = self._clock() + timeout
        while True:
            now = self._clock()
            if self._resume_at is not None:
                if now < self._resume_at:
                    if now >= deadline:
                        return False
                    self._asleep.wait(min(self._resume_at, deadline) - now)
                    continue
                self._resume_at = None
                try:
                    self._events.start()  # before the look, as in __enter__
                except FolderError:
                    return True  # the folder went away meanwhile: the caller looks and says so
                if _state(self.folder) != self._seen:
                    return self._wake(now)
                continue
            if now >= deadline:
                return False
            batch = self._events.wait(deadline - now)
            if not batch:
                return False
            now = self._clock()
            if any(event is not NOISE for event in batch) and now >= self._woke + self._pause:
                return self._wake(now)
            # another file's event, or the turn files' own events more often than once per PAUSE: stop observing
            # for a while; the comparison after it sees what changed meanwhile
            self._events.stop()
            self._events.discard()
            self._resume_at = max(now + self._pause if any(e is NOISE for e in batch) else now,
                                  self._woke + self._pause)
