"""Quote check: is what a turn attributes to a peer found in that peer's previous turn?

An Agreements or Disagreements item that names a peer often says what the
peer argued ("With gpt-5-5: they argued X, I hold Y").  The attributed part
X is checked against the peer's own text of turns N-1 and N-2 by fuzzy
containment: the share of X's key terms that occur there, a term counting
when a word of the peer's shares its first four letters ("written decision"
/ "decided in writing": a paraphrase is no misquote).  Reporting verbs
("cited", "argued") are not content.  Measured on 250 attributions from
real debates labelled by two annotators (bench/quotes.py), a flag must be
right: a quieter check beats a noisy one.  So a claim is flagged only when,
besides a low share of terms, it names something the peer never wrote: a
name or a number ("they argued for MongoDB sharding").  A paraphrase in
ordinary words ("keeping stdlib with tuning plus caching" for "keep the
standard-library json module ... caching serialised responses", d64) is not.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from ..state.debate import Debate, Entry

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
    peer_terms: dict[str, set[str]] = {}  # turn N-1 and N-2 vocabularies: memory stays at two turns'
    terms_turn = 0
    chosen = sorted(debate.entries.values(), key=_order) if entries is None else sorted(entries, key=_order)
    for entry in chosen:
        turn, slug = entry.turn, entry.slug
        if turn < 2:
            continue
        if turn != terms_turn:
            peer_terms, terms_turn = {}, turn
        for claim in debate.details(entry).claims:
            peer = claim.peer
            available = peer_terms.get(peer)
            if available is None:
                words: set[str] = set()
                for earlier in (turn - 1, turn - 2):
                    peer_entry = debate.entry(earlier, peer)
                    if peer_entry is not None:
                        words.update(debate.vocabulary(peer_entry).split())
                available = peer_terms[peer] = words | {_prefix(w) for w in words}
            terms = [t for t in claim.terms if t not in REPORTING_VERBS]
            if len(terms) < 3:
                continue  # too short to judge fairly once the reporting verbs are gone
            support = sum(1 for t in terms if t in available or _prefix(t) in available) / len(terms)
            supported = support >= SUPPORT_THRESHOLD or not _foreign_names(claim.text, available)
            found.append(Attribution(entry.path, claim.line, turn, slug, peer, claim.text, support, supported))
    return found


# "they cited X", "they argued X": the verb says who speaks, not what was said
REPORTING_VERBS = frozenset("cited cite argued argue said say claimed claim noted note pointed stated state "
                            "mentioned mention suggested suggest proposed propose wrote write called call "
                            "insisted insist think thought believe believed".split())


def _foreign_names(claim: str, available: set[str]) -> list[str]:
    """Names and numbers of the claim ("MongoDB", "10 s", `acks_late`) that the peer's text lacks."""
    from .words import tokens

    # a single letter ("Q14 E", "chose K") is an option's label, and the vocabulary keeps no one-letter word, so it
    # was always "foreign": the accuracy debates' three misquote flags were all such letters, all false
    return [t.stem for t in tokens(claim) if t.name and len(t.stem) > 1 and t.stem not in available
            and _prefix(t.stem) not in available]


def _prefix(word: str) -> str:
    """A word's first four letters, marked so it never equals a whole word: "writ~" for written and writing."""
    return f"{word[:4]}~" if len(word) >= 5 else word


def _order(entry: Entry) -> tuple[int, str]:
    return entry.turn, entry.slug
