"""Files under a debate's `.multidebate/`: read and written never through a link, never blocking.

Anyone with access to the folder can put a symlink, a FIFO or a plain file
where the tool keeps its ledger, keys, cache and served records.  Followed,
a symlink would make `write` append to a file elsewhere; opened, a FIFO
would hang every command.  So each folder from `.multidebate` down must be a
real folder, each file is opened with O_NOFOLLOW and O_NONBLOCK and must be
a regular file, and anything else is an OSError the callers already treat as
"no cache" or "cannot write".
"""

from __future__ import annotations

import errno
import os
import stat

__all__ = ["STATE_DIR", "check_state_dirs", "make_state_dirs", "open_state_append", "read_state", "write_state"]

STATE_DIR = ".multidebate"
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
    """Create `directory` under `.multidebate/` as needed; OSError when a part of it is no real folder."""
    os.makedirs(directory, exist_ok=True)
    check_state_dirs(directory)


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


def write_state(path: str, data: bytes) -> None:
    """Replace a state file atomically: a fresh temporary file renamed over it (a link there is replaced,
    never written through)."""
    from .atomic import replace_file

    make_state_dirs(os.path.dirname(path))
    replace_file(path, data, ".state-")
