"""One turn file as the commands need it: a compact summary, and the full parse only on demand.

`status`, `validate` and `next` need a file's values, findings, mentions and
the signature of its Answer, not its text; the summary holds exactly that and
is what the cache (cache.py) stores.  `parsed` re-reads the file lazily for
the few callers that need whole sections (report, analysis).
"""

from __future__ import annotations

import os
from functools import cached_property
from typing import TYPE_CHECKING, Any, Protocol

from ..protocol.answer import AnswerSig, signature
from ..protocol.findings import Finding
from ..protocol.mentions import Claim, Mention, claims_of
from ..protocol.terms import key_terms
from ..protocol.textfile import read_text
from .folder import TurnEntry

if TYPE_CHECKING:
    from ..protocol.parse import ParsedTurn

__all__ = ["Details", "Entry", "Refs", "read_entry"]

# What a turn says about its peers: mentions, the (file, sha256) pairs it read (None: no
# record kept), claims.
Refs = tuple[tuple[Mention, ...], tuple[tuple[str, str], ...] | None, tuple[Claim, ...]]


class Details(Protocol):
    """Where an entry's heavier parts come from when they were not computed here: the cache.

    Each method answers None when it has nothing valid for the file (then the
    entry parses its file again).  A status of 10,000 files asks for the
    mentions and signatures of a few turns only.
    """

    def refs(self, name: str) -> Refs | None:
        """Mentions, peers read and claims."""

    def sig(self, name: str) -> tuple[AnswerSig, str] | None:
        """The Answer's signature and text."""

    def vocab(self, name: str) -> str | None:
        """The file's key terms, space-separated."""


class Entry:
    """One turn file: where it is, what it says, and its findings.

    A plain class (compared by identity): 10,000 come from the cache on a
    status of a big debate, and a dataclass also costs a millisecond to create
    at import.
    """

    def __init__(self, turn: int, slug: str, path: str, findings: tuple[Finding, ...], mtime: float, sha256: str,
                 readable: bool = False, confidence: int | None = None, converged: bool | None = None,
                 converged_reason: str = "", shown_as: str = "", details: Details | None = None) -> None:
        self.turn = turn
        self.slug = slug
        self.path = path
        self.findings = findings
        self.mtime = mtime
        self.sha256 = sha256
        self.readable = readable
        self.confidence = confidence
        self.converged = converged
        self.converged_reason = converged_reason
        self.shown_as = shown_as
        self.details = details

    def __repr__(self) -> str:
        return f"Entry({self.path!r}, confidence={self.confidence}, converged={self.converged})"

    @property
    def filename(self) -> str:
        return f"turn-{self.turn}-{self.slug}.md"

    @cached_property
    def _refs(self) -> Refs:
        loaded = self.details.refs(self.filename) if self.details is not None else None
        if loaded is not None:
            return loaded
        parsed = self.parsed
        if parsed is None:
            return (), (), ()
        claims = claims_of(parsed.mentions, self.slug) if self.turn > 1 else ()
        return parsed.mentions, _peers_read(parsed), claims

    @property
    def mentions(self) -> tuple[Mention, ...]:
        """Agreements and Disagreements items and the peers they name."""
        return self._refs[0]

    @property
    def peers_read(self) -> tuple[tuple[str, str], ...]:
        """The (file, sha256) pairs its frontmatter says it read."""
        return self._refs[1] or ()

    @property
    def reading_record(self) -> tuple[tuple[str, str], ...] | None:
        """Like peers_read, but None when the file keeps no record (hand-written): then what it saw is unknown."""
        return self._refs[1]

    @property
    def claims(self) -> tuple[Claim, ...]:
        """What this turn attributes to peers, for the quote check."""
        return self._refs[2]

    @cached_property
    def _detail(self) -> tuple[AnswerSig, str]:
        loaded = self.details.sig(self.filename) if self.details is not None else None
        if loaded is not None:
            return loaded
        parsed = self.parsed
        if parsed is None:
            return signature(""), ""
        return signature(parsed.answer), parsed.answer

    @property
    def sig(self) -> AnswerSig:
        """The signature of the Answer (what the comparison needs)."""
        return self._detail[0]

    @property
    def answer(self) -> str:
        """The Answer section's text (from the cache when the file is unchanged)."""
        return self._detail[1]

    @property
    def vocab(self) -> str:
        """Every key term of the file, unsigned and space-separated: for the quote check.

        Not kept on the entry (a validate of 10,000 files would hold them all):
        loaded from the cache, or computed, each time it is asked for.
        """
        known = self.__dict__.get("_vocab")
        if isinstance(known, str):
            return known
        loaded = self.details.vocab(self.filename) if self.details is not None else None
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
        from ..protocol.naming import TurnName
        from ..protocol.parse import parse_turn  # the markdown parser loads only when a file is parsed

        return parse_turn(read.text, self.shown_as or self.path, TurnName(self.turn, self.slug))


def _peers_read(parsed: "ParsedTurn") -> tuple[tuple[str, str], ...] | None:
    """The frontmatter's record of the peer files served; None when the file keeps none (hand-written)."""
    raw: Any = parsed.metadata.get("peers_read")
    if not isinstance(raw, list):
        return None
    pairs = []
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
    import hashlib  # only a file being parsed needs it, not a start from the cache

    from ..protocol.parse import parse_turn

    parsed = parse_turn(read.text, name, entry.name)
    findings = tuple(sorted(read.findings + parsed.findings))
    result = Entry(entry.name.turn, entry.name.slug, entry.path, findings, mtime,
                   hashlib.sha256(read.raw).hexdigest(), True, parsed.confidence, parsed.converged,
                   parsed.converged_reason, shown_as=name)
    claims = claims_of(parsed.mentions, entry.name.slug) if entry.name.turn > 1 else ()
    result.__dict__["_refs"] = (parsed.mentions, _peers_read(parsed), claims)
    result.__dict__["parsed"] = parsed  # already parsed: spare the lazy re-read
    result.__dict__["_detail"] = (signature(parsed.answer), parsed.answer)
    result.__dict__["_vocab"] = _vocabulary(parsed)
    return result
