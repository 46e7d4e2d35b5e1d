"""What of a debate folder is shared between machines (committed by `sync`) and what stays on this machine.

Shared: TASK.md, the proposal, turn files, judgments, and under `.multidebate/` the ledgers, the keys'
hashes, the acts and the sealed turns.  Every shared file but TASK.md, acts.jsonl and a handed-over key is
created once under a name only one slug writes (turn files, `ledger/<slug>.jsonl`, `keys/<slug>.json`), so two
machines' commits touch different files and git merges them without a conflict.

Per machine, never committed (`.multidebate/.gitignore`, which `init` writes): the parse cache and the kept
outputs (`cache/`), what `next` served (`served/`), what `run` holds (`run/`, its keys included), the locks,
the temporary files of writes, and what `sync` keeps for itself (`sync/`: a lost slug race's files).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Iterator
from typing import NamedTuple

from ..protocol.naming import parse_turn_name
from .atomic import create_exclusive
from .jsonstate import loads_state
from .layout import (
    STATE_DIR,
    make_state_dirs,
    open_state_append,
    read_state,
    write_json_state,
)

__all__ = ["GITIGNORE", "LostClaim", "files_lock", "is_shared", "lost_claim", "record_lost_claim", "slug_of", "sync_dir",
           "write_gitignore"]

GITIGNORE = """\
# multidebate: what stays on this machine (caches, kept outputs, what `next` served, `run`'s keys, locks,
# temporary files, sync's own records). Everything else here is shared: ledgers, keys' hashes, acts, sealed turns.
cache/
served/
run/
sync/
*.lock
.md-tmp-*
.state-*
.tmp-*
"""

_SHARED_STATE = ("ledger", "keys", "sealed")


def sync_dir(folder: str) -> str:
    """What `sync` keeps on this machine: the files of a slug race it lost, and their record."""
    return os.path.join(folder, STATE_DIR, "sync")


def write_gitignore(folder: str) -> bool:
    """Create `.multidebate/.gitignore` unless it exists (a person's edits are kept); True when created."""
    root = os.path.join(folder, STATE_DIR)
    make_state_dirs(root)
    return create_exclusive(os.path.join(root, ".gitignore"), GITIGNORE.encode("utf-8"))


def _is_temp(name: str) -> bool:
    return name.startswith((".md-tmp-", ".state-", ".tmp-"))


def is_shared(relpath: str, proposal: str | None = None) -> bool:
    """Whether `relpath` (relative to the debate folder, '/'-separated) is committed by `sync`."""
    parts = relpath.split("/")
    name = parts[-1]
    if _is_temp(name):
        return False
    if len(parts) == 1:
        return (name == "TASK.md" or name == proposal or parse_turn_name(name) is not None
                or (name.startswith("judgment-") and name.endswith(".md")))
    if parts[0] != STATE_DIR:
        return False
    if len(parts) == 2:
        return name in (".gitignore", "acts.jsonl")
    return len(parts) == 3 and parts[1] in _SHARED_STATE


def slug_of(relpath: str) -> str | None:
    """The slug a shared file belongs to (its turn file, ledger, key, sealed turn or judgment); None for the
    debate's common files (TASK.md, acts, markers)."""
    parts = relpath.split("/")
    name = parts[-1]
    if len(parts) == 1 or (len(parts) == 3 and parts[1] == "sealed"):
        turn = parse_turn_name(name)
        if turn is not None:
            return turn.slug
        if len(parts) == 1 and name.startswith("judgment-") and name.endswith(".md"):
            return name[len("judgment-"):-len(".md")]
        return None
    if len(parts) == 3 and parts[1] == "ledger" and name.endswith(".jsonl"):
        return name[:-len(".jsonl")]
    if len(parts) == 3 and parts[1] == "keys" and name.endswith(".json"):
        return name[:-len(".json")]
    return None


class LostClaim(NamedTuple):
    """A slug this machine claimed that another machine's push claimed first: the key that lost (its sha256),
    where its files are kept, and the free slug to write under instead."""

    slug: str
    key_sha256: str
    kept_in: str
    free_slug: str


def _lost_path(folder: str, slug: str) -> str:
    return os.path.join(sync_dir(folder), "lost", f"{slug}.json")


def record_lost_claim(folder: str, claim: LostClaim) -> None:
    write_json_state(_lost_path(folder, claim.slug), claim._asdict())


def lost_claim(folder: str, slug: str, key: str | None) -> LostClaim | None:
    """The lost race of `slug` whose key is `key` (so `next` and `write` tell the loser plainly), or None."""
    if key is None:
        return None
    try:
        data = loads_state(read_state(_lost_path(folder, slug), 64 * 1024))
        claim = LostClaim(**{field: str(data[field]) for field in LostClaim._fields})
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return claim if claim.key_sha256 == hashlib.sha256(key.encode("utf-8")).hexdigest() else None


@contextlib.contextmanager
def files_lock(folder: str, exclusive: bool, required: bool = False) -> Iterator[bool]:
    """Hold `.multidebate/sync.lock`: shared by each `write` while it creates a turn and its ledger entry,
    exclusive by `sync` while it commits or lays files from other machines into the folder, so a commit
    never holds a turn without its ledger line and a write never sees a half-updated ledger.  Yields whether
    the lock is held: a writer goes on without it where it cannot be had (a read-only folder says so itself,
    no flock on Windows); `required` raises the OSError instead."""
    try:
        import fcntl
    except ImportError:
        yield False
        return
    try:
        fd = open_state_append(os.path.join(folder, STATE_DIR, "sync.lock"))
    except OSError:
        if required:
            raise
        yield False
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        yield True
    finally:
        os.close(fd)
