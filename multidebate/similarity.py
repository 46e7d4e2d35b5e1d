"""How alike two Answers are, on what they recommend rather than how they word it.

The measure ("recommendation overlap"):

1. The *recommendation* of an Answer is its first bold span when the Answer
   opens with one, else its first sentence (headings, rules and code skipped).
2. Its *key terms* are its content words, lowercased, with stop words and
   generic recommendation verbs ("use", "recommend", "choose"...) removed and
   a plural "s" dropped.  A term that follows a negation ("not", "avoid",
   "instead of", "rather than", "avoid"...) inside the same clause is kept as
   a negated term: "Use TOML, not YAML" -> {toml, not:yaml}.  ("over" is not
   a negation: "12 attempts over 70 hours" is far commoner than "X over Y".)
   Participants' slugs are not key terms ("as claude-a and I agree" says who,
   not what).
3. Two recommendations that hold one term with opposite signs conflict and
   score 0 ("use TOML, not YAML" vs "use YAML, not TOML"; "use a monorepo"
   vs "do not use a monorepo").  Otherwise the score is the overlap
   coefficient |A & B| / min(|A|, |B|), taken on the whole recommendation
   line and on its head clause (up to the first comma, semicolon, colon,
   dash or parenthesis), whichever is higher: a short recommendation
   contained in a longer, refined one scores 1, and so do two long lines
   that open with the same recommendation and then add different details.
4. When either recommendation has no key term, or the whole Answers are near
   copies, the signed-term cosine of the whole Answers is used instead.

Two Answers agree when the score is at least `AGREE_THRESHOLD`.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from typing import NamedTuple

from .lazy_re import LazyPattern

__all__ = ["AGREE_THRESHOLD", "MEASURE", "AnswerSig", "Comparison", "recommendation", "key_terms", "head_clause",
           "signature", "compare", "compare_signatures", "slug_words"]

AGREE_THRESHOLD = 0.6
MEASURE = "recommendation overlap"
_COPY_THRESHOLD = 0.9

_STOP = frozenset(
    """a an the and or but if then than so of to in on at by for from with within into onto as is are was were be
    been being it its this that these those there here i we you they he she our your their my me us them do does
    did done doing have has had having will would shall should can could may might must also just only very more
    most much many such both each all any some few other same own which who whom what when where why how while
    because since until about above below between through during before after again further once up down out off
    per via over vs versus etc e g ie i.e e.g yes still even well really overall here's let's it's that's i'd i'm we'd
    we're you're going get keep make take need needs needed want wants one two first second new good better
    best right correct clear clearly simple simply strongly likely approach option options choice choices answer
    answers recommendation recommendations recommend recommended recommends recommending use using used uses choose
    chose choosing pick picking adopt adopting prefer preferred prefers suggest suggested suggestion propose
    proposed proposal final position verdict conclusion summary tl dr tldr plan solution way thing things case
    agree agreed agrees agreement converge converged conclude concludes concluded peer peers three four everyone
    listed below above described outlined detailed""".split()
)
_NEGATORS = frozenset(
    "not no never avoid avoiding without don't dont doesn't doesnt shouldn't shouldnt won't wont isn't isnt "
    "aren't arent cannot can't cant against skip skipping drop dropping reject rejecting nor instead "
    "rather neither".split()
)
_SCOPE_END = frozenset("but and so yet then while whereas because".split())
_WORD_RE = LazyPattern(r"[a-z0-9][a-z0-9'+#]*")
_CLAUSE_RE = LazyPattern(r"[,;:.!?()\[\]\u2014\u2013]|\s-\s|\n")
_BOLD_OPEN_RE = LazyPattern(r"^\s*(?:[-*+]\s+|\d+[.)]\s+|>\s*)*(\*\*|__)(.+?)\1", re.DOTALL)
_HEAD_SPLIT_RE = LazyPattern(r"[,;:(\u2014\u2013]|\s-\s")
_LABEL_RE = LazyPattern(r"^(?:final\s+)?(?:answer|recommendation|tl;?dr|verdict|decision|summary|position)\s*:\s*",
                       re.IGNORECASE)


class Comparison(NamedTuple):
    """The score of two Answers, how it was measured, and what it rests on."""

    score: float
    agree: bool
    basis: str  # "recommendation", "conflict" or "whole answer"
    left: str
    right: str
    conflict: tuple[str, ...] = ()

    def explain(self) -> str:
        if self.basis == "conflict":
            return f"opposite stances on {', '.join(self.conflict)} in their recommendation lines"
        if self.basis == "whole answer" and self.score >= _COPY_THRESHOLD:
            return f"near-identical answers, term similarity {self.score:.2f} of the whole texts"
        if self.basis == "whole answer":
            return f"term similarity {self.score:.2f} of the whole answers (a recommendation line has no key terms)"
        return f"{MEASURE} {self.score:.2f} between their recommendation lines"


def _blocks(answer: str) -> list[str]:
    """Paragraph-like blocks of an Answer, with headings, rules and code removed."""
    blocks: list[str] = []
    current: list[str] = []
    fence = ""
    for line in answer.splitlines():
        stripped = line.strip()
        marker = re.match(r"^(`{3,}|~{3,})", stripped)
        if fence:
            if marker and marker.group(1)[0] == fence[0]:
                fence = ""
            continue
        if marker:
            fence = marker.group(1)
            continue
        if not stripped or stripped.startswith("#") or re.fullmatch(r"[-*_=]{3,}", stripped):
            if current:
                blocks.append(" ".join(current))
                current = []
            continue
        if current and re.match(r"^(?:[-*+]|\d+[.)])\s", stripped):
            blocks.append(" ".join(current))  # each list item is a block of its own
            current = []
        current.append(stripped)
    if current:
        blocks.append(" ".join(current))
    return blocks


def recommendation(answer: str) -> str:
    """The part of an Answer that states what it recommends (see module doc)."""
    blocks = _blocks(answer)
    if not blocks:
        return ""
    first = blocks[0]
    bold = _BOLD_OPEN_RE.match(first)
    if bold and len(bold.group(2).split()) >= 1:
        text = bold.group(2)
        if _LABEL_RE.match(text.strip()) and len(_LABEL_RE.sub("", text.strip())) == 0:
            # "**Recommendation:** use X" - the bold span is only a label
            text = first[bold.end():]
    else:
        text = first
    text = _LABEL_RE.sub("", re.sub(r"^\s*(?:[-*+]\s+|\d+[.)]\s+|>\s*)+", "", text.strip()))
    sentence = re.split(r"(?<=[.!?])\s+(?=[A-Z*_`])", text, maxsplit=1)[0]
    return sentence[:400].strip(" *_`")


def _stem(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def head_clause(text: str) -> str:
    """The recommendation line up to its first clause break."""
    return _HEAD_SPLIT_RE.split(text, maxsplit=1)[0]


_NEGATE = "\x00not"  # markers for _word_term: never a term, since terms come from _WORD_RE
_END_SCOPE = "\x00end"


@functools.lru_cache(maxsize=65536)
def _word_term(raw: str) -> tuple[str, str]:
    """(word, what it is): a stemmed key term, "" for a stop word, or a negation / scope-end marker.

    Memoised: a debate repeats its vocabulary, and this is the inner loop of
    parsing every file.
    """
    word = raw.strip("'")
    if word in _NEGATORS:
        return word, _NEGATE
    if word in _SCOPE_END:
        return word, _END_SCOPE
    if word in _STOP or len(word) < 2 or word.endswith("n't"):
        return word, ""
    return word, _stem(word)


def key_terms(text: str, ignore: frozenset[str] = frozenset(), signed: bool = True) -> Counter[str]:
    """Signed key terms of a text: `term` or `not:term` (see module doc); unsigned: just the terms."""
    terms: Counter[str] = Counter()
    lowered = text.lower().replace("\u2019", "'")
    for clause in _CLAUSE_RE.split(lowered):
        negated = False
        for raw in _WORD_RE.findall(clause):
            word, term = _word_term(raw)
            if term is _NEGATE:
                negated = True
            elif term is _END_SCOPE:
                negated = False
            elif term and word not in ignore:
                terms[f"not:{term}" if negated and signed else term] += 1
    # a term both affirmed and negated in one text says nothing either way
    for term in [t for t in terms if t.startswith("not:") and t[4:] in terms]:
        del terms[term[4:]]
        del terms[term]
    return terms


def _conflicts(a: Counter[str], b: Counter[str]) -> tuple[str, ...]:
    found = {t for t in a if f"not:{t}" in b} | {t for t in b if f"not:{t}" in a}
    return tuple(sorted(t for t in found if not t.startswith("not:")))


def _overlap(a: Counter[str], b: Counter[str]) -> float:
    if not a or not b:
        return 0.0
    return len(a.keys() & b.keys()) / min(len(a), len(b))


def slug_words(slugs: tuple[str, ...] | list[str]) -> frozenset[str]:
    """The words of participants' slugs, and the slugs themselves, to leave out of key terms."""
    words = set(slugs)
    for slug in slugs:
        words.update(part for part in slug.split("-") if not part.isdigit())
    return frozenset(words | {_stem(w) for w in words})  # key terms are stemmed


class AnswerSig:
    """What the comparison needs of one Answer, computed once (and cacheable as JSON).

    Compared and hashed by identity (the filtered-terms cache keys on it); a
    plain slotted class because a dataclass costs a millisecond to create at
    import.  Treat it as immutable.
    """

    __slots__ = ("recommendation", "rec_terms", "head_terms", "whole_terms", "fingerprint")

    def __init__(self, recommendation: str, rec_terms: dict[str, int], head_terms: dict[str, int],
                 whole_terms: dict[str, int], fingerprint: str) -> None:
        self.recommendation = recommendation
        self.rec_terms = rec_terms
        self.head_terms = head_terms
        self.whole_terms = whole_terms
        self.fingerprint = fingerprint

    def as_json(self) -> list[object]:
        return [self.recommendation, self.rec_terms, self.head_terms, self.whole_terms, self.fingerprint]

    @classmethod
    def from_json(cls, data: list[object]) -> AnswerSig:
        rec, rec_terms, head_terms, whole, fingerprint = data
        assert isinstance(rec, str) and isinstance(fingerprint, str)
        return cls(rec, dict(rec_terms), dict(head_terms), dict(whole), fingerprint)  # type: ignore[call-overload]


_WHOLE_TERMS_KEPT = 120  # the most frequent terms carry the cosine; the tail only costs memory


def signature(answer: str) -> AnswerSig:
    """The AnswerSig of an Answer's text."""
    rec = recommendation(answer)
    whole = dict(key_terms(answer).most_common(_WHOLE_TERMS_KEPT))
    words = " ".join(answer.split())
    import hashlib  # signatures are computed when a file is parsed, not on a start from the cache

    fingerprint = hashlib.sha1(words.encode("utf-8")).hexdigest() if words else ""
    return AnswerSig(rec, dict(key_terms(rec)), dict(key_terms(head_clause(rec))), whole, fingerprint)


def _without(terms: dict[str, int], ignore: frozenset[str]) -> Counter[str]:
    if not ignore:
        return Counter(terms)
    return Counter({t: n for t, n in terms.items() if t.removeprefix("not:") not in ignore})


@functools.lru_cache(maxsize=32768)
def _filtered(sig: AnswerSig, ignore: frozenset[str]) -> tuple[Counter[str], Counter[str], Counter[str], float]:
    """A signature's recommendation, head and whole-answer terms without the ignored words, and the
    whole-answer vector's norm: computed once per answer, not once per pair."""
    whole = _without(sig.whole_terms, ignore)
    norm = math.sqrt(sum(v * v for v in whole.values()))
    return _without(sig.rec_terms, ignore), _without(sig.head_terms, ignore), whole, norm


def _cosine_normed(a: Counter[str], norm_a: float, b: Counter[str], norm_b: float) -> float:
    if not norm_a or not norm_b:
        return 0.0
    return sum(a[t] * b[t] for t in a.keys() & b.keys()) / (norm_a * norm_b)  # the intersection runs in C


def compare_signatures(left: AnswerSig, right: AnswerSig, ignore: frozenset[str] = frozenset()) -> Comparison:
    """Compare two Answers by their signatures; see the module doc for the measure."""
    rec_l, rec_r = left.recommendation, right.recommendation
    if left.fingerprint and left.fingerprint == right.fingerprint:
        return Comparison(1.0, True, "whole answer", rec_l, rec_r)
    terms_l, head_l, whole_l, norm_l = _filtered(left, ignore)
    terms_r, head_r, whole_r, norm_r = _filtered(right, ignore)
    conflict = _conflicts(terms_l, terms_r)
    if conflict:
        return Comparison(0.0, False, "conflict", rec_l, rec_r, conflict)
    whole = _cosine_normed(whole_l, norm_l, whole_r, norm_r)
    if whole >= _COPY_THRESHOLD or not terms_l or not terms_r:
        return Comparison(whole, whole >= AGREE_THRESHOLD, "whole answer", rec_l, rec_r)
    score = max(_overlap(terms_l, terms_r), _overlap(head_l, head_r))
    return Comparison(score, score >= AGREE_THRESHOLD, "recommendation", rec_l, rec_r)


def compare(left: str, right: str, ignore: frozenset[str] = frozenset()) -> Comparison:
    """Compare two Answers' texts; see the module doc for the measure. `ignore`: words that are no key terms."""
    return compare_signatures(signature(left), signature(right), ignore)
