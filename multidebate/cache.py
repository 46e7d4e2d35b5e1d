"""The parse cache: JSON shards per turn under `.multidebate/cache/`.

A file's summary is reused only while its identity is unchanged: size,
mtime and ctime in nanoseconds, and inode.  Rewriting a file changes its
ctime, which no user-space call can set back, so an edited file is never
answered from the cache.  The cache is an optimisation only: a missing,
damaged, foreign-version or unwritable cache just means parsing again.

Each turn has three shards: `turn-N.json` holds what every command needs of
a file (values, findings, mentions, claims); `turn-N.sig.json` the Answer's
text and signature, loaded only for the turns a command compares (a status
of 100 turns reads a handful); `turn-N.vocab.json` each file's vocabulary,
for the quote check, one turn at a time.
"""

from __future__ import annotations

import functools
import json
import os
import tempfile
from collections.abc import Iterable
from typing import Any

from . import __version__
from .entry import Entry, entry_from_json, entry_to_json, read_entry, sig_from_json, sig_to_json
from .folder import STATE_DIR, TurnEntry
from .profile import PROFILE_V1
from .similarity import AnswerSig

__all__ = ["read_entries", "CACHE_FORMAT"]

CACHE_FORMAT = 6
_STAMP = f"{CACHE_FORMAT}:{__version__}:{PROFILE_V1.name}"


def _shard_path(folder: str, turn: int, kind: str = "") -> str:
    return os.path.join(folder, STATE_DIR, "cache", f"turn-{turn}{kind}.json")


def _load(path: str) -> dict[str, Any]:
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("stamp") != _STAMP or not isinstance(data.get("files"), dict):
        return {}
    files: dict[str, Any] = data["files"]
    return files


def _store(path: str, files: dict[str, Any]) -> None:
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".cache-", dir=os.path.dirname(path))
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump({"stamp": _STAMP, "files": files}, handle, separators=(",", ":"))
        os.replace(tmp, path)
    except OSError:
        pass  # read-only folder or full disk: the next reader parses again


class _SigShard:
    """A turn's signature shard, read on first use."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.files: dict[str, Any] | None = None

    def get(self, name: str, identity: list[int]) -> tuple[AnswerSig, str] | None:
        if self.files is None:
            self.files = _load(self.path)
        cached = self.files.get(name)
        if not (isinstance(cached, list) and len(cached) == 2 and cached[0] == identity):
            return None  # the entry falls back to parsing its file
        try:
            return sig_from_json(cached[1])
        except (KeyError, TypeError, ValueError, AssertionError):
            return None


# One vocabulary shard at a time: the quote check walks the turns in order, so
# memory stays at one turn's vocabulary however long the debate.
_VOCAB_SLOT: dict[str, Any] = {"path": None, "files": {}}


def _vocab(path: str, name: str, identity: list[int]) -> str | None:
    if _VOCAB_SLOT["path"] != path:
        _VOCAB_SLOT["path"], _VOCAB_SLOT["files"] = path, _load(path)
    cached = _VOCAB_SLOT["files"].get(name)
    if isinstance(cached, list) and len(cached) == 2 and cached[0] == identity and isinstance(cached[1], str):
        return cached[1]
    return None


def read_entries(folder: str, turns: Iterable[TurnEntry], use_cache: bool = True) -> dict[tuple[int, str], Entry]:
    """Entries for these turn files, from the cache where a file's identity is unchanged."""
    by_turn: dict[int, list[TurnEntry]] = {}
    for turn_entry in turns:
        by_turn.setdefault(turn_entry.name.turn, []).append(turn_entry)
    entries: dict[tuple[int, str], Entry] = {}
    for turn, group in sorted(by_turn.items()):
        path = _shard_path(folder, turn)
        shard = _load(path) if use_cache else {}
        sigs = _SigShard(_shard_path(folder, turn, ".sig"))
        vocab_path = _shard_path(folder, turn, ".vocab")
        fresh: dict[str, Any] = {}
        fresh_sigs: dict[str, Any] = {}
        fresh_vocab: dict[str, Any] = {}
        for turn_entry in group:
            name = turn_entry.filename
            identity = list(turn_entry.identity) if turn_entry.identity else None
            cached = shard.get(name)
            entry = None
            if identity is not None and isinstance(cached, list) and len(cached) == 2 and cached[0] == identity:
                try:
                    entry = entry_from_json(cached[1], turn_entry, functools.partial(sigs.get, name, identity),
                                            functools.partial(_vocab, vocab_path, name, identity))
                    fresh[name] = cached
                except (KeyError, TypeError, ValueError, AssertionError):
                    entry = None
            if entry is None:
                entry = read_entry(turn_entry)
                if identity is not None:
                    fresh[name] = [identity, entry_to_json(entry)]
                    fresh_sigs[name] = [identity, sig_to_json(entry)]
                    fresh_vocab[name] = [identity, entry.vocab]
            entries[(turn, turn_entry.name.slug)] = entry
        if use_cache and (fresh_sigs or len(fresh) != len(shard)):
            _store(path, fresh)
            if fresh_sigs:
                # keep the signatures of unchanged files, replace the changed ones
                old = sigs.files if sigs.files is not None else _load(sigs.path)
                merged = {n: v for n, v in old.items() if n in fresh and n not in fresh_sigs}
                merged.update(fresh_sigs)
                _store(sigs.path, merged)
                old_vocab = _load(vocab_path)
                kept = {n: v for n, v in old_vocab.items() if n in fresh and n not in fresh_vocab}
                kept.update(fresh_vocab)
                _store(vocab_path, kept)
                _VOCAB_SLOT["path"] = None
    return entries
