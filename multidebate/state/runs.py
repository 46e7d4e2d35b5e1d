"""What `multidebate run` keeps: the keys of the participants it drives and the turns it wrote (in the user's
private state folder, state/private.py), and its record of every agent turn (`.multidebate/run/turns.jsonl`).

A session keeps its own key; an agent started by `run` is a new process each turn and keeps nothing, so `run`
holds the key for it, where the folder's other writers cannot read it (#33: kept under `.multidebate/run/keys/`
a session in the same debate could pass it to `write --key-file` and write as the agent).  `run` also keeps
the name and sha256 of every file it wrote, so a turn written under a driven slug by anyone else is found
(`foreign_turns`).  A key kept under the folder by an older version is moved there on first use.  The record
(`turns.jsonl`, one JSON object a line) says, per agent turn: agent, model, tool version, duration, tokens and
cost where the tool reported them, the outcome and, for a failure, its reason.  Neither ever holds a credential
of the agent tools.
"""

from __future__ import annotations

import hashlib
import json
import os

from ..protocol.naming import is_slug, parse_turn_name
from .jsonstate import loads_state, read_records
from .layout import open_state_append, read_state, run_dir
from .private import append_private, read_private, store_file, write_private

__all__ = ["append_run_record", "damaged_run_record_lines", "foreign_turns", "held_key", "held_key_path", "hold_key",
           "legacy_key_path", "read_run_records", "record_written", "run_record_path"]


def held_key_path(folder: str, slug: str) -> str:
    """Where `run` keeps `slug`'s key: the user's private state folder (created on the way)."""
    return store_file(folder, os.path.join("keys", f"{slug}.key"))


def legacy_key_path(folder: str, slug: str) -> str:
    """Where versions before #33 kept it: under the debate folder, readable by a session in the debate."""
    return os.path.join(run_dir(folder), "keys", f"{slug}.key")


def run_record_path(folder: str) -> str:
    return os.path.join(run_dir(folder), "turns.jsonl")


def _own_turns(folder: str, slug: str) -> list[int]:
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    return [n.turn for n in map(parse_turn_name, names) if n is not None and n.slug == slug]


def hold_key(folder: str, slug: str, key: str, from_turn: int = 1) -> None:
    """Keep the key `write` hands `slug` (before its first file exists: `write`'s on_key), for `run` to pass on
    every later turn; turns of `slug` from `from_turn` on are `run`'s to write.  OSError when it cannot."""
    write_private(held_key_path(folder, slug), json.dumps({"key": key, "from_turn": from_turn}).encode("utf-8"))


def _held(folder: str, slug: str) -> tuple[str, int] | None:
    try:
        data = loads_state(read_private(held_key_path(folder, slug), 4096))
    except FileNotFoundError:
        return _migrate(folder, slug)
    except (OSError, ValueError):
        return None  # a private folder that is not private, or a damaged key: none held (`write` then says why)
    key, start = (data.get("key"), data.get("from_turn")) if isinstance(data, dict) else (None, None)
    if not isinstance(key, str) or not key or not isinstance(start, int) or isinstance(start, bool):
        return None
    return key, start


def _migrate(folder: str, slug: str) -> tuple[str, int] | None:
    """A key an older `run` kept under the folder: moved to the private folder.  The turns written so far
    cannot be told apart (anyone could read that key), so only later ones are checked."""
    old = legacy_key_path(folder, slug)
    try:
        key = read_state(old, 1024).decode("utf-8", errors="replace").strip()
    except OSError:
        return None
    if not key:
        return None
    start = max(_own_turns(folder, slug), default=0) + 1
    try:
        hold_key(folder, slug, key, start)
        os.unlink(old)
    except OSError:
        return None
    return key, start


def held_key(folder: str, slug: str) -> str | None:
    """The key `run` holds for `slug`, or None (it holds none: the slug is unclaimed, or a person's)."""
    held = _held(folder, slug)
    return held[0] if held else None


def _written_path(folder: str) -> str:
    return store_file(folder, "written.jsonl")


def _digest(path: str) -> str | None:
    try:
        with open(path, "rb") as handle:
            return hashlib.sha256(handle.read()).hexdigest()
    except OSError:
        return None


def record_written(folder: str, name: str, path: str) -> None:
    """Keep that `run` wrote the file `name` (its bytes at `path`: the folder's file, or a sealed one)."""
    digest = _digest(path)
    append_private(_written_path(folder), (json.dumps({"file": name, "sha256": digest}) + "\n").encode("utf-8"))


def _written(folder: str) -> dict[str, set[str | None]]:
    try:
        lines = read_private(_written_path(folder), 64 * 1024 * 1024).decode("utf-8", errors="replace").splitlines()
    except OSError:
        return {}
    out: dict[str, set[str | None]] = {}
    for line in lines:
        try:
            data = loads_state(line)
        except ValueError:
            continue
        if isinstance(data, dict) and isinstance(data.get("file"), str):
            sha = data.get("sha256")
            out.setdefault(data["file"], set()).add(sha if isinstance(sha, str) else None)
    return out


def foreign_turns(folder: str, slug: str, files: dict[int, str]) -> list[str]:
    """The turn files of `slug` (turn -> path) that `run` holds the key for but did not write: someone else
    wrote them with its key.  [] when `run` holds no key for `slug`."""
    held = _held(folder, slug)
    if held is None:
        return []
    written = _written(folder)
    foreign = []
    for turn, path in sorted(files.items()):
        name = os.path.basename(path)
        if turn >= held[1] and _digest(path) not in written.get(name, set()):
            foreign.append(name)
    return foreign


def append_run_record(folder: str, record: dict[str, object]) -> None:
    """Append one agent turn's record; OSError when it cannot (the turn itself is written already)."""
    fd = open_state_append(run_record_path(folder))
    try:
        os.write(fd, (json.dumps(record, sort_keys=True, separators=(",", ":")) + "\n").encode("utf-8"))
    finally:
        os.close(fd)


def read_run_records(folder: str) -> list[dict[str, object]]:
    """Every record `run` appended, oldest first; a damaged line is skipped, a missing file is none."""
    return [data for _n, data in read_records(run_record_path(folder))[0]]


def damaged_run_record_lines(folder: str) -> list[int]:
    """The lines of `run/turns.jsonl` that are no record (`validate` says so)."""
    records, damaged = read_records(run_record_path(folder))
    # a record's slug reaches the report's cost table: one that is no slug is a damaged line (issue 33)
    return sorted(damaged + [n for n, data in records if not (isinstance(data.get("slug"), str)
                                                               and is_slug(str(data.get("slug"))))])
