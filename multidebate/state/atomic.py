"""Create a file atomically and never replace an existing one.

The content goes to a temporary file in the same folder, is flushed to disk,
then hard-linked to its final name: `link` fails when the name exists, so of
two racing writers exactly one wins, and no reader ever sees half a file.
Where the file system has no hard links, an exclusive lock file stands in.
"""

from __future__ import annotations

import errno
import os

__all__ = ["STALE_TEMP_SECONDS", "TEMP_PREFIX", "create_exclusive", "open_temp", "replace_file", "sweep_stale_temps"]

TEMP_PREFIX = ".md-tmp-"
# A writer finishes in well under a second; a temporary file this old was left by a killed one.
STALE_TEMP_SECONDS = 600.0


def open_temp(folder: str, prefix: str, suffix: str = "") -> tuple[int, str]:
    """Create a new, private temporary file in `folder`: (open write descriptor, path).

    What tempfile.mkstemp does, without importing tempfile (and shutil, bz2,
    lzma and random with it) into every start of the CLI.
    """
    while True:
        path = os.path.join(folder, f"{prefix}{os.urandom(6).hex()}{suffix}")
        try:
            return os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY | getattr(os, "O_CLOEXEC", 0), 0o600), path
        except FileExistsError:
            continue  # 48 random bits collided: draw again


def replace_file(path: str, data: bytes, prefix: str = ".tmp-") -> None:
    """Replace `path` with `data` atomically: a fresh temporary file beside it, renamed over it (a symlink
    there is replaced, never written through).  OSError when it cannot; no temporary file is left."""
    fd, tmp = open_temp(os.path.dirname(path) or ".", prefix)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)  # a full disk: leave no half-written file behind
        except OSError:
            pass
        raise


def _fsync_dir(folder: str) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot sync a directory; the link is still atomic
    finally:
        os.close(fd)


def create_exclusive(path: str, data: bytes) -> bool:
    """Create `path` holding `data`. False when `path` exists; OSError for other failures.

    Leaves no temporary file behind on any error.
    """
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = open_temp(folder, TEMP_PREFIX, ".part")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)
        try:
            os.link(tmp, path)
        except FileExistsError:
            return False
        except OSError as exc:
            if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK):
                raise
            return _create_without_link(tmp, path)
        _fsync_dir(folder)
        return True
    finally:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass


def _create_without_link(tmp: str, path: str) -> bool:
    """Fallback for file systems without hard links: claim the name with O_EXCL, then rename over it.

    The claim is an empty file for an instant; readers treat an empty turn
    file as not yet written.
    """
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
    except FileExistsError:
        return False
    os.replace(tmp, path)
    return True


def sweep_stale_temps(folder: str, prefix: str = TEMP_PREFIX, suffix: str = ".part",
                      now: float | None = None) -> list[str]:
    """Remove the temporary files of writers killed mid-write (older than STALE_TEMP_SECONDS); best effort.

    Returns the names removed.  Only regular files with our prefix and
    suffix are touched (never a link); a live writer's file is seconds old.
    """
    import stat
    import time

    cutoff = (time.time() if now is None else now) - STALE_TEMP_SECONDS
    removed = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if not (entry.name.startswith(prefix) and entry.name.endswith(suffix)):
                    continue
                try:
                    info = entry.stat(follow_symlinks=False)
                    if stat.S_ISREG(info.st_mode) and info.st_mtime < cutoff:
                        os.unlink(entry.path)
                        removed.append(entry.name)
                except OSError:
                    continue
    except OSError:
        pass
    return removed
