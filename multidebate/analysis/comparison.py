"""Do two Answers recommend the same thing?  The one comparison layer.

The verdict, the analysis (changed / toward / flags), the final answer and
the report all compare Answers here, with one set of ignored words and one
memo.  A comparison is three-valued, because a false "same" (a consensus
that does not exist) and a false "different" (a real consensus thrown away)
both cost the user, and a guess is worse than saying "unsure":

- ``same``: identical recommendation lines (after folding case, punctuation
  and markdown), the same value for every item of an item-by-item answer,
  or one line that only adds detail to the other (a refinement);
- ``different``: what decides differs - a named option, a number with its
  unit, an option letter, a keep-vs-change verb, a negation, an item of a
  multi-item answer - or one word was swapped for another in an otherwise
  identical line;
- ``unsure``: anything else (two wordings the rules cannot tell apart).

Shared topic words decide nothing: "indent python code with tabs" and
"indent python code with 4 spaces" share most of their words and differ in
the one that matters.  The debate gives context: `Context.alternatives`
holds the options its participants have held against each other (the task's
"A, B or C" and the words swapped between lines judged different), so that
two rewordings that pick different alternatives are told apart.

Every Comparison carries `evidence`, one sentence a person can check.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterable
from typing import NamedTuple

from ..protocol.answer import AnswerSig, normalise_line, signature
from ..protocol.terms import key_terms, weighs_over
from ..protocol.terms import stem as _stem

__all__ = ["SAME", "DIFFERENT", "UNSURE", "Comparison", "Context", "compare", "compare_signatures", "restates"]

SAME, DIFFERENT, UNSURE = "same", "different", "unsure"
_CERTAIN_BASES = frozenset({"identical", "items", "letters", "refinement"})

# Words that carry no decision: articles, glue, generic verbs of recommending.
_GLUE = frozenset(
    """a an the and of to in on at by for from with as is are be it its this that these those our your their we
    you they i should would will can could may might must do does just also then so very really all any each
    both use using used adopt adopting choose chose choosing pick recommend recommended recommending
    prefer preferred suggest suggested propose proposed answer recommendation final position verdict decision
    summary tl dr tldr option but yet however while under over via into onto behind through per across
    within during""".split()
)
_NEGATORS = frozenset(
    "not no never avoid without don't dont doesn't shouldn't won't isn't aren't cannot can't against nor "
    "instead neither rather".split()
)
# Keep-versus-change: a line that keeps X and a line that replaces X recommend opposite things.
_KEEP = frozenset("keep keeping retain retaining stay staying stick sticking maintain preserve continue remain".split())
_CHANGE = frozenset(
    "replace replacing switch switching migrate migrating move moving change changing drop dropping remove removing "
    "rewrite rewriting abandon ditch deprecate retire swap swapping port porting convert converting split "
    "splitting".split()
)
_KEEP_STEMS = frozenset(_stem(w) for w in _KEEP)
_CHANGE_STEMS = frozenset(_stem(w) for w in _CHANGE)
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
_TOKEN_RE = re.compile(r"\d+(?:[.,]\d+)*|%|[A-Za-z][A-Za-z0-9+#]*(?:_[A-Za-z0-9+#]+)*(?:['\u2019.][A-Za-z0-9]+)*")
_LETTER_RE = re.compile(
    r"\b(?:option|choice|answer|alternative|plan|variant|proposal)\s*\(?([A-H])\)?(?![A-Za-z0-9])"
    r"|^\s*\(?([A-H])\)\s|^\s*([A-H])\s*(?:[:.\u2014\u2013-]\s|$)|\(([A-H])\)", re.IGNORECASE | re.MULTILINE)


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
    the option it names ("Pick A"): the form two lines are aligned in word by word (`_swapped_word`).
    """
    found: list[Token] = []
    code_spans = {m.group(1).lower() for m in re.finditer(r"`([^`]+)`", line)}
    # "nightly" and "every day" are one period: both read as '<seconds> period'
    words = [m.group(0) for m in _TOKEN_RE.finditer(_FREQUENCY_RE.sub(_as_period, line.replace("\u2019", "'")))]
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
        if word == "version" and _is_number(following):
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
    if unit not in _UNITS or unit == "%" and not _is_number(word):
        return ""
    if _is_number(word):
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


def _is_number(word: str) -> bool:
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
    elif len(following) >= 3 and following[0] not in _UNITS and not _is_number(following[0]) \
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
        words = [w.lower() for w in _TOKEN_RE.findall(clause)]
        slot, key = key, ""
        if position + 1 < len(parts) and parts[position + 1].startswith(":"):
            key = " ".join(_stem(w) for w in words if w not in _GLUE and w not in _NOT_LABELS and not _is_number(w))
        for i, word in enumerate(words):
            if _is_number(word):
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
            before = [w for w in words[:i] if w not in _GLUE and w not in _NOT_LABELS and not _is_number(w)
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
            elif unit and not _is_number(unit):
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


_STRAY_LETTER_RE = re.compile(r"(?<![\w'/.-])([A-H])(?![\w'/-])")


def _stray_letters(line: str) -> frozenset[str]:
    """Capital letters standing alone ("Option A, then B later" names B too); an article "A" is not one."""
    return frozenset(m.group(1) for m in _STRAY_LETTER_RE.finditer(line)
                     if not (m.group(1) == "A" and re.match(r"\s+[a-z]", line[m.end():])))


def _letters(line: str) -> frozenset[str]:
    return frozenset((next(g for g in m.groups() if g)).upper() for m in _LETTER_RE.finditer(line))


def _verb_class(toks: tuple[Token, ...]) -> str:
    stems = {t.stem for t in toks}
    keep = bool(stems & _KEEP_STEMS)
    change = bool(stems & _CHANGE_STEMS)
    return "keep" if keep and not change else "change" if change and not keep else ""


_VALUE_LETTER_RE = re.compile(r"^\s*\(?([A-H])\)?(?![A-Za-z0-9])")


def _decisive_value(value: str) -> bool:
    """An item value that is an option letter or a number: two that differ are different answers."""
    return bool(_VALUE_LETTER_RE.match(value) or quantities(value))


def _item_value(value: str) -> str:
    """What decides an item's value: its option letter, its quantities, or its folded text."""
    letter = _VALUE_LETTER_RE.match(value)
    if letter:
        return letter.group(1).upper()
    amounts = quantities(value)
    if amounts:
        # the number decides: "10 s", "10 seconds" and a bare "10" under one key are one value
        return " ".join(f"{q.value:g}" for q in amounts)
    return normalise_line(value)


class Comparison(NamedTuple):
    """Whether two Answers recommend the same thing, and the evidence."""

    relation: str  # SAME, DIFFERENT or UNSURE
    basis: str  # identical, items, refinement, negation, numbers, letters, verbs, options, substitution, none
    evidence: str
    left: str
    right: str
    items: tuple[str, ...] = ()  # the items that differ, for item-by-item answers

    @property
    def agree(self) -> bool:
        return self.relation == SAME

    @property
    def differ(self) -> bool:
        return self.relation == DIFFERENT

    @property
    def certain_same(self) -> bool:
        """Same on evidence that leaves no room (identical lines, items, letter, pure refinement): strong
        enough to carry a peer's yes from one turn to the next, or to call a return an oscillation."""
        return self.relation == SAME and self.basis in _CERTAIN_BASES

    def as_dict(self) -> dict[str, object]:
        return {"relation": self.relation, "basis": self.basis, "evidence": self.evidence,
                "items": list(self.items)}


class Context:
    """What the debate says about its own options, and the one memo of comparisons.

    `ignore`: words that are no evidence (participants' slugs).  `alternatives`:
    groups of words the participants have held against each other; two lines
    that each hold a word of a different group... pick different options.
    """

    def __init__(self, ignore: Iterable[str] = (), task: str = "") -> None:
        self.ignore = frozenset(ignore)
        self.options: list[tuple[frozenset[str], ...]] = []  # option lists of the task, each a set of stems
        # keyed by content: a debate repeats its lines (copied word for word), and one line's signature
        # is a new object in every turn file that holds it
        self._memo: dict[tuple[tuple[str, tuple[tuple[str, str], ...], bool], ...], Comparison] = {}
        if task:
            self._learn_task(task)

    def _learn_task(self, task: str) -> None:
        """Options the task lists ('NATS JetStream, Redis Streams or Kafka', 'tabs or 4 spaces'), each a few words."""
        for sentence in re.split(r"(?<=[.?!:])\s+|\n", task):
            match = re.search(r"([^,;]{1,60}(?:,\s*[^,;]{1,40}){0,4})\s*,?\s+(?:or|vs\.?|versus)\s+([^,;.?!]{1,40})",
                              sentence)
            if not match:
                continue
            parts = [p for p in re.split(r",\s*", match.group(1)) if p.strip()] + [match.group(2)]
            parts[0] = " ".join(parts[0].split()[-3:])  # "recommend exactly one of NATS JetStream" -> its end
            options = [frozenset(t.stem for t in tokens(p) if t.stem not in ("not", "+") and t.stem not in self.ignore
                                 and not t.stem.isdigit()) for p in parts]
            if all(0 < len(o) <= 3 for o in options) and len(set(options)) == len(options) >= 2:
                self.options.append(tuple(options))

    def compare(self, left: AnswerSig, right: AnswerSig) -> Comparison:
        # the fingerprint decides only through "identical answers": the key holds whether they are equal,
        # so files that share a line but not their prose share one comparison
        same_text = bool(left.fingerprint) and left.fingerprint == right.fingerprint
        left_key = (left.recommendation, left.items, same_text)
        right_key = (right.recommendation, right.items, same_text)
        key = (left_key, right_key)
        found = self._memo.get(key)
        if found is None:
            # one canonical order, so that a pair gets one answer whichever way it is asked
            if (left.recommendation, left.fingerprint) <= (right.recommendation, right.fingerprint):
                found = _compare(left, right, self)
            else:
                found = _compare(right, left, self)
                found = found._replace(left=found.right, right=found.left)
            self._memo[key] = found
            self._memo[(right_key, left_key)] = found._replace(left=found.right, right=found.left)
        return found

    def forget(self) -> None:
        """Drop the memo (a long debate compares old turns no more)."""
        self._memo.clear()


def _synonyms(a: str, b: str) -> bool:
    """Two words that name one thing: one a prefix of the other (postgres / postgresql), or one stem."""
    if a == b:
        return True
    if {a, b} <= _KEEP_STEMS or {a, b} <= _CHANGE_STEMS:
        return True
    short, long = sorted((a, b), key=len)
    return len(short) >= 4 and (long.startswith(short) or long.endswith("." + short))


def _compare_items(left: AnswerSig, right: AnswerSig, context: Context) -> Comparison | None:
    if len(left.items) < 2 or len(right.items) < 2:
        return None
    lv = {k: _item_value(v) for k, v in left.items}
    rv = {k: _item_value(v) for k, v in right.items}
    shared = [k for k in lv if k in rv]
    if len(shared) * 2 < max(len(lv), len(rv)):
        return None  # not the same list of items: compare the lines instead
    raw_l, raw_r = dict(left.items), dict(right.items)
    differing: list[str] = []
    reworded: list[str] = []  # values in other words: compared as lines, never assumed equal or different
    for key in shared:
        if lv[key] == rv[key]:
            continue
        if _decisive_value(raw_l[key]) and _decisive_value(raw_r[key]):
            differing.append(key)  # letters or numbers under one key: no wording makes them equal
            continue
        found = _compare(AnswerSig(raw_l[key], (), ""), AnswerSig(raw_r[key], (), ""), context)
        if found.relation == DIFFERENT:
            differing.append(key)
        elif found.relation == UNSURE or not found.certain_same:
            reworded.append(key)
    lines = left.recommendation, right.recommendation
    if differing:
        shown = ", ".join(f"{k} {lv[k]} vs {rv[k]}" for k in differing[:5])
        more = f" and {len(differing) - 5} more" if len(differing) > 5 else ""
        return Comparison(DIFFERENT, "items", f"{len(differing)} of {len(shared)} items differ: {shown}{more}",
                          *lines, tuple(differing))
    if len(shared) != len(lv) or len(shared) != len(rv):
        return Comparison(UNSURE, "items", f"the {len(shared)} shared items agree, but the answers list different "
                          "items", *lines)
    if reworded:
        return Comparison(UNSURE, "items", f"items {', '.join(reworded[:5])} are worded differently; the others "
                          "are the same", *lines)
    return Comparison(SAME, "items", f"all {len(shared)} items are the same", *lines)


def _line_states(line: str, keys: tuple[str, ...]) -> bool:
    """Every item key is named in a line that gives numbers ('8 threads', 'timeout 60 s', 'backoff (base 200 ms)').

    A line that names an item and sets values is where the sessions state it (the
    skill asks for the numbers one recommends in the line); the bodies' wording of
    that item (a formula written two ways, d45) does not overrule it.
    """
    stems = {t.stem for t in tokens(line)}
    if not quantities(line):
        return False
    for key in keys:
        words = [t.stem for t in tokens(key) if t.stem not in ("not", "+")]
        if not words or not set(words) <= stems:
            return False
    return True


def _quantity_conflict(left: str, right: str) -> str:
    """Two numbers that set the same thing to different values ('connect 3 s' vs 'connect 1 s').

    Numbers are matched by unit and label; a number one line has and the other
    lacks is a detail, not a conflict.  When each line has exactly one number
    of a unit, those two are matched whatever their labels ('a 1 MB limit' vs
    'cap uploads at 10 MB').
    """
    qa, qb = quantities(left), quantities(right)
    if not qa or not qb:
        return ""
    def held(value: float, unit: str, label: str, others: tuple[Quantity, ...]) -> bool:
        # a value with no label of its own may be the one the other line labels ("weekly full, daily
        # differential" / "(weekly full + daily differential backups)")
        return any(x.value == value and x.unit == unit and (x.label == label or not x.label or not label)
                   for x in others)

    for a in qa:
        for b in qb:
            if a.unit == b.unit and a.label == b.label and (a.label or a.unit) and a.value != b.value \
                    and not held(a.value, a.unit, a.label, qb) and not held(b.value, b.unit, b.label, qa):
                return f"{a.text} vs {b.text}" + (f" ({a.label})" if a.label and a.label != a.unit else "")
    for unit in {q.unit for q in qa} & {q.unit for q in qb}:
        only_a = [q for q in qa if q.unit == unit]
        only_b = [q for q in qb if q.unit == unit]
        if unit and len(only_a) == len(only_b) == 1 and only_a[0].value != only_b[0].value:
            return f"{only_a[0].text} vs {only_b[0].text}"
    return ""


def _names(toks: tuple[Token, ...], ignore: frozenset[str]) -> set[str]:
    return {t.stem for t in toks if t.name and not t.stem.replace(".", "").isdigit() and t.stem not in ignore}


def _compare(left: AnswerSig, right: AnswerSig, context: Context) -> Comparison:
    if left.fingerprint and left.fingerprint == right.fingerprint:
        return Comparison(SAME, "identical", "identical answers", left.recommendation, right.recommendation)
    # "Recommendation (unchanged): X" restates X: the label is no part of what it recommends
    left = AnswerSig(strip_label(left.recommendation), left.items, left.fingerprint)
    right = AnswerSig(strip_label(right.recommendation), right.items, right.fingerprint)
    lines = left.recommendation, right.recommendation
    by_items = _compare_items(left, right, context)
    la, lb = left.line, right.line
    if by_items is not None and by_items.relation == DIFFERENT and la and la == lb \
            and _line_states(left.recommendation, by_items.items):
        # one bold line, word for word, that itself sets every item whose value differs in the bodies
        # ("gthread with 4 workers, 8 threads each"; a body's "threads: 8 (32 in flight ...)"): the line decides
        return Comparison(SAME, "identical", "identical recommendation lines (they set the items "
                          f"{', '.join(by_items.items[:5])} that the answers' bodies word differently)", *lines)
    if by_items is not None:
        return by_items
    if not la or not lb:
        return Comparison(UNSURE, "none", "an Answer has no recommendation line", *lines)
    if la == lb:
        return Comparison(SAME, "identical", "identical recommendation lines", *lines)
    ignore = context.ignore
    ta = tuple(t for t in tokens(left.recommendation) if t.stem not in ignore)
    tb = tuple(t for t in tokens(right.recommendation) if t.stem not in ignore)
    letters_a, letters_b = _letters(left.recommendation), _letters(right.recommendation)
    if letters_a and letters_b and letters_a != letters_b:
        return Comparison(DIFFERENT, "letters", f"option {'/'.join(sorted(letters_a))} vs "
                          f"{'/'.join(sorted(letters_b))}", *lines)
    opposite = _negation_conflict(left.recommendation, right.recommendation, ignore)
    if opposite:
        return Comparison(DIFFERENT, "negation", f"one line recommends {opposite}, the other rejects it", *lines)
    conflict = _quantity_conflict(left.recommendation, right.recommendation)
    if conflict:
        return Comparison(DIFFERENT, "numbers", f"different numbers: {conflict}", *lines)
    answers = _yes_no(left.recommendation), _yes_no(right.recommendation)
    if all(answers) and answers[0] != answers[1]:
        return Comparison(DIFFERENT, "yes-no", "one line answers yes, the other no", *lines)
    kept = _kept_against_adopted(left.recommendation, right.recommendation, ignore)
    if kept:
        return Comparison(DIFFERENT, "verbs", kept, *lines)
    verbs_a, verbs_b = _verb_class(tokens(head_clause(left.recommendation))), _verb_class(
        tokens(head_clause(right.recommendation)))
    if verbs_a and verbs_b and verbs_a != verbs_b:
        return Comparison(DIFFERENT, "verbs", f"one line says {verbs_a}, the other {verbs_b}", *lines)
    chosen = _opposed_choice(ta, tb, context)
    if chosen:
        return Comparison(DIFFERENT, "options", chosen, *lines)
    if letters_a and letters_a == letters_b and len(letters_a) == 1 \
            and not (_stray_letters(left.recommendation) | _stray_letters(right.recommendation)) - letters_a:
        return Comparison(SAME, "letters", f"both choose option {min(letters_a)}", *lines)
    head = _same_head(left.recommendation, right.recommendation, ta, tb, ignore)
    found = head if head is not None else _by_alignment(ta, tb, lines, ignore)
    if found.relation == DIFFERENT or found.certain_same and found.basis != "refinement":
        return found
    # minimal pairs: what the rules above read past, a word-for-word reading still sees
    swapped = _swapped_word(left.recommendation, right.recommendation, ignore)
    if swapped:
        return Comparison(DIFFERENT, "substitution", f"'{swapped[0]}' vs '{swapped[1]}' in otherwise matching "
                          "lines", *lines)
    short = _short_answers_differ(ta, tb, lines)
    if short:
        return Comparison(DIFFERENT, "short", short, *lines)
    if found.relation == SAME and found.basis in ("head", "refinement"):
        turn = _adds_a_turn(left.recommendation, right.recommendation)
        if turn:
            # "Use SQLite" / "Use SQLite, just kidding: Postgres": more words, another recommendation
            return Comparison(UNSURE, found.basis, f"one line goes on with {turn}: more than detail", *lines)
    return found


_LABEL_RE = re.compile(
    r"^\W*(?:(?:my|our|the)\s+)?(?:(?:final|updated|revised|current|unchanged|same)\s+)?"
    r"(?:recommendation|answer|position|verdict|decision|proposal|line)?\s*"
    r"(?:\((?:unchanged|still|same|as before|restated|revised|updated|final)[^)]{0,20}\))?\s*[:\u2014\u2013-]\s+",
    re.IGNORECASE)
_RESTATED_RE = re.compile(r"^\W*(?:unchanged|still|as before|same as before|restated)\s*[:\u2014\u2013-]\s+",
                          re.IGNORECASE)


def strip_label(line: str) -> str:
    """A line without the label that only announces it ("Recommendation (unchanged): ", "Still: ")."""
    for pattern in (_LABEL_RE, _RESTATED_RE):
        match = pattern.match(line)
        if match and match.end() < len(line) and match.group(0).strip(" *_:-\u2014\u2013"):
            line = line[match.end():]
    return line


_YES_NO_RE = re.compile(r"^\W*(yes|no)\b(?!-)", re.IGNORECASE)


def _yes_no(line: str) -> str:
    """'yes' or 'no' when a line opens with it ("Yes, move to uv now."), else ''."""
    match = _YES_NO_RE.match(line)
    return match.group(1).lower() if match else ""


# words two lines may swap without changing what they recommend: articles, prepositions, modal and generic
# verbs of recommending, pronouns, fillers
_INTERCHANGEABLE = frozenset(
    """a an the this that these those in on at by for from with to into onto via through across is are be it its
    should would will can could may might must do does we you they i our your their use using adopt choose pick
    recommend prefer suggest propose go just also then so very really simply now here definitely clearly
    basically probably certainly strongly still answer option choice recommendation verdict final""".split())


def _swapped_word(left: str, right: str, ignore: frozenset[str]) -> tuple[str, str] | None:
    """The one word two otherwise matching lines swap ("Pick A" / "Pick B", "Answer: 42" / "Answer: 41").

    Aligned word by word with the glue kept, so a letter or a number that is all a short line says is seen;
    None when the swap is one value in two spellings, or a word that decides nothing.
    """
    full_a = [t for t in tokens(left, keep_glue=True) if t.stem not in ignore]
    full_b = [t for t in tokens(right, keep_glue=True) if t.stem not in ignore]
    a, b = [t.stem for t in full_a], [t.stem for t in full_b]
    if not a or not b:
        return None
    found = _one_swap(a, b)
    if found is None:
        # "Choose option A" / "Choose B": read again without the words that decide nothing; then only a
        # name, a number or a letter may be the swap
        kept_a = [t for t in full_a if t.stem not in _INTERCHANGEABLE]
        kept_b = [t for t in full_b if t.stem not in _INTERCHANGEABLE]
        again = _one_swap([t.stem for t in kept_a], [t.stem for t in kept_b], least=1)
        if again is None or not (_decides(kept_a[again[0]]) and _decides(kept_b[again[1]])):
            return None
        full_a, full_b, a, b, found = kept_a, kept_b, [t.stem for t in kept_a], [t.stem for t in kept_b], again
    i1, j1 = found
    x, y = a[i1], b[j1]
    if _is_number(x) and _is_number(y) and float(x) == float(y):
        return None  # "0640" / "640": one value
    if _synonyms(x, y) or _one_act(x, y) or _abbreviates(x, b) or _abbreviates(y, a) \
            or x in _INTERCHANGEABLE or y in _INTERCHANGEABLE:
        return None
    short = len([w for w in a if w not in _INTERCHANGEABLE]) <= _SHORT and len(
        [w for w in b if w not in _INTERCHANGEABLE]) <= _SHORT
    if not (short or _decides(full_a[i1]) or _decides(full_b[j1])):
        return None  # in a long line, two ordinary words for one act ("store" / "save") are the alignment's
    return (x, y) if (x, y) <= (y, x) else (y, x)


def _one_swap(a: list[str], b: list[str], least: int = 2) -> tuple[int, int] | None:
    """Where two word lists differ by exactly one word for one word: (index in a, index in b)."""
    import difflib

    if len(a) < least or len(b) < least or len(a) != len(b):
        return None
    ops = [op for op in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes() if op[0] != "equal"]
    if len(ops) != 1 or ops[0][0] != "replace" or ops[0][2] - ops[0][1] != 1 or ops[0][4] - ops[0][3] != 1:
        return None
    return ops[0][1], ops[0][3]


def _one_act(x: str, y: str) -> bool:
    """A keep or change verb against a word of neither class ("keep" / "store" sessions in Redis): no decision."""
    verbs = _KEEP_STEMS | _CHANGE_STEMS
    return (x in verbs) != (y in verbs)


_DECISIVE_WORDS = frozenset("yes no on off before after and or + not".split()) | _KEEP_STEMS | _CHANGE_STEMS


def _decides(token: Token) -> bool:
    """A word whose swap changes the answer: a name, a number or amount, an option letter, yes/no, on/off, ..."""
    return token.name or _numeric(token.stem) or token.stem in _DECISIVE_WORDS


_ADOPT_WORDS = frozenset("adopt adopting use using introduce introducing choose pick go".split())


def _kept_against_adopted(left: str, right: str, ignore: frozenset[str]) -> str:
    """One line keeps what is there, the other adopts something it never names ("Stay on pip-tools" / "Adopt uv")."""
    sides = []
    for line in (left, right):
        head = head_clause(line)
        words = {w.lower() for w in _TOKEN_RE.findall(head)}
        toks = [t for t in tokens(head) if t.stem not in ignore]
        stems = {t.stem for t in toks}
        kind = "keep" if stems & _KEEP_STEMS and not stems & _CHANGE_STEMS else (
            "adopt" if words & _ADOPT_WORDS and not stems & _KEEP_STEMS else "")
        objects = {t.stem for t in toks if t.stem not in _KEEP_STEMS and t.stem not in _CHANGE_STEMS
                   and t.stem not in ("not", "+")}
        sides.append((kind, objects, {t.stem for t in tokens(line)}))
    (kind_a, objects_a, all_a), (kind_b, objects_b, all_b) = sides
    if {kind_a, kind_b} != {"keep", "adopt"} or not objects_a or not objects_b:
        return ""
    if objects_a & all_b or objects_b & all_a or any(_synonyms(x, y) for x in objects_a for y in objects_b):
        return ""
    keeps, adopts = (objects_a, objects_b) if kind_a == "keep" else (objects_b, objects_a)
    return f"one line keeps {' '.join(sorted(keeps))}, the other adopts {' '.join(sorted(adopts))}"


_SHORT = 3  # content words: an answer this short is compared word by word, never given the benefit of the doubt


def _short_answers_differ(ta: tuple[Token, ...], tb: tuple[Token, ...], lines: tuple[str, str]) -> str:
    """Two short answers that each say something the other does not ("Tabs" / "4 spaces", "Use uv" / "Stay on pip")."""
    a = [t.stem for t in ta if t.stem not in ("+",)]
    b = [t.stem for t in tb if t.stem not in ("+",)]
    if not a or not b or len(a) > _SHORT or len(b) > _SHORT:
        return ""
    parts_a, parts_b = a + _word_parts(lines[0]), b + _word_parts(lines[1])
    only_a = [x for x in a if not any(_synonyms(x, y) for y in b) and not _abbreviates(x, parts_b)]
    only_b = [y for y in b if not any(_synonyms(x, y) for x in a) and not _abbreviates(y, parts_a)]
    if not only_a or not only_b:
        return ""  # one says all the other says, and perhaps more: a refinement, judged elsewhere
    decisive = {t.stem for t in ta + tb if t.name or _numeric(t.stem)}
    no_shared_word = len(only_a) == len(a) and len(only_b) == len(b) and len(a) <= 2 and len(b) <= 2
    if not decisive & set(only_a + only_b) and not no_shared_word:
        return ""  # ordinary words in other words ("keep tabs" / "stay with the current indentation")
    return f"short answers that differ: '{_shown(only_a)}' vs '{_shown(only_b)}'"


def _abbreviates(word: str, words: list[str]) -> bool:
    """`word` is made of the openings of two or more consecutive `words` ("semver": semantic versioning), or is
    one word's letters in order from its first ("otel": opentelemetry)."""
    if len(word) < 2:
        return False
    if len(word) >= 3 and any(len(w) > len(word) and w[0] == word[0] and _in_order(word, w) for w in words):
        return True
    for start in range(len(words)):
        if _spells(word, words[start:]):
            return True
    return False


def _word_parts(line: str) -> list[str]:
    """A line's words split where a name's capitals join them ("GitHub Actions": git, hub, actions)."""
    return [part.lower() for word in _TOKEN_RE.findall(line)
            for part in re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", word)]


def _in_order(letters: str, word: str) -> bool:
    rest = iter(word)
    return all(letter in rest for letter in letters)


def _spells(word: str, words: list[str]) -> bool:
    ends = {0}
    for used, whole in enumerate(words[:4], start=1):
        ends = {end + size for end in ends for size in range(1, len(whole) + 1)
                if word[end:end + size] == whole[:size]}
        if len(word) in ends and used >= 2:
            return True
        if not ends:
            return False
    return False


# words that turn a line that begins like another into another recommendation: a condition, a contrast,
# a negation, an alternative
_TURNS = frozenset("""not no never don't dont without instead but however although though yet except unless until
    if once only when whenever provided otherwise else or alternatively kidding actually rather""".split())


def _adds_a_turn(left: str, right: str) -> str:
    """The turning words one line has and the other lacks ("once", "but", "not"), as shown in evidence."""
    words_a = {w.lower() for w in _TOKEN_RE.findall(left.replace("\u2019", "'"))}
    words_b = {w.lower() for w in _TOKEN_RE.findall(right.replace("\u2019", "'"))}
    added = sorted((words_a ^ words_b) & _TURNS)
    return ", ".join(f"'{w}'" for w in added[:3])


def _same_head(left: str, right: str, ta: tuple[Token, ...], tb: tuple[Token, ...],
               ignore: frozenset[str]) -> Comparison | None:
    """Lines that open with the same clause and differ only in compatible detail after it.

    Same only when neither tail brings a condition or a fallback ("only if",
    "fall back to", "switch to ... unless") or a name the other line lacks:
    those change what a person would do.  Otherwise unsure.  A head that names
    a participant ("I now agree with claude-c's schedule") says who, not what.
    """
    head_a, head_b = head_clause(left), head_clause(right)
    if normalise_line(head_a) != normalise_line(head_b):
        return None
    raw_head = {w.lower() for w in _TOKEN_RE.findall(head_a)}
    head_tokens = [t for t in tokens(head_a) if t.stem not in ignore]
    verbs = _KEEP_STEMS | _CHANGE_STEMS
    if raw_head & ignore or not any(t.stem not in verbs for t in head_tokens):
        return None
    lines = left, right
    tail_a = set(t.stem for t in ta[len(head_tokens):])
    tail_b = set(t.stem for t in tb[len(head_tokens):])
    new_names = _new_names(ta, tb, ignore)
    numbers_a = Counter(t.stem for t in ta if _numeric(t.stem))
    numbers_b = Counter(t.stem for t in tb if _numeric(t.stem))
    if numbers_a and numbers_b and numbers_a - numbers_b and numbers_b - numbers_a:
        # each line has a number the other lacks: other values, never "the rest only adds detail"
        # (a number only one line adds, like "the gateway kills at 10 s", stays a detail)
        return Comparison(UNSURE, "head", f"the same opening clause ('{head_a.strip(' *_')}'), but the numbers "
                          f"differ ({' '.join(sorted(numbers_a))} / {' '.join(sorted(numbers_b))})", left, right)
    conditional = (tail_a | tail_b) & ((_CONDITIONAL - {"+"}) | verbs | {"only", "until", "fall", "upgrade", "later"})
    if conditional or new_names:
        what = ", ".join(sorted(conditional)) or ", ".join(sorted(new_names))
        return Comparison(UNSURE, "head", f"the same opening clause ('{head_a.strip(' *_')}'), but the rest "
                          f"differs in a condition or an option ({what})", *lines)
    order_a = list(dict.fromkeys(t.stem for t in ta[len(head_tokens):]))
    order_b = list(dict.fromkeys(t.stem for t in tb[len(head_tokens):]))
    if tail_a == tail_b and order_a != order_b:
        # "weekly full, daily differential" / "daily full, weekly differential": one set of words, other pairs
        return Comparison(UNSURE, "head", f"the same opening clause ('{head_a.strip(' *_')}'), then the same words "
                          "in another order", *lines)
    if tail_a - tail_b and tail_b - tail_a:
        # both go on, each in its own way: "..., read from replicas" / "..., read from the primary"
        rest = _by_alignment(ta[len(head_tokens):], tb[len(head_tokens):], lines, ignore)
        if rest.relation == DIFFERENT:
            return Comparison(UNSURE, "head", f"the same opening clause ('{head_a.strip(' *_')}'), but the rest "
                              f"differs: {rest.evidence}", *lines)
    return Comparison(SAME, "head", f"the same opening clause ('{head_a.strip(' *_')}'); the rest only adds "
                      "detail", *lines)


_HEAD_BREAK_RE = re.compile(r"[,;:(\[\u2014\u2013]|\s-\s|\.\s")


def head_clause(line: str) -> str:
    """A line up to its first clause break: where it names what it chooses."""
    return _HEAD_BREAK_RE.split(line, maxsplit=1)[0]


@functools.lru_cache(maxsize=65536)
def _signed(text: str, ignore: frozenset[str]) -> frozenset[str]:
    return frozenset(key_terms(text, ignore))


# "composition over inheritance", "Postgres vs MySQL": what follows is weighed, not chosen
_WEIGHED_RE = re.compile(r"\b(?:over|vs\.?|versus)\s", re.IGNORECASE)


def _negation_conflict(left: str, right: str, ignore: frozenset[str]) -> str:
    """A term one line chooses in its opening clause and the other rejects ('use a monorepo' / 'no monorepo').

    Not when each line has the term acting on something the other line never
    names: "split it into modules" and "do not split into microservices" reject
    different splits.
    """
    signed_a, signed_b = _signed(left, ignore), _signed(right, ignore)
    head_a = _signed(_WEIGHED_RE.split(head_clause(left), maxsplit=1)[0], ignore)
    head_b = _signed(_WEIGHED_RE.split(head_clause(right), maxsplit=1)[0], ignore)
    for (chosen, other), lines in (((head_a, signed_b), (left, right)), ((head_b, signed_a), (right, left))):
        for term in sorted(chosen):
            if not term.startswith("not:") and f"not:{term}" in other and not _other_objects(term, *lines, ignore):
                return term
    return ""


def _other_objects(term: str, left: str, right: str, ignore: frozenset[str]) -> bool:
    """Each line's next content word after `term` is one the other line lacks."""
    ta = [t.stem for t in tokens(left) if t.stem not in ignore]
    tb = [t.stem for t in tokens(right) if t.stem not in ignore]

    def after(stems: list[str]) -> str:
        if term not in stems:
            return ""
        return next((w for w in stems[stems.index(term) + 1:] if w not in ("not", "+")), "")

    next_a, next_b = after(ta), after(tb)
    return bool(next_a and next_b) and next_a not in tb and next_b not in ta


def _chosen_options(toks: tuple[Token, ...], options: tuple[frozenset[str], ...]) -> set[int]:
    stems = {t.stem for t in toks}
    # an option rejected in the line ("not Redis") is not chosen: drop the words after a negation
    negated = {toks[i + 1].stem for i, t in enumerate(toks[:-1]) if t.stem == "not"}
    return {i for i, option in enumerate(options) if option <= stems and not option & negated}


def _opposed_choice(ta: tuple[Token, ...], tb: tuple[Token, ...], context: Context) -> str:
    """The two lines pick different options of a list the task gives ('A, B or C')."""
    for options in context.options:
        chosen_a, chosen_b = _chosen_options(ta, options), _chosen_options(tb, options)
        if len(chosen_a) == 1 and len(chosen_b) == 1 and chosen_a != chosen_b:
            x, y = options[min(chosen_a)], options[min(chosen_b)]
            return f"{' '.join(sorted(x))} vs {' '.join(sorted(y))} (options the task lists)"
    return ""


_CONDITIONAL = frozenset("+ not or if unless fallback otherwise else alternatively".split())


_CHOICE_SPAN = 6  # content words at the start of a line where it names what it chooses


def _by_alignment(ta: tuple[Token, ...], tb: tuple[Token, ...], lines: tuple[str, str],
                  ignore: frozenset[str]) -> Comparison:
    import difflib  # only pairs that reach the alignment need it: not on a start from the cache

    a = [t.stem for t in ta]
    b = [t.stem for t in tb]
    ops = [op for op in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes() if op[0] != "equal"]
    equal = len(a) - sum(i2 - i1 for _op, i1, i2, _j1, _j2 in ops)
    replacing = [op for op in ops if op[0] == "replace"]
    replaced = [(a[i1:i2], b[j1:j2], ta[i1:i2], tb[j1:j2]) for _op, i1, i2, j1, j2 in replacing]
    # only where a line names its choice: a name swapped after that is a detail of one shared choice
    # ("..., with no separate public ID" / "... (no built-in v7 function)"), not another option
    early = [swap for swap, (_op, i1, _i2, j1, _j2) in zip(replaced, replacing) if min(i1, j1) < _CHOICE_SPAN]
    deleted = [w for op, i1, i2, _j1, _j2 in ops if op == "delete" for w in a[i1:i2]]
    inserted = [w for op, _i1, _i2, j1, j2 in ops if op == "insert" for w in b[j1:j2]]
    names_a, names_b = _names(ta, ignore), _names(tb, ignore)
    if replaced and not deleted and not inserted and all(
            len(old) == len(new) and all(_synonyms(x, y) for x, y in zip(old, new)) for old, new, _o, _n in replaced):
        return Comparison(SAME, "identical", "the same words but for spelling ("
                          + ", ".join(f"{' '.join(o)} / {' '.join(n)}" for o, n, _a, _b in replaced) + ")", *lines)
    # one word swapped for another in lines that otherwise match: that word decides
    if len(ops) == 1 and replaced and equal >= 1:
        old, new, _o, _n = replaced[0]
        content = [w for w in old + new if w not in ("+", "not")]
        # one word for one or two ("merge"/"rebase", "tabs"/"4 spaces"), in lines that share at least as much
        if min(len(old), len(new)) == 1 and max(len(old), len(new)) <= equal + 1 and content \
                and not any(_synonyms(x, y) or _one_act(x, y) for x in old for y in new) \
                and not any(_abbreviates(x, new) for x in old) and not any(_abbreviates(y, old) for y in new):
            return Comparison(DIFFERENT, "substitution", f"'{_shown(old)}' vs '{_shown(new)}' in otherwise "
                              "matching lines", *lines)
    for old, new, old_t, new_t in early:
        swapped_a = {t.stem for t in old_t if t.name} - names_b
        swapped_b = {t.stem for t in new_t if t.name} - names_a
        if swapped_a and swapped_b and not any(_synonyms(x, y) for x in swapped_a for y in swapped_b) \
                and not any(_abbreviates(x, _word_parts(lines[1])) for x in swapped_a) \
                and not any(_abbreviates(y, _word_parts(lines[0])) for y in swapped_b) \
                and any(not _numeric(w) for w in swapped_a) and any(not _numeric(w) for w in swapped_b):
            # each side names an option: a number against a name ('two at most' / 'CI') is no choice between options
            return Comparison(DIFFERENT, "options", f"{_listed(old_t, swapped_a)} vs {_listed(new_t, swapped_b)} "
                              "in the same place of the two lines", *lines)
    # one line contains the other: a refinement, unless what it adds is another option or a condition
    added = inserted or deleted
    if not replaced and not (deleted and inserted) and equal:
        new_names = names_a ^ names_b
        if new_names and _CONDITIONAL & set(added):
            return Comparison(UNSURE, "refinement", f"one line adds {', '.join(sorted(new_names))} as an "
                              "alternative or a condition", *lines)
        shown = " ".join(w for w in added[:8] if w != "+")
        return Comparison(SAME, "refinement", f"one line only adds detail ({shown})" if shown else "the same words",
                          *lines)
    set_a, set_b = set(a) - {"not", "+"}, set(b) - {"not", "+"}
    shorter, longer = sorted((set_a, set_b), key=len)
    if set_a == set_b and list(dict.fromkeys(a)) != list(dict.fromkeys(b)):
        # "2 workers per core" / "2 cores per worker": one set of words, another meaning
        return Comparison(UNSURE, "none", "the same words in another order", *lines)
    if len(shorter) >= 2 and shorter <= longer and not (names_a ^ names_b):
        return Comparison(SAME, "refinement", "every word of the shorter line is in the longer one", *lines)
    head_a, head_b = _head(ta), _head(tb)
    chosen_a, chosen_b = _names(head_a, ignore), _names(head_b, ignore)
    if chosen_a and chosen_b and not (chosen_a & names_b) and not (chosen_b & names_a) and not any(
            _synonyms(x, y) for x in chosen_a for y in chosen_b) and not any(
            _abbreviates(x, b + _word_parts(lines[1])) for x in chosen_a) and not any(
            _abbreviates(y, a + _word_parts(lines[0])) for y in chosen_b):
        return Comparison(DIFFERENT, "options", f"different named options: {', '.join(sorted(chosen_a))} vs "
                          f"{', '.join(sorted(chosen_b))}", *lines)
    return Comparison(UNSURE, "none", "worded differently; no word that decides was found", *lines)


def _listed(toks: tuple[Token, ...], names: set[str], most: int = 3) -> str:
    """Names in the order the line gives them, the first few: evidence a person reads, not a token dump."""
    ordered = list(dict.fromkeys(t.stem for t in toks if t.stem in names and not _numeric(t.stem)))
    return ", ".join(ordered[:most]) + (", ..." if len(ordered) > most else "")


def _shown(words: list[str]) -> str:
    """Stems as a person reads them in evidence ('+' is the 'and' of the line)."""
    return " ".join("and" if w == "+" else w for w in words)


def _new_names(ta: tuple[Token, ...], tb: tuple[Token, ...], ignore: frozenset[str]) -> set[str]:
    """Names one line has whose word the other line lacks altogether ("Ruff's" and "ruff-format" are one)."""
    words_a = {part for t in ta for part in re.split(r"[.-]", t.stem)}
    words_b = {part for t in tb for part in re.split(r"[.-]", t.stem)}
    return ({n for n in _names(ta, ignore) if not set(re.split(r"[.-]", n)) & words_b}
            | {n for n in _names(tb, ignore) if not set(re.split(r"[.-]", n)) & words_a})


def _numeric(stem: str) -> bool:
    """A number or an amount token ('10', '2.5', '30s', '1e+06b')."""
    return bool(stem) and stem[0].isdigit()


def _head(toks: tuple[Token, ...]) -> tuple[Token, ...]:
    """The first few content words: where a line names what it chooses ("Use NATS JetStream, ...")."""
    return toks[:4]


def compare_signatures(left: AnswerSig, right: AnswerSig, context: Context | None = None) -> Comparison:
    """Compare two Answers' signatures (a one-off Context when none is given)."""
    return (context or Context()).compare(left, right)


def compare(left: str, right: str, context: Context | None = None) -> Comparison:
    """Compare two Answers' texts."""
    return compare_signatures(signature(left), signature(right), context)


# words a session uses to say it holds its line: no part of what the line recommends
_RESTATING = frozenset(_stem(w) for w in """stay stays remain remains unchanged still same hold holds held keep keeps
    my our position stand stands again""".split()) | frozenset("""stay stays remain remains unchanged still same hold
    holds held keep keeps my our position stand stands again""".split())


def restates(before: list[str], after: str, context: Context) -> bool:
    """Does the line `after` say again what the lines `before` (one session's, so far) said, in other words?

    What `after` chooses (its opening clause, the words that say "I hold it"
    left out) must all be words said before, with no name, number or
    negation of its own.  Used for "did this session's recommendation
    change", never for "do two sessions agree".
    """
    ignore = context.ignore
    old = [t.stem for line in before for t in tokens(strip_label(line)) if t.stem not in ignore]
    head = [t for t in tokens(head_clause(strip_label(after))) if t.stem not in ignore
            and t.stem not in _RESTATING and t.stem not in ("+",)]
    if not old or not head or any(t.stem == "not" for t in head):
        return False
    return all(any(_synonyms(t.stem, w) for w in old) for t in head)
