"""What `write` tells a session after writing, as notes (protocol/notes.py): this catalogue holds their words.

`WriteResult.notes` decides them (write.py); each line `write` prints is one note, rendered by the one
`render`.  The "copy this line" sentence is shared with `next`'s `all-yes-not-one-line` (`copy_the_line`).
"""

from __future__ import annotations

import os
import shlex

from ..analysis.verdict_notes import HOLLOW_WARNING
from ..protocol.bold_line import display_line
from ..protocol.notes import catalogue
from ..protocol.oneline import one_line

__all__ = ["CATALOGUE", "copy_the_line", "shown_line"]


def shown_line(line: str) -> str:
    """A bold line as `next` shows it to be copied: as written (its own `**` kept, so that copying it gives the
    same line), on one line.  The tool's tags stand before the colon, where a line's text cannot reach."""
    return one_line(display_line(line))


def copy_the_line(said: str, when: str, line: str) -> str:
    """#32: after an all-yes turn whose lines are not one line, the line to copy and what a second such turn
    does; `said`: what happened, `when`: when to copy it (`next` and `write` say both from where they stand)."""
    return f"{said}. {when} open your Answer with this line, word for word: {shown_line(line)} . {HOLLOW_WARNING}."


def _quoted(folder: str) -> str:
    return shlex.quote(os.path.abspath(folder))


def _wrote_turn(path: str, turn: int, confidence: int, converged: bool) -> str:
    return f"Wrote {path} (turn {turn}, confidence {confidence}, converged {'yes' if converged else 'no'})."


def _roster_progress(turn: int, written: int, participants: int, waiting: tuple[str, ...], final: bool) -> str:
    return f"Turn {turn}: {written} of {participants} written" + (
        f"; waiting for {', '.join(waiting)}." if waiting else "; the turn is complete"
        + (" and the debate goes on." if not final else "."))


def _open_progress(turn: int, written: tuple[str, ...], waiting: tuple[str, ...]) -> str:
    not_yet = f"; not yet by {', '.join(waiting)}" if waiting else ""
    return (f"Turn {turn}: written so far by {', '.join(written)}{not_yet} (no roster: whoever writes takes "
            "part).")


def _shows(last: bool) -> str:
    # sessions did not know, after writing the last turn, that only the outcome was left to learn
    return ("this was the last turn, so it shows how the debate ended once all have written it" if last
            else "it shows your peers' turn and where the debate stands")


CATALOGUE = catalogue(__name__, {
    # --- the key this write claimed, shown at once (before the rest)
    "key-claimed": lambda slug, key: (
        f"Your key for `{slug}` is {key}: keep it, and add --key {key} to every later `multidebate next` and "
        "`multidebate write` of this debate."),
    "judge-key-claimed": lambda slug, key: (
        f"Your key for `{slug}` is {key} (needed only to run `next` again as the judge)."),
    # --- what was written
    "wrote-judgment": lambda path, state, folder: (
        f"Wrote {path}: your judgment of the debate ({state}). Tell the user; `multidebate report "
        f"{_quoted(folder)}` shows it beside the verdict."),
    "wrote-round": lambda path, turn: f"Wrote {path} (round {turn}).",
    "wrote-turn": _wrote_turn,
    "normalised": lambda what: f"  normalised: {what}",
    "warning": lambda warning: f"  warning: {warning}",
    # --- how far the turn is: who has written it and who not, never what they answered
    # says all the progress line would: one line, not two
    "turn-published": lambda turn: f"Every participant has written turn {turn}: it is now published.",
    "turn-sealed": lambda turn: (
        f"Turn {turn} stays sealed (unseen by peers) until every participant has written it."),
    "turn-progress": _roster_progress,
    "turn-progress-open": _open_progress,
    # --- where the debate stands
    "write-converged": lambda turn: f"The debate converged at turn {turn}: it is over.",
    "write-unanimous": lambda: (
        "Every session wrote one bold line at turn 1, independently: the debate ended there (unanimous), and no "
        "turn follows. Tell the user."),
    # #32: the first all-yes turn with lines that are not one line is a step; the next such turn ends it
    "write-all-yes-not-one-line": lambda turn, line: copy_the_line(
        f"Every session said yes at turn {turn}, but the bold lines are not one line", "Next turn, if you hold "
        "the same answer,", line),
    "write-review-ended": lambda state, turn, summary: (
        f"The review ended ({state}) after round {turn}: {summary}. Tell the user."),
    "write-debate-ended": lambda state, turn, detail: (
        f"The debate ended: {state} at turn {turn} ({detail}). Tell the user."),
    # --- what to run next, without what peers answered: `next` shows their turn when it is time
    "next-command": lambda folder, slug, key_option, last: (
        f"Next: multidebate next {_quoted(folder)} --slug {slug}{key_option} (hands-free: add --wait, and "
        f"--timeout SECONDS below your shell's command limit, e.g. --timeout 90); {_shows(last)}."),
    # the MCP server names its tool instead of the command
    "next-tool": lambda step, last: f"{step}; {_shows(last)}.",
})
