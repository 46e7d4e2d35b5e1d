"""What an Answer says, as the comparison needs it: its recommendation line, its items, a fingerprint.

Computed once when a turn file is parsed and kept in the parse cache
(`AnswerSig`), so that comparing two Answers later reads no file.  Whether
two Answers recommend the same thing is the analysis's to decide
(`analysis.comparison`); this module only extracts.
"""

from __future__ import annotations

import functools
import re

from .terms import recommendation

__all__ = ["AnswerSig", "items_of", "normalise_line", "quoted_values", "signature"]

# Every run of spaces is matched once: optional emphasis carries its own trailing spaces (`(?:\*\*\s*)?`, not
# `\*\*?\s*` after another `\s*`) and a run is never given back (`\s*(?!\s)`), so a long run of spaces costs linear time.
_ITEM_RE = re.compile(
    r"^\s*(?:[-*+]\s+(?!\s))?(?:(?:\*\*|__)\s*)?(Q\s*\d+|\d+|[A-Za-z][A-Za-z0-9 _/-]{0,30}?)\s*(?:(?:\*\*|__)\s*)?"
    r"[:=)\u2192]\s*(?!\s)(?:(?:\*\*|__)\s*(?!\s))?(\S.{0,79}?|(?<=\s))\s*(?:(?:\*\*|__)\s*)?$", re.MULTILINE)
# "1. Use TOML" / "2) B": an ordered list item; an item only when the list opens the Answer (else reasons)
_ORDERED_RE = re.compile(r"^\s*(\d{1,2})[.)]\s+(?!\s)(?:(?:\*\*|__)\s*(?!\s))?(\S.{0,199}?)\s*(?:(?:\*\*|__)\s*)?$")
# "pool_size: 10, max_overflow: 10": settings inline, when the whole line is such items; a comma between digit
# groups of three is part of the value ("Q1: 1,234, Q2: C")
_INLINE_SETTINGS_RE = re.compile(r"(?:^|[,;]\s*)([A-Za-z_][\w.-]{0,40})\s*[:=]\s*(?!\s)"
                                 r"((?:[^,;:=]|(?<=\d),(?=\d{3}\b))*?[^,;:=\s])\s*(?=;|,(?!\d{3}\b)|$)")
# "1: 401 Unauthorized, 2: 403 Forbidden": numbered values inline, separated by commas or semicolons
_INLINE_VALUES_RE = re.compile(r"(?:^|[,;]\s*)(\d{1,2})\s*[:=)\u2192]\s*(?!\s)([^,;]*?[^,;\s])\s*(?=[,;]|$)")
# "1. A 2. B", "1-B, 2-C", "1B 2C": numbered letters inline, numbered from 1 without a gap
_INLINE_NUMBERED_RE = re.compile(r"(?<![\w.])(\d{1,2})\s*(?:[.):=\u2192-]\s*)?\(?([A-H])\)?(?![A-Za-z0-9])")
_INLINE_ITEM_RE = re.compile(r"\b(Q\s*\d+)\s*(?:[:=.)\u2192-]\s*)?\(?([A-H])\)?(?![A-Za-z0-9])", re.IGNORECASE)
# "Q3:" / "Q3 =": an item label, whatever its value; a quiz read by letters must have a letter for each of them
_ITEM_LABEL_RE = re.compile(r"\bQ\s*\d+\s*[:=]", re.IGNORECASE)
_MARKUP_RE = re.compile(r"[*_`~>#\[\]()\"'\u201c\u201d\u2018\u2019]")
_SPACE_RE = re.compile(r"\s+")


# a quoted or code value ('A', "a", `Foo`): its case is part of the value (d68: ['a', 'A', 'b'] is not ['A', 'a', 'b'])
_QUOTED_RE = re.compile(r"`[^`\n]*`|(?<![\w'])'[^'\n]*'(?![\w'])|\"[^\"\n]*\"|\u201c[^\u201d\n]*\u201d")


def _fold_case(line: str) -> str:
    """Lowercase, but for quoted and code values."""
    out, last = [], 0
    for match in _QUOTED_RE.finditer(line):
        out.append(line[last:match.start()].lower())
        out.append(match.group(0))
        last = match.end()
    out.append(line[last:].lower())
    return "".join(out)


def quoted_values(line: str) -> list[str]:
    """The quoted and code values of a line, as written (case kept)."""
    return [m.group(0) for m in _QUOTED_RE.finditer(line)]


@functools.lru_cache(maxsize=65536)  # compared lines are folded again and again: once per line suffices
def normalise_line(line: str) -> str:
    """A recommendation line folded for comparison: case (not of a quoted or code value), markdown, punctuation
    and spacing."""
    text = _MARKUP_RE.sub(" ", _fold_case(line).replace("\u2014", " ").replace("\u2013", " "))
    text = re.sub(r"[.,;:!?]+(?=\s|$)", " ", text)
    return _SPACE_RE.sub(" ", text).strip()


def items_of(answer: str) -> tuple[tuple[str, str], ...]:
    """The items of an item-by-item answer ('Q1: B', 'connect: 3 s', '1. ...'), key and value, in order.

    Taken from the first run of at least two consecutive `key: value` lines (or
    inline 'Q1 A, Q2 B'), so reasons written after the items are not items.
    """
    inline = _inline_items(recommendation(answer), next(iter(answer.strip().splitlines()), ""))
    if inline:
        return inline  # the line itself is the list
    best: list[tuple[str, str]] = []
    run: list[tuple[str, str]] = []
    fence = ""
    opening = True  # no prose yet: an ordered list here is the answer itself, later it lists reasons
    for number, line in enumerate(answer.splitlines()):
        stripped = line.strip()
        marker = re.match(r"^(`{3,}|~{3,})", stripped)
        if fence or marker:  # configuration in a code block is no list of answers
            fence = "" if fence and marker and marker.group(1)[0] == fence[0] else fence or (
                marker.group(1) if marker else "")
            stripped = ""
            line = ""
        if number > 40 and not run:
            break  # items come first; later lines are reasons
        match = _ITEM_RE.match(line) if stripped and not _is_label_line(stripped) else None
        if match is None and stripped and (opening or run):
            match = _ORDERED_RE.match(line)
        if stripped and match is None and not _is_label_line(stripped):
            opening = False
        if match and not stripped.startswith("#"):
            key = re.sub(r"\s+", " ", match.group(1).strip().lower()).replace("q ", "q")
            run.append((key.upper() if key.startswith("q") and key[1:].isdigit() else key, match.group(2).strip()))
            continue
        if stripped or not run:  # a blank line inside a run is allowed; other text ends it
            if len(run) >= 2 and not best:
                best = run
            run = []
    if len(run) >= 2 and not best:
        best = run
    keys = [k for k, _v in best]
    if len(set(keys)) != len(keys):
        best = []
    return tuple(best)


def _inline_items(line: str, first_line: str) -> tuple[tuple[str, str], ...]:
    """The items of a recommendation line that is itself a list, tried shape by shape; () when it is none."""
    quiz = [(re.sub(r"\s+", "", m.group(1)).upper(), m.group(2).upper())
            for m in _INLINE_ITEM_RE.finditer(line)]
    # "Q1: 12, Q2: C, Q3: D" is no quiz of two letters: dropping Q1 made it "same" as "Q1: 13, Q2: C, Q3: D"
    if len(quiz) >= 2 and len({k for k, _v in quiz}) == len(quiz) and len(quiz) >= len(_ITEM_LABEL_RE.findall(line)):
        return tuple(quiz)  # "Q1: A, Q2: B"
    # "1. A 2. B 3. C" (read from the raw first line: the line's own "1." is a list marker to markdown)
    numbered = [(m.group(1), m.group(2).upper()) for m in _INLINE_NUMBERED_RE.finditer(first_line)]
    if _counts_from_one(numbered):
        return tuple(numbered)
    valued = [(m.group(1), m.group(2).strip(" *_")) for m in _INLINE_VALUES_RE.finditer(line)]
    if _counts_from_one(valued):
        return tuple(valued)  # "1: 401 Unauthorized, 2: 403 Forbidden"
    bare = line.strip().rstrip(".")
    matches = list(_INLINE_SETTINGS_RE.finditer(bare))
    settings = [(_item_key(m.group(1).lower()), m.group(2).strip(" *_`")) for m in matches]
    if len(settings) >= 2 and len({k for k, _v in settings}) == len(settings) \
            and sum(len(m.group(0)) for m in matches) >= len(bare) - 2:
        return tuple(settings)  # "pool_size: 10, max_overflow: 10": the line is nothing but settings
    return ()


def _item_key(key: str) -> str:
    """`q3` as `Q3`, as the other shapes key a numbered item (a letter quiz and a list must compare item by item)."""
    return key.upper() if key.startswith("q") and key[1:].isdigit() else key


def _counts_from_one(items: list[tuple[str, str]]) -> bool:
    """At least two items numbered 1, 2, 3, ... without a gap: a list, not numbers in a sentence."""
    return len(items) >= 2 and [k for k, _v in items] == [str(n) for n in range(1, len(items) + 1)]


def _is_label_line(line: str) -> bool:
    """'**My answers:**', '## Answer': a line that only announces what follows."""
    bare = line.strip(" *_#")
    return not bare or (bare.endswith(":") and len(bare.split()) <= 4)


class AnswerSig:
    """What the comparison needs of one Answer, computed once when the file is parsed (and cached as JSON).

    Compared and hashed by identity; treat it as immutable.
    """

    __slots__ = ("recommendation", "items", "fingerprint")

    def __init__(self, recommendation: str, items: tuple[tuple[str, str], ...], fingerprint: str) -> None:
        self.recommendation = recommendation
        self.items = items
        self.fingerprint = fingerprint

    def as_json(self) -> list[object]:
        return [self.recommendation, [list(i) for i in self.items], self.fingerprint]

    @classmethod
    def from_json(cls, data: object) -> AnswerSig:
        """The signature from its cached form; ValueError when the record is not one."""
        if not (isinstance(data, list) and len(data) == 3 and isinstance(data[0], str)
                and isinstance(data[1], list) and isinstance(data[2], str)):
            raise ValueError("not a signature record")
        items = []
        for item in data[1]:
            if not (isinstance(item, list) and len(item) == 2 and all(isinstance(x, str) for x in item)):
                raise ValueError("not a signature record")
            items.append((item[0], item[1]))
        return cls(data[0], tuple(items), data[2])

    @property
    def line(self) -> str:
        return normalise_line(self.recommendation)


def signature(answer: str) -> AnswerSig:
    """The AnswerSig of an Answer's text."""
    import hashlib  # computed when a file is parsed, not on a start from the cache

    words = " ".join(answer.split())
    fingerprint = hashlib.sha1(words.encode("utf-8")).hexdigest() if words else ""
    return AnswerSig(recommendation(answer), items_of(answer), fingerprint)
