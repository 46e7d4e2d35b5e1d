"""Who was retired or handed over, and what they held then: `status` and `report` show it next to the verdict.

A retired participant no longer counts toward the verdict (that is what retiring is for), so retiring the
one dissenter turns a debate `converged`, and retiring the critic of a deciding finding changes a review's
verdict.  Neither may happen out of sight: each retirement is shown with when it was done and by whom,
the retired slug's last answer and whether it had agreed, and a critic's findings that stopped counting.
"""

from __future__ import annotations

from typing import NamedTuple

from ..protocol.oneline import one_line
from ..protocol.review_items import FindingItem
from ..state.acts import Act, read_acts
from ..state.debate import Debate

__all__ = ["Retirement", "person_acts", "retirements"]


class Retirement(NamedTuple):
    """A retired slug: the recorded act (None: TASK.md says so, with no record), and what it held."""

    slug: str
    act: Act | None
    last_turn: int | None
    last_answer: str
    agreed: bool | None  # its last turn's `Converged`
    findings: tuple[str, ...]  # a critic's findings that no longer count: `F1 (FATAL, severity 9)`
    history: tuple[tuple[int, str, bool | None], ...] = ()  # every turn it wrote: (turn, answer line, converged)

    @property
    def dissent(self) -> bool:
        """It had not said yes when it was retired: its disagreement leaves the verdict with it."""
        return self.last_turn is not None and self.agreed is not True

    def sentence(self) -> str:
        if self.act is not None:
            head = self.act.sentence()
        else:
            head = (f"{self.slug} is retired in TASK.md with no record of the person's `multidebate retire` "
                    "(TASK.md was edited)")
        parts = [head]
        if self.last_turn is None:
            parts.append("it wrote no turn")
        else:
            stance = "it had agreed" if self.agreed else "it had not agreed: a retired dissent"
            parts.append(f"its last answer, at turn {self.last_turn}, where {stance}: \u201c{self.last_answer}\u201d")
        if self.findings:
            parts.append(f"its findings no longer count toward the verdict: {', '.join(self.findings)}")
        return "; ".join(parts)

    def as_dict(self) -> dict[str, object]:
        return {"slug": self.slug, "recorded": self.act is not None, "turn": self.act.turn if self.act else None,
                "at": self.act.at if self.act else None, "last_turn": self.last_turn,
                "last_answer": self.last_answer or None, "agreed": self.agreed, "dissent": self.dissent,
                "findings": list(self.findings), "text": self.sentence(),
                "turns": [{"turn": t, "answer": a or None, "converged": c} for t, a, c in self.history]}


def _findings(debate: Debate, slug: str) -> tuple[str, ...]:
    """The findings a critic raised (by id, its latest severity), shown once it is retired."""
    latest: dict[str, FindingItem] = {}
    for (_turn, who), entry in sorted(debate.entries.items()):
        parsed = debate.parsed(entry) if who == slug else None
        for item in parsed.review_items if parsed is not None else ():
            if isinstance(item, FindingItem) and item.answer not in ("withdraw", "accept"):
                latest[item.id] = item
            elif isinstance(item, FindingItem):
                latest.pop(item.id, None)
    return tuple(f"{fid} ({item.klass or '?'}, severity {'?' if item.severity is None else item.severity})"
                 for fid, item in latest.items())


def retirements(debate: Debate, acts: tuple[Act, ...] | None = None) -> tuple[Retirement, ...]:
    """Every retired slug of the debate, with its record and what it held when retired."""
    if debate.task is None or not debate.task.retired:
        return ()
    acts = read_acts(debate.folder) if acts is None else acts
    review = debate.task.review
    found = []
    for slug in debate.task.retired:
        act = next((a for a in reversed(acts) if a.act == "retire" and a.slug == slug), None)
        own = sorted(turn for (turn, who) in debate.entries if who == slug)
        history = tuple((turn, "" if review else one_line(debate.details(debate.entries[(turn, slug)]).sig
                                                          .recommendation, 200),
                         debate.entries[(turn, slug)].converged) for turn in own)
        last = history[-1] if history else None
        found.append(Retirement(slug, act, last[0] if last else None, last[1] if last else "",
                                last[2] if last else None, _findings(debate, slug) if review else (), history))
    return tuple(found)


def person_acts(debate: Debate, acts: tuple[Act, ...] | None = None) -> tuple[Act, ...]:
    """The handovers, oldest first (retirements are shown by `retirements`)."""
    acts = read_acts(debate.folder) if acts is None else acts
    return tuple(a for a in acts if a.act == "handover")
