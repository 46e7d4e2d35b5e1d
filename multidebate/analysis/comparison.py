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
from ..protocol.terms import key_terms
from .minimal_pairs import (
    abbreviates,
    adds_a_turn,
    case_of_values,
    kept_against_adopted,
    one_act,
    restates,
    short_answers_differ,
    strip_label,
    swapped_word,
    word_parts,
    yes_no,
)
from .words import (
    CHANGE_STEMS,
    KEEP_STEMS,
    TOKEN_RE,
    Quantity,
    Token,
    head_clause,
    numeric,
    quantities,
    shown,
    synonyms,
    tokens,
)

__all__ = ["SAME", "DIFFERENT", "UNSURE", "Comparison", "Context", "compare", "compare_signatures", "restates"]

SAME, DIFFERENT, UNSURE = "same", "different", "unsure"
_CERTAIN_BASES = frozenset({"identical", "items", "letters", "refinement"})

_LETTER_RE = re.compile(
    r"\b(?:option|choice|answer|alternative|plan|variant|proposal)\s*\(?([A-H])\)?(?![A-Za-z0-9])"
    r"|^\s*\(?([A-H])\)\s|^\s*([A-H])\s*(?:[:.\u2014\u2013-]\s|$)|\(([A-H])\)", re.IGNORECASE | re.MULTILINE)


_STRAY_LETTER_RE = re.compile(r"(?<![\w'/.-])([A-H])(?![\w'/-])")


def _stray_letters(line: str) -> frozenset[str]:
    """Capital letters standing alone ("Option A, then B later" names B too); an article "A" is not one."""
    return frozenset(m.group(1) for m in _STRAY_LETTER_RE.finditer(line)
                     if not (m.group(1) == "A" and re.match(r"\s+[a-z]", line[m.end():])))


def _letters(line: str) -> frozenset[str]:
    return frozenset((next(g for g in m.groups() if g)).upper() for m in _LETTER_RE.finditer(line))


def _verb_class(toks: tuple[Token, ...]) -> str:
    stems = {t.stem for t in toks}
    keep = bool(stems & KEEP_STEMS)
    change = bool(stems & CHANGE_STEMS)
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
            # one space between words: a run of spaces after each comma (a space-aligned CSV header) let the
            # pattern below split every run between `\s*` and an option in all ways, and backtrack for seconds
            sentence = " ".join(sentence.split())
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
    cased = case_of_values(left.recommendation, right.recommendation)
    if cased:
        return Comparison(DIFFERENT, "substitution", cased, *lines)
    by_items = _compare_items(left, right, context)
    la, lb = left.line, right.line
    if by_items is not None and by_items.relation == DIFFERENT and la and la == lb \
            and _line_states(left.recommendation, by_items.items):
        # one bold line, word for word, that itself sets every item whose value differs in the bodies
        # ("gthread with 4 workers, 8 threads each"; a body's "threads: 8 (32 in flight ...)"): the line decides
        shown = by_items.items[:5]
        what = f"item {shown[0]}, which" if len(shown) == 1 else f"items {', '.join(shown)}, which"
        return Comparison(SAME, "identical", f"identical recommendation lines; the line sets {what} the answers' "
                          f"bodies word differently", *lines)
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
    answers = yes_no(left.recommendation), yes_no(right.recommendation)
    if all(answers) and answers[0] != answers[1]:
        return Comparison(DIFFERENT, "yes-no", "one line answers yes, the other no", *lines)
    kept = kept_against_adopted(left.recommendation, right.recommendation, ignore)
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
    swapped = swapped_word(left.recommendation, right.recommendation, ignore)
    if swapped:
        return Comparison(DIFFERENT, "substitution", f"'{swapped[0]}' vs '{swapped[1]}' in otherwise matching "
                          "lines", *lines)
    short = short_answers_differ(ta, tb, lines)
    if short:
        return Comparison(DIFFERENT, "short", short, *lines)
    if found.relation == SAME and found.basis in ("head", "refinement"):
        turn = adds_a_turn(left.recommendation, right.recommendation)
        if turn:
            # "Use SQLite" / "Use SQLite, just kidding: Postgres": more words, another recommendation
            return Comparison(UNSURE, found.basis, f"one line goes on with {turn}: more than detail", *lines)
    return found


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
    raw_head = {w.lower() for w in TOKEN_RE.findall(head_a)}
    head_tokens = [t for t in tokens(head_a) if t.stem not in ignore]
    verbs = KEEP_STEMS | CHANGE_STEMS
    if raw_head & ignore or not any(t.stem not in verbs for t in head_tokens):
        return None
    lines = left, right
    tail_a = set(t.stem for t in ta[len(head_tokens):])
    tail_b = set(t.stem for t in tb[len(head_tokens):])
    new_names = _new_names(ta, tb, ignore)
    numbers_a = Counter(t.stem for t in ta if numeric(t.stem))
    numbers_b = Counter(t.stem for t in tb if numeric(t.stem))
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
            len(old) == len(new) and all(synonyms(x, y) for x, y in zip(old, new)) for old, new, _o, _n in replaced):
        return Comparison(SAME, "identical", "the same words but for spelling ("
                          + ", ".join(f"{' '.join(o)} / {' '.join(n)}" for o, n, _a, _b in replaced) + ")", *lines)
    # one word swapped for another in lines that otherwise match: that word decides
    if len(ops) == 1 and replaced and equal >= 1:
        old, new, _o, _n = replaced[0]
        content = [w for w in old + new if w not in ("+", "not")]
        # one word for one or two ("merge"/"rebase", "tabs"/"4 spaces"), in lines that share at least as much
        if min(len(old), len(new)) == 1 and max(len(old), len(new)) <= equal + 1 and content \
                and not any(synonyms(x, y) or one_act(x, y) for x in old for y in new) \
                and not any(abbreviates(x, new) for x in old) and not any(abbreviates(y, old) for y in new):
            return Comparison(DIFFERENT, "substitution", f"'{shown(old)}' vs '{shown(new)}' in otherwise "
                              "matching lines", *lines)
    for old, new, old_t, new_t in early:
        swapped_a = {t.stem for t in old_t if t.name} - names_b
        swapped_b = {t.stem for t in new_t if t.name} - names_a
        if swapped_a and swapped_b and not any(synonyms(x, y) for x in swapped_a for y in swapped_b) \
                and not any(abbreviates(x, word_parts(lines[1])) for x in swapped_a) \
                and not any(abbreviates(y, word_parts(lines[0])) for y in swapped_b) \
                and any(not numeric(w) for w in swapped_a) and any(not numeric(w) for w in swapped_b):
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
        added_words = " ".join(w for w in added[:8] if w != "+")
        return Comparison(SAME, "refinement", f"one line only adds detail ({added_words})" if added_words else "the same words",
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
            synonyms(x, y) for x in chosen_a for y in chosen_b) and not any(
            abbreviates(x, b + word_parts(lines[1])) for x in chosen_a) and not any(
            abbreviates(y, a + word_parts(lines[0])) for y in chosen_b):
        return Comparison(DIFFERENT, "options", f"different named options: {', '.join(sorted(chosen_a))} vs "
                          f"{', '.join(sorted(chosen_b))}", *lines)
    return Comparison(UNSURE, "none", "worded differently; no word that decides was found", *lines)


def _listed(toks: tuple[Token, ...], names: set[str], most: int = 3) -> str:
    """Names in the order the line gives them, the first few: evidence a person reads, not a token dump."""
    ordered = list(dict.fromkeys(t.stem for t in toks if t.stem in names and not numeric(t.stem)))
    return ", ".join(ordered[:most]) + (", ..." if len(ordered) > most else "")


def _new_names(ta: tuple[Token, ...], tb: tuple[Token, ...], ignore: frozenset[str]) -> set[str]:
    """Names one line has whose word the other line lacks altogether ("Ruff's" and "ruff-format" are one)."""
    words_a = {part for t in ta for part in re.split(r"[.-]", t.stem)}
    words_b = {part for t in tb for part in re.split(r"[.-]", t.stem)}
    return ({n for n in _names(ta, ignore) if not set(re.split(r"[.-]", n)) & words_b}
            | {n for n in _names(tb, ignore) if not set(re.split(r"[.-]", n)) & words_a})


def _head(toks: tuple[Token, ...]) -> tuple[Token, ...]:
    """The first few content words: where a line names what it chooses ("Use NATS JetStream, ...")."""
    return toks[:4]


def compare_signatures(left: AnswerSig, right: AnswerSig, context: Context | None = None) -> Comparison:
    """Compare two Answers' signatures (a one-off Context when none is given)."""
    return (context or Context()).compare(left, right)


def compare(left: str, right: str, context: Context | None = None) -> Comparison:
    """Compare two Answers' texts."""
    return compare_signatures(signature(left), signature(right), context)

