"""One `run` per debate folder: two would brief the same turn twice and write later turns from stale briefings.

The lock is an flock on `run.lock` in the user's private folder for the debate (state/private.py), held for the
whole run and released by the kernel when the process ends, however it ends.  Another user's `run` on a shared
folder holds none of this user's keys, and cannot drive this user's participants anyway.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

from ..protocol.errors import RunFailed
from ..state.private import read_private, store_file

__all__ = ["run_lock"]


@contextlib.contextmanager
def run_lock(folder: str) -> Iterator[None]:
    """Hold the folder's run lock while the body runs; RunFailed at once when another `run` holds it."""
    try:
        import fcntl
    except ImportError:  # Windows: no flock, no lock
        yield
        return
    try:
        path = store_file(folder, "run.lock")
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0),
                     0o600)
    except OSError as exc:
        raise RunFailed(f"cannot take the run lock of {folder} ({exc.strerror or exc}); nothing was started") from exc
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            try:
                holder = read_private(path, 64).decode("ascii", errors="replace").strip()
            except OSError:
                holder = ""
            raise RunFailed(f"another `multidebate run` is driving {folder}" + (f" (pid {holder})" if holder else "")
                            + ": one run per folder. Wait for it to end, or stop it (Ctrl-C), then run again") from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode("ascii"))
        yield
    finally:
        os.close(fd)  # closing releases the lock
