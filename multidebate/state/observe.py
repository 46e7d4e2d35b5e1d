"""Watchdog glue: one folder's file-system events, handed in batches to the thread that waits.

Only `watch` and `next --wait` import this module, so that every other
command starts without importing watchdog.  The observer threads only queue
events; all the thinking happens in the caller's thread (see watch.py), which
keeps that logic testable without threads.
"""

from __future__ import annotations

import logging
import os
import queue
import stat
from collections.abc import Callable
from types import TracebackType
from typing import NamedTuple

from watchdog.events import (
    DirDeletedEvent,
    DirMovedEvent,
    FileClosedEvent,
    FileCreatedEvent,
    FileDeletedEvent,
    FileModifiedEvent,
    FileMovedEvent,
    FileSystemEvent,
    FileSystemEventHandler,
)
from watchdog.observers.api import BaseObserver
from watchdog.observers.polling import PollingObserver

from ..protocol.errors import FolderError

# watchdog logs an error when an observer is stopped while its thread reads events (`next --wait` stops and
# restarts its observer while other files churn): with no handler anywhere, Python's last-resort handler printed
# it to stderr, into a session's `next` output (d80).  Its errors are not the user's to read: say nothing.
logging.getLogger("watchdog").addHandler(logging.NullHandler())

__all__ = ["FALLBACK_POLL", "NOISE", "SETTLE", "FolderEvents", "FileLook", "look"]

SETTLE = 0.1  # between the two looks that show a file has stopped changing

# When native events cannot be had (inotify watch limit, unsupported file system),
# poll at this interval rather than fail.
FALLBACK_POLL = 1.0

# Only what can change a turn file or the folder.  Opened, closed-without-write and
# attribute events are left out: our own reads of turn files would wake us up.
_EVENT_FILTER: list[type[FileSystemEvent]] = [
    FileCreatedEvent,
    FileModifiedEvent,
    FileClosedEvent,
    FileMovedEvent,
    FileDeletedEvent,
    DirDeletedEvent,
    DirMovedEvent,
]


class FileLook(NamedTuple):
    """What tells two looks at a file apart without reading it."""

    size: int
    mtime_ns: int
    inode: int
    is_file: bool
    is_symlink: bool


def look(path: str) -> FileLook | None:
    """The FileLook of `path` (symlinks not followed), or None when it does not exist."""
    try:
        info = os.lstat(path)
    except OSError:
        return None
    return FileLook(info.st_size, info.st_mtime_ns, info.st_ino, stat.S_ISREG(info.st_mode),
                     stat.S_ISLNK(info.st_mode))


# Queued once per observer, in place of the events a `wanted` filter dropped: the waiter may then stop the
# observer for a while rather than have its thread turn every event of a busy folder into Python objects
NOISE = FileSystemEvent("")


class _Enqueue(FileSystemEventHandler):
    """Runs in the observer's thread: hand events over (with `wanted`: those for the wanted names, and one NOISE
    for the rest), decide nothing else."""

    def __init__(self, sink: queue.SimpleQueue[FileSystemEvent], wanted: Callable[[str], bool] | None = None,
                 root: str = "") -> None:
        self._sink = sink
        self._wanted = wanted
        self._root = root
        self._noisy = False

    def dispatch(self, event: FileSystemEvent) -> None:
        if self._wanted is None or _keeps(event, self._wanted, self._root):
            self._sink.put(event)
        elif not self._noisy:
            self._noisy = True
            self._sink.put(NOISE)


def _keeps(event: FileSystemEvent, wanted: Callable[[str], bool], root: str) -> bool:
    for raw in (event.src_path, event.dest_path):
        path = os.fsdecode(raw) if raw else ""
        # the folder itself (removed, moved away) always counts: the waiter must hear of it
        if path and (path == root or wanted(os.path.basename(path))):
            return True
    return False


class FolderEvents:
    """The events of one folder (not recursive), from native events or from polling.

    `wanted`: only events for these file names (and for the folder itself) are handed out; the first other
    event of each observer is handed out as NOISE.  Use as a context manager: the observer threads are stopped
    and joined on exit; `stop` then `start` observes again (with the same kind of observer).
    """

    def __init__(self, folder: str, poll: float | None = None, wanted: Callable[[str], bool] | None = None) -> None:
        self.folder = folder
        self.watch_path = os.path.realpath(folder)
        self.poll = poll
        self._wanted = wanted
        self.mode = ""
        self.fallback_reason: str | None = None
        self._queue: queue.SimpleQueue[FileSystemEvent] = queue.SimpleQueue()
        self._observer: BaseObserver | None = None

    def __enter__(self) -> FolderEvents:
        self.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.stop()

    def start(self) -> None:
        """Start observing; FolderError when the folder is missing."""
        if not os.path.isdir(self.folder):
            what = "not a folder" if os.path.exists(self.folder) else "no such folder"
            raise FolderError(f"{what}: {self.folder}")
        interval = self.poll
        if interval is None:
            from watchdog.observers import Observer

            try:
                observer = Observer()
                self._begin(observer)
                # "inotify", "fsevents", ...: say which, since it decides what is seen
                self.mode = type(observer).__name__.replace("Observer", "").lower() or "native"
                return
            except OSError as exc:
                if not os.path.isdir(self.folder):
                    raise FolderError(f"no such folder: {self.folder}") from exc
                interval = self.poll = FALLBACK_POLL  # a later `start` polls at once
                self.fallback_reason = (f"native file events are unavailable ({exc.strerror or exc}); "
                                        f"polling every {interval:g} s instead")
        try:
            self._begin(PollingObserver(timeout=interval))
        except OSError as exc:
            raise FolderError(f"cannot watch {self.folder}: {exc.strerror or exc}") from exc
        self.mode = f"polling every {interval:g} s"

    def _begin(self, observer: BaseObserver) -> None:
        observer.schedule(_Enqueue(self._queue, self._wanted, self.watch_path), self.watch_path, recursive=False,
                          event_filter=_EVENT_FILTER)
        try:
            observer.start()
        except BaseException:
            observer.stop()  # also ends helper threads some observers start in their constructor
            raise
        self._observer = observer

    def stop(self) -> None:
        """Stop and join the observer threads (idempotent)."""
        observer, self._observer = self._observer, None
        if observer is not None:
            observer.stop()
            observer.join()

    def discard(self) -> None:
        """Drop every queued event (a waiter that stopped observing looks at the files themselves instead)."""
        while True:
            try:
                self._queue.get_nowait()
            except queue.Empty:
                return

    @property
    def pending(self) -> bool:
        """True when events are queued that `wait` has not handed out yet."""
        return not self._queue.empty()

    def wait(self, timeout: float) -> list[FileSystemEvent]:
        """Block up to `timeout` seconds for an event, then return it with every event queued behind it."""
        try:
            batch = [self._queue.get(timeout=max(timeout, 0.0))]
        except queue.Empty:
            return []
        while True:
            try:
                batch.append(self._queue.get_nowait())
            except queue.Empty:
                return batch
