"""The parse cache: two JSON shards per turn under `.multidebate/cache/`.

A file's records are reused only while its identity is unchanged: size,
mtime and ctime in nanoseconds, and inode (layout.FileIdentity).  Rewriting
a file changes its ctime, which no user-space call can set back, so an
edited file is never answered from the cache.  The cache is an optimisation
only: a missing, damaged, foreign-version or unwritable cache just means
parsing again.

Each turn has two shards, each mapping a file name to its identity and a
record, so that a command decodes only what it uses:

- `turn-N.json`, the core: what every command needs of every file (an
  Entry: findings, hash, Confidence, Converged); a status of 10,000 files
  decodes only these;
- `turn-N.details.json`: each file's Details (mentions, peers read, claims,
  the Answer's signature and text) and vocabulary, decoded for the turns a
  command compares or checks quotes in, a few turns at a time.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import Any

from ..protocol.answer import AnswerSig
from ..protocol.findings import CODES, Finding
from ..protocol.mentions import Claim, Mention
from ..protocol.profile import PROFILE_V1
from ..version import __version__
from .details import DetailStore
from .entry import Details, Entry, read_entry
from .fingerprint import FileIdentity, same_identity
from .folder import TurnFile
from .jsonstate import loads_state
from .layout import cache_dir, read_state, write_json_state
from .stamp import code_stamp

__all__ = ["CACHE_FORMAT", "ProgressHook", "code_stamp", "load_shard", "read_entries", "report_progress", "store_shard"]

CACHE_FORMAT = 15

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_STAMP = f"{CACHE_FORMAT}:{__version__}:{PROFILE_V1.name}:{code_stamp(_PACKAGE_DIR)}"
_DETAILS = ".details"


def _shard_name(turn: int, kind: str = "") -> str:
    return f"turn-{turn}{kind}.json"


def load_shard(path: str) -> dict[str, Any]:
    """A shard's records; {} when it is missing, damaged or from another version."""
    try:
        data = loads_state(read_state(path))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("stamp") != _STAMP or not isinstance(data.get("files"), dict):
        return {}
    files: dict[str, Any] = data["files"]
    return files


def store_shard(path: str, files: dict[str, Any]) -> None:
    """Replace a shard atomically; a read-only folder or a full disk only means no cache."""
    try:
        write_json_state(path, {"stamp": _STAMP, "files": files})
    except OSError:
        pass  # a read-only folder or a full disk: the next reader parses again


# Told (files parsed so far, turn files in the folder) while files are parsed rather than
# read from the cache: the CLI shows it on a terminal.  The library itself never prints.
ProgressHook = Callable[[int, int], None]
_PROGRESS: list[ProgressHook] = []


def report_progress(hook: ProgressHook | None) -> None:
    """Set (or, with None, clear) the hook told of parsing progress."""
    _PROGRESS[:] = [hook] if hook is not None else []


class _ShardSource:
    """The details shards of a debate, each decoded on first use; a few turns held at a time (the DetailSource).

    The verdict compares turn N with turn N-1 and the quote check walks the
    turns in order, looking a claim up in the previous turn's vocabulary: so
    three decoded shards are enough, and memory stays at three turns'
    details however long the debate.
    """

    _HELD = 3

    def __init__(self, where: str, identities: dict[str, FileIdentity]) -> None:
        self.where = where
        self.identities = identities  # of every turn file whose core record came from the cache
        self.loaded: dict[int, dict[str, Any]] = {}

    def _record(self, entry: Entry) -> list[Any] | None:
        files = self.loaded.get(entry.turn)
        if files is None:
            files = load_shard(os.path.join(self.where, _shard_name(entry.turn, _DETAILS)))
            self.loaded[entry.turn] = files
            while len(self.loaded) > self._HELD:
                del self.loaded[next(iter(self.loaded))]  # the oldest turn decoded
        cached = files.get(entry.filename)
        identity = self.identities.get(entry.filename)
        if isinstance(cached, list) and len(cached) == 7 and same_identity(cached[0], identity):
            return cached[1:]
        self.discard(entry.turn)
        return None

    def discard(self, turn: int) -> None:
        """Drop a details shard that lacks a current file's record: the next reader parses the turn and rewrites it.

        Only a damaged or tampered shard lacks one (every write stores a turn's
        shards together); this run parses the files it needs instead.
        """
        self.loaded.pop(turn, None)
        try:
            os.unlink(os.path.join(self.where, _shard_name(turn, _DETAILS)))
        except OSError:
            pass

    def details(self, entry: Entry) -> Details | None:
        record = self._record(entry)
        if record is None:
            return None
        try:
            mentions, peers_read, claims, sig, answer = record[:5]
            return Details(
                tuple(Mention(str(sec), str(text), int(line), tuple(slugs), bool(everyone), bool(absent))
                      for sec, text, line, slugs, everyone, absent in mentions),
                None if peers_read is None else tuple((str(file), str(digest)) for file, digest in peers_read),
                tuple(Claim(int(line), str(peer), str(text), tuple(terms)) for line, peer, text, terms in claims),
                AnswerSig.from_json(sig), str(answer))
        except (TypeError, ValueError):
            self.discard(entry.turn)
            return None

    def vocabulary(self, entry: Entry) -> str | None:
        record = self._record(entry)
        if record is None or not isinstance(record[5], str):
            return None
        return record[5]


def _core_json(entry: Entry) -> list[Any]:
    """The core record (findings without their path: the cache may move with the folder)."""
    return [[[f.line, f.code, f.message] for f in entry.findings], entry.sha256, entry.readable, entry.confidence,
            entry.converged, entry.converged_reason]


def _details_json(details: Details, vocabulary: str) -> list[Any]:
    # 160 characters keep an item's kind ("minor:", "None") and gist; claims keep their own text
    return [[[m.section, m.text[:160], m.line, list(m.slugs), m.everyone, m.absent] for m in details.mentions],
            None if details.reading_record is None else [list(p) for p in details.reading_record],
            [[c.line, c.peer, c.text, list(c.terms)] for c in details.claims],
            details.sig.as_json(), details.answer, vocabulary]


def _entry_from_core(record: list[Any], turn_file: TurnFile, identity: FileIdentity) -> Entry:
    """An Entry from its core record (KeyError/TypeError/ValueError on a damaged one)."""
    found, sha256, readable, confidence, converged, why = record
    path = turn_file.path
    findings = tuple(Finding(path, int(line), str(code), CODES[str(code)][0], str(message))
                     for line, code, message in found) if found else ()
    if confidence is not None and not isinstance(confidence, int) or converged not in (None, True, False):
        raise ValueError("not a core record")
    return Entry(turn_file.name.turn, turn_file.name.slug, path, findings, identity[1] / 1e9, str(sha256),
                 bool(readable), confidence, converged, str(why), path)


def read_entries(folder: str, turns: Iterable[TurnFile],
                 use_cache: bool = True) -> tuple[dict[tuple[int, str], Entry], DetailStore]:
    """Entries for these turn files, from the cache where a file's identity is unchanged, and their store."""
    by_turn: dict[int, list[TurnFile]] = {}
    for turn_file in turns:
        by_turn.setdefault(turn_file.name.turn, []).append(turn_file)
    total = sum(len(group) for group in by_turn.values())
    where = cache_dir(folder)
    try:
        present = set(os.listdir(where)) if use_cache else set()  # one listing, not a stat per shard
    except OSError:
        present = set()
    source = _ShardSource(where, {})
    store = DetailStore(source if use_cache else None)
    done = 0
    entries: dict[tuple[int, str], Entry] = {}
    for turn, group in sorted(by_turn.items()):
        path = os.path.join(where, _shard_name(turn))
        # a turn whose details shard is missing is parsed again, so that it is written
        complete = use_cache and _shard_name(turn, _DETAILS) in present
        shard = load_shard(path) if complete else {}
        kept: dict[str, Any] = {}
        parsed: dict[str, tuple[FileIdentity, Entry, list[Any]]] = {}
        for turn_file in group:
            name = turn_file.filename
            identity = turn_file.identity
            cached = shard.get(name)
            entry = None
            if identity is not None and isinstance(cached, list) and len(cached) == 2 and same_identity(cached[0], identity):
                try:
                    entry = _entry_from_core(cached[1], turn_file, identity)
                    kept[name] = cached
                    source.identities[name] = identity
                except (KeyError, TypeError, ValueError):
                    entry = None
            if entry is None:
                read = read_entry(turn_file)
                entry = read.entry
                done += 1
                for hook in _PROGRESS:
                    hook(done, total)
                # stream, do not hold: the vocabulary and parse are in the cache (or read again on demand)
                store.remember(entry, read.details, *(() if use_cache else (read.vocabulary, read.parsed)))
                if identity is not None:
                    parsed[name] = (identity, entry, _details_json(read.details, read.vocabulary))
            entries[(turn, turn_file.name.slug)] = entry
        if use_cache and (parsed or len(kept) != len(shard)):
            _rewrite(where, turn, kept, parsed)
            source.identities.update({name: identity for name, (identity, _e, _d) in parsed.items()})
            source.loaded.pop(turn, None)
    return entries, store


def _rewrite(where: str, turn: int, kept: dict[str, Any], parsed: dict[str, tuple[FileIdentity, Entry, list[Any]]]
             ) -> None:
    """Store a turn's shards again: unchanged files keep their records, parsed ones get new ones."""
    core = dict(kept)
    core.update({name: [list(identity), _core_json(entry)] for name, (identity, entry, _d) in parsed.items()})
    store_shard(os.path.join(where, _shard_name(turn)), core)
    if not parsed:
        return  # only files gone: the details shard's extra records are harmless and ignored
    details_path = os.path.join(where, _shard_name(turn, _DETAILS))
    old = load_shard(details_path)
    side = {n: v for n, v in old.items() if n in kept}
    side.update({name: [list(identity), *record] for name, (identity, _e, record) in parsed.items()})
    store_shard(details_path, side)
