"""The one store of turn files' heavier parts: each file's Details, vocabulary and full parse, on demand.

An Entry is a plain value; what only some commands need of its file is asked
here (through `Debate.details`, `Debate.vocabulary`, `Debate.parsed`).  The
store has it from a parse done in this run, else from a source (the parse
cache's details shards), else it parses the file again.  A status of 10,000
files asks for the details of a few turns only; the quote check asks each
peer's vocabulary once per claim, so vocabularies are not kept here unless
no source can give them again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from ..protocol.naming import TurnName
from .entry import Details, Entry, details_of, no_details, parse_entry, vocabulary_of

if TYPE_CHECKING:
    from ..protocol.parse import ParsedTurn

__all__ = ["DetailSource", "DetailStore"]

_Key = tuple[str, str]  # (path, sha256): a rewritten file is another key


def _key(entry: Entry) -> _Key:
    return entry.path, entry.sha256


class DetailSource(Protocol):
    """Where details come from without parsing: the cache.  None: nothing valid there for this file."""

    def details(self, entry: Entry) -> Details | None: ...

    def vocabulary(self, entry: Entry) -> str | None: ...


class DetailStore:
    """Details, vocabularies and parses of a debate's turn files, each computed or loaded once."""

    def __init__(self, source: DetailSource | None = None) -> None:
        self._source = source
        self._details: dict[_Key, Details] = {}
        self._vocabulary: dict[_Key, str] = {}
        self._parsed: dict[_Key, ParsedTurn | None] = {}

    def remember(self, entry: Entry, details: Details, vocabulary: str | None = None,
                 parsed: ParsedTurn | None = None) -> None:
        """Keep what a parse in this run found (a vocabulary or parse only when no source can give it again)."""
        key = _key(entry)
        self._details[key] = details
        if vocabulary is not None:
            self._vocabulary[key] = vocabulary
        if parsed is not None:
            self._parsed[key] = parsed

    def details(self, entry: Entry) -> Details:
        key = _key(entry)
        known = self._details.get(key)
        if known is None:
            known = self._source.details(entry) if self._source is not None else None
            if known is None:
                parsed = self.parsed(entry)
                known = details_of(parsed, TurnName(entry.turn, entry.slug)) if parsed is not None else no_details()
            self._details[key] = known
        return known

    def vocabulary(self, entry: Entry) -> str:
        """The file's key terms, space-separated (loaded or computed each time it is asked for: not held)."""
        key = _key(entry)
        known = self._vocabulary.get(key)
        if known is not None:
            return known
        loaded = self._source.vocabulary(entry) if self._source is not None else None
        if loaded is not None:
            return loaded
        parsed = self.parsed(entry)
        return vocabulary_of(parsed) if parsed is not None else ""

    def parsed(self, entry: Entry) -> ParsedTurn | None:
        """The full parse of the file (read again on first use, then kept)."""
        key = _key(entry)
        if key not in self._parsed:
            self._parsed[key] = parse_entry(entry) if entry.readable else None
        return self._parsed[key]
