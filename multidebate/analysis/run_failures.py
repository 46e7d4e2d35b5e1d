"""A participant whose agent `multidebate run` started failed its turn, and that turn is still unwritten (#34).

`run` stops when an agent fails a turn (its replies refused three times, a crash, a timeout) and records why in
`.multidebate/run/turns.jsonl` (state/runs.py).  Without this, `status` and `report` took the participant for a
session that dropped out and said to restart it or to type "next turn" in it.  A failure stands while that
participant's last record is the failure and the turn it failed is not written; `status`, `status --json` and
`report` show who, which turn, the reason, and what to do: fix the agent, then `multidebate run FOLDER` again.
"""

from __future__ import annotations

from typing import NamedTuple

from ..protocol.naming import is_slug
from ..protocol.oneline import one_line
from ..state.debate import Debate
from ..state.runs import read_run_records

__all__ = ["RunFailure", "run_failures"]

_REASON_CHARS = 400


class RunFailure(NamedTuple):
    """One participant's agent that failed a turn under `run`, the turn not written since."""

    slug: str
    turn: int
    agent: str  # as `run` recorded it: `claude:opus`, `cmd:my_agent.py`
    reason: str  # one line, as `run` said it
    at: str  # when (UTC, as recorded)

    def as_dict(self) -> dict[str, object]:
        return {"slug": self.slug, "turn": self.turn, "agent": self.agent or None, "reason": self.reason,
                "at": self.at or None}

    def sentence(self) -> str:
        agent = f" ({self.agent})" if self.agent else ""
        return f"{self.slug}'s agent{agent} failed turn {self.turn} under `multidebate run`: {self.reason}"


def _text(value: object, limit: int) -> str:
    return one_line(value, limit) if isinstance(value, str) else ""


def run_failures(debate: Debate) -> tuple[RunFailure, ...]:
    """The failures that stand, in slug order (see the module doc); () when `run` never ran here."""
    last: dict[str, dict[str, object]] = {}
    for record in read_run_records(debate.folder):
        slug = record.get("slug")
        if isinstance(slug, str) and is_slug(slug):
            last[slug] = record
    retired = set(debate.task.retired) if debate.task is not None else set()
    out = []
    for slug in sorted(last):
        record = last[slug]
        turn = record.get("turn")
        if record.get("outcome") != "failed" or not isinstance(turn, int) or isinstance(turn, bool) or turn < 1:
            continue
        if slug in retired or debate.scan.entry(turn, slug) is not None:
            continue  # retired by the person, or the turn was written since (by a session, or a later run)
        out.append(RunFailure(slug, turn, _text(record.get("agent"), 80), _text(record.get("reason"), _REASON_CHARS)
                              or "(no reason recorded)", _text(record.get("at"), 40)))
    return tuple(out)
