"""What a person reading `status` or a report should do, in one plain sentence, as a note (protocol/notes.py)
from this module's catalogue; verdict words."""

from __future__ import annotations

import shlex

from ..analysis.dropouts import Dropout
from ..analysis.run_failures import RunFailure
from ..analysis.verdict import Verdict
from ..protocol.notes import Note, catalogue, note, render
from ..state.task import Task

__all__ = ["CATALOGUE", "VERDICT_WORDS", "advice", "advice_text", "verdict_words"]

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


def _fix_agents(names: tuple[str, ...], folder: str) -> str:
    return (f"Fix {', '.join(names)}'s agent{'s' if len(names) > 1 else ''} (the reason is above: e.g. log the tool "
            f"in, or change its --agent), then run `multidebate run {shlex.quote(folder)}` again: it resumes at the "
            "failed turn.")


def _dropped(names: tuple[str, ...], folder: str) -> str:
    one = len(names) == 1
    return (f"{', '.join(names)} seem{'s' if one else ''} to have dropped out: restart "
            f"{'its session' if one else 'their sessions'}, or run `multidebate retire {shlex.quote(folder)} "
            f"{names[0]}` to go on without {'it' if one else 'each'}.")


def _wait_for(missing: tuple[str, ...], folder: str) -> str:
    return (f"Wait for {', '.join(missing)} to write (type \"next turn\" in "
            f"{'its session' if len(missing) == 1 else 'their sessions'}), then run `multidebate status "
            f"{shlex.quote(folder)}` again.")


# what `status` and `report` say to do, after `what to do:` (one catalogue: both print the same sentence)
CATALOGUE = catalogue(__name__, {
    # #34: an agent that `run` started failed its turn; it is no session that dropped out
    "fix-agents": _fix_agents,
    # "type next turn" would only meet next's refusal: the TASK.md comes first
    "fix-task": lambda folder: (
        f"Fix TASK.md first (`multidebate validate {shlex.quote(folder)}` lists its problems): until then `next` "
        "and `write` refuse to run, so no session can take its turn."),
    "start-sessions": lambda folder: (
        f"Start a session in each assistant and ask it to debate the task in {folder} (docs/running.md says what "
        "to type)."),
    "dropped-out": _dropped,
    "wait-for": _wait_for,
    "confirm-agreement": lambda: (
        "Type \"next turn\" in each session: one more turn can confirm the agreement."),
    "next-turn": lambda: "Type \"next turn\" in each session, or ask each to \"debate until converged\".",
})


def advice(folder: str, verdict: Verdict, missing: tuple[str, ...], dropped: tuple[Dropout, ...],
           task: Task | None = None, failed: tuple[RunFailure, ...] = ()) -> Note | None:
    """What to do, as a note: about an agent that failed its turn under `run`, else about an open debate (None
    once it has ended: the verdict says it all)."""
    if failed:
        return note("fix-agents", names=tuple(f.slug for f in failed), folder=folder)
    if verdict.final or verdict.review is not None:
        return None
    if task is not None and any(f.severity == "error" for f in task.findings):
        return note("fix-task", folder=folder)
    if verdict.state == "empty":
        return note("start-sessions", folder=folder)
    if dropped:
        return note("dropped-out", names=tuple(d.slug for d in dropped), folder=folder)
    if missing:
        return note("wait-for", missing=missing, folder=folder)
    if verdict.state in ("unconfirmed", "latent"):
        return note("confirm-agreement")
    return note("next-turn")


def advice_text(said: Note | None) -> str:
    """The advice as `status` and `report` keep it ("" for none)."""
    return render(said) if said is not None else ""
