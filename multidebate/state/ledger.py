"""The ledger: what `write` created, so later edits, replacements and deletions show.

One append-only JSON Lines file per slug under `.multidebate/ledger/`: a
slug belongs to one session, so no two writers ever append to one file, and
a later move to git sync merges without conflicts.  Each entry carries the
sha256 of the previous line: a hash chain, so a removed or altered line
breaks it.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass

from .jsonstate import loads_state
from .layout import ledger_path, open_state_append, read_state

__all__ = ["LedgerEntry", "Ledger", "GENESIS", "append_entry", "read_ledger"]

GENESIS = "0" * 64


@dataclass(frozen=True)
class LedgerEntry:
    """One file `write` created: name, content hash and size, when, by whom, and the chain link."""

    file: str
    sha256: str
    size: int
    written_at: str
    slug: str
    turn: int
    prev: str
    line: int

    def as_json(self) -> str:
        data = {"file": self.file, "sha256": self.sha256, "size": self.size, "written_at": self.written_at,
                "slug": self.slug, "turn": self.turn, "prev": self.prev}
        return json.dumps(data, sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class Ledger:
    """A slug's ledger as read: its entries, and the lines where the chain or the syntax breaks."""

    slug: str
    path: str
    entries: tuple[LedgerEntry, ...]
    broken: tuple[tuple[int, str], ...]
    last_hash: str


def _line_hash(line: str) -> str:
    return hashlib.sha256(line.encode("utf-8")).hexdigest()


def read_ledger(folder: str, slug: str) -> Ledger:
    """Read a slug's ledger; a missing ledger is empty. Never raises for bad content."""
    path = ledger_path(folder, slug)
    entries: list[LedgerEntry] = []
    broken: list[tuple[int, str]] = []
    prev = GENESIS
    try:
        lines = read_state(path).decode("utf-8", errors="replace").split("\n")
    except OSError:
        return Ledger(slug, path, (), (), GENESIS)
    numbered = [(n, line) for n, line in enumerate(lines, start=1) if line.strip()]
    try:
        # one decode for the whole file is much faster than one per line; any bad line falls back
        whole = loads_state("[" + ",".join(line for _n, line in numbered) + "]")
        decoded: list[object] = whole if isinstance(whole, list) else []
    except ValueError:
        decoded = []
    if len(decoded) != len(numbered):
        decoded = [None] * len(numbered)
    for (number, line), preloaded in zip(numbered, decoded):
        try:
            data = preloaded if isinstance(preloaded, dict) else loads_state(line)
            entry = LedgerEntry(str(data["file"]), str(data["sha256"]), int(data["size"]),
                                str(data["written_at"]), str(data["slug"]), int(data["turn"]), str(data["prev"]),
                                number)
        except (ValueError, KeyError, TypeError):
            broken.append((number, "is not a ledger entry"))
            prev = _line_hash(line)
            continue
        if entry.prev != prev:
            broken.append((number, "does not chain to the entry before it (the ledger was edited)"))
        entries.append(entry)
        prev = _line_hash(line)
    return Ledger(slug, path, tuple(entries), tuple(broken), prev)


def append_entry(folder: str, slug: str, file: str, data: bytes, turn: int, written_at: str) -> LedgerEntry:
    """Append an entry for a file just created. One write(2) with O_APPEND: no torn lines between slugs."""
    ledger = read_ledger(folder, slug)
    entry = LedgerEntry(file, hashlib.sha256(data).hexdigest(), len(data), written_at, slug, turn,
                        ledger.last_hash, len(ledger.entries) + 1)
    fd = open_state_append(ledger.path)
    try:
        os.write(fd, (entry.as_json() + "\n").encode("utf-8"))
        os.fsync(fd)
    finally:
        os.close(fd)
    return entry
