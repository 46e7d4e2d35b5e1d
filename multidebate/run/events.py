"""What `run` tells a person or a program as the debate goes: one event per thing that happened."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["KINDS", "RunEvent", "TurnCost"]

# started: the run begins; warning: e.g. two agents on one model; waiting: for a person's session;
# thinking: an agent started (again, on a retry); retrying: write refused its reply; written: its turn file;
# failed: it failed the turn; verdict: the verdict changed; done: the debate ended; interrupted: Ctrl-C, SIGTERM
# or SIGHUP stopped `run` (every agent killed, nothing half-written)
KINDS = ("started", "warning", "waiting", "thinking", "retrying", "written", "failed", "verdict", "done",
         "interrupted")


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


@dataclass(frozen=True)
class RunEvent:
    """One thing that happened: its kind (KINDS), whom and which turn it concerns, and what to say."""

    kind: str
    message: str
    slug: str = ""
    turn: int = 0
    at: float = 0.0  # seconds since the run started
    data: dict[str, object] = field(default_factory=dict)

    def as_dict(self) -> dict[str, object]:
        return {"event": self.kind, "slug": self.slug or None, "turn": self.turn or None, "at": round(self.at, 2),
                "message": self.message, **self.data}
