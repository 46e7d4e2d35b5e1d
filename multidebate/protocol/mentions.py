"""Mentions: the list items of Agreements and Disagreements, and the peers they name.

Kept apart from the parser so that reading cached summaries needs no markdown parser.
"""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = ["Mention", "Claim", "claims_of", "SEVERITIES"]

# A Disagreements item may rate itself: `- With gpt-5-5 [major]: ...; resolves if: <test>`.
SEVERITIES = ("critical", "major", "minor")
_TAG_RE = re.compile(r"^\W*with\s+[^:\n\[]{1,200}?\[(?P<tag>[^\]\n]{1,30})\]", re.IGNORECASE)
_RESOLVES_RE = re.compile(r"\bresolves?\s+if\s*:\s*(?P<test>.+)$", re.IGNORECASE | re.DOTALL)

_MIN_TERMS = 3
_CLAIM_RE = re.compile(
    r"\b(?P<who>they|it|he|she|\w[\w.-]*)\s+(?:argued|argues|argue|said|says|say|claimed|claims|claim|proposed|proposes|"
    r"propose|suggested|suggests|suggest|wants|want|wanted|holds|held|recommends|recommended|prefers|preferred|"
    r"thinks|thought|insists|insisted)\s+(?:that\s+)?(?P<claim>.+)",
    re.IGNORECASE,
)
# "they cap late delays at 12 h. I hold 8 h": the peer's position, with its own verb
_THEY_RE = re.compile(r"(?:they|it)\s+(?P<claim>\w.+)", re.IGNORECASE)
_MINE_RE = re.compile(r"(?:[,;.]|\s[\u2014\u2013-])\s*(?:but\s+|while\s+|whereas\s+)?(?:I|we)\s", re.IGNORECASE)
# "your answer says X. Under the default config they don't": after the first sentence the
# writer speaks for itself, so the attributed claim ends there
_SENTENCE_END_RE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")



class Mention(NamedTuple):  # a NamedTuple: thousands are rebuilt from the cache on every status
    """A list item of Agreements/Disagreements, and the peers it names."""

    section: str
    text: str
    line: int
    slugs: tuple[str, ...]
    everyone: bool
    absent: bool

    @property
    def kind(self) -> str:
        """"none" (`- With x: None`), "minor" (`- With x: minor: ...`), or "point" for a real item."""
        plain = re.sub(r"[*_`]", "", self.text).strip()
        rest = plain.split(":", 1)[1] if self.slugs or self.everyone else plain
        rest = rest.strip().lower()
        if not rest or re.match(r"^(none|n/a|nothing|no disagreements?|no remaining)\b", rest):
            return "none"
        return "minor" if re.match(r"^(\(?minor\)?|nit)\b", rest) else "point"

    @property
    def tag(self) -> str | None:
        """The bracketed rating as written (`major` in `With x [major]: ...`), or None."""
        match = _TAG_RE.match(re.sub(r"[*_`]", "", self.text))
        return " ".join(match.group("tag").lower().split()) if match else None

    @property
    def severity(self) -> str | None:
        """critical, major or minor (a `minor:` item is minor); None when the item does not say."""
        tag = self.tag
        if tag in SEVERITIES:
            return tag
        return "minor" if self.kind == "minor" else None

    @property
    def resolves_if(self) -> str:
        """The condition that would settle it (`resolves if: ...`), or ""."""
        match = _RESOLVES_RE.search(re.sub(r"[*_`]", "", self.text))
        return " ".join(match.group("test").split()).rstrip(".") if match else ""

    @property
    def is_point(self) -> bool:
        """A real Agreements/Disagreements item that names a peer (not `None`, not `minor:`)."""
        return (bool(self.slugs) or self.everyone) and self.kind == "point"


class Claim(NamedTuple):
    """What an item attributes to one peer ("they argued X"), with X's key terms."""

    line: int
    peer: str
    text: str
    terms: tuple[str, ...]


def _claim(mention: Mention) -> str | None:
    text = re.sub(r"[*_`]", "", mention.text)
    after = text.split(":", 1)[1] if ":" in text[:200] else text
    after = re.sub(r"^\s*\(?(?:minor|nit)\)?\s*[:,-]\s*", "", after, flags=re.IGNORECASE)
    # the subject must be the peer: "I also want X" is the writer's own view, not an attribution
    subjects = {"they", "it", "he", "she", "answer", "turn", "reply", "position", "proposal"} | set(mention.slugs)
    def by_peer(m: re.Match[str]) -> bool:  # "they say", "your answer still says": one adverb may stand between
        before = after[:m.start("who")].split()
        return m.group("who").lower() in subjects or bool(before) and before[-1].lower() in subjects

    match = next((m for m in _CLAIM_RE.finditer(after) if by_peer(m)), None) or _THEY_RE.match(after.strip())
    if match is None:
        return None
    claim = _MINE_RE.split(match.group("claim"), maxsplit=1)[0]
    claim = _SENTENCE_END_RE.split(claim, maxsplit=1)[0]
    return claim.strip(" .;,")


def claims_of(mentions: tuple[Mention, ...], own_slug: str) -> tuple[Claim, ...]:
    """The checkable claims among a turn's mentions: one named peer, not absent, at least three key terms."""
    from .terms import key_terms

    claims = []
    for mention in mentions:
        if mention.absent or len(mention.slugs) != 1 or mention.slugs[0] == own_slug:
            continue
        text = _claim(mention)
        terms = tuple(sorted(key_terms(text or "", signed=False))) if text else ()
        if len(terms) >= _MIN_TERMS:  # shorter claims are too short to judge fairly
            claims.append(Claim(mention.line, mention.slugs[0], text or "", terms))
    return tuple(claims)
