"""The turn-1 vote beside an item-by-item final answer: the items a debate overturned.

In the debates of docs/accuracy.md the final answer never beat the majority of
the first answers (written before any session had read a peer); an item where
the two differ is where a debate changed the sessions' independent majority,
for better or worse (a session moving to its peers' wrong answer is a known
failure of debate), so it is the item a person checks by hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from .answer_key import normalise
from .score import numbered_items

if TYPE_CHECKING:
    from ..state.debate import Debate
    from .final import FinalAnswer

__all__ = ["FirstVote", "first_vote"]


class FirstVote(NamedTuple):
    """The majority of the turn-1 answers per item, against the final answer's items."""

    voters: tuple[str, ...]
    sealed: bool  # the first answers were independent by construction (`init --sealed`)
    items: int  # the final answer's items
    agreeing: int
    overturned: tuple[tuple[int, str, str], ...]  # (item, the vote's answer, the final answer's)
    no_majority: tuple[tuple[int, str], ...]  # (item, the final answer's): the first answers had no majority

    def as_dict(self) -> dict[str, object]:
        return {"voters": list(self.voters), "sealed": self.sealed, "items": self.items, "agreeing": self.agreeing,
                "overturned": [{"item": f"Q{n}", "vote": v, "final": f} for n, v, f in self.overturned],
                "no_majority": [{"item": f"Q{n}", "final": f} for n, f in self.no_majority]}

    def sentence(self) -> str:
        """One line for a person: how the final answer stands against the first answers' majority."""
        how = "sealed, so independent" if self.sealed else "written before any session read a peer"
        head = f"Turn-1 vote (the majority of {len(self.voters)} first answers, {how}): "
        decided = self.items - len(self.no_majority)
        if not decided:
            # d82: "agrees with the final answer on 0 of 6 items" read as six items the first answers got wrong
            return head + "no item had a majority at turn 1, so it decides none."
        out = head + (f"it agrees with the final answer on {self.agreeing} of {self.items} items." if not self.no_majority
                      else f"it agrees with the final answer on {self.agreeing} of the {decided} items it decides.")
        if self.overturned:
            out += " The debate overturned it on " + "; ".join(
                f"Q{n} (vote {v}, final {f})" for n, v, f in self.overturned) + ": check these by hand."
        if self.no_majority:
            out += " No majority at turn 1 on " + ", ".join(f"Q{n}" for n, _f in self.no_majority) + "."
        return out


def first_vote(debate: Debate, final: FinalAnswer) -> FirstVote | None:
    """The turn-1 vote against `final`, when `final` answers item by item and at least three sessions wrote
    turn 1 (with two, a majority is agreement); None otherwise."""
    # a consensus with no text every yes read is its agreed line alone (#32)
    finals = numbered_items(final.answer or final.recommendation) if final.kind in ("consensus", "modal") else {}
    firsts = []
    voters = []
    for slug in debate.participants:
        entry = debate.entry(1, slug)
        if entry is not None and entry.readable:
            voters.append(slug)
            firsts.append(numbered_items(debate.details(entry).answer))
    if len(finals) < 2 or len(voters) < 3:
        return None
    agreeing = 0
    overturned: list[tuple[int, str, str]] = []
    no_majority: list[tuple[int, str]] = []
    for number, value in sorted(finals.items()):
        groups: dict[str, str] = {}
        counts: dict[str, int] = {}
        for answers in firsts:
            given = answers.get(number)
            folded = normalise(given) if given is not None else ""
            if folded:
                counts[folded] = counts.get(folded, 0) + 1
                groups.setdefault(folded, given or "")
        best = max(counts, key=lambda k: counts[k], default="")
        if not best or 2 * counts[best] <= len(voters):
            no_majority.append((number, value))
        elif best == normalise(value):
            agreeing += 1
        else:
            overturned.append((number, groups[best], value))
    sealed = bool(debate.task and debate.task.sealed)
    return FirstVote(tuple(voters), sealed, len(finals), agreeing, tuple(overturned), tuple(no_majority))
