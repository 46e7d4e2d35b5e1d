"""The verdict on a debate, computed from the files: the rules are in docs/verdicts.md, in their order.

In short: `converged` needs one bold line, word for word (protocol.bold_line), and
every yes; a yes to lines that are not one line is a step (`unconfirmed`), then,
a second time in a row, the end (`hollow`).  The comparison of lines
(comparison.py) explains how lines differ, proposes the line to copy and
recognises a restated position for `stalled`; it never decides `converged`,
`hollow` or who holds the consensus.

Files that are no turn of the slug they name (E085, E022) are left out before
any rule, and the verdict's notes say so.
"""

from __future__ import annotations

import os
from itertools import combinations
from typing import TYPE_CHECKING, NamedTuple

from ..protocol.bold_line import (
    bold_line,
    display_line,
    group_lines,
    line_key,
    one_line_of,
    same_line,
)
from ..protocol.findings import Finding
from ..protocol.terms import slug_words
from ..state.debate import Debate, Entry
from .comparison import DIFFERENT, UNSURE, Comparison, Context
from .integrity import disowned, file_problems
from .minimal_pairs import restates
from .verdict_notes import said

if TYPE_CHECKING:
    from ..state.task import Task
    from .review_case import Case

__all__ = ["STATES", "FINAL_STATES", "AGREED_STATES", "PairScore", "Verdict", "judge", "judgment_due", "debate_context",
           "line_of", "one_line_at", "proposed_line", "independent_first_turn", "MEASURE"]

STATES = ("empty", "in_progress", "unanimous", "converged", "unconfirmed", "hollow", "latent", "stalled", "max_turns",
          "fully_resolved", "max_rounds")
# a review debate (review_case.py) stops `fully_resolved` or at `max_rounds`
FINAL_STATES = frozenset({"unanimous", "converged", "hollow", "stalled", "max_turns", "fully_resolved", "max_rounds"})
# the debate ended in agreement: one bold line at turn 1 written independently, or one line and every yes later
AGREED_STATES = frozenset({"unanimous", "converged"})
MEASURE = "one bold line, word for word"


class PairScore(NamedTuple):
    """How two participants' Answers compare at one turn."""

    left: str
    right: str
    comparison: Comparison

    def as_dict(self) -> dict[str, object]:
        c = self.comparison
        return {"pair": [self.left, self.right], "relation": c.relation, "agree": c.agree, "basis": c.basis,
                "evidence": c.evidence, "items": list(c.items)}


class Verdict(NamedTuple):
    """The state of a debate, the turn it was taken on, why, and what the next turn must do."""

    state: str
    turn: int
    detail: str
    pairs: tuple[PairScore, ...] = ()
    missing: tuple[str, ...] = ()
    extra_files: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    next_step: str = ""
    proposed_line: str = ""
    review: Case | None = None  # a review debate's case: findings, rounds, case verdict

    @property
    def final(self) -> bool:
        return self.state in FINAL_STATES

    def as_dict(self) -> dict[str, object]:
        return {
            "state": self.state,
            "turn": self.turn,
            "detail": self.detail,
            "measure": MEASURE,
            "pairs": [p.as_dict() for p in self.pairs],
            "missing": list(self.missing),
            "extra_files": list(self.extra_files),
            "notes": list(self.notes),
            "next_step": self.next_step,
            "proposed_line": self.proposed_line,
            "review": self.review.as_dict() if self.review is not None else None,
        }


def debate_context(debate: Debate) -> Context:
    """The comparison context of a debate: its slugs are no evidence, its task lists its options."""
    slugs = list(debate.participants) + list(debate.scan.slugs)
    return Context(slug_words(slugs), debate.task.text if debate.task else "")


class _Judge:
    def __init__(self, debate: Debate, problems: dict[tuple[int, str], Finding]) -> None:
        self.debate = debate
        self.problems = problems
        self.context = debate_context(debate)
        self.participants = debate.participants

    def entry(self, turn: int, slug: str) -> Entry | None:
        return self.debate.entry(turn, slug)

    def all_yes(self, turn: int) -> bool:
        return all((e := self.entry(turn, s)) is not None and e.converged is True for s in self.participants)

    def relation(self, turn: int, a: str, b: str) -> Comparison:
        """How a's and b's turn-N Answers compare, from what they wrote.

        A session's yes is no evidence here: a yes-sayer whose own line still
        says something else is the hollow agreement the verdict exists to catch.
        """
        left, right = self.entry(turn, a), self.entry(turn, b)
        if left is None or right is None:  # not a writer of this turn: nothing to compare
            return Comparison(UNSURE, "none", f"{a if left is None else b} wrote no turn {turn}", "", "")
        return self.context.compare(self.debate.details(left).sig, self.debate.details(right).sig)

    def identical_lines(self, turn: int) -> bool:
        """Every participant wrote turn N, all with one bold line (protocol.bold_line): nothing is hidden."""
        return one_line_at(self.debate, turn)

    def pairs(self, turn: int) -> tuple[PairScore, ...]:
        """How the turn's different bold lines compare, up to the first pair shown to differ: the comparison's
        advice that explains a verdict (it decides none).

        Near-linear, not quadratic: writers with one line (protocol.bold_line) form one group; the groups'
        first members are compared pairwise (a group is one line: nothing in it to explain).
        """
        written = [(slug, line_of(self.debate, e) if (e := self.entry(turn, slug)) is not None else "")
                   for slug in self.debate.writers(turn)]
        groups = group_lines(written)
        scores = []
        for first, second in combinations([g[0][0] for g in groups], 2):
            scores.append(PairScore(first, second, self.relation(turn, first, second)))
            if scores[-1].comparison.relation == DIFFERENT:
                return tuple(scores)
        return tuple(scores)

    def blind_to(self, turn: int, slug: str) -> list[str]:
        """The peers whose turn N-1 `slug`'s yes at `turn` was given without (from what `next` served)."""
        entry = self.entry(turn, slug)
        record = self.debate.details(entry).reading_record if entry is not None and entry.converged else None
        if record is None:
            return []  # hand-written: no record of what it read, trusted
        read = {name.rsplit("/", 1)[-1] for name, _digest in record}
        return [peer for peer in self.participants if peer != slug
                and (earlier := self.entry(turn - 1, peer)) is not None and earlier.filename not in read]

    def blind_yeses(self, turn: int) -> list[tuple[str, list[str]]]:
        found = []
        for slug in self.participants:
            missed = self.blind_to(turn, slug)
            if missed:
                found.append((slug, missed))
        return found

    def changed(self, slug: str, before: int, after: int) -> bool | None:
        """Did `slug`'s recommendation change from `before` to `after`? None when unsure."""
        old, new = self.entry(before, slug), self.entry(after, slug)
        if old is None or new is None:
            return True
        before_sig, after_sig = self.debate.details(old).sig, self.debate.details(new).sig
        relation = self.context.compare(before_sig, after_sig).relation
        if relation == UNSURE and restates(self.lines_until(slug, before), after_sig.recommendation, self.context.ignore):
            return False  # "Squash-merge stays my recommendation: ..." after "Squash-merge every PR."
        return None if relation == UNSURE else relation == DIFFERENT

    def lines_until(self, slug: str, turn: int) -> list[str]:
        """`slug`'s recommendation lines of turns 1..N: what it has said so far."""
        return [self.debate.details(e).sig.recommendation for t in range(1, turn + 1)
                if (e := self.entry(t, slug)) is not None]

    def adopted(self, slug: str, turn: int) -> bool:
        """Did `slug` give up its own line at `turn` for a peer's turn N-1 line, word for word?

        A switch even when the comparison cannot tell how far the two lines differ.
        """
        old, new = self.entry(turn - 1, slug), self.entry(turn, slug)
        if old is None or new is None:
            return False
        line = line_of(self.debate, new)
        if same_line(line_of(self.debate, old), line):
            return False
        return any((e := self.entry(turn - 1, peer)) is not None and same_line(line_of(self.debate, e), line)
                   for peer in self.participants if peer != slug)

    def integrity(self, turn: int) -> list[str]:
        """Turn-N files a verdict cannot rest on: changed after `write` (the ledger's sha256 differs)."""
        problems = []
        for slug in self.participants:
            item = self.problems.get((turn, slug))
            if item is not None and item.code == "E080":
                problems.append(f"{os.path.basename(item.path)} was changed after it was written (E080)")
        return problems


def line_of(debate: Debate, entry: Entry) -> str:
    """The bold line of a turn's Answer, as written."""
    return bold_line(debate.details(entry).answer)


def one_line_at(debate: Debate, turn: int) -> bool:
    """Every participant wrote `turn`, all with one bold line, word for word (protocol.bold_line)."""
    lines = []
    for slug in debate.participants:
        entry = debate.entry(turn, slug)
        if entry is None:
            return False
        lines.append(line_of(debate, entry))
    return one_line_of(lines)


def proposed_line(debate: Debate, turn: int) -> str:
    """The bold line every session should copy word for word, chosen the same way by all.

    The line most of the turn's writers hold (one line as the verdict reads
    it), ties going to the line of fewer words, then to the first slug (whose
    wording is the one given); empty when the turn has no line.  Never to the
    file written first: its owner sets a file's time, and a line that appends
    something to a peer's (an instruction, #24 item 12) is longer.
    """
    written = [(slug, line) for slug in debate.writers(turn)
               if (e := debate.entry(turn, slug)) is not None and (line := line_of(debate, e))]
    groups = group_lines(written)
    if not groups:
        return ""
    chosen = min(groups, key=lambda g: (-len(g), len(line_key(g[0][1]).split()), min(g)))
    return min(chosen)[1]


def _why(pairs: tuple[PairScore, ...]) -> str:
    """The comparison's word on the lines that are not one line: what differs, or that only the wording does."""
    if not pairs:
        return "only one participant so far"
    worst = next((p for p in pairs if p.comparison.relation == DIFFERENT), None) or next(
        (p for p in pairs if not p.comparison.agree), None) or pairs[0]
    c = worst.comparison
    label = "" if len(pairs) == 1 else "e.g. "
    if c.agree:  # the comparison reads one recommendation: the lines still differ, word for word
        return f"{label}{worst.left} vs {worst.right}: the same recommendation to the comparison ({c.evidence}), " \
               "but not word for word"
    return f"{label}{worst.left} vs {worst.right}: {c.relation}, {c.evidence}"


def _blind_detail(blind: list[tuple[str, list[str]]], turn: int) -> str:
    said = "; ".join(f"{slug} said yes without seeing the turn {turn - 1} of {', '.join(peers)}"
                     for slug, peers in blind)
    return f"{said} (written after it read its peers): one more turn confirms"


def judge(debate: Debate, problems: dict[tuple[int, str], Finding] | None = None) -> Verdict:
    """The verdict on `debate` (see the module doc); `problems`: its file_problems, when already known."""
    if debate.current_turn == 0:
        return Verdict("empty", 0, "no turn files yet")
    if problems is None:
        problems = file_problems(debate)
    left_out = disowned(problems)
    if debate.task is not None and debate.task.review:
        kept = debate._replace(entries={k: e for k, e in debate.entries.items() if k not in left_out})
        return _review_verdict(kept)
    if not left_out:
        return _judge(debate, problems)
    # a hand-written file under a held slug, or a copy replayed under another name, is no turn of that slug
    kept = debate._replace(entries={k: e for k, e in debate.entries.items() if k not in left_out})
    verdict = _judge(kept, problems)
    left = tuple(said("left-out", file=os.path.basename(problems[k].path), finding=problems[k].code,
                      message=problems[k].message) for k in sorted(left_out))
    return verdict._replace(notes=verdict.notes + left)


def _review_verdict(debate: Debate) -> Verdict:
    """A review debate's verdict: the mechanical case after its last complete round (review_case.py)."""
    from .review_case import proposal_text, review_case

    task = debate.task
    if task is None:
        return Verdict("empty", 0, "no task")
    case = review_case(debate, task.role_map, task.rounds, proposal_text(debate.folder, task.proposal))
    low, high = task.rounds
    current = debate.current_turn
    missing = debate.missing(current) if current else ()
    if case.stop == "fully_resolved":
        # the defender writes no turn in the round that ends it: say so, or it looks one turn short
        return Verdict(case.stop, case.rounds, f"ended in round {case.rounds}: the critics raised and reopened "
                       f"nothing, so the defender had nothing left to answer; {case.summary()}", review=case)
    if case.stop:
        return Verdict(case.stop, case.rounds, f"ended after round {case.rounds} (max_rounds): {case.summary()}",
                       missing=missing, review=case)
    opened = f"; open: {', '.join(f.key for f in case.open)}" if case.open else ""
    where = f"round {case.rounds} of {low}-{high} done" if case.rounds else f"round 1 of {low}-{high} running"
    return Verdict("in_progress", case.rounds, f"{where}; case so far: {case.summary()}{opened}", missing=missing,
                   review=case)


def _one_line_detail(debate: Debate, turn: int, who: str) -> str:
    entry = next(e for s in debate.participants if (e := debate.entry(turn, s)) is not None)
    return f"{who} say yes at turn {turn} with one bold line, word for word: {display_line(line_of(debate, entry))}"


def independent_first_turn(debate: Debate) -> bool:
    """No participant could have read a peer's turn 1 before writing its own: the debate is sealed, or every
    turn-1 file records what `next` served (`peers_read`) and none lists a peer's turn-1 file.

    A hand-written turn-1 file keeps no record: what its writer read is unknown, so it is not independent.
    """
    task = debate.task
    if task is not None and task.sealed:
        return True  # nobody sees a turn of a sealed debate before every participant has written it
    for slug in debate.participants:
        entry = debate.entry(1, slug)
        record = debate.details(entry).reading_record if entry is not None else None
        if record is None:
            return False
        if any(name.rsplit("/", 1)[-1].startswith("turn-1-") for name, _digest in record):
            return False
    return True


def _unanimous(debate: Debate, j: _Judge, complete: list[int], who: str) -> Verdict | None:
    """Rule 1 (docs/verdicts.md): every turn-1 bold line of a roster is one line, written independently, and the
    task asks for no more than one turn (`min_turns` 2 keeps the exchange).

    A roster is needed: without one, "every participant" is whoever has written so far, and the first two
    sessions to write one line would end the debate before a third, still thinking, had answered."""
    task = debate.task
    if (task is None or not task.participants or 1 not in complete or len(j.participants) < 2
            or (task.min_turns or 1) > 1
            or not j.identical_lines(1) or not independent_first_turn(debate) or j.integrity(1)):
        return None
    # every turn-1 answer, a retired participant's too: retiring the one dissent later makes turn 1 no less split
    if not one_line_of([line_of(debate, e) for (t, _s), e in debate.entries.items() if t == 1]):
        return None
    extra = tuple(sorted(e.path for (t, _s), e in debate.entries.items() if t > 1))
    entry = next(e for s in j.participants if (e := debate.entry(1, s)) is not None)
    how = "sealed until all had written it" if task is not None and task.sealed else "none having read a peer"
    return Verdict("unanimous", 1, f"{who} answered turn 1 independently ({how}) with one bold line, word for "
                   f"word: {display_line(line_of(debate, entry))}", (), (), extra)


def _judge(debate: Debate, problems: dict[tuple[int, str], Finding]) -> Verdict:
    current = debate.current_turn
    j = _Judge(debate, problems)
    task = debate.task
    min_turns = max(2, task.min_turns or 0) if task else 2
    complete = [t for t in range(1, current + 1) if debate.complete(t)]
    held_back: dict[int, str] = {}  # all-yes turns that did not converge, and why (said while a later turn runs)
    asked_to_copy: set[int] = set()  # all-yes turns whose lines were not one line: the next such turn is hollow
    who = "both" if len(j.participants) == 2 else f"all {len(j.participants)}"
    unanimous = _unanimous(debate, j, complete, who)
    if unanimous is not None:
        return unanimous
    for turn in complete:
        if turn < 2 or len(j.participants) < 2 or not j.all_yes(turn):
            continue
        if j.identical_lines(turn):
            if turn < min_turns:
                continue
            changed = j.integrity(turn)
            if changed:
                held_back[turn] = f"it rests on files with integrity problems: {'; '.join(changed)}"
                continue
            extra = tuple(sorted(e.path for (t, _s), e in debate.entries.items() if t > turn))
            return Verdict("converged", turn, _one_line_detail(debate, turn, who), (), (), extra,
                           _disagreement_notes(debate, turn))
        blind = j.blind_yeses(turn)
        if blind:  # a yes given without a peer's turn N-1 (a late joiner) is no request to copy a line yet
            held_back[turn] = _blind_detail(blind, turn)
            continue
        pairs = j.pairs(turn)
        if turn - 1 in asked_to_copy:
            extra = tuple(sorted(e.path for (t, _s), e in debate.entries.items() if t > turn))
            return Verdict("hollow", turn, f"all say yes at turn {turn} again, but their bold lines are still not "
                           f"one line ({_why(pairs)}); at turn {turn - 1} they were asked to copy one line word "
                           "for word", pairs, (), extra)
        asked_to_copy.add(turn)
        held_back[turn] = f"all said yes, but their bold lines are not one line ({_why(pairs)})"
    last = complete[-1] if complete else 0
    if last < current or last == 0:
        started = last + 1 if last < current else current
        missing = debate.missing(started)
        detail = f"turn {started} in progress: waiting for {', '.join(missing) or 'nobody'}"
        notes = (said("did-not-converge", turn=last, why=held_back[last]),) if last in held_back else ()
        line = proposed_line(debate, last) if last in asked_to_copy else ""
        step = said("copy-one-line", line=line) if line else ""
        return Verdict("in_progress", last, detail, (), missing, (), notes, next_step=step, proposed_line=line)
    if len(j.participants) < 2:
        return Verdict("in_progress", last, f"only {j.participants[0] if j.participants else 'one session'} "
                       "has written: a debate needs at least two participants")
    one_line = j.identical_lines(last)
    pairs = () if one_line else j.pairs(last)
    line = proposed_line(debate, last)
    limit = task.max_turns if task else None
    at_limit = limit is not None and last >= limit
    if j.all_yes(last) and not one_line:
        blind = j.blind_yeses(last)
        if blind:
            return Verdict("latent", last, f"all say yes at turn {last}, but {_blind_detail(blind, last)}", pairs)
        detail = (f"all say yes at turn {last}, but their bold lines are not one line ({_why(pairs)}); "
                  "a yes accepts the peers' lines only when every line is the same, word for word")
        if at_limit:  # no turn is left to settle it
            return Verdict("max_turns", last, f"turn limit {limit} reached: {detail}", pairs)
        return Verdict("unconfirmed", last, detail, pairs, next_step=said("copy-one-line", line=line),
                       proposed_line=line)
    if j.all_yes(last) and one_line:
        if last < min_turns:
            return Verdict("in_progress", last, f"all agree at turn {last}, but the task asks for at least "
                           f"{min_turns} turns")
        reason = held_back.get(last, "")
        return Verdict("unconfirmed", last, f"all say yes at turn {last} with one bold line, but {reason}",
                       next_step=said("restore-or-write"))
    if at_limit:
        if one_line:
            # the lines are one, but a session said no to a position its peer dropped in the same turn
            noes = [s for s in j.participants if (e := j.entry(last, s)) is not None and e.converged is not True]
            # sessions found the one-parenthesis version hard to report (d57): what happened, then why
            return Verdict("max_turns", last, f"turn limit {limit} reached: the last bold lines are one line, "
                           f"but {', '.join(noes) or 'not everyone'} said no. Not converged: at the last turn each "
                           "session answered the lines its peers had written a turn earlier, so agreement reached "
                           "then is never confirmed")
        return Verdict("max_turns", last, f"turn limit {limit} reached without convergence ({_why(pairs)})", pairs)
    holdouts = [s for s in j.participants if (e := j.entry(last, s)) is None or e.converged is not True]
    if last >= 2 and one_line:
        movers = [s for s in j.participants if j.changed(s, last - 1, last) or j.adopted(s, last)]
        verb = "says" if len(holdouts) == 1 else "say"
        if movers and [h for h in holdouts if [m for m in movers if m != h]]:
            return Verdict("latent", last, f"the bold lines are one line at turn {last}, but {', '.join(holdouts)} "
                           f"still {verb} no, having not yet seen the change of {', '.join(movers)} at turn {last}",
                           next_step=said("read-new-answers"))
    if last >= 3 and not any(
            j.changed(s, last - 2, last - 1) is not False or j.changed(s, last - 1, last) is not False
            or j.adopted(s, last - 1) or j.adopted(s, last)
            or _converged_moved(j, s, last) for s in j.participants):
        return Verdict("stalled", last, f"no recommendation changed from turn {last - 2} to {last} "
                       f"({_why(pairs) if pairs else 'one bold line'})", pairs)
    if one_line and holdouts:
        detail = (f"turn {last} complete: the bold lines are one line, but {', '.join(holdouts)} "
                  f"{'says' if len(holdouts) == 1 else 'say'} no; the debate goes on")
    else:
        detail = f"turn {last} complete; the debate goes on ({_why(pairs)})"
    return Verdict("in_progress", last, detail, pairs)


def _converged_moved(j: _Judge, slug: str, last: int) -> bool:
    values = [(e.converged if (e := j.entry(t, slug)) is not None else None) for t in (last - 2, last - 1, last)]
    return len(set(values)) > 1


def _disagreement_notes(debate: Debate, turn: int) -> tuple[str, ...]:
    notes = []
    for slug in debate.participants:
        entry = debate.entry(turn, slug)
        if entry and entry.converged:
            left = [m for m in debate.details(entry).mentions if m.section == "Disagreements" and m.is_point]
            if left:
                notes.append(said("yes-with-disagreements", slug=slug, count=len(left)))
    return tuple(notes)


_AGREED = AGREED_STATES | {"fully_resolved"}


def judgment_due(task: Task | None, verdict: Verdict) -> bool:
    """Whether the judge writes now: the debate ended, unresolved (or `judge_when: always`)."""
    if task is None or task.judge is None or not verdict.final:
        return False
    return task.judge_when == "always" or verdict.state not in _AGREED
