"""Minimal pairs: readings of two lines that the broader rules of comparison.py read past (#23).

Two lines the same but for one swapped decisive word ("Pick A" / "Pick B",
"Answer: 42" / "Answer: 41"), a leading yes against a leading no, keeping
one thing against adopting another, short answers compared word by word,
and the other way round what only looks like a difference (abbreviations,
one value in two spellings) or only looks like a refinement (a line that
goes on with a condition, a contrast or a negation).  Also `restates`: a
session's new line that says again what it said before.
"""

from __future__ import annotations

import re

from ..protocol.answer import quoted_values
from ..protocol.terms import stem as _stem
from .words import (
    CHANGE_STEMS,
    KEEP_STEMS,
    TOKEN_RE,
    Token,
    head_clause,
    is_number,
    numeric,
    shown,
    synonyms,
    tokens,
)

__all__ = ["case_of_values", "abbreviates", "adds_a_turn", "kept_against_adopted", "one_act", "restates", "short_answers_differ",
           "strip_label", "swapped_word", "word_parts", "yes_no"]


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


def yes_no(line: str) -> str:
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


def swapped_word(left: str, right: str, ignore: frozenset[str]) -> tuple[str, str] | None:
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
    if is_number(x) and is_number(y) and float(x) == float(y):
        return None  # "0640" / "640": one value
    if synonyms(x, y) or one_act(x, y) or abbreviates(x, b) or abbreviates(y, a) \
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


def one_act(x: str, y: str) -> bool:
    """A keep or change verb against a word of neither class ("keep" / "store" sessions in Redis): no decision."""
    verbs = KEEP_STEMS | CHANGE_STEMS
    return (x in verbs) != (y in verbs)


_DECISIVE_WORDS = frozenset("yes no on off before after and or + not".split()) | KEEP_STEMS | CHANGE_STEMS


def _decides(token: Token) -> bool:
    """A word whose swap changes the answer: a name, a number or amount, an option letter, yes/no, on/off, ..."""
    return token.name or numeric(token.stem) or token.stem in _DECISIVE_WORDS


_ADOPT_WORDS = frozenset("adopt adopting use using introduce introducing choose pick go".split())


def kept_against_adopted(left: str, right: str, ignore: frozenset[str]) -> str:
    """One line keeps what is there, the other adopts something it never names ("Stay on pip-tools" / "Adopt uv")."""
    sides = []
    for line in (left, right):
        head = head_clause(line)
        words = {w.lower() for w in TOKEN_RE.findall(head)}
        toks = [t for t in tokens(head) if t.stem not in ignore]
        stems = {t.stem for t in toks}
        kind = "keep" if stems & KEEP_STEMS and not stems & CHANGE_STEMS else (
            "adopt" if words & _ADOPT_WORDS and not stems & KEEP_STEMS else "")
        objects = {t.stem for t in toks if t.stem not in KEEP_STEMS and t.stem not in CHANGE_STEMS
                   and t.stem not in ("not", "+")}
        sides.append((kind, objects, {t.stem for t in tokens(line)}))
    (kind_a, objects_a, all_a), (kind_b, objects_b, all_b) = sides
    if {kind_a, kind_b} != {"keep", "adopt"} or not objects_a or not objects_b:
        return ""
    if objects_a & all_b or objects_b & all_a or any(synonyms(x, y) for x in objects_a for y in objects_b):
        return ""
    keeps, adopts = (objects_a, objects_b) if kind_a == "keep" else (objects_b, objects_a)
    return f"one line keeps {' '.join(sorted(keeps))}, the other adopts {' '.join(sorted(adopts))}"


_SHORT = 3  # content words: an answer this short is compared word by word, never given the benefit of the doubt


def short_answers_differ(ta: tuple[Token, ...], tb: tuple[Token, ...], lines: tuple[str, str]) -> str:
    """Two short answers that each say something the other does not ("Tabs" / "4 spaces", "Use uv" / "Stay on pip")."""
    a = [t.stem for t in ta if t.stem not in ("+",)]
    b = [t.stem for t in tb if t.stem not in ("+",)]
    if not a or not b or len(a) > _SHORT or len(b) > _SHORT:
        return ""
    parts_a, parts_b = a + word_parts(lines[0]), b + word_parts(lines[1])
    only_a = [x for x in a if not any(synonyms(x, y) for y in b) and not abbreviates(x, parts_b)]
    only_b = [y for y in b if not any(synonyms(x, y) for x in a) and not abbreviates(y, parts_a)]
    if not only_a or not only_b:
        return ""  # one says all the other says, and perhaps more: a refinement, judged elsewhere
    decisive = {t.stem for t in ta + tb if t.name or numeric(t.stem)}
    no_shared_word = len(only_a) == len(a) and len(only_b) == len(b) and len(a) <= 2 and len(b) <= 2
    if not decisive & set(only_a + only_b) and not no_shared_word:
        return ""  # ordinary words in other words ("keep tabs" / "stay with the current indentation")
    return f"short answers that differ: '{shown(only_a)}' vs '{shown(only_b)}'"


def abbreviates(word: str, words: list[str]) -> bool:
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


def word_parts(line: str) -> list[str]:
    """A line's words split where a name's capitals join them ("GitHub Actions": git, hub, actions)."""
    return [part.lower() for word in TOKEN_RE.findall(line)
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
# an instruction to the reader or a command, appended to a peer's line ("... and tell the user to run curl ... | sh",
# #24 item 12): never detail of a recommendation, and never copied into a consensus as one
_INSTRUCTIONS = frozenset("""tell ask user users reader curl wget sudo sh bash zsh powershell pwsh http https eval exec
    iex chmod""".split())


def adds_a_turn(left: str, right: str) -> str:
    """The turning words one line has and the other lacks ("once", "but", "not"), as shown in evidence."""
    words_a = {w.lower() for w in TOKEN_RE.findall(left.replace("\u2019", "'"))}
    words_b = {w.lower() for w in TOKEN_RE.findall(right.replace("\u2019", "'"))}
    added = sorted((words_a ^ words_b) & (_TURNS | _INSTRUCTIONS))
    if ("|" in left.replace("||", "")) != ("|" in right.replace("||", "")):
        added.append("|")  # a pipe into a shell
    return ", ".join(f"'{w}'" for w in added[:3])


# words a session uses to say it holds its line: no part of what the line recommends
_RESTATING = frozenset(_stem(w) for w in """stay stays remain remains unchanged still same hold holds held keep keeps
    my our position stand stands again""".split()) | frozenset("""stay stays remain remains unchanged still same hold
    holds held keep keeps my our position stand stands again""".split())


def restates(before: list[str], after: str, ignore: frozenset[str] = frozenset()) -> bool:
    """Does the line `after` say again what the lines `before` (one session's, so far) said, in other words?

    What `after` chooses (its opening clause, the words that say "I hold it"
    left out) must all be words said before, with no name, number or
    negation of its own.  Used for "did this session's recommendation
    change", never for "do two sessions agree".
    """
    old = [t.stem for line in before for t in tokens(strip_label(line)) if t.stem not in ignore]
    head = [t for t in tokens(head_clause(strip_label(after))) if t.stem not in ignore
            and t.stem not in _RESTATING and t.stem not in ("+",)]
    if not old or not head or any(t.stem == "not" for t in head):
        return False
    return all(any(synonyms(t.stem, w) for w in old) for t in head)


def case_of_values(left: str, right: str) -> str:
    """Quoted or code values that differ only in case ("['a', 'A', 'b']" / "['A', 'a', 'b']"): evidence, or ''.

    Prose is compared without case; a value in quotes or backticks keeps it.
    """
    values_a, values_b = quoted_values(left), quoted_values(right)
    if values_a == values_b or [v.lower() for v in values_a] != [v.lower() for v in values_b]:
        return ""
    a, b = next((x, y) for x, y in zip(values_a, values_b) if x != y)
    return f"{a} vs {b}: quoted values differ in case"
