"""The parse cache: JSON shards per turn under `.multidebate/cache/`.

A file's summary is reused only while its identity is unchanged: size,
mtime and ctime in nanoseconds, and inode.  Rewriting a file changes its
ctime, which no user-space call can set back, so an edited file is never
answered from the cache.  The cache is an optimisation only: a missing,
damaged, foreign-version or unwritable cache just means parsing again.

Each turn has four shards, each mapping a file name to its identity and a
record, so that a command decodes only what it uses:

- `turn-N.json`: what every command needs of every file (findings, hash,
  Confidence, Converged); a status of 10,000 files decodes only these;
- `turn-N.refs.json`: mentions, peers read and claims (validate, and the
  verdict's notes on the last turn);
- `turn-N.sig.json`: the Answer's text and signature, for the turns a
  command compares;
- `turn-N.vocab.json`: each file's vocabulary, for the quote check, held one
  turn at a time.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from typing import Any

from .. import __version__
from ..protocol.answer import AnswerSig
from ..protocol.findings import CODES, Finding
from ..protocol.mentions import Claim, Mention
from ..protocol.profile import PROFILE_V1
from .atomic import replace_file
from .entry import Entry, Refs, read_entry
from .folder import STATE_DIR, TurnEntry
from .layout import make_state_dirs, read_state

__all__ = ["CACHE_FORMAT", "ProgressHook", "cache_dir", "code_stamp", "load_shard", "read_entries", "report_progress",
           "store_shard"]

CACHE_FORMAT = 14


def code_stamp(package_dir: str) -> str:
    """A stamp of the code that produced a cache: the size and mtime of every module of the package.

    The version alone does not change while the code is being worked on (or
    when a local build replaces an install), and a parsing change would then
    be answered from records the old code made.  Every module counts, not a
    hand-kept list of the ones that parse: such a list once missed the ledger,
    and a warm `validate` printed an old message until the cache was deleted.
    Stat, not read: about 60 stats, a fraction of a millisecond at start-up.
    Only integers are hashed (a string's hash differs between processes);
    the paths count through their sorted order.
    """
    parts: list[tuple[int, int]] = []
    for path in _modules(package_dir):
        try:
            info = os.stat(path)
            parts.append((info.st_size, info.st_mtime_ns))
        except OSError:
            parts.append((-1, -1))
    return f"{hash((len(parts), tuple(parts))) & 0xFFFFFFFFFFFF:012x}"


def _modules(directory: str) -> list[str]:
    """Every `.py` file under `directory`, in a stable order (compiled caches left out)."""
    found: list[str] = []
    try:
        with os.scandir(directory) as listing:
            items = sorted(listing, key=lambda item: item.name)
    except OSError:
        return found
    for item in items:
        if item.name.endswith(".py") and item.is_file(follow_symlinks=False):
            found.append(item.path)
        elif item.is_dir(follow_symlinks=False) and item.name != "__pycache__" and not item.name.startswith("."):
            found.extend(_modules(item.path))
    return found


_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_STAMP = f"{CACHE_FORMAT}:{__version__}:{PROFILE_V1.name}:{code_stamp(_PACKAGE_DIR)}"
_SIDES = (".refs", ".sig", ".vocab")


def cache_dir(folder: str) -> str:
    return os.path.join(folder, STATE_DIR, "cache")


def _shard_name(turn: int, kind: str = "") -> str:
    return f"turn-{turn}{kind}.json"


def load_shard(path: str) -> dict[str, Any]:
    """A shard's records; {} when it is missing, damaged or from another version."""
    try:
        data = json.loads(read_state(path))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("stamp") != _STAMP or not isinstance(data.get("files"), dict):
        return {}
    files: dict[str, Any] = data["files"]
    return files


def store_shard(path: str, files: dict[str, Any]) -> None:
    """Replace a shard atomically; a read-only folder or a full disk only means no cache."""
    # dumps, not dump: dump streams through the pure-Python encoder, dumps runs in C
    data = json.dumps({"stamp": _STAMP, "files": files}, separators=(",", ":")).encode("utf-8")
    try:
        make_state_dirs(os.path.dirname(path))
        replace_file(path, data, ".cache-")
    except OSError:
        pass  # a read-only folder or a full disk: the next reader parses again


# Told (files parsed so far, turn files in the folder) while files are parsed rather than
# read from the cache: the CLI shows it on a terminal.  The library itself never prints.
ProgressHook = Callable[[int, int], None]
_PROGRESS: list[ProgressHook] = []


def report_progress(hook: ProgressHook | None) -> None:
    """Set (or, with None, clear) the hook told of parsing progress."""
    _PROGRESS[:] = [hook] if hook is not None else []


# One vocabulary shard at a time: the quote check walks the turns in order, so
# memory stays at one turn's vocabulary however long the debate.
_VOCAB_SLOT: dict[str, Any] = {"path": None, "files": {}}


class _TurnDetails:
    """One turn's side shards, each read on first use (the entry's `Details`)."""

    def __init__(self, where: str, turn: int, identities: dict[str, list[int]]) -> None:
        self.paths = {kind: os.path.join(where, _shard_name(turn, kind)) for kind in _SIDES}
        self.identities = identities
        self.loaded: dict[str, dict[str, Any]] = {}

    def _take(self, kind: str, name: str, size: int) -> list[Any] | None:
        """The record of `name` in a side shard, when its identity matches; handed over, not kept."""
        files = self.loaded.get(kind)
        if files is None:
            files = self.loaded[kind] = load_shard(self.paths[kind])
        cached = files.pop(name, None)  # each entry asks once and keeps the built value
        if isinstance(cached, list) and len(cached) == size + 1 and cached[0] == self.identities.get(name):
            return cached[1:]
        self.discard(kind)
        return None

    def discard(self, kind: str) -> None:
        """Drop a side shard that lacks a current file's record: the next reader parses the turn and rewrites it.

        Only a damaged or tampered shard lacks one (every write stores a turn's
        shards together); this run parses the files it needs instead.
        """
        try:
            os.unlink(self.paths[kind])
        except OSError:
            pass

    def refs(self, name: str) -> Refs | None:
        record = self._take(".refs", name, 3)
        if record is None:
            return None
        try:
            mentions, peers_read, claims = record
            return (
                tuple(Mention(str(sec), str(text), int(line), tuple(slugs), bool(everyone), bool(absent))
                      for sec, text, line, slugs, everyone, absent in mentions),
                None if peers_read is None else tuple((str(file), str(digest)) for file, digest in peers_read),
                tuple(Claim(int(line), str(peer), str(text), tuple(terms)) for line, peer, text, terms in claims),
            )
        except (TypeError, ValueError):
            self.discard(".refs")
            return None

    def sig(self, name: str) -> tuple[AnswerSig, str] | None:
        record = self._take(".sig", name, 2)
        if record is None:
            return None
        try:
            return AnswerSig.from_json(record[0]), str(record[1])
        except (KeyError, TypeError, ValueError, AssertionError):
            self.discard(".sig")
            return None

    def vocab(self, name: str) -> str | None:
        # not `_take`: the quote check asks for a peer's vocabulary once per claim on it
        path = self.paths[".vocab"]
        if _VOCAB_SLOT["path"] != path:
            _VOCAB_SLOT["path"], _VOCAB_SLOT["files"] = path, load_shard(path)
        cached = _VOCAB_SLOT["files"].get(name)
        if isinstance(cached, list) and len(cached) == 2 and cached[0] == self.identities.get(name) \
                and isinstance(cached[1], str):
            return cached[1]
        self.discard(".vocab")
        return None


def _core_json(entry: Entry) -> list[Any]:
    """The core record (findings without their path: the cache may move with the folder)."""
    return [[[f.line, f.code, f.message] for f in entry.findings], entry.sha256, entry.readable, entry.confidence,
            entry.converged, entry.converged_reason]


def _side_json(entry: Entry) -> dict[str, list[Any]]:
    return {
        # 160 characters keep an item's kind ("minor:", "None") and gist; claims keep their own text
        ".refs": [[[m.section, m.text[:160], m.line, list(m.slugs), m.everyone, m.absent] for m in entry.mentions],
                  None if entry.reading_record is None else [list(p) for p in entry.reading_record],
                  [[c.line, c.peer, c.text, list(c.terms)] for c in entry.claims]],
        ".sig": [entry.sig.as_json(), entry.answer],
        ".vocab": [entry.vocab],
    }


def _entry_from_core(record: list[Any], turn_entry: TurnEntry, details: _TurnDetails) -> Entry:
    """An Entry from its core record (KeyError/TypeError/ValueError on a damaged one)."""
    found, sha256, readable, confidence, converged, why = record
    path = turn_entry.path
    findings = tuple(Finding(path, int(line), str(code), CODES[str(code)][0], str(message))
                     for line, code, message in found) if found else ()
    assert turn_entry.identity is not None
    return Entry(turn_entry.name.turn, turn_entry.name.slug, path, findings, turn_entry.identity[1] / 1e9,
                 str(sha256), bool(readable), confidence, converged, str(why), path, details)


def read_entries(folder: str, turns: Iterable[TurnEntry], use_cache: bool = True) -> dict[tuple[int, str], Entry]:
    """Entries for these turn files, from the cache where a file's identity is unchanged."""
    by_turn: dict[int, list[TurnEntry]] = {}
    for turn_entry in turns:
        by_turn.setdefault(turn_entry.name.turn, []).append(turn_entry)
    total = sum(len(group) for group in by_turn.values())
    where = cache_dir(folder)
    try:
        present = set(os.listdir(where)) if use_cache else set()  # one listing, not a stat per shard
    except OSError:
        present = set()
    done = 0
    entries: dict[tuple[int, str], Entry] = {}
    for turn, group in sorted(by_turn.items()):
        path = os.path.join(where, _shard_name(turn))
        # a turn whose side shards are not all there is parsed again, so that they are written
        complete = use_cache and all(_shard_name(turn, kind) in present for kind in _SIDES)
        shard = load_shard(path) if complete else {}
        identities = {t.filename: list(t.identity) for t in group if t.identity is not None}
        details = _TurnDetails(where, turn, identities)
        kept: dict[str, Any] = {}
        parsed: dict[str, Entry] = {}
        for turn_entry in group:
            name = turn_entry.filename
            identity = identities.get(name)
            cached = shard.get(name)
            entry = None
            if identity is not None and isinstance(cached, list) and len(cached) == 2 and cached[0] == identity:
                try:
                    entry = _entry_from_core(cached[1], turn_entry, details)
                    kept[name] = cached
                except (KeyError, TypeError, ValueError, AssertionError):
                    entry = None
            if entry is None:
                entry = read_entry(turn_entry)
                done += 1
                for hook in _PROGRESS:
                    hook(done, total)
                if identity is not None:
                    parsed[name] = entry
            entries[(turn, turn_entry.name.slug)] = entry
        if use_cache and (parsed or len(kept) != len(shard)):
            _rewrite(path, details, kept, parsed)
            for entry in parsed.values():
                # stream, do not hold: the text and vocabulary are in the cache (or re-read on demand)
                entry.details = details
                entry.__dict__.pop("parsed", None)
                entry.__dict__.pop("_vocab", None)
    return entries


def _rewrite(path: str, details: _TurnDetails, kept: dict[str, Any], parsed: dict[str, Entry]) -> None:
    """Store a turn's shards again: unchanged files keep their records, parsed ones get new ones."""
    core = dict(kept)
    core.update({name: [details.identities[name], _core_json(entry)] for name, entry in parsed.items()})
    store_shard(path, core)
    if not parsed:
        return  # only files gone: the side shards' extra records are harmless and ignored
    fresh = {name: _side_json(entry) for name, entry in parsed.items()}
    for kind in _SIDES:
        old = load_shard(details.paths[kind])  # from disk: the loaded copy hands its records over
        side = {n: v for n, v in old.items() if n in kept}
        side.update({name: [details.identities[name], *records[kind]] for name, records in fresh.items()})
        store_shard(details.paths[kind], side)
    _VOCAB_SLOT["path"] = None
