"""What `run` keeps where the debate folder's other writers can neither read nor change it (#33).

A debate folder is shared: any session in it may edit TASK.md or read `.multidebate/`.  What `run` must be able
to trust lives in the user's own state folder instead (`$XDG_STATE_HOME/multidebate`, else
`~/.local/state/multidebate`, mode 0700, owned by this user), one folder per debate, named by the sha256 of
the debate folder's real path:

- `agents.json`: the agents the person's own `init` recorded (or the person confirmed to `run`), so that an
  edit of TASK.md's `agents:` cannot start a program unseen;
- `keys/<slug>.key`: the key `run` holds for each participant it drives (a session cannot pass it to `write`);
- `written.jsonl`: every turn file `run` wrote, by name and sha256, so a turn written as a driven participant
  by anyone else is found;
- `run.lock`: held (flock) by the one `run` driving the folder.

Every file is 0600, opened without following links; a folder or file that is not this user's or is open to
others is refused (OSError), never trusted.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import stat

from .atomic import replace_file
from .jsonstate import loads_state

__all__ = ["agents_record", "append_private", "folder_store", "forget_agents", "private_home", "read_private", "record_agents", "store_file",
           "write_private"]

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def private_home() -> str:
    """The user's own state folder for multidebate (not created here)."""
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(base, "multidebate")


def _check_private(path: str, info: os.stat_result, directory: bool) -> None:
    kind = stat.S_ISDIR(info.st_mode) if directory else stat.S_ISREG(info.st_mode)
    getuid = getattr(os, "getuid", None)
    if not kind or (getuid is not None and info.st_uid != getuid()) or info.st_mode & 0o077:
        raise OSError(errno.EPERM, f"{path} is not private to this user (owner, mode or kind): refusing to trust it",
                      path)


def _private_dir(path: str) -> None:
    """Create `path` (0700) when missing; OSError when it is a link, not this user's, or open to others."""
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    _check_private(path, os.lstat(path), directory=True)


def folder_store(folder: str, create: bool = True) -> str:
    """The private folder of the debate in `folder` (by its real path); created, and checked, on the way."""
    home = private_home()
    where = os.path.join(home, "folders", hashlib.sha256(os.path.realpath(folder).encode(
        "utf-8", "surrogateescape")).hexdigest()[:32])
    if create:
        os.makedirs(os.path.dirname(home), mode=0o700, exist_ok=True)
        for part in (home, os.path.join(home, "folders"), where):
            _private_dir(part)
    return where


def store_file(folder: str, name: str, create: bool = True) -> str:
    """A path in the debate's private folder (`keys/<slug>.key`, `agents.json`, ...)."""
    where = folder_store(folder, create)
    path = os.path.join(where, name)
    if create and os.path.dirname(name):
        _private_dir(os.path.dirname(path))
    return path


def read_private(path: str, limit: int = 1024 * 1024) -> bytes:
    """A private file's bytes (at most `limit`); FileNotFoundError when missing, OSError when not private."""
    fd = os.open(path, os.O_RDONLY | _NOFOLLOW)
    try:
        _check_private(path, os.fstat(fd), directory=False)
        chunks, size = [], 0
        while size < limit:
            chunk = os.read(fd, min(65536, limit - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def write_private(path: str, data: bytes) -> None:
    """Replace a private file atomically (a fresh 0600 file renamed into place)."""
    replace_file(path, data, ".private-")


def append_private(path: str, line: bytes) -> None:
    """Append one line to a private file (created 0600)."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | _NOFOLLOW, 0o600)
    try:
        _check_private(path, os.fstat(fd), directory=False)
        os.write(fd, line)
    finally:
        os.close(fd)


def agents_record(folder: str) -> dict[str, str] | None:
    """The agents the person recorded for this folder ({slug: spec}); None when there is no trustworthy record."""
    try:
        data = loads_state(read_private(store_file(folder, "agents.json", create=False)))
    except (OSError, ValueError):
        return None
    agents = data.get("agents") if isinstance(data, dict) else None
    if not isinstance(agents, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in agents.items()):
        return None
    return dict(agents)


def record_agents(folder: str, agents: dict[str, str], replace: bool = False) -> None:
    """Record (add to, or with `replace` replace) the agents the person chose for this folder; OSError when the
    private folder cannot be written."""
    kept = {} if replace else (agents_record(folder) or {})
    kept.update(agents)
    write_private(store_file(folder, "agents.json"), json.dumps(
        {"folder": os.path.realpath(folder), "agents": kept}, sort_keys=True).encode("utf-8"))


def forget_agents(folder: str) -> None:
    """Drop the record of agents for this folder, if any (a new debate created at the same path)."""
    try:
        os.unlink(store_file(folder, "agents.json", create=False))
    except FileNotFoundError:
        pass
