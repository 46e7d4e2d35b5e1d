"""Quote check: is what a turn attributes to a peer found in that peer's previous turn?

An Agreements or Disagreements item that names a peer often says what the
peer argued ("With gpt-5-5: they argued X, I hold Y").  The attributed part
X is checked against the peer's turn N-1 text by fuzzy containment: the
share of X's key terms that occur in the peer's text.  Paraphrase passes;
an argument the peer never made does not.
"""

from __future__ import annotations

from dataclasses import dataclass

from .debate import Debate

__all__ = ["Attribution", "SUPPORT_THRESHOLD", "check_attributions"]

SUPPORT_THRESHOLD = 0.5


@dataclass(frozen=True)
class Attribution:
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


def check_attributions(debate: Debate) -> list[Attribution]:
    """Every checkable attribution in the debate, supported or not."""
    found: list[Attribution] = []
    peer_terms: dict[tuple[int, str], set[str]] = {}
    for (turn, slug), entry in sorted(debate.entries.items()):
        if turn < 2:
            continue
        for claim in entry.claims:
            peer = claim.peer
            terms = set(claim.terms)
            peer_entry = debate.entry(turn - 1, peer)
            if (turn - 1, peer) not in peer_terms:
                peer_terms[(turn - 1, peer)] = set(peer_entry.vocab.split()) if peer_entry else set()
            available = peer_terms[(turn - 1, peer)]
            support = len(terms & available) / len(terms)
            found.append(Attribution(entry.path, claim.line, turn, slug, peer, claim.text, support,
                                     support >= SUPPORT_THRESHOLD))
    return found
