"""Quote check: is what a turn attributes to a peer found in that peer's previous turn?

An Agreements or Disagreements item that names a peer often says what the
peer argued ("With gpt-5-5: they argued X, I hold Y").  The attributed part
X is checked against the peer's turn N-1 text by fuzzy containment: the
share of X's key terms that occur in the peer's text.  Paraphrase passes;
an argument the peer never made does not.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from .debate import Debate, Entry

__all__ = ["Attribution", "SUPPORT_THRESHOLD", "check_attributions"]

SUPPORT_THRESHOLD = 0.5


class Attribution(NamedTuple):
    """One claim a turn attributes to a peer, and whether the peer's N-1 text supports it."""

    path: str
    line: int
    turn: int
    slug: str
    peer: str
    claim: str
    support: float
    supported: bool

    def as_dict(self) -> dict[str, object]:
        return {"path": self.path, "line": self.line, "turn": self.turn, "slug": self.slug, "peer": self.peer,
                "claim": self.claim, "support": round(self.support, 3), "supported": self.supported}


def check_attributions(debate: Debate, entries: Iterable[Entry] | None = None) -> list[Attribution]:
    """Every checkable attribution in the debate (or in `entries` of it), supported or not."""
    found: list[Attribution] = []
    peer_terms: dict[str, set[str]] = {}  # the vocabularies of turn N-1 only: memory stays at one turn's
    terms_turn = 0
    chosen = sorted(debate.entries.values(), key=_order) if entries is None else sorted(entries, key=_order)
    for entry in chosen:
        turn, slug = entry.turn, entry.slug
        if turn < 2:
            continue
        if turn != terms_turn:
            peer_terms, terms_turn = {}, turn
        for claim in entry.claims:
            peer = claim.peer
            available = peer_terms.get(peer)
            if available is None:
                peer_entry = debate.entry(turn - 1, peer)
                available = peer_terms[peer] = set(peer_entry.vocab.split()) if peer_entry else set()
            support = len(available.intersection(claim.terms)) / len(claim.terms)
            found.append(Attribution(entry.path, claim.line, turn, slug, peer, claim.text, support,
                                     support >= SUPPORT_THRESHOLD))
    return found


def _order(entry: Entry) -> tuple[int, str]:
    return entry.turn, entry.slug
