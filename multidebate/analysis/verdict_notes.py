"""What the verdict says to a reader beyond its state and detail, as notes (protocol/notes.py): its `notes`
(why a turn did not count, what was left out) and its `next_step` (what the next turn must do).

The verdict keeps their text (`Verdict.notes`, `Verdict.next_step`: `status`, its JSON and the kept
snapshots read strings); the words are here, one template a code.
"""

from __future__ import annotations

from ..protocol.bold_line import display_line
from ..protocol.notes import catalogue, note, render

__all__ = ["CATALOGUE", "HOLLOW_WARNING", "said"]

# #32: what a second all-yes turn with lines that are not one line does (the verdict's rule, which `next` and
# `write` repeat beside the line to copy)
HOLLOW_WARNING = "If every session says yes again to lines that are not one line, the debate ends hollow"

CATALOGUE = catalogue(__name__, {
    # --- notes
    # a hand-written file under a held slug, or a copy replayed under another name, is no turn of that slug
    "left-out": lambda file, finding, message: f"{file} is left out of the verdict ({finding}: {message})",
    "did-not-converge": lambda turn, why: f"turn {turn} did not converge: {why}",
    "yes-with-disagreements": lambda slug, count: f"{slug} says yes but still lists {count} disagreement(s)",
    # --- next steps (`status`: "next turn: ...")
    "copy-one-line": lambda line: (
        f"next turn, a session that agrees opens its Answer with this bold line, word for word: "
        f"{display_line(line)} ; one that does not says no and why. {HOLLOW_WARNING}"),
    "restore-or-write": lambda: "restore the files or have each session write one more turn",
    "read-new-answers": lambda: "one more turn: each session reads the others' new answers",
})


def said(code: str, **fields: object) -> str:
    """A note of this catalogue, as the verdict keeps it: its text."""
    return render(note(code, **fields))
