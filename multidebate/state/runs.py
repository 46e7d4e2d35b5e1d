"""What `multidebate run` keeps under `.multidebate/run/`: the keys of the participants it drives, and its
record of every agent turn.

A session keeps its own key; an agent started by `run` is a new process each turn and keeps nothing, so `run`
holds the key for it (`keys/<slug>.key`, mode 0600, readable by the folder's owner only), and a second `run`
on the folder goes on where the files stand.  The record (`turns.jsonl`, one JSON object a line) says, per
agent turn: agent, model, tool version, duration, tokens and cost where the tool reported them.  Neither ever
holds a credential of the agent tools.
"""

from __future__ import annotations

import json
import os

from ..protocol.naming import is_slug
from .jsonstate import read_records
from .layout import make_state_dirs, open_state_append, read_state, run_dir, write_state

__all__ = ["append_run_record", "held_key", "held_key_path", "hold_key", "read_run_records", "damaged_run_record_lines", "run_record_path"]


def held_key_path(folder: str, slug: str) -> str:
    return os.path.join(run_dir(folder), "keys", f"{slug}.key")


def run_record_path(folder: str) -> str:
    return os.path.join(run_dir(folder), "turns.jsonl")


def hold_key(folder: str, slug: str, key: str) -> None:
    """Keep the key `write` handed `slug`, for `run` to pass on every later turn; OSError when it cannot."""
    path = held_key_path(folder, slug)
    make_state_dirs(os.path.dirname(path))
    os.chmod(os.path.dirname(path), 0o700)
    write_state(path, (key + "\n").encode("utf-8"))  # a fresh private file (0600) renamed into place
    os.chmod(path, 0o600)


def held_key(folder: str, slug: str) -> str | None:
    """The key `run` holds for `slug`, or None (it holds none: the slug is unclaimed, or a person's)."""
    try:
        return read_state(held_key_path(folder, slug), 1024).decode("utf-8", errors="replace").strip() or None
    except OSError:
        return None


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
