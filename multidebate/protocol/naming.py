"""Slugs and turn-file names: what is a turn file, and what only looks like one."""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from .errors import RosterFormatError

__all__ = [
    "SLUG_MAX",
    "TurnName",
    "is_slug",
    "parse_roster",
    "slugify",
    "parse_turn_name",
    "turn_file_name",
    "looks_like_turn_attempt",
]

SLUG_MAX = 64
_SLUG_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_TURN_RE = re.compile(r"^turn-([1-9][0-9]{0,8})-([a-z0-9]+(?:-[a-z0-9]+)*)\.md$")
# Loose shape of a *failed* attempt: any case, leading zeros, underscores,
# spaces or look-alike dashes, other extensions.  Only consulted for names
# that are not turn files already.
_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"
_ATTEMPT_RE = re.compile(
    r"^turn[\s_\-" + _DASHES + r"]*\d+[\s_\-" + _DASHES + r"]+\S.*?"
    r"(?:\.(?:md|markdown|mdown|txt))+$",
    re.IGNORECASE,
)
# Editors' and tools' scratch names are not attempts: they are expected noise.
_SCRATCH_RE = re.compile(r"(?:~|\.swp|\.swo|\.swx|\.tmp|\.bak|\.orig|\.part|#)$")


class TurnName(NamedTuple):
    """The turn number and slug carried by a canonical turn-file name."""

    turn: int
    slug: str

    @property
    def filename(self) -> str:
        return turn_file_name(self.turn, self.slug)


def is_slug(text: str) -> bool:
    """True when `text` is a valid slug (lowercase, digits, single hyphens, <= 64 chars)."""
    return len(text) <= SLUG_MAX and _SLUG_RE.match(text) is not None


def slugify(name: str) -> str:
    """The slug for a model name: `Claude Opus 4.7` -> `claude-opus-4-7`.

    Accents are folded to ASCII, every run of other characters becomes one
    hyphen.  Returns "" when nothing usable is left.
    """
    import unicodedata  # slugs are made rarely; a status never needs it

    # accents fold away; any other character that has no ASCII form separates words, as vendors'
    # non-breaking hyphens do ("GPT\u20115.5" is gpt-5-5, not gpt5-5)
    folded = "".join(c if c.isascii() else "" if unicodedata.category(c).startswith("M") else " "
                     for c in unicodedata.normalize("NFKD", name))
    slug = re.sub(r"[^a-z0-9]+", "-", folded.lower()).strip("-")
    if len(slug) > SLUG_MAX:
        slug = slug[:SLUG_MAX].rstrip("-")
    return slug


def parse_roster(value: object, *, repeats: bool = False) -> tuple[str, ...]:
    """The roster as `init --participants` gives it (`a,b`) or TASK.md's `participants:` holds it (a list, or
    that string): its slugs in order, each once (empty when it names no one).

    RosterFormatError says what is wrong.  `repeats`: a slug listed twice counts once instead of being refused
    (TASK.md, which a person may edit by hand; `init` refuses it, so the files it writes never repeat one).
    """
    if isinstance(value, str):
        value = [part.strip() for part in value.split(",") if part.strip()]
    if not isinstance(value, list) or not all(isinstance(part, str) for part in value):
        raise RosterFormatError("not a list of slugs (lowercase letters, digits, single hyphens)")
    roster = tuple(dict.fromkeys(value))
    bad = [part for part in roster if not is_slug(part)]
    if bad:
        raise RosterFormatError(f"not slugs: {', '.join(bad)} (see `multidebate slug NAME`)")
    if len(roster) != len(value) and not repeats:
        twice = sorted({part for part in value if value.count(part) > 1})
        raise RosterFormatError(f"listed twice: {', '.join(twice)}; each participant once")
    return roster


@functools.lru_cache(maxsize=65536)  # a validate meets each name several times (listing, ledger, peers read)
def parse_turn_name(name: str) -> TurnName | None:
    """The TurnName of a canonical `turn-<N>-<slug>.md`, or None for any other name."""
    match = _TURN_RE.match(name)
    if match is None or len(match.group(2)) > SLUG_MAX:
        return None
    return TurnName(int(match.group(1)), match.group(2))


def turn_file_name(turn: int, slug: str) -> str:
    """The canonical file name of `slug`'s turn `turn`."""
    return f"turn-{turn}-{slug}.md"


def looks_like_turn_attempt(name: str) -> bool:
    """True for a name that is no turn file but was probably meant as one.

    `Turn-2-x.md`, `turn-02-x.md`, `turn_2_x.md`, `turn-2-X.md`,
    `turn\u20132-x.md` are; hidden files, editor scratch files and canonical
    names are not.
    """
    if name.startswith(".") or parse_turn_name(name) is not None:
        return False
    if _SCRATCH_RE.search(name):
        return False
    return _ATTEMPT_RE.match(name) is not None


def canonical_guess(name: str) -> str | None:
    """The canonical name a failed attempt probably meant, if one can be read off it."""
    import unicodedata

    text = unicodedata.normalize("NFKC", name)
    for dash in _DASHES:
        text = text.replace(dash, "-")
    match = re.match(r"^turn[\s_\-]*0*(\d+)[\s_\-]+(.+?)(?:\.(?:md|markdown|mdown|txt))+$", text, re.I)
    if match is None or int(match.group(1)) == 0:
        return None
    slug = slugify(match.group(2))
    return turn_file_name(int(match.group(1)), slug) if slug else None
