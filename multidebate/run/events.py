"""What `run` tells a person or a program as the debate goes: one event value per thing that happened.

Each kind of event is its own record, as `watch`'s are (views/watch_events.py): what it concerns as typed
fields, the sentence a person is shown (`message`), and its line of `run --json` (`as_dict`, every line
shaped as schemas/run-event.schema.json says: event, slug, turn, at, message, then the event's own keys).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Union

__all__ = ["KINDS", "RunEvent", "AgentEvent", "TurnCost", "Started", "SameModel", "Waiting", "Thinking", "Retrying",
           "Written", "Failed", "VerdictChanged", "Done", "Interrupted", "INTERRUPTED"]

INTERRUPTED = "Interrupted: every agent was stopped; no turn was half-written. Run again to resume."


def _shape(kind: str, message: str, at: float, slug: str = "", turn: int = 0, **data: object) -> dict[str, object]:
    """A line of `run --json`: the keys every event has, in the order they have always come, then its own."""
    return {"event": kind, "slug": slug or None, "turn": turn or None, "at": round(at, 2), "message": message,
            **data}


@dataclass(frozen=True)
class TurnCost:
    """What one agent turn cost: time, and tokens and money where the tool reported them."""

    seconds: float = 0.0
    tokens_in: int | None = None
    tokens_out: int | None = None
    cost_usd: float | None = None

    def __add__(self, other: TurnCost) -> TurnCost:
        def plus(a: float | None, b: float | None) -> float | None:
            return b if a is None else a if b is None else a + b

        tin, tout = plus(self.tokens_in, other.tokens_in), plus(self.tokens_out, other.tokens_out)
        return TurnCost(self.seconds + other.seconds, None if tin is None else int(tin),
                        None if tout is None else int(tout), plus(self.cost_usd, other.cost_usd))

    def as_dict(self) -> dict[str, object]:
        return {"seconds": round(self.seconds, 2), "tokens_in": self.tokens_in, "tokens_out": self.tokens_out,
                "cost_usd": self.cost_usd}

    def describe(self) -> str:
        parts = [f"{self.seconds:.0f} s"]
        if self.tokens_in is not None or self.tokens_out is not None:
            parts.append(f"{self.tokens_in or 0:,} tokens in, {self.tokens_out or 0:,} out")
        if self.cost_usd is not None:
            parts.append(f"${self.cost_usd:.4f}")
        return ", ".join(parts)


class _OfTheDebate:
    """An event about the whole debate: a person's line is its message."""

    @property
    def message(self) -> str:
        raise NotImplementedError

    def text(self) -> str:
        return self.message


class _OfATurn:
    """An event of one agent's turn: a person's line says whose turn it is."""

    slug: str
    turn: int

    @property
    def message(self) -> str:
        raise NotImplementedError

    def text(self) -> str:
        return f"{self.slug} turn {self.turn}: {self.message}"


@dataclass(frozen=True)
class Started(_OfTheDebate):
    """The run begins: which agent drives which participant, and the sessions people run."""

    kind: ClassVar[str] = "started"
    folder: str
    agents: tuple[tuple[str, str], ...]  # (slug, agent label: `claude:opus`, `cmd:...`)
    commands: tuple[tuple[str, str], ...]  # (slug, the whole command line `run` starts)
    shown: tuple[tuple[str, str], ...]  # (slug, what a person reads: the label, a custom agent's command line)
    people: tuple[str, ...]  # participants without an agent
    at: float = 0.0

    @property
    def message(self) -> str:
        who = ", ".join(f"{slug} = {what}" for slug, what in self.shown)
        return f"{self.folder}: agents {who}" + (f"; sessions people run: {', '.join(self.people)}"
                                                 if self.people else "")

    def as_dict(self) -> dict[str, object]:
        return _shape(self.kind, self.message, self.at, agents=dict(self.agents), people=list(self.people),
                      commands=dict(self.commands))


@dataclass(frozen=True)
class SameModel(_OfTheDebate):
    """A warning: these agents run one model, so their agreement proves little."""

    kind: ClassVar[str] = "warning"
    slugs: tuple[str, ...]
    at: float = 0.0

    @property
    def message(self) -> str:
        return f"{', '.join(self.slugs)} run the same model: the same priors agree without debating"

    def as_dict(self) -> dict[str, object]:
        return _shape(self.kind, self.message, self.at, slugs=list(self.slugs))


@dataclass(frozen=True)
class Waiting(_OfTheDebate):
    """No agent can go on: `run` waits for the people's sessions that owe `turn`."""

    kind: ClassVar[str] = "waiting"
    turn: int
    waiting_for: tuple[str, ...]
    at: float = 0.0

    @property
    def message(self) -> str:
        return f"waiting for {', '.join(self.waiting_for)} (sessions people run) to write turn {self.turn}"

    def as_dict(self) -> dict[str, object]:
        return _shape(self.kind, self.message, self.at, turn=self.turn, waiting_for=list(self.waiting_for))


@dataclass(frozen=True)
class Thinking(_OfATurn):
    """An agent started on its turn (again, on a retry)."""

    kind: ClassVar[str] = "thinking"
    slug: str
    turn: int
    attempt: int
    at: float = 0.0

    @property
    def message(self) -> str:
        return f"thinking (try {self.attempt})" if self.attempt > 1 else "thinking"

    def as_dict(self) -> dict[str, object]:
        return _shape(self.kind, self.message, self.at, self.slug, self.turn, attempt=self.attempt)


@dataclass(frozen=True)
class Retrying(_OfATurn):
    """`write` refused the agent's reply (`why`): it goes back to the agent."""

    kind: ClassVar[str] = "retrying"
    slug: str
    turn: int
    attempt: int
    why: str
    at: float = 0.0

    @property
    def message(self) -> str:
        return f"retrying: {self.why}"

    def as_dict(self) -> dict[str, object]:
        return _shape(self.kind, self.message, self.at, self.slug, self.turn, attempt=self.attempt)


@dataclass(frozen=True)
class Written(_OfATurn):
    """The agent's turn file is written."""

    kind: ClassVar[str] = "written"
    slug: str
    turn: int
    file: str
    cost: TurnCost
    attempts: int
    at: float = 0.0

    @property
    def message(self) -> str:
        return f"wrote {self.file} ({self.cost.describe()})"

    def as_dict(self) -> dict[str, object]:
        return _shape(self.kind, self.message, self.at, self.slug, self.turn, file=self.file,
                      cost=self.cost.as_dict(), attempts=self.attempts)


@dataclass(frozen=True)
class Failed(_OfATurn):
    """The agent failed its turn: `run` stops once the others have finished theirs."""

    kind: ClassVar[str] = "failed"
    slug: str
    turn: int
    reason: str
    cost: TurnCost
    at: float = 0.0

    @property
    def message(self) -> str:
        return f"failed: {self.reason}"

    def as_dict(self) -> dict[str, object]:
        return _shape(self.kind, self.message, self.at, self.slug, self.turn, reason=self.reason,
                      cost=self.cost.as_dict())


@dataclass(frozen=True)
class VerdictChanged(_OfTheDebate):
    """The verdict's state, or the turn it is taken on, changed."""

    kind: ClassVar[str] = "verdict"
    state: str
    turn: int
    detail: str
    at: float = 0.0

    @property
    def message(self) -> str:
        return f"{self.state} at turn {self.turn}: {self.detail}"

    def as_dict(self) -> dict[str, object]:
        return _shape(self.kind, self.message, self.at, turn=self.turn, state=self.state)


@dataclass(frozen=True)
class Done(_OfTheDebate):
    """The debate ended: its verdict, what the whole run cost (seconds: wall time), and the report command."""

    kind: ClassVar[str] = "done"
    state: str
    turn: int
    cost: TurnCost
    turns_written: int
    report: str
    at: float = 0.0

    @property
    def message(self) -> str:
        return f"the debate ended: {self.state} at turn {self.turn}"

    def as_dict(self) -> dict[str, object]:
        return _shape(self.kind, self.message, self.at, turn=self.turn, state=self.state, cost=self.cost.as_dict(),
                      turns_written=self.turns_written, report=self.report)


@dataclass(frozen=True)
class Interrupted(_OfTheDebate):
    """Ctrl-C, SIGTERM or SIGHUP stopped `run`: every agent killed, nothing half-written."""

    kind: ClassVar[str] = "interrupted"
    at: float = 0.0

    @property
    def message(self) -> str:
        return INTERRUPTED

    def as_dict(self) -> dict[str, object]:
        return _shape(self.kind, self.message, self.at)


AgentEvent = Union[Thinking, Retrying, Written, Failed]  # one agent's turn, as it goes
RunEvent = Union[Started, SameModel, Waiting, Thinking, Retrying, Written, Failed, VerdictChanged, Done, Interrupted]
KINDS = tuple(kind.kind for kind in (Started, SameModel, Waiting, Thinking, Retrying, Written, Failed, VerdictChanged,
                                     Done, Interrupted))
