"""One turn file as the commands need it: `Entry`, a plain value, and its heavier `Details`.

`status`, `validate` and `next` need a file's values and findings, not its
text: an Entry holds exactly that, and it is what the cache's core shard
stores for every file.  What only some commands need of a file (the mentions,
its record of the peer files it read, its claims on peers, the Answer's
signature and text) is its `Details`, asked of the debate's store
(`debate.details(entry)`, see details.py), which has it from this run's
parse, from the cache's details shard, or parses the file again.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, NamedTuple

from ..protocol.answer import AnswerSig, signature
from ..protocol.findings import Finding
from ..protocol.mentions import Claim, Mention, claims_of
from ..protocol.naming import TurnName
from ..protocol.terms import key_terms
from ..protocol.textfile import read_text
from .folder import TurnFile

if TYPE_CHECKING:
    from ..protocol.parse import ParsedTurn

__all__ = ["Details", "Entry", "ReadTurn", "details_of", "no_details", "parse_entry", "read_entry", "vocabulary_of"]


class Entry(NamedTuple):
    """One turn file: where it is, what it says of itself, and its findings (as flake8's Violation, a value)."""

    turn: int
    slug: str
    path: str
    findings: tuple[Finding, ...]
    mtime: float
    sha256: str  # "" when the file could not be read
    readable: bool = False
    confidence: int | None = None
    converged: bool | None = None
    converged_reason: str = ""
    shown_as: str = ""  # the name messages use for the file

    @property
    def filename(self) -> str:
        return f"turn-{self.turn}-{self.slug}.md"

    @property
    def valid(self) -> bool:
        return not any(f.severity == "error" for f in self.findings)


class Details(NamedTuple):
    """What a turn says beyond its own values: of its peers, and its Answer as the comparison needs it."""

    mentions: tuple[Mention, ...]  # Agreements and Disagreements items and the peers they name
    reading_record: tuple[tuple[str, str], ...] | None  # (file, sha256) served; None: hand-written, unknown
    claims: tuple[Claim, ...]  # what this turn attributes to peers, for the quote check
    sig: AnswerSig
    answer: str  # the Answer section's text

    @property
    def peers_read(self) -> tuple[tuple[str, str], ...]:
        """The (file, sha256) pairs its frontmatter says it read (none when it keeps no record)."""
        return self.reading_record or ()


def no_details() -> Details:
    """The details of a file that cannot be read as a turn."""
    return Details((), (), (), signature(""), "")


def details_of(parsed: ParsedTurn, name: TurnName) -> Details:
    claims = claims_of(parsed.mentions, name.slug) if name.turn > 1 else ()
    return Details(parsed.mentions, _peers_read(parsed), claims, signature(parsed.answer), parsed.answer)


def vocabulary_of(parsed: ParsedTurn) -> str:
    """Every key term of the file, unsigned and space-separated: what the quote check looks quotes up in."""
    return " ".join(sorted(key_terms("\n".join(s.body for s in parsed.sections.values()), signed=False)))


def _peers_read(parsed: ParsedTurn) -> tuple[tuple[str, str], ...] | None:
    """The frontmatter's record of the peer files served; None when the file keeps none (hand-written)."""
    raw: Any = parsed.metadata.get("peers_read")
    if not isinstance(raw, list):
        return None
    pairs = []
    for item in raw[:1000]:
        if isinstance(item, dict) and isinstance(item.get("file"), str) and isinstance(item.get("sha256"), str):
            pairs.append((item["file"], item["sha256"]))
    return tuple(pairs)


def parse_entry(entry: Entry) -> ParsedTurn | None:
    """The full parse of an entry's file, read again (None when it cannot be read as a turn)."""
    read = read_text(entry.path, shown_as=entry.shown_as or entry.path)
    if read.text is None:
        return None
    from ..protocol.parse import (
        parse_turn,  # the markdown parser loads only when a file is parsed
    )

    return parse_turn(read.text, entry.shown_as or entry.path, TurnName(entry.turn, entry.slug))


class ReadTurn(NamedTuple):
    """A turn file read and parsed in full: its entry, and what a cache or a store keeps of it."""

    entry: Entry
    details: Details
    vocabulary: str
    parsed: ParsedTurn | None


def read_entry(turn_file: TurnFile, shown_as: str | None = None) -> ReadTurn:
    """Read and parse one turn file; never raises."""
    name = shown_as or turn_file.path
    read = read_text(turn_file.path, shown_as=name)
    try:
        mtime = os.lstat(turn_file.path).st_mtime
    except OSError:
        mtime = 0.0
    turn, slug = turn_file.name.turn, turn_file.name.slug
    if read.text is None:
        return ReadTurn(Entry(turn, slug, turn_file.path, read.findings, mtime, "", shown_as=name), no_details(),
                        "", None)
    import hashlib  # only a file being parsed needs it, not a start from the cache

    from ..protocol.parse import parse_turn

    parsed = parse_turn(read.text, name, turn_file.name)
    findings = tuple(sorted(read.findings + parsed.findings))
    entry = Entry(turn, slug, turn_file.path, findings, mtime, hashlib.sha256(read.raw).hexdigest(), True,
                  parsed.confidence, parsed.converged, parsed.converged_reason, shown_as=name)
    return ReadTurn(entry, details_of(parsed, turn_file.name), vocabulary_of(parsed), parsed)
