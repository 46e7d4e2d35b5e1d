"""What the agents `multidebate run` started have cost, per participant, from its record of turns.

`run` appends one record per agent turn to `.multidebate/run/turns.jsonl`
(state/runs.py): the agent, its tool's version, seconds, and the tokens and
money the tool reported.  `status` and `report` show the totals, so that a
person sees what a debate cost after `run` has printed its last line.
"""

from __future__ import annotations

from typing import NamedTuple

from ..protocol.naming import is_slug
from ..protocol.oneline import one_line
from ..state.runs import read_run_records

__all__ = ["AgentCost", "agent_costs", "cost_words"]


class AgentCost(NamedTuple):
    """One participant's agent turns added up (tokens and money: None when its tool never reported them)."""

    slug: str
    agent: str
    turns: int
    seconds: float
    tokens_in: int | None
    tokens_out: int | None
    cost_usd: float | None

    def as_dict(self) -> dict[str, object]:
        return {"slug": self.slug, "agent": self.agent, "turns": self.turns, "seconds": round(self.seconds, 2),
                "tokens_in": self.tokens_in, "tokens_out": self.tokens_out, "cost_usd": self.cost_usd}


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _plus(total: float | None, value: float | None) -> float | None:
    return total if value is None else (total or 0.0) + value


def agent_costs(folder: str) -> tuple[AgentCost, ...]:
    """The written agent turns' costs, one line per slug in slug order; () when `run` never ran here."""
    totals: dict[str, AgentCost] = {}
    for record in read_run_records(folder):
        slug = record.get("slug")
        # a slug holding a newline ended the report's cost table and added a `## Verdict` of its own (issue 33):
        # a record's values reach Markdown and HTML, so a slug must be one and the agent's name one escaped line
        if not isinstance(slug, str) or not is_slug(slug) or record.get("outcome") != "written":
            continue
        agent = record.get("agent")
        agent = one_line(agent, 80) if isinstance(agent, str) else None
        was = totals.get(slug) or AgentCost(slug, "", 0, 0.0, None, None, None)
        tokens_in = _plus(was.tokens_in, _number(record.get("tokens_in")))
        tokens_out = _plus(was.tokens_out, _number(record.get("tokens_out")))
        totals[slug] = AgentCost(slug, agent if isinstance(agent, str) and agent else was.agent, was.turns + 1,
                                 was.seconds + (_number(record.get("seconds")) or 0.0),
                                 None if tokens_in is None else int(tokens_in),
                                 None if tokens_out is None else int(tokens_out),
                                 _plus(was.cost_usd, _number(record.get("cost_usd"))))
    return tuple(totals[slug] for slug in sorted(totals))


def cost_words(costs: tuple[AgentCost, ...]) -> str:
    """All agents in one line: '9 agent turns, 16 s, 12,000 tokens in, 342 out, $0.0125'."""
    turns = sum(c.turns for c in costs)
    parts = [f"{turns} agent turn{'s' if turns != 1 else ''}", f"{sum(c.seconds for c in costs):.0f} s"]
    tokens_in = [c.tokens_in for c in costs if c.tokens_in is not None]
    tokens_out = [c.tokens_out for c in costs if c.tokens_out is not None]
    if tokens_in or tokens_out:
        parts.append(f"{sum(tokens_in):,} tokens in, {sum(tokens_out):,} out")
    money = [c.cost_usd for c in costs if c.cost_usd is not None]
    if money:
        parts.append(f"${sum(money):.4f}")
    return ", ".join(parts) + " (as the tools report them)"
