"""What a person reading `status` or a report of an open debate should do, in one plain sentence; verdict words."""

from __future__ import annotations

import shlex

from ..analysis.dropouts import Dropout
from ..analysis.verdict import Verdict
from ..state.task import Task

__all__ = ["VERDICT_WORDS", "advice", "verdict_words"]

# what people read for a verdict state (the JSON keeps the state names: programs read them)
VERDICT_WORDS = {
    "empty": "no turns yet",
    "in_progress": "in progress",
    "unanimous": "all answered alike, independently",
    "converged": "converged",
    "unconfirmed": "agreement not yet confirmed",
    "hollow": "hollow agreement (yes to different answers)",
    "latent": "agreement not yet seen by all",
    "stalled": "stalled",
    # d01: "without agreement" headed a report whose last lines were all identical, but not all confirmed
    "max_turns": "turn limit reached, not converged",
    "fully_resolved": "fully resolved",
    "max_rounds": "round limit reached",
}


def verdict_words(state: str) -> str:
    return VERDICT_WORDS.get(state, state.replace("_", " "))


def advice(folder: str, verdict: Verdict, missing: tuple[str, ...], dropped: tuple[Dropout, ...],
           task: Task | None = None) -> str:
    """One sentence for an open debate ("" once it has ended: the verdict says it all)."""
    if verdict.final or verdict.review is not None:
        return ""
    where = shlex.quote(folder)
    if task is not None and any(f.severity == "error" for f in task.findings):
        # "type next turn" would only meet next's refusal: the TASK.md comes first
        return (f"Fix TASK.md first (`multidebate validate {where}` lists its problems): until then `next` and "
                "`write` refuse to run, so no session can take its turn.")
    if verdict.state == "empty":
        return (f"Start a session in each assistant and ask it to debate the task in {folder} (docs/running.md "
                "says what to type).")
    if dropped:
        names = ", ".join(d.slug for d in dropped)
        return (f"{names} seem{'s' if len(dropped) == 1 else ''} to have dropped out: restart "
                f"{'its session' if len(dropped) == 1 else 'their sessions'}, or run `multidebate retire {where} "
                f"{dropped[0].slug}` to go on without {'it' if len(dropped) == 1 else 'each'}.")
    if missing:
        return (f"Wait for {', '.join(missing)} to write (type \"next turn\" in "
                f"{'its session' if len(missing) == 1 else 'their sessions'}), then run `multidebate status {where}` "
                "again.")
    if verdict.state in ("unconfirmed", "latent"):
        return "Type \"next turn\" in each session: one more turn can confirm the agreement."
    return "Type \"next turn\" in each session, or ask each to \"debate until converged\"."
