"""One turn file as the commands need it: a compact summary, and the full parse only on demand.

`status`, `validate` and `next` need a file's values, findings, mentions and
the signature of its Answer, not its text; the summary holds exactly that and
is what the cache (cache.py) stores.  `parsed` re-reads the file lazily for
the few callers that need whole sections (report, analysis).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from functools import cached_property
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .findings import CODES, Finding
from .folder import TurnEntry
from .mentions import Claim, Mention, claims_of
from .similarity import AnswerSig, key_terms, signature
from .textfile import read_text

if TYPE_CHECKING:
    from .parse import ParsedTurn

__all__ = ["Entry", "read_entry", "entry_to_json", "entry_from_json", "sig_to_json", "sig_from_json"]

_EMPTY_SIG = signature("")


@dataclass(eq=False)  # not frozen: frozen dataclasses are slow to build, and 10,000 come from the cache
class Entry:
    """One turn file: where it is, what it says, and its findings."""

    turn: int
    slug: str
    path: str
    findings: tuple[Finding, ...]
    mtime: float
    sha256: str
    readable: bool = False
    confidence: int | None = None
    converged: bool | None = None
    converged_reason: str = ""
    mentions_json: list[Any] = field(default_factory=list, repr=False)
    peers_read: tuple[tuple[str, str], ...] = ()
    shown_as: str = ""
    claims_json: list[Any] = field(default_factory=list, repr=False)
    # Where the Answer's signature and the file's vocabulary come from when they are
    # not computed here: the cache loads them only for the turns a command looks at.
    loader: Callable[[], tuple[AnswerSig, str] | None] | None = field(default=None, repr=False)
    vocab_loader: Callable[[], str | None] | None = field(default=None, repr=False)

    # Mentions and claims are built from their cached JSON only when asked for: a status
    # of 10,000 files looks at the mentions of one turn, not of all.
    @cached_property
    def mentions(self) -> tuple[Mention, ...]:
        """Agreements and Disagreements items and the peers they name."""
        built = tuple(Mention(str(sec), str(text), int(line), tuple(slugs), bool(everyone), bool(absent))
                      for sec, text, line, slugs, everyone, absent in self.mentions_json)
        self.mentions_json = []  # built once: do not hold both forms
        return built

    @cached_property
    def claims(self) -> tuple[Claim, ...]:
        """What this turn attributes to peers, for the quote check."""
        built = tuple(Claim(int(line), str(peer), str(text), tuple(terms)) for line, peer, text, terms in self.claims_json)
        self.claims_json = []
        return built

    @cached_property
    def _detail(self) -> tuple[AnswerSig, str]:
        loaded = self.loader() if self.loader is not None else None
        if loaded is not None:
            return loaded
        parsed = self.parsed
        if parsed is None:
            return _EMPTY_SIG, ""
        return signature(parsed.answer), parsed.answer

    @property
    def sig(self) -> AnswerSig:
        """The signature of the Answer (what the comparison needs)."""
        return self._detail[0]

    @property
    def vocab(self) -> str:
        """Every key term of the file, unsigned and space-separated: for the quote check.

        Not kept on the entry (a validate of 10,000 files would hold them all):
        loaded from the cache, or computed, each time it is asked for.
        """
        known = self.__dict__.get("_vocab")
        if isinstance(known, str):
            return known
        loaded = self.vocab_loader() if self.vocab_loader is not None else None
        if loaded is not None:
            return loaded
        return _vocabulary(self.parsed) if self.parsed is not None else ""

    @property
    def valid(self) -> bool:
        return not any(f.severity == "error" for f in self.findings)

    @cached_property
    def parsed(self) -> "ParsedTurn | None":
        """The full parse, read again from the file (None when it cannot be read as a turn)."""
        read = read_text(self.path, shown_as=self.shown_as or self.path)
        if read.text is None:
            return None
        from .naming import TurnName
        from .parse import parse_turn  # the markdown parser loads only when a file is parsed

        return parse_turn(read.text, self.shown_as or self.path, TurnName(self.turn, self.slug))

    @property
    def answer(self) -> str:
        """The Answer section's text (from the cache when the file is unchanged)."""
        return self._detail[1]


def _peers_read(parsed: "ParsedTurn") -> tuple[tuple[str, str], ...]:
    raw: Any = parsed.metadata.get("peers_read")
    pairs = []
    if isinstance(raw, list):
        for item in raw[:1000]:
            if isinstance(item, dict) and isinstance(item.get("file"), str) and isinstance(item.get("sha256"), str):
                pairs.append((item["file"], item["sha256"]))
    return tuple(pairs)


def _vocabulary(parsed: "ParsedTurn") -> str:
    return " ".join(sorted(key_terms("\n".join(s.body for s in parsed.sections.values()), signed=False)))


def read_entry(entry: TurnEntry, shown_as: str | None = None) -> Entry:
    """Read and parse one turn file; never raises."""
    name = shown_as or entry.path
    read = read_text(entry.path, shown_as=name)
    try:
        mtime = os.lstat(entry.path).st_mtime
    except OSError:
        mtime = 0.0
    if read.text is None:
        return Entry(entry.name.turn, entry.name.slug, entry.path, read.findings, mtime, "", shown_as=name)
    from .parse import parse_turn

    parsed = parse_turn(read.text, name, entry.name)
    findings = tuple(sorted(read.findings + parsed.findings))
    result = Entry(entry.name.turn, entry.name.slug, entry.path, findings, mtime,
                   hashlib.sha256(read.raw).hexdigest(), True, parsed.confidence, parsed.converged,
                   parsed.converged_reason, [], _peers_read(parsed), name)
    result.__dict__["mentions"] = parsed.mentions
    result.__dict__["claims"] = claims_of(parsed.mentions, entry.name.slug) if entry.name.turn > 1 else ()
    result.__dict__["parsed"] = parsed  # already parsed: spare the lazy re-read
    result.__dict__["_detail"] = (signature(parsed.answer), parsed.answer)
    result.__dict__["_vocab"] = _vocabulary(parsed)
    return result


def entry_to_json(entry: Entry) -> dict[str, Any]:
    """The summary as JSON (findings without their path: the cache may move with the folder)."""
    return {
        "f": [[f.line, f.code, f.message] for f in entry.findings],
        "m": entry.mtime, "h": entry.sha256, "r": entry.readable, "c": entry.confidence, "v": entry.converged,
        "why": entry.converged_reason,
        # 160 characters keep an item's kind ("minor:", "None") and gist; claims keep their own text
        "men": [[m.section, m.text[:160], m.line, list(m.slugs), m.everyone, m.absent] for m in entry.mentions],
        "pr": [list(p) for p in entry.peers_read],
        "cl": [[c.line, c.peer, c.text, list(c.terms)] for c in entry.claims],
    }


def sig_to_json(entry: Entry) -> list[Any]:
    return [entry.sig.as_json(), entry.answer]


def sig_from_json(data: list[Any]) -> tuple[AnswerSig, str]:
    sig, answer = data
    return AnswerSig.from_json(sig), str(answer)


def entry_from_json(data: dict[str, Any], turn_entry: TurnEntry,
                    loader: Callable[[], tuple[AnswerSig, str] | None] | None = None,
                    vocab_loader: Callable[[], str | None] | None = None) -> Entry:
    """An Entry from its cached summary (KeyError/TypeError/ValueError on a damaged record)."""
    path = turn_entry.path
    findings = tuple(Finding(path, int(line), str(code), CODES[str(code)][0], str(message))
                     for line, code, message in data["f"])
    return Entry(turn_entry.name.turn, turn_entry.name.slug, path, findings, float(data["m"]), str(data["h"]),
                 bool(data["r"]), data["c"], data["v"], str(data["why"]), list(data["men"]),
                 tuple((str(a), str(b)) for a, b in data["pr"]), path, list(data["cl"]), loader, vocab_loader)
