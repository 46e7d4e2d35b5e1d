"""Words of Answers: the recommendation line, key terms with negation, slug words.

The comparison of two Answers lives in comparison.py; this module holds what
it and the quote check read from text:

- `recommendation`: the Answer's opening bold span when it opens with one
  (the skill asks for it), else its first sentence;
- `key_terms`: content words, lowercased and stemmed, without stop words or
  generic recommendation verbs; a term after a negation ("not", "avoid",
  "instead of", "rather than") in the same clause is kept as `not:term`
  ("Use TOML, not YAML" -> {toml, not:yaml});
- `slug_words`: participants' slugs, which say who and never what.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections import Counter

from .vocabulary import NEGATORS

__all__ = ["LIST_ITEM_RE", "recommendation", "key_terms", "slug_words", "stem", "weighs_over"]

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
_NEGATORS = NEGATORS  # one list for the comparison (protocol/vocabulary.py)
_SCOPE_END = frozenset("but and so yet then while whereas because".split())
_PREFER_VERBS = frozenset("prefer prefers preferring favor favors favoring favour favours favouring choose choosing "
                          "pick picking select selecting".split())
# verbs a transport or a path follows: "run over HTTP", "talk over gRPC" choose HTTP and gRPC
_OVER_VERBS = frozenset("run runs talk talks send sends communicate go goes travel fail fails roll rolls hand take "
                        "switch move carry stream tunnel serve expose call connect sync replicate".split())


def weighs_over(before: list[str]) -> bool:
    """Whether an "over" after these (lowercased) words of a clause sets aside what follows it.

    "Prefer composition over inheritance", "Tabs over spaces": the words after
    "over" are what the line does not choose.  "Talk over gRPC" chooses gRPC.
    """
    if any(word in _PREFER_VERBS for word in before):
        return True
    return len(before) == 1 and before[0] not in _OVER_VERBS and before[0] not in _STOP


# an identifier ("reject_on_worker_lost") is one word: its parts are no negation or term of their own
_WORD_RE = re.compile(r"[a-z0-9][a-z0-9'+#]*(?:_[a-z0-9'+#]+)*")
_CLAUSE_RE = re.compile(r"[,;:.!?()\[\]\u2014\u2013]|\s-\s|\n")
_BOLD_OPEN_RE = re.compile(r"^\s*(?:[-*+]\s+|\d+[.)]\s+|>\s*)*(\*\*|__)(.+?)\1", re.DOTALL)
# a Markdown list item's marker (`- `, `* `, `+ `, `1. `, `1) `): one pattern for every reader of list items
LIST_ITEM_RE = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_HEAD_SPLIT_RE = re.compile(r"[,;:(\u2014\u2013]|\s-\s")
_LABEL_RE = re.compile(r"^(?:final\s+)?(?:answer|recommendation|tl;?dr|verdict|decision|summary|position)\s*:\s*",
                       re.IGNORECASE)


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
        whole_span = True  # a bold line is the recommendation whatever its sentences
        label = text.strip()
        if (_LABEL_RE.match(label) and not _LABEL_RE.sub("", label)) or (
                label.endswith(":") and len(label.split()) <= 4):
            # "**Recommendation:** use X", "**My answers:**" over a list: the bold span is only a label
            text = first[bold.end():].strip()
            whole_span = False
            listed = list(itertools.takewhile(LIST_ITEM_RE.match, blocks[1:]))
            if not text.strip(" *_:") and listed:
                # the list under the label is the recommendation: every item, not the first one alone
                text = "; ".join(LIST_ITEM_RE.sub("", item).strip() for item in listed)
                whole_span = True
            elif not text.strip(" *_:") and len(blocks) > 1:
                text = blocks[1]
    else:
        text = first
        whole_span = False
    text = _LABEL_RE.sub("", re.sub(r"^\s*(?:[-*+]\s+|\d+[.)]\s+|>\s*)+", "", text.strip()))
    return (text if whole_span else _first_sentence(text))[:400].strip(" *_`")


_ABBREVIATIONS = ("e.g.", "i.e.", "etc.", "vs.", "cf.", "approx.", "incl.", "no.", "e.g.,", "i.e.,")


def _first_sentence(text: str) -> str:
    """Text up to its first sentence end, not fooled by "e.g." or "vs."."""
    for match in re.finditer(r"[.!?]\s+(?=[A-Z*_`])", text):
        before = text[:match.start() + 1].rsplit(None, 1)[-1].lower()
        if before not in _ABBREVIATIONS:
            return text[:match.start() + 1]
    return text


def stem(word: str) -> str:
    """A word without its plural ending: "replicas" -> "replica", "policies" -> "policy"."""
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
    if word.endswith("'s") and len(word) > 3:
        word = word[:-2]  # "the standard library's zoneinfo" affirms "library", as a negated "library" would deny it
    if word in _NEGATORS:
        return word, _NEGATE
    if word in _SCOPE_END:
        return word, _END_SCOPE
    if word in _STOP or len(word) < 2 or word.endswith("n't"):
        return word, ""
    return word, stem(word)


def key_terms(text: str, ignore: frozenset[str] = frozenset(), signed: bool = True) -> Counter[str]:
    """Signed key terms of a text: `term` or `not:term` (see module doc); unsigned: just the terms."""
    terms: Counter[str] = Counter()
    lowered = text.lower().replace("\u2019", "'")
    for clause in _CLAUSE_RE.split(lowered):
        negated = False
        seen: list[str] = []
        for raw in _WORD_RE.findall(clause):
            word, term = _word_term(raw)
            if word == "over" and weighs_over(seen):
                negated = True
            seen.append(word)
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


def slug_words(slugs: tuple[str, ...] | list[str]) -> frozenset[str]:
    """The words of participants' slugs, and the slugs themselves, to leave out of key terms."""
    words = set(slugs)
    for slug in slugs:
        words.update(part for part in slug.split("-") if not part.isdigit())
    return frozenset(words | {stem(w) for w in words})  # key terms are stemmed
