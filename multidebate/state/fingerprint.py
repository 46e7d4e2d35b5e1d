"""What the caches key on: a file's identity, and one digest of a group of inputs.

The four caches (the parse cache, the task cache, validate's checks cache and the kept outputs of
`status`, `validate` and `next`) reuse a result only while what it was computed from is unchanged.  A
file is unchanged while its identity is: size, mtime and ctime in nanoseconds, and inode.  A rewrite
changes the ctime, which no user-space call can set back, so a file edited and given its old mtime
back still has another identity.  What each cache adds on top stays its own (the kept outputs' HMAC
under the user's key, the parse cache's code stamp).
"""

from __future__ import annotations

import hashlib
import os

__all__ = ["FileIdentity", "digest_of", "file_identity", "lstat_identity", "same_identity", "stat_line"]

# (size, mtime_ns, inode, ctime_ns)
FileIdentity = tuple[int, int, int, int]


def file_identity(info: os.stat_result) -> FileIdentity:
    return info.st_size, info.st_mtime_ns, info.st_ino, info.st_ctime_ns


def lstat_identity(path: str) -> FileIdentity | None:
    """The identity of `path` itself (a link is not followed); None when it does not exist."""
    try:
        return file_identity(os.lstat(path))
    except OSError:
        return None


def same_identity(stored: object, identity: FileIdentity | None) -> bool:
    """A cache record's stored identity (as JSON keeps it: a list) is this file's identity now."""
    return identity is not None and stored == list(identity)


def stat_line(name: str, depth: int, info: os.stat_result) -> bytes:
    """One directory entry's state, for a digest of a whole folder: its name, type and identity."""
    fields = (name, depth, info.st_mode, *file_identity(info))
    return ("\0".join(str(f) for f in fields) + "\n").encode("utf-8", "surrogateescape")


def digest_of(parts: object) -> str:
    """One digest of a group of inputs (names, identities, rosters: plain values whose repr is stable)."""
    return hashlib.sha1(repr(parts).encode("utf-8")).hexdigest()
