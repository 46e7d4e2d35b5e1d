"""Participants who stopped writing: their peers went on without them, or waited longer than `next --wait` does.

A real debate lost a session after turn 2 (it believed the debate had
ended); the other two waited ten minutes a turn and wrote on alone, and
nothing told anyone that `retire` lets a debate go on without a participant.
"""

from __future__ import annotations

import shlex
import time
from typing import NamedTuple

from ..state.debate import Debate

__all__ = ["PATIENCE", "Dropout", "dropouts", "dropout_line"]

PATIENCE = 600.0  # seconds: as long as `next --wait` waits by default


class Dropout(NamedTuple):
    """A participant that has stopped writing (or so it seems)."""

    slug: str
    last_turn: int  # the last turn it wrote (0: none)
    behind: bool  # its peers wrote a later turn without it; else it is only late at the current turn
    idle_seconds: float  # since the first file of the turn it has not written

    def as_dict(self) -> dict[str, object]:
        return {"slug": self.slug, "last_turn": self.last_turn, "behind": self.behind,
                "idle_seconds": round(self.idle_seconds, 1)}


def dropouts(debate: Debate, now: float | None = None) -> tuple[Dropout, ...]:
    """Who has stopped: two turns behind its peers, or missing from the current turn for longer than PATIENCE."""
    current = debate.current_turn
    if current < 1 or (debate.task is not None and debate.task.review):
        return ()  # a review's rounds have their own order (critics, then the defender)
    clock = time.time() if now is None else now
    found = []
    for slug in debate.participants:
        own = debate.scan.own_count(slug)
        if own >= current:
            continue
        started = [e.mtime for (t, _s), e in debate.entries.items() if t == own + 1]
        idle = max(0.0, clock - min(started)) if started else 0.0
        if own < current - 1 or idle >= PATIENCE:
            found.append(Dropout(slug, own, own < current - 1, idle))
    return tuple(found)


def dropout_line(folder: str, dropout: Dropout, current: int) -> str:
    """One sentence for people and sessions: what happened, and the command that goes on without it."""
    retire = f"`multidebate retire {shlex.quote(folder)} {dropout.slug}`"
    if dropout.behind:
        last = f"turn {dropout.last_turn}" if dropout.last_turn else "no turn"
        return (f"{dropout.slug} has dropped out: it wrote {last}, and its peers went on to turn {current} without "
                f"it. A person runs {retire} to go on without it (turns then complete without it).")
    minutes = dropout.idle_seconds / 60
    return (f"{dropout.slug} has not written turn {dropout.last_turn + 1} for {minutes:.0f} minutes: if it has "
            f"dropped out, a person runs {retire} to go on without it.")
