"""A stamp of the code that produced a cache: cheap to take at start-up, changed by any edit of any module."""

from __future__ import annotations

import os

__all__ = ["code_stamp"]


def code_stamp(package_dir: str) -> str:
    """A stamp of the code that produced a cache: the size and mtime of every module of the package.

    The version alone does not change while the code is being worked on (or
    when a local build replaces an install), and a parsing change would then
    be answered from records the old code made.  Every module counts, not a
    hand-kept list of the ones that parse: such a list once missed the ledger,
    and a warm `validate` printed an old message until the cache was deleted.
    Stat, not read: about 60 stats, a fraction of a millisecond at start-up.
    Only integers are hashed (a string's hash differs between processes);
    the paths count through their sorted order.
    """
    parts: list[tuple[int, int]] = []
    for path in _modules(package_dir):
        try:
            info = os.stat(path)
            parts.append((info.st_size, info.st_mtime_ns))
        except OSError:
            parts.append((-1, -1))
    return f"{hash((len(parts), tuple(parts))) & 0xFFFFFFFFFFFF:012x}"


def _modules(directory: str) -> list[str]:
    """Every `.py` file under `directory`, in a stable order (compiled caches left out)."""
    found: list[str] = []
    try:
        with os.scandir(directory) as listing:
            items = sorted(listing, key=lambda item: item.name)
    except OSError:
        return found
    for item in items:
        if item.name.endswith(".py") and item.is_file(follow_symlinks=False):
            found.append(item.path)
        elif item.is_dir(follow_symlinks=False) and item.name != "__pycache__" and not item.name.startswith("."):
            found.extend(_modules(item.path))
    return found
