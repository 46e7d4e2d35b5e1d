"""How a recommendation line reads, word by word: tokens, amounts with their units, its opening clause.

The comparison (comparison.py) and its minimal-pair readings (minimal_pairs.py)
decide on these: glue words that decide nothing, keep and change verbs, number
words, units and rates folded to one base ("30 s" is "30000 ms", "10 requests
per second" is "600 per minute"), periods ("weekly", "every two weeks"),
versions ("3.10" is not "3.1"), and two words that name one thing.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from ..protocol.terms import stem as _stem
from ..protocol.terms import weighs_over
from ..protocol.vocabulary import NEGATORS

__all__ = ["CHANGE_STEMS", "KEEP_STEMS", "TOKEN_RE", "Quantity", "Token", "head_clause", "is_number", "numeric",
           "quantities", "shown", "synonyms", "tokens"]


# Words that carry no decision: articles, glue, generic verbs of recommending.
_GLUE = frozenset(
    """a an the and of to in on at by for from with as is are be it its this that these those our your their we
    you they i should would will can could may might must do does just also then so very really all any each
    both use using used adopt adopting choose chose choosing pick recommend recommended recommending
    prefer preferred suggest suggested propose proposed answer recommendation final position verdict decision
    summary tl dr tldr option but yet however while under over via into onto behind through per across
    within during""".split()
)
_NEGATORS = NEGATORS  # one list for the comparison (protocol/vocabulary.py)
# Keep-versus-change: a line that keeps X and a line that replaces X recommend opposite things.
_KEEP = frozenset("keep keeping retain retaining stay staying stick sticking maintain preserve continue remain".split())
_CHANGE = frozenset(
    "replace replacing switch switching migrate migrating move moving change changing drop dropping remove removing "
    "rewrite rewriting abandon ditch deprecate retire swap swapping port porting convert converting split "
    "splitting".split()
)
KEEP_STEMS = frozenset(_stem(w) for w in _KEEP)
CHANGE_STEMS = frozenset(_stem(w) for w in _CHANGE)
# A line that adds one of these followed by another option proposes more than the other line does.
_ALTERNATIVE_GLUE = frozenset("plus alongside besides and".split())
_UNITS = {
    "ms": ("s", 0.001), "millisecond": ("s", 0.001), "milliseconds": ("s", 0.001), "msec": ("s", 0.001),
    "s": ("s", 1.0), "sec": ("s", 1.0), "secs": ("s", 1.0), "second": ("s", 1.0), "seconds": ("s", 1.0),
    "min": ("s", 60.0), "mins": ("s", 60.0), "minute": ("s", 60.0), "minutes": ("s", 60.0),
    "h": ("s", 3600.0), "hr": ("s", 3600.0), "hour": ("s", 3600.0), "hours": ("s", 3600.0),
    "day": ("s", 86400.0), "days": ("s", 86400.0), "d": ("s", 86400.0),
    "week": ("s", 7 * 86400.0), "weeks": ("s", 7 * 86400.0), "wk": ("s", 7 * 86400.0),
    # a month is 30 days ("30 days" and "a month" are one retention), a year 365 ("1 year", "365 days");
    # 12 months are a year: see _scaled
    "month": ("s", 30 * 86400.0), "months": ("s", 30 * 86400.0), "mo": ("s", 30 * 86400.0),
    "year": ("s", 365 * 86400.0), "years": ("s", 365 * 86400.0), "yr": ("s", 365 * 86400.0),
    "yrs": ("s", 365 * 86400.0),
    # sizes in the binary sense people mean in configuration: "1 GB" and "1024 MB" are one limit
    "b": ("b", 1.0), "byte": ("b", 1.0), "bytes": ("b", 1.0),
    "kb": ("b", 1024.0), "mb": ("b", 1024.0 ** 2), "gb": ("b", 1024.0 ** 3), "tb": ("b", 1024.0 ** 4),
    "kib": ("b", 1024.0), "mib": ("b", 1024.0 ** 2), "gib": ("b", 1024.0 ** 3), "tib": ("b", 1024.0 ** 4),
    "%": ("%", 1.0), "percent": ("%", 1.0),
}
_NUMBER_WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                 "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30,
                 "sixty": 60, "ninety": 90, "hundred": 100, "once": 1, "twice": 2, "single": 1, "double": 2}
# number words a line may use for a count ("retry three times" is "retry 3 times")
_COUNT_WORDS = frozenset(_NUMBER_WORDS) - {"once", "twice", "single", "double"}
# words that name one thing under two spellings no prefix rule finds
_ALIASES = {"k8s": "kubernetes"}
# "turn caching on" / "turn caching off": after these verbs, or closing a line, "on" is a setting, not glue
_SWITCH_VERBS = frozenset("turn turned turning switch switched switching leave left keep set toggle flip".split())
# an identifier ("acks_late", "reject_on_worker_lost") is one token: its parts are not words of the line
TOKEN_RE = re.compile(r"\d+(?:[.,]\d+)*|%|[A-Za-z][A-Za-z0-9+#]*(?:_[A-Za-z0-9+#]+)*(?:['\u2019.][A-Za-z0-9]+)*")


_THOUSANDS_RE = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")
# a name with its version glued on: "UUIDv7", "TLSv1.3" (three letters at least: "dev1" is no version)
_VERSIONED_RE = re.compile(r"([A-Za-z]{3,}?)v(\d+(?:\.\d+)*)")


class Token(NamedTuple):
    """One word of a line: its stem, and whether it looks like a name (an option one picks)."""

    stem: str
    name: bool


@functools.lru_cache(maxsize=65536)
def tokens(line: str, keep_glue: bool = False) -> tuple[Token, ...]:
    """The content words of a recommendation line, in order (glue words dropped, negations kept as 'not').

    `keep_glue`: every word, glue included (lowercased) and a capital letter A-H after the first word kept as
    the option it names ("Pick A"): the form two lines are aligned in word by word (`swapped_word`).
    """
    found: list[Token] = []
    code_spans = {m.group(1).lower() for m in re.finditer(r"`([^`]+)`", line)}
    # "nightly" and "every day" are one period: both read as '<seconds> period'
    words = [m.group(0) for m in TOKEN_RE.finditer(_FREQUENCY_RE.sub(_as_period, line.replace("\u2019", "'")))]
    skip = False
    for index, raw_word in enumerate(words):
        if skip:
            skip = False
            continue
        raw = re.sub(r"'s$", "", raw_word)
        if _THOUSANDS_RE.fullmatch(raw):
            raw = raw.replace(",", "")  # "1,000 entries" is "1000 entries"
        raw = re.sub(r"^([A-Z0-9]{2,})s$", r"\1", raw)  # "UUIDs", "JWTs": the plural of a capitalised name
        versioned = _VERSIONED_RE.fullmatch(raw)
        if versioned:
            # "UUIDv7" is "UUID v7", as "UUIDs (version 7)" says it
            found.append(Token(versioned.group(1).lower(), True))
            found.append(Token(f"v{versioned.group(2)}", True))
            continue
        word = raw.lower().rstrip(".")
        following = words[index + 1].lower() if index + 1 < len(words) else ""
        amount = _amount("1" if word in ("a", "an") and len(following) >= 3 else word, following)
        if amount:
            # "30 s", "30 seconds", "30000 ms", "half a minute" is not tried: one token for one duration or size
            found.append(Token(amount, False))  # numbers are compared as quantities, not as names
            skip = True
            continue
        if word in ("go", "going") and following in ("with", "for", "ahead"):
            if keep_glue:
                found.append(Token("use", False))
            continue  # "go with Postgres" chooses as "use" does; "write it in Go" names a language
        if word in _NEGATORS or word.endswith("n't") or word == "over" and weighs_over(
                [w.lower() for w in words[:index]]):
            found.append(Token("not", False))
            continue
        if word in _ALTERNATIVE_GLUE:
            found.append(Token("+", False))  # kept: "X and Y" proposes more than "X"
            continue
        if word == "on" and (not following or index and words[index - 1].lower() in _SWITCH_VERBS):
            found.append(Token("on", False))  # a setting: "turn caching on" is not "turn caching off"
            continue
        if keep_glue and index and len(raw) == 1 and raw in "ABCDEFGH":
            found.append(Token(raw, True))  # "Pick A": an option letter, not an article
            continue
        if word in _GLUE:
            if keep_glue:
                found.append(Token(word, False))
            continue
        if word in _COUNT_WORDS:
            found.append(Token(f"{_NUMBER_WORDS[word]}", True))  # "three replicas" is "3 replicas"
            continue
        if word in ("twice", "thrice"):
            # "retry twice" is "retry 2 times" ("once" is also "as soon as": left as it is)
            found += [Token("2" if word == "twice" else "3", True), Token(_stem("times"), False)]
            continue
        if word == "version" and is_number(following):
            found.append(Token(f"v{following}", True))  # "version 2" is "v2"
            skip = True
            continue
        if word in _ALIASES:
            found.append(Token(_ALIASES[word], True))
            continue
        name = (any(c.isdigit() for c in raw) or any(c.isupper() for c in raw[1:])
                or (raw[:1].isupper() and index > 0) or word in code_spans or "+" in raw or "#" in raw or "_" in raw)
        found.append(Token(word if name else _stem(word), name))
    return tuple(found)


def _amount(word: str, unit: str) -> str:
    """A number and its unit as one value in the unit family's base ('30 s' and '30000 ms' -> '30s'); else ''."""
    if unit not in _UNITS or unit == "%" and not is_number(word):
        return ""
    if is_number(word):
        value = float(word.replace(",", ""))
    elif word in _COUNT_WORDS:
        value = float(_NUMBER_WORDS[word])
    else:
        return ""
    family, amount = _scaled(value, unit)
    return f"{amount:g}{family}"


def _scaled(value: float, unit: str) -> tuple[str, float]:
    """A value in its unit family's base: (family, amount).  Whole years of months count as years."""
    if unit in ("month", "months", "mo") and value and value % 12 == 0:
        unit, value = "year", value / 12  # "12 months" is "1 year", not 360 days
    family, scale = _UNITS[unit]
    return family, round(value * scale, 6)


class Quantity(NamedTuple):
    value: float
    unit: str  # a unit family ("s", "b", "%"), the word the number counts ("replica"), or ""
    label: str  # what it sets: the content word before it ("connect 3 s", "read timeout 8 s"), or the unit
    text: str  # as written, for the evidence ("10 MB")


_NOT_LABELS = frozenset("about around approximately roughly up most least max maximum min minimum hard total over "
                        "only exactly every each ~ than".split())


def is_number(word: str) -> bool:
    return word.replace(",", "").replace(".", "", 1).isdigit()


# "100 req/min", "10 requests/s": a slash before a unit of time is "per"
_PER_SLASH_RE = re.compile(r"(?<=\w)\s*/\s*(?=(?:" + "|".join(
    sorted((u for u, (family, _scale) in _UNITS.items() if family == "s"), key=len, reverse=True)) + r")\b)",
    re.IGNORECASE)
_PER = frozenset("per a an each every".split())
_COUNT_NOUNS = {"req": "request", "reqs": "request", "msg": "message", "msgs": "message"}


def _rate(value: float, following: list[str]) -> Quantity | None:
    """A count per unit of time, per second: "10 requests per second" and "600 requests per minute" are one rate."""
    if len(following) >= 2 and following[0] in _PER and _UNITS.get(following[1], ("",))[0] == "s":
        noun, per, time = "", following[0], following[1]
    elif len(following) >= 3 and following[0] not in _UNITS and not is_number(following[0]) \
            and following[1] in _PER and _UNITS.get(following[2], ("",))[0] == "s":
        noun, per, time = _COUNT_NOUNS.get(following[0], _stem(following[0])), following[1], following[2]
    else:
        return None
    per_second = round(value / _UNITS[time][1], 6)
    unit = f"{noun}/s"
    return Quantity(per_second, unit, unit, " ".join(w for w in (following[0] if noun else "", per, time) if w))


@functools.lru_cache(maxsize=65536)
def quantities(line: str) -> tuple[Quantity, ...]:
    """Numbers in a line with what they measure and what they set: '3 replicas', 'read 8 s', '1 MB', 'twice'."""
    parts = re.split(r"([;()\[\]]|,\s|:\s)", _FREQUENCY_RE.sub(_as_period, _PER_SLASH_RE.sub(
        " per ", line.replace("\u2019", "'"))))
    found: list[Quantity] = []
    key = ""  # the content words of the clause before a ": ", which name what the next clause's value sets
    for position in range(0, len(parts), 2):
        clause = parts[position]
        words = [w.lower() for w in TOKEN_RE.findall(clause)]
        slot, key = key, ""
        if position + 1 < len(parts) and parts[position + 1].startswith(":"):
            key = " ".join(_stem(w) for w in words if w not in _GLUE and w not in _NOT_LABELS and not is_number(w))
        for i, word in enumerate(words):
            if is_number(word):
                value = float(word.replace(",", ""))
            elif word in _NUMBER_WORDS and word not in ("one", "single") or word in ("once", "twice"):
                value = float(_NUMBER_WORDS[word])
            else:
                continue
            rate = _rate(value, words[i + 1:i + 4])
            if rate is not None:
                found.append(rate._replace(text=f"{word} {rate.text}"))
                continue
            following = [w for w in words[i + 1:i + 3] if w not in _GLUE]
            unit = following[0] if following else ""
            before = [w for w in words[:i] if w not in _GLUE and w not in _NOT_LABELS and not is_number(w)
                      and w not in _UNITS and w not in _NUMBER_WORDS]
            # "pods: 12", "workers per pod: 10": a value opening its clause sets the whole key before the colon
            label = _stem(before[-1]) if before else slot.rsplit(" ", 1)[-1]
            if unit == "period" and i + 1 < len(words) and words[i + 1] == "period":
                found.append(Quantity(value, "period", label, _period_text(value)))
            elif word in ("once", "twice"):
                # a frequency ("once a day"), never a duration: "at least once a day" is not "2 days"
                unit = f"per {_UNITS[unit][0]}" if unit in _UNITS else "time"
                found.append(Quantity(value, unit, label, word))
            elif unit in _UNITS:
                family, amount = _scaled(value, unit)
                found.append(Quantity(amount, family, label, f"{word} {unit}"))
            elif unit and not is_number(unit):
                found.append(Quantity(value, _stem(unit), _stem(unit), f"{word} {unit}"))
            elif "." in word:
                # a bare dotted number is a version more often than a fraction: "3.10" is not "3.1"
                found.append(Quantity(_version_value(word), "version", label, word))
            else:
                found.append(Quantity(value, "", label, word))
    return tuple(found)


# "weekly", "every two weeks": how often, one unit family of its own (a period is no retention)
_FREQUENCIES = {"hourly": 3600.0, "daily": 86400.0, "nightly": 86400.0, "weekly": 7 * 86400.0,
                "biweekly": 14 * 86400.0, "fortnightly": 14 * 86400.0, "monthly": 30 * 86400.0,
                "quarterly": 90 * 86400.0, "yearly": 365 * 86400.0, "annually": 365 * 86400.0}
_FREQUENCY_RE = re.compile(r"\b(?:(" + "|".join(_FREQUENCIES) + r")|every\s+(?:(\d+|other|"
                           + "|".join(w for w in _NUMBER_WORDS if w not in ("once", "twice", "single", "double"))
                           + r")\s+)?(" + "|".join(u for u, (family, _s) in _UNITS.items() if family == "s")
                           + r"))\b", re.IGNORECASE)


def _as_period(match: re.Match[str]) -> str:
    """'weekly' and 'every 2 weeks' as one spelling the number reader takes: '<seconds> period'."""
    if match.group(1):
        return f" {int(_FREQUENCIES[match.group(1).lower()])} period "
    count = (match.group(2) or "1").lower()
    value = float(count) if count.isdigit() else 2.0 if count == "other" else float(_NUMBER_WORDS[count])
    return f" {round(_scaled(value, match.group(3).lower())[1])} period "


def _period_text(seconds: float) -> str:
    for name, length in sorted(_FREQUENCIES.items(), key=lambda item: item[1]):
        if length == seconds:
            return name
    return f"every {seconds / 86400:g} days" if seconds >= 86400 else f"every {seconds:g} s"


def _version_value(word: str) -> float:
    """A dotted version as one ordered number, part by part ('3.9' < '3.10'); only equality is used."""
    total = 0.0
    for part in word.split(".")[:4]:
        total = total * 10000 + float(part or 0)
    return total


def synonyms(a: str, b: str) -> bool:
    """Two words that name one thing: one a prefix of the other (postgres / postgresql), or one stem."""
    if a == b:
        return True
    if {a, b} <= KEEP_STEMS or {a, b} <= CHANGE_STEMS:
        return True
    short, long = sorted((a, b), key=len)
    return len(short) >= 4 and (long.startswith(short) or long.endswith("." + short))


def numeric(stem: str) -> bool:
    """A number or an amount token ('10', '2.5', '30s', '1e+06b')."""
    return bool(stem) and stem[0].isdigit()


_HEAD_BREAK_RE = re.compile(r"[,;:(\[\u2014\u2013]|\s-\s|\.\s")


def head_clause(line: str) -> str:
    """A line up to its first clause break: where it names what it chooses."""
    return _HEAD_BREAK_RE.split(line, maxsplit=1)[0]


def shown(words: list[str]) -> str:
    """Stems as a person reads them in evidence ('+' is the 'and' of the line)."""
    return " ".join("and" if w == "+" else w for w in words)
