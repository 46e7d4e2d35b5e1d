"""Validate's cross-file findings, cached by everything they depend on.

A turn's mention, reading and quote findings depend on its own files, the
files of the turn before (who wrote, what they said, their hashes), the
roster, and any older file a session says it read.  A slug's ledger findings
depend on the ledger and on the files it records.  Each group of findings is
stored with a digest of the identities (size, mtime, inode, ctime) of exactly
those inputs; a group is reused only while the digest of the folder as it is
now is the same, so a changed, added, removed or renamed input recomputes it.
A warm `validate` of 10,000 files then decodes no mentions, vocabularies or
ledgers at all.

Stored in `.multidebate/cache/checks.json`, with the parse cache's stamp: a
missing, damaged or foreign file only means computing again.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import Any

from ..protocol.findings import CODES, Finding
from ..protocol.naming import parse_turn_name
from ..state.cache import load_shard, store_shard
from ..state.debate import Debate
from ..state.fingerprint import FileIdentity, digest_of, lstat_identity
from ..state.layout import checks_cache_path, ledger_path
from .integrity import recorded_file_exists

__all__ = ["ChecksCache", "Computed"]

# What a check computes: its findings, and the names of the extra files it read (whose
# identities join its key next time).
Computed = tuple[list[Finding], Iterable[str]]

_Identity = FileIdentity | None


class ChecksCache:
    """The cached cross-file findings of one debate folder (or none, with `enabled` False)."""

    def __init__(self, debate: Debate, enabled: bool = True) -> None:
        self.debate = debate
        self.enabled = enabled
        self.path = checks_cache_path(debate.folder)
        self.records: dict[str, Any] = load_shard(self.path) if enabled else {}
        self.used: set[str] = set()
        self.changed = False
        self.roster = tuple(sorted(debate.participants))
        self.sealed = bool(debate.task and debate.task.sealed)
        self._prefix = os.path.join(debate.folder, "")

    def _state(self, name: str) -> object:
        """What a turn-file name is now: its identity when it is a visible turn, else whether it exists."""
        turn_name = parse_turn_name(name)
        turn_file = self.debate.scan.entry(turn_name.turn, turn_name.slug) if turn_name else None
        if turn_file is not None:
            return turn_file.identity
        return recorded_file_exists(self.debate.folder, name, self.sealed)

    def _turn_files(self, turn: int) -> list[tuple[str, _Identity]]:
        by_slug = self.debate.scan.by_slug
        return sorted((t.filename, t.identity) for t in (turns.get(turn) for turns in by_slug.values()) if t)

    def turn(self, turn: int, compute: Callable[[], Computed]) -> list[Finding]:
        """Turn `turn`'s cross-file findings, from the cache while none of their inputs changed."""
        base = (self.roster, self._turn_files(turn), self._turn_files(turn - 1))
        return self._cached(f"turn-{turn}", base, compute)

    def ledger(self, slug: str, compute: Callable[[], Computed]) -> list[Finding]:
        """Slug `slug`'s ledger findings, from the cache while the ledger and its files are unchanged."""
        own = sorted((t.filename, t.identity) for t in self.debate.scan.by_slug.get(slug, {}).values())
        base = (self.sealed, lstat_identity(ledger_path(self.debate.folder, slug)), own)
        return self._cached(f"ledger-{slug}", base, compute)

    def _cached(self, key: str, base: object, compute: Callable[[], Computed]) -> list[Finding]:
        self.used.add(key)
        record = self.records.get(key)
        if isinstance(record, list) and len(record) == 3 and isinstance(record[1], list):
            extras = [str(name) for name in record[1]]
            if record[0] == digest_of((base, [(n, self._state(n)) for n in extras])):
                try:
                    return [self._finding(*item) for item in record[2]]
                except (KeyError, TypeError, ValueError):
                    pass  # a damaged record: compute again
        found, read = compute()
        extras = sorted(set(read))
        if self.enabled:
            digest = digest_of((base, [(n, self._state(n)) for n in extras]))
            self.records[key] = [digest, extras, [self._record(f) for f in found]]
            self.changed = True
        return found

    def _record(self, item: Finding) -> list[Any]:
        # paths inside the folder are stored relative to it: the folder may move
        inside = item.path.startswith(self._prefix)
        return [inside, item.path[len(self._prefix):] if inside else item.path, item.line, item.code, item.message]

    def _finding(self, inside: bool, path: str, line: int, code: str, message: str) -> Finding:
        full = os.path.join(self.debate.folder, path) if inside is True else str(path)
        return Finding(full, int(line), str(code), CODES[str(code)].severity, str(message))

    def save(self) -> None:
        """Store what changed, dropping the groups of turns and slugs that are gone."""
        if not self.enabled:
            return
        if self.changed or set(self.records) - self.used:
            store_shard(self.path, {k: v for k, v in self.records.items() if k in self.used})
