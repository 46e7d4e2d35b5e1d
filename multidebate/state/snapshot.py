"""A warm `status` or `validate`: its output kept, authenticated, while nothing it reads has changed (#25).

People run `status` again and again, and most runs see the same files as the
run before.  When the output depends on the files alone (for `status`: no
participant is missing from the current turn, so no waiting or idle time is
shown; `validate` of a folder always), the full run keeps its output in
`.multidebate/cache/<command>.json`, with:

- the fingerprint of everything the command reads: every entry of the folder,
  and of `.multidebate/` but its parse cache, by name, size, mtime, ctime and
  inode (the kernel sets ctime on every change, and no user-space call sets it
  back: the parse cache relies on the same), the folder as it was given (the
  output names it), the version and the code's stamp;
- an HMAC of the fingerprint and the output under a key that only this user
  can read (`$XDG_CACHE_HOME/multidebate/status.key`, mode 0600).  A snapshot
  someone else wrote into a shared folder, or one copied from another folder,
  does not verify.

A later run with the same fingerprint and a valid HMAC prints the kept output
without parsing, comparing or hashing a turn file (which `validate` does for
every file, against the ledgers and the reading records).  Any doubt (no key, an
unreadable entry, another fingerprint, a snapshot that does not verify) means
the full run, which is always right; a snapshot only saves its time.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Callable
from typing import Any

from .fingerprint import stat_line
from .jsonstate import loads_state
from .layout import STATE_DIR, cache_dir, read_state, write_json_state
from .stamp import code_stamp

__all__ = ["FORMAT", "Kept", "kept_or_run"]

FORMAT = 1
_NAME = "status.json"
_KEY_BYTES = 32
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Kept:
    """A command's output for a folder: the fingerprint, taken once; the kept output (`hit`) when it verifies;
    `store` for a full run to keep its own.  `kind` names the command (`status`, `validate`, `next-...`): one file
    each.  `request`: what else the output depends on (`next`: the slug, its key, the options, the date); it
    enters the fingerprint through an HMAC under the user's key, so the stored fingerprint tells nothing of it.
    `own`: names under `.multidebate/` that the command itself writes (`next`'s reading record), left out of the
    fingerprint so that a run which writes them can keep its output; the command checks them itself."""

    def __init__(self, folder: str, kind: str, request: str = "", own: tuple[str, ...] = ()) -> None:
        self.folder = folder
        self.kind = kind
        self.request = request
        self.own = own
        self.fingerprint = self.take(create=bool(request))  # a request needs the key: make it now, not next run
        self.hit = self._load() if self.fingerprint is not None else None

    def take(self, create: bool = False) -> str | None:
        """The fingerprint of the folder now (None when an entry cannot be looked at, or a request needs a key
        that there is none of)."""
        mixed = ""
        if self.request:
            key = _key(create)
            if key is None:
                return None
            mixed = hmac.new(key, self.request.encode("utf-8", "surrogateescape"), hashlib.sha256).hexdigest()
        return _fingerprint(self.folder, mixed, self.own)

    def _path(self) -> str:
        return os.path.join(cache_dir(self.folder), f"{self.kind}.json")

    def _load(self) -> dict[str, Any] | None:

        key = _key(create=False)
        if key is None:
            return None
        try:
            kept = loads_state(read_state(self._path(), 8 * 1024 * 1024))
            if not (isinstance(kept, dict) and kept.get("format") == FORMAT
                    and kept.get("fingerprint") == self.fingerprint):
                return None
            payload, mac = kept["payload"], kept["mac"]
            if not (isinstance(payload, dict) and isinstance(mac, str)):
                return None
        except (OSError, ValueError, KeyError, RecursionError):
            return None
        if not hmac.compare_digest(mac, _mac(key, self.kind, self.fingerprint or "", payload)):
            return None  # written by someone without this user's key: not to be believed
        return payload

    def store(self, payload: dict[str, Any], fingerprint: str | None = None) -> None:
        """Keep a full run's output for later runs (silently nothing when it cannot be kept).  `fingerprint`: the
        one to keep it under, when the run changed what it had taken (`take` again, and compare)."""
        key = _key(create=True)
        fingerprint = fingerprint or self.fingerprint
        if key is None or fingerprint is None:
            return
        self.fingerprint = fingerprint
        try:
            write_json_state(self._path(), {"format": FORMAT, "fingerprint": self.fingerprint, "payload": payload,
                                            "mac": _mac(key, self.kind, self.fingerprint, payload)})
        except (OSError, ValueError):
            pass  # an optimisation only: a read-only folder just runs in full each time


def kept_or_run(folder: str, kind: str, shape: dict[str, type],
                run: Callable[[], tuple[dict[str, Any], bool]]) -> dict[str, Any]:
    """The snapshot policy: the output `kind` kept for `folder` when it verifies and has `shape` (field -> type),
    else `run()`'s, kept for next time when `run` says it may be (its output depends on the files alone)."""
    kept = Kept(folder, kind)
    hit = kept.hit
    # the shape check is for code changes that would read an older kept output: it verified
    if hit is not None and all(isinstance(hit.get(name), of) for name, of in shape.items()):
        return hit
    payload, keepable = run()
    if keepable:
        kept.store(payload)
    return payload


def _mac(key: bytes, kind: str, fingerprint: str, payload: dict[str, Any]) -> str:
    import json

    # ASCII JSON: a lone surrogate in a kept (or forged) text is escaped, never a UnicodeEncodeError
    body = json.dumps([FORMAT, kind, fingerprint, payload], sort_keys=True)
    return hmac.new(key, body.encode("ascii"), hashlib.sha256).hexdigest()


def _fingerprint(folder: str, request: str = "", own: tuple[str, ...] = ()) -> str | None:
    """The state of every entry `status` may read, in one digest; None when an entry cannot be looked at."""
    from ..version import __version__

    digest = hashlib.sha256(f"{FORMAT}\0{__version__}\0{code_stamp(_PACKAGE_DIR)}\0{folder}\0{request}\n".encode(
        "utf-8", "surrogateescape"))
    try:
        info = os.stat(folder)
        digest.update(f"{info.st_ino}\0{info.st_dev}\n".encode())  # another folder is another debate
        _walk(folder, digest, 0, own)
    except OSError:
        return None
    return digest.hexdigest()


def _walk(directory: str, digest: Any, depth: int, own: tuple[str, ...] = ()) -> None:
    """Each entry's state into `digest`: the folder's entries (depth 0), and everything under `.multidebate/`
    but its `cache/` (derived: the parse cache and this snapshot; counting it would change the fingerprint on
    every write of the snapshot itself)."""
    with os.scandir(directory) as listing:
        entries = sorted(listing, key=lambda entry: entry.name)
    for entry in entries:
        if depth == 1 and entry.name == "cache" or depth > 1 and own and entry.name.startswith(own):
            continue
        info = entry.stat(follow_symlinks=False)
        if entry.is_dir(follow_symlinks=False):
            # a folder by name and inode: its times change when an entry is added or removed, and every entry
            # that counts is walked (a full run creating `.multidebate/cache/` must not stale its own snapshot)
            digest.update(f"{entry.name}\0{depth}\0dir\0{info.st_ino}\n".encode("utf-8", "surrogateescape"))
            if depth > 0 or entry.name == STATE_DIR:
                _walk(entry.path, digest, depth + 1, own)
            continue
        digest.update(stat_line(entry.name, depth, info))


def _key(create: bool) -> bytes | None:
    """This user's snapshot key (32 random bytes, mode 0600, owned by this user); None when there is none to
    be had."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    path = os.path.join(base, "multidebate", "status.key")
    nofollow = getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, os.O_RDONLY | nofollow)
    except FileNotFoundError:
        if not create:
            return None
        return _new_key(path, nofollow)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        key = handle.read(_KEY_BYTES + 1)
    getuid = getattr(os, "getuid", None)
    if len(key) != _KEY_BYTES or info.st_mode & 0o077 or (getuid is not None and info.st_uid != getuid()):
        return None  # readable by others, or not this user's: no better than no key
    return key


def _new_key(path: str, nofollow: int) -> bytes | None:
    import secrets

    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | nofollow, 0o600)
    except FileExistsError:
        return _key(create=False)  # another run made it first
    except OSError:
        return None
    key = secrets.token_bytes(_KEY_BYTES)
    with os.fdopen(fd, "wb") as handle:
        handle.write(key)
    return key
