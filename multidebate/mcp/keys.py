"""The keys the MCP server holds for the slugs it writes under, so the model never sees or types one.

A shell session keeps the key `write` prints in its own context; a model behind the MCP server has no such
place the server could trust, so the server keeps it, in the user's private state:
`$XDG_STATE_HOME/multidebate/mcp-keys/` (`~/.local/state/multidebate/mcp-keys/` by default; a folder of
mode 0700, one file of mode 0600 per debate folder and slug).  $MULTIDEBATE_MCP_KEYS names another folder.

Each record names the server process that holds the slug.  Another MCP server of the same user that is
asked to write under that slug while the holder still runs is refused, as a shell session without the key
is: two assistant sessions that pick one slug by accident are still told apart.  Once the holder has
exited (the assistant was restarted), the next server that is asked for the slug takes the key over, so a
restarted session goes on with its debate.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from typing import NamedTuple

from ..protocol.errors import IdentityError
from ..state.jsonstate import loads_state

__all__ = ["KEYS_ENV", "KeyStore", "keys_folder"]

KEYS_ENV = "MULTIDEBATE_MCP_KEYS"


def keys_folder() -> str:
    """Where the server keeps its keys (see the module doc)."""
    given = os.environ.get(KEYS_ENV)
    if given:
        return given
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(base, "multidebate", "mcp-keys")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process: alive, and not ours to take over
    except OSError:
        return False
    return True


class _Record(NamedTuple):
    key: str
    pid: int


class KeyStore:
    """The slug keys this server holds, read from and written to the private folder."""

    def __init__(self, folder: str | None = None, pid: int | None = None) -> None:
        self.folder = folder or keys_folder()
        self.pid = os.getpid() if pid is None else pid
        self._lock = threading.Lock()

    def _path(self, debate: str, slug: str) -> str:
        where = hashlib.sha256(os.path.realpath(debate).encode("utf-8", "surrogateescape")).hexdigest()[:24]
        return os.path.join(self.folder, f"{where}-{slug}.json")

    def _read(self, debate: str, slug: str) -> _Record | None:
        try:
            with open(self._path(debate, slug), "rb") as handle:
                data = loads_state(handle.read(64 * 1024))
            return _Record(str(data["key"]), int(data["pid"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None  # none, or damaged: as if none (the slug's own key file still guards it)

    def _write(self, debate: str, slug: str, key: str) -> None:
        os.makedirs(self.folder, mode=0o700, exist_ok=True)
        path = self._path(debate, slug)
        temp = f"{path}.{self.pid}.tmp"
        record = {"folder": os.path.realpath(debate), "slug": slug, "key": key, "pid": self.pid}
        descriptor = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            json.dump(record, handle)
        os.replace(temp, path)

    def key_for(self, debate: str, slug: str) -> str | None:
        """The key this server may use for `slug` in `debate` (None: it holds none; the library then claims the
        slug on a first write, or refuses a slug another session holds); IdentityError when another running MCP
        server holds it."""
        with self._lock:
            record = self._read(debate, slug)
            if record is None:
                return None
            if record.pid != self.pid:
                if _alive(record.pid):
                    raise IdentityError(
                        f"`{slug}` is written by another MCP session on this machine (server process "
                        f"{record.pid}, still running): you are another session. Ask the user which slug is "
                        "yours; a person ends the other session or runs `multidebate handover` for a new key.")
                self._write(debate, slug, record.key)  # its server exited: this session carries the slug on
            return record.key

    def keep(self, debate: str, slug: str, key: str) -> None:
        """Keep the key a first write claimed (before the turn file is created: a server killed then keeps it)."""
        with self._lock:
            self._write(debate, slug, key)
