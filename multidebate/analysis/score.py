"""How many items of an item-by-item debate were answered right, at each turn, by the vote and in the end.

The scoring itself (`score`) is a pure function of a `Sheet` (the Answers'
texts per turn and participant, and the final answer the report gives) and an
`AnswerKey`; `sheet_of` reads a Sheet from a debate.  Items are read from an
Answer's bold line when the line holds them (the protocol's rule: the line
decides, `protocol.bold_line.line_items`), and from its body only when it does
not (`protocol.answer.items_of`).  A missing item counts as wrong.

The vote of a turn is the strict majority of that turn's answers to an item
(every participant who wrote the turn has a vote; an item it left out is a
vote for nothing): with no strict majority the vote has no answer, it counts
as wrong and is reported as a tie.  At turn 1, sealed, the answers are
independent: that vote is the equal-budget baseline docs/accuracy.md reports.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, NamedTuple

from ..protocol.answer import items_of
from ..protocol.bold_line import bold_line, line_items
from .answer_key import AnswerKey, normalise

if TYPE_CHECKING:
    from ..state.debate import Debate
    from .final import FinalAnswer

__all__ = ["Answer", "Change", "FinalScore", "ItemRow", "Score", "Sheet", "Tally", "TurnScore", "VoteScore",
           "numbered_items", "score", "sheet_of"]

_ITEM_KEY_RE = re.compile(r"^q?\s*0*(\d{1,4})$", re.IGNORECASE)


def numbered_items(answer: str) -> dict[int, str]:
    """The items of an Answer by number: `Q3: x`, `q3: x` and `3. x` are item 3; other keys are not items."""
    found: dict[int, str] = {}
    in_line = line_items(bold_line(answer), keep_case=True)
    # the bold line decides: a body that repeats an item with a note ("- Q8: C (429)") is no other answer
    for key, value in in_line.items if in_line is not None else items_of(answer):
        match = _ITEM_KEY_RE.match(key.strip())
        if match and int(match.group(1)) > 0:
            found.setdefault(int(match.group(1)), value)
    return found


class Sheet(NamedTuple):
    """What the scorer reads of a debate: each turn's Answers (None: the file could not be read) and the final."""

    folder: str
    participants: tuple[str, ...]
    turns: tuple[dict[str, str | None], ...]  # turns[t - 1]: slug -> its turn-t Answer; no key: no file
    final_kind: str  # as FinalAnswer.kind: consensus, modal, split or none
    final_turn: int
    final_representative: str | None
    final_answer: str


def sheet_of(debate: Debate, final: FinalAnswer) -> Sheet:
    """The Sheet of a debate, with the final answer the report gives (`analysis.final.final_answer`)."""
    turns = []
    for turn in range(1, debate.current_turn + 1):
        row: dict[str, str | None] = {}
        for slug in debate.participants:
            entry = debate.entry(turn, slug)
            if entry is not None:
                row[slug] = debate.details(entry).answer if entry.readable else None
        turns.append(row)
    # a consensus whose lines first became one at its last turn has the agreed line alone as its final answer
    return Sheet(debate.folder, debate.participants, tuple(turns), final.kind, final.turn, final.representative,
                 final.answer or final.recommendation)


class Tally(NamedTuple):
    """Items right out of the key's items; `missing`: items not answered at all (counted wrong)."""

    right: int
    total: int
    missing: int = 0

    @property
    def share(self) -> float | None:
        return self.right / self.total if self.total else None

    def as_dict(self) -> dict[str, object]:
        share = self.share
        return {"right": self.right, "total": self.total, "missing": self.missing,
                "share": None if share is None else round(share, 4)}


class VoteScore(NamedTuple):
    """The majority of one turn's answers, item by item; `ties`: items with no strict majority."""

    turn: int
    voters: int
    tally: Tally
    ties: int

    def as_dict(self) -> dict[str, object]:
        # no `missing`: a vote misses an item exactly when it ties
        share = self.tally.share
        return {"turn": self.turn, "voters": self.voters, "right": self.tally.right, "total": self.tally.total,
                "share": None if share is None else round(share, 4), "ties": self.ties}


class TurnScore(NamedTuple):
    turn: int
    participants: dict[str, Tally]  # who wrote the turn
    vote: VoteScore


class FinalScore(NamedTuple):
    """The final answer the report gives, scored; a split or no answer has no items (every one missing)."""

    kind: str
    turn: int
    representative: str | None
    tally: Tally

    def as_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "turn": self.turn, "representative": self.representative, **self.tally.as_dict()}


class Change(NamedTuple):
    """Items that went right -> wrong and wrong -> right between two answers of one participant (or the vote)."""

    who: str
    from_turn: int
    to_turn: int
    right_to_wrong: int
    wrong_to_right: int

    def as_dict(self) -> dict[str, object]:
        return {"who": self.who, "from_turn": self.from_turn, "to_turn": self.to_turn,
                "right_to_wrong": self.right_to_wrong, "wrong_to_right": self.wrong_to_right}


class Answer(NamedTuple):
    value: str | None  # as written; None: not given
    right: bool


class ItemRow(NamedTuple):
    """One item: its key value, every answer given to it, each turn's vote, and the final answer's."""

    item: int
    key: str
    answers: tuple[tuple[int, str, Answer], ...]  # (turn, slug, answer)
    votes: tuple[tuple[int, Answer, bool], ...]  # (turn, the majority's answer, tie)
    final: Answer

    def as_dict(self) -> dict[str, object]:
        return {"item": self.item, "key": self.key,
                "answers": [{"turn": t, "slug": s, "answer": a.value, "right": a.right} for t, s, a in self.answers],
                "votes": [{"turn": t, "answer": a.value, "right": a.right, "tie": tie} for t, a, tie in self.votes],
                "final": {"answer": self.final.value, "right": self.final.right}}


class Score(NamedTuple):
    """Everything `score` prints, for people (views/score.py) and programs (--json)."""

    folder: str
    key: str
    items: int
    participants: tuple[str, ...]
    turns: tuple[TurnScore, ...]
    final: FinalScore
    changes: tuple[Change, ...]  # per participant, turn 1 -> its last turn
    vote_to_final: Change
    rows: tuple[ItemRow, ...]

    @property
    def single(self) -> dict[str, Tally]:
        """Each participant's turn-1 score: one session asked once."""
        return dict(self.turns[0].participants) if self.turns else {}

    @property
    def single_mean(self) -> float | None:
        shares = [t.share for t in self.single.values() if t.share is not None]
        return sum(shares) / len(shares) if shares else None

    @property
    def vote(self) -> VoteScore | None:
        """The turn-1 vote: the majority of the independent first answers."""
        return self.turns[0].vote if self.turns else None

    def as_dict(self) -> dict[str, object]:
        mean = self.single_mean
        return {
            "folder": self.folder, "key": self.key, "items": self.items, "participants": list(self.participants),
            "turns": [{"turn": t.turn, "participants": {s: c.as_dict() for s, c in t.participants.items()},
                       "vote": t.vote.as_dict()} for t in self.turns],
            "single_session": {"turn": 1, "participants": {s: c.as_dict() for s, c in self.single.items()},
                               "mean": None if mean is None else round(mean, 4)},
            "vote": None if self.vote is None else self.vote.as_dict(),
            "final": self.final.as_dict(),
            "changes": [c.as_dict() for c in self.changes],
            "vote_to_final": self.vote_to_final.as_dict(),
            "item_rows": [r.as_dict() for r in self.rows],
        }


def _majority(values: list[str | None]) -> tuple[str | None, bool]:
    """The strict majority of `values` (None: no answer) and whether there was none (a tie)."""
    groups: dict[str, list[str]] = {}
    for value in values:
        folded = normalise(value) if value is not None else ""
        if folded:
            groups.setdefault(folded, []).append(value or "")
    best = max(groups.values(), key=len, default=[])
    if 2 * len(best) > len(values):
        return best[0], False  # as the first voter (by slug) wrote it
    return None, True


def _tally(key: AnswerKey, answers: dict[int, str]) -> Tally:
    items = range(1, key.size + 1)
    return Tally(sum(1 for n in items if key.is_right(n, answers.get(n))), key.size,
                 sum(1 for n in items if n not in answers))


def _change(who: str, first: int, last: int, before: list[bool], after: list[bool]) -> Change:
    return Change(who, first, last, sum(1 for b, a in zip(before, after) if b and not a),
                  sum(1 for b, a in zip(before, after) if a and not b))


def score(sheet: Sheet, key: AnswerKey) -> Score:
    """The debate on `sheet` scored against `key` (see the module doc).  Never raises on what an Answer says."""
    items = range(1, key.size + 1)
    read = [{slug: numbered_items(text or "") for slug, text in row.items()} for row in sheet.turns]
    writers = [[s for s in sheet.participants if s in row] for row in read]
    answers = [{slug: [Answer(row[slug].get(n), key.is_right(n, row[slug].get(n))) for n in items] for slug in row}
               for row in read]
    votes: list[list[tuple[Answer, bool]]] = []
    turns = []
    for t, row in enumerate(read, start=1):
        majorities = []
        for n in items:
            value, tie = _majority([row[s].get(n) for s in writers[t - 1]])
            majorities.append((Answer(value, key.is_right(n, value)), tie))
        votes.append(majorities)
        tally = Tally(sum(1 for a, _tie in majorities if a.right), key.size,
                      sum(1 for a, _tie in majorities if a.value is None))
        turns.append(TurnScore(t, {s: _tally(key, row[s]) for s in writers[t - 1]},
                               VoteScore(t, len(writers[t - 1]), tally, sum(1 for _a, tie in majorities if tie))))
    has_answer = sheet.final_kind in ("consensus", "modal")  # a split names no answer, and `none` has none
    final_items = numbered_items(sheet.final_answer) if has_answer else {}
    final = [Answer(final_items.get(n), key.is_right(n, final_items.get(n))) for n in items]
    changes = []
    for slug in sheet.participants:
        wrote = [t for t, row in enumerate(answers, start=1) if slug in row]
        if wrote and wrote[0] == 1:
            changes.append(_change(slug, 1, wrote[-1], [a.right for a in answers[0][slug]],
                                   [a.right for a in answers[wrote[-1] - 1][slug]]))
    first_votes = [a.right for a, _tie in votes[0]] if votes else [False] * key.size
    rows = tuple(ItemRow(n, key.values[n - 1],
                         tuple((t, s, answers[t - 1][s][n - 1]) for t in range(1, len(read) + 1)
                               for s in writers[t - 1]),
                         tuple((t, votes[t - 1][n - 1][0], votes[t - 1][n - 1][1]) for t in range(1, len(read) + 1)),
                         final[n - 1]) for n in items)
    return Score(sheet.folder, key.path, key.size, sheet.participants, tuple(turns),
                 FinalScore(sheet.final_kind, sheet.final_turn, sheet.final_representative,
                            Tally(sum(1 for a in final if a.right), key.size, sum(1 for a in final if a.value is None))),
                 tuple(changes), _change("vote", 1, sheet.final_turn, first_votes, [a.right for a in final]), rows)
