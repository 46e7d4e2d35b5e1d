"""The layout of a debate's `.multidebate/` and the one way its files are read and written.

Every path under `.multidebate/` is built here (cache, ledger, keys, sealed
turns, served records), and so is the one atomic JSON write (a file's
identity, the stat fields the caches key on, is fingerprint.py's).

Files there are read and written never through a link, never blocking.

Anyone with access to the folder can put a symlink, a FIFO or a plain file
where the tool keeps its ledger, keys, cache and served records.  Followed,
a symlink would make `write` append to a file elsewhere; opened, a FIFO
would hang every command.  So each folder from `.multidebate` down must be a
real folder, each file is opened with O_NOFOLLOW and O_NONBLOCK and must be
a regular file, and anything else is an OSError the callers already treat as
"no cache" or "cannot write".
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator

from .fingerprint import (  # the caches' key, kept importable from here
    FileIdentity,
    file_identity,
    lstat_identity,
)

__all__ = ["STATE_DIR", "FileIdentity", "cache_dir", "check_state_dirs", "checks_cache_path", "file_identity",
           "key_path", "ledger_dir", "ledger_path", "lstat_identity", "make_state_dirs", "open_state_append",
           "read_state", "run_dir", "sealed_dir", "served_path", "state_lock", "state_root", "state_root_problem",
           "task_cache_path", "write_json_state", "write_state"]

STATE_DIR = ".multidebate"


def state_root(folder: str) -> str:
    return os.path.join(folder, STATE_DIR)


def cache_dir(folder: str) -> str:
    """The parse cache's shards, the task's and validate's cached checks."""
    return os.path.join(folder, STATE_DIR, "cache")


def task_cache_path(folder: str) -> str:
    return os.path.join(cache_dir(folder), "task.json")


def checks_cache_path(folder: str) -> str:
    return os.path.join(cache_dir(folder), "checks.json")


def ledger_dir(folder: str) -> str:
    return os.path.join(folder, STATE_DIR, "ledger")


def ledger_path(folder: str, slug: str) -> str:
    return os.path.join(ledger_dir(folder), f"{slug}.jsonl")


def key_path(folder: str, slug: str) -> str:
    return os.path.join(folder, STATE_DIR, "keys", f"{slug}.json")


def run_dir(folder: str) -> str:
    """What `multidebate run` keeps: the keys of the participants it drives, and its record of agent turns."""
    return os.path.join(folder, STATE_DIR, "run")


def sealed_dir(folder: str) -> str:
    return os.path.join(folder, STATE_DIR, "sealed")


def served_path(folder: str, slug: str, turn: int) -> str:
    """What `next` served `slug` for `turn`: the peer files and their hashes."""
    return os.path.join(folder, STATE_DIR, "served", f"{slug}.turn-{turn}.json")


_FLAGS = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


def check_state_dirs(directory: str) -> None:
    """OSError unless every folder from `.multidebate` down to `directory` is a real folder (no symlink)."""
    parts = os.path.normpath(directory).split(os.sep)
    if STATE_DIR not in parts:
        return
    start = parts.index(STATE_DIR)
    for end in range(start + 1, len(parts) + 1):
        here = os.sep.join(parts[:end]) or os.sep
        info = os.lstat(here)  # FileNotFoundError when missing: the caller decides
        if not stat.S_ISDIR(info.st_mode):
            raise OSError(errno.ENOTDIR, f"{here} is not a real folder (a symlink or a file)", here)


def make_state_dirs(directory: str) -> None:
    """Create `directory` under `.multidebate/` as needed; OSError when a part of it is no real folder.
    The parts that exist are checked first: `makedirs` would create the rest through a symbolic link."""
    parts = os.path.normpath(directory).split(os.sep)
    if STATE_DIR in parts:
        for end in range(parts.index(STATE_DIR) + 1, len(parts) + 1):
            here = os.sep.join(parts[:end]) or os.sep
            try:
                info = os.lstat(here)
            except FileNotFoundError:
                break
            if not stat.S_ISDIR(info.st_mode):
                raise OSError(errno.ENOTDIR, f"{here} is not a real folder (a symlink or a file)", here)
    os.makedirs(directory, exist_ok=True)
    check_state_dirs(directory)


def state_root_problem(folder: str) -> str:
    """What is wrong with the folder's `.multidebate` ('' when it is a real folder or absent)."""
    try:
        info = os.lstat(state_root(folder))
    except FileNotFoundError:
        return ""
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    if stat.S_ISLNK(info.st_mode):
        return "is a symbolic link"
    return "" if stat.S_ISDIR(info.st_mode) else "is not a folder"


def _open(path: str, flags: int, mode: int = 0o644) -> int:
    check_state_dirs(os.path.dirname(path))
    fd = os.open(path, flags | _FLAGS, mode)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, f"{path} is not a regular file", path)
    except OSError:
        os.close(fd)
        raise
    return fd


def read_state(path: str, limit: int = 16 * 1024 * 1024) -> bytes:
    """The bytes of a state file (at most `limit`); FileNotFoundError when missing, OSError when unsafe."""
    fd = _open(path, os.O_RDONLY)
    with os.fdopen(fd, "rb") as handle:
        return handle.read(limit)


def open_state_append(path: str) -> int:
    """A descriptor appending to a state file (created if missing), never through a link."""
    make_state_dirs(os.path.dirname(path))
    return _open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)


@contextlib.contextmanager
def state_lock(folder: str, name: str) -> Iterator[None]:
    """Hold `.multidebate/<name>.lock` exclusively (flock) while the body runs: a person's commands that
    rewrite one file (retire's TASK.md) run one after the other.  Without flock (Windows), no lock.
    FolderError when the lock file cannot be opened."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    path = os.path.join(folder, STATE_DIR, f"{name}.lock")
    try:
        fd = open_state_append(path)
    except OSError as exc:
        from ..protocol.errors import FolderError

        raise FolderError(f"cannot open {path} ({exc.strerror or exc}); nothing was done") from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def write_state(path: str, data: bytes) -> None:
    """Replace a state file atomically: a fresh temporary file renamed over it (a link there is replaced,
    never written through)."""
    from .atomic import replace_file

    make_state_dirs(os.path.dirname(path))
    replace_file(path, data, ".state-")


def write_json_state(path: str, value: object) -> None:
    """Replace a state file with `value` as compact JSON, atomically (see write_state)."""
    import json

    # dumps, not dump: dump streams through the pure-Python encoder, dumps runs in C
    write_state(path, json.dumps(value, separators=(",", ":")).encode("utf-8"))
