"""Quote check: is what a turn attributes to a peer found in that peer's previous turn?

An Agreements or Disagreements item that names a peer often says what the
peer argued ("With gpt-5-5: they argued X, I hold Y").  The attributed part
X is checked against the peer's turn N-1 text by fuzzy containment: the
share of X's key terms that occur in the peer's text.  Paraphrase passes;
an argument the peer never made does not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .debate import Debate
from .mentions import Mention
from .similarity import key_terms

__all__ = ["Attribution", "SUPPORT_THRESHOLD", "check_attributions"]

SUPPORT_THRESHOLD = 0.5
_MIN_TERMS = 3
_CLAIM_RE = re.compile(
    r"\b(?:they|it|he|she|\w[\w.-]*)\s+(?:argued|argues|argue|said|says|say|claimed|claims|claim|proposed|proposes|"
    r"propose|suggested|suggests|suggest|wants|want|wanted|holds|held|recommends|recommended|prefers|preferred|"
    r"thinks|thought|insists|insisted)\s+(?:that\s+)?(?P<claim>.+)",
    re.IGNORECASE,
)
# "they cap late delays at 12 h. I hold 8 h": the peer's position, with its own verb
_THEY_RE = re.compile(r"(?:they|it)\s+(?P<claim>\w.+)", re.IGNORECASE)
_MINE_RE = re.compile(r"(?:[,;.]|\s[\u2014\u2013-])\s*(?:but\s+|while\s+|whereas\s+)?(?:I|we)\s", re.IGNORECASE)


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


def _claim(mention: Mention) -> str | None:
    text = re.sub(r"[*_`]", "", mention.text)
    after = text.split(":", 1)[1] if ":" in text[:200] else text
    match = _CLAIM_RE.search(after) or _THEY_RE.match(after.strip())
    if match is None:
        return None
    claim = _MINE_RE.split(match.group("claim"), maxsplit=1)[0]
    return claim.strip(" .;,")


def check_attributions(debate: Debate) -> list[Attribution]:
    """Every checkable attribution in the debate, supported or not."""
    found: list[Attribution] = []
    peer_terms: dict[tuple[int, str], set[str]] = {}
    for (turn, slug), entry in sorted(debate.entries.items()):
        if turn < 2:
            continue
        for mention in entry.mentions:
            if mention.absent or len(mention.slugs) != 1 or mention.slugs[0] == slug:
                continue
            claim = _claim(mention)
            terms = set(key_terms(claim or "", signed=False)) if claim else set()
            if len(terms) < _MIN_TERMS:
                continue  # too short to judge fairly
            peer = mention.slugs[0]
            peer_entry = debate.entry(turn - 1, peer)
            if (turn - 1, peer) not in peer_terms:
                peer_terms[(turn - 1, peer)] = set(peer_entry.vocab.split()) if peer_entry else set()
            available = peer_terms[(turn - 1, peer)]
            support = len(terms & available) / len(terms)
            found.append(Attribution(entry.path, mention.line, turn, slug, peer, claim or "", support,
                                     support >= SUPPORT_THRESHOLD))
    return found
