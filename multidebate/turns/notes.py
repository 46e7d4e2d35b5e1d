"""What `next` tells a session beyond the briefing's fixed frame, as values: `Note(code, fields)`.

A note is decided where the briefing is planned (briefing.py) and worded here, in `next`'s catalogue (the
one `render` is protocol/notes.py's): each code has one template, so a note's wording lives in one place and a test can check what was said (the code
and its fields) apart from how it is worded.  The incident tags beside a template say which debates shaped
its words (docs/incidents.md).

Fields hold what the sentence needs, as plain values; `turn` is always the turn the session is about to
write (a note about turn N-1 says `turn - 1` itself).
"""

from __future__ import annotations

import os
import shlex

from ..protocol.notes import Note, catalogue, note, render
from ..state.task import TASK_FILE
from .role_briefing import JUDGE_WAITING
from .write_notes import copy_the_line, shown_line

# Note, note and render live in protocol/notes.py (one type and one render for every command's notes); they
# are named here too, beside the catalogue `next`'s plan makes its notes from
__all__ = ["Note", "CATALOGUE", "note", "render", "shown_line", "report_has"]


def report_has(folder: str) -> str:
    return (f"`multidebate report {shlex.quote(os.path.abspath(folder))}` has the final answers and the peers' last "
            "Disagreements.")


def _report(folder: str) -> str:
    return f"`multidebate report {shlex.quote(os.path.abspath(folder))}`"


def _has(names: tuple[str, ...]) -> str:
    return f"{', '.join(names)} ha{'s' if len(names) == 1 else 've'}"


def _line_changed(turn: int, source: str) -> str:
    # turns are written at the same time: what peers wrote at N-1 answers the line this session left.
    # Sessions read "you changed your line" as a reproach when they had reused a peer's line as asked:
    # name what they did.
    # "reused" read as "copied" to a session that wrote the same line on its own (d62): say what is seen
    # h02: "changed to x's line" read as "copied" again to a session that worked its line out alone
    done = (f"At turn {turn - 1} your bold line changed; it is now, word for word, `{source}`'s turn "
            f"{turn - 2} line" if source
            else f"At turn {turn - 1} you gave a new bold line")
    return (f"{done}. Your peers wrote turn {turn - 1} at the same time, so their Disagreements answer "
            f"your turn {turn - 2} line, not this one.")


def _swapped(turn: int, slug: str, peer: str) -> str:
    # two sessions that each adopt the other's line cross again next turn: one must hold still
    keeper = min(slug, peer)
    keep = "keep your turn" if keeper == slug else f"adopt `{peer}`'s turn"
    return (f"You and `{peer}` swapped positions at turn {turn - 1} (each took the other's line), so "
            f"you still differ. To stop crossing, `{keeper}` (first by name) holds its line: {keep} "
            f"{turn - 1} line word for word if you accept it, or say why not.")


def _waiting(turn: int, unwritten: tuple[str, ...], sealed_written: tuple[str, ...]) -> str:
    return ((f"{_has(unwritten)} not written turn {turn} yet" if unwritten else f"Turn {turn} is not published yet")
            + (f" ({_has(sealed_written)} written it, sealed until every participant has)" if sealed_written
               else "")
            + ". Wait for them (run `next` again) unless the user told you to go on without them.")


# the verdict's stall (verdict.py, rule 6) in the words SKILL.md uses
STALL_RULE = "no recommendation and no Converged yes/no changed"

CATALOGUE = catalogue(__name__, {
    # --- the task
    "task-differs": lambda: (
        f"You were given a task text that differs from this debate's {TASK_FILE}. Every session must "
        f"debate the same task: debate the {TASK_FILE} task below and tell the user about the difference."),
    "task-recorded": lambda: f"Recorded your task in {TASK_FILE} so that every session debates the same text.",
    "task-missing": lambda: f"No task is recorded ({TASK_FILE} is missing); go on from the peers' answers.",
    # a typo would silently add a participant whose turns nobody writes
    "slug-typo": lambda slug, close: (
        f"`{slug}` is not a participant yet, and writing under it adds one; did you mean "
        f"`{close}`? If so, run `next` with `--slug {close}`."),
    # --- advice for the turn to write (dropped once the debate has ended)
    "line-changed": _line_changed,
    "swapped-positions": _swapped,
    # sessions were surprised that a debate with turns left ended as stalled: say it before the turn
    # d67: "three turns" after naming two read as a miscount, and the note as pressure to move
    "stall-warning": lambda turn: (
        f"From turn {turn - 2} to turn {turn - 1}, {STALL_RULE}. If none changes at turn {turn} "
        f"either (turns {turn - 2} to {turn}), the debate ends as stalled. Hold your line if you "
        "still hold it: a stall is a fair end."),
    # (not when every turn N-1 line is already one line: h01, h02, a01 sessions read it as a call to act)
    # d57: two sessions switched at the last turn; all six lines ended identical, every session had to
    # say no to the lines it had been shown, and the debate ended at max_turns: say it a turn earlier
    "next-is-last": lambda limit: (
        f"Turn {limit}, the next, is the last: a bold line changed then cannot be confirmed. If a "
        "peer's argument convinces you, change your line now."),
    # --- where the debate stands
    "sealed-turn": lambda turn: (
        f"Turn {turn - 1} is sealed until every participant has written it; wait for it to be "
        "published (run `next` again) before you write."),
    "left-out-names-you": lambda finding: (
        f"{finding}. It names you: ask the user to remove it (then run `next` again)."),
    "review-ended": lambda state, turn, summary: (
        f"The review ended ({state}) after round {turn}: {summary}. "
        "Do not write another turn; tell the user (`multidebate report` shows the case)."),
    "unanimous": lambda wrote, folder: (
        "The debate ended at turn 1: every session answered alike, independently (unanimous)"
        + (": do not write another turn." if wrote else ", before you joined: do not write a turn.")
        + f" Tell the user; {_report(folder)} shows the answer."),
    # what to tell: a session that joined after the end has seen no answer at all
    # d66: a late joiner read "another turn" as if it had written one
    "converged": lambda turn, wrote, folder: (
        f"The debate converged at turn {turn}"
        + (": do not write another turn." if wrote else " before you joined: do not write a turn.")
        + f" Tell the user; {_report(folder)} shows the agreed answer."),
    # only the bold lines follow: the peers' last Disagreements are in the report (sessions did not know)
    "debate-ended": lambda state, turn, detail, folder: (
        f"The debate ended: {state} at turn {turn} ({detail}). Do not write "
        f"another turn (`write` refuses it); tell the user. {report_has(folder)}"),
    # #27: `write` refuses the defender's round until every critic wrote it: there is no going on without them
    "defender-waiting": lambda waiting, turn: (
        f"{_has(waiting)} not written round {turn} yet: "
        "wait for them (`next --wait`); `write` refuses your turn until every critic has written it."),
    "waiting-peers": _waiting,
    "beyond-turn-limit": lambda limit, turn, folder: (
        f"This debate's turn limit is {limit}; turn {turn} is beyond it: write nothing, tell the user. "
        + report_has(folder)),
    "last-turn": lambda limit: (
        f"This is the last turn (max_turns {limit}): state your final position. The debate converges "
        "only if every session says yes now; no turn follows in which peers could answer a line you "
        "change now."),
    # #32: a second all-yes turn with lines that are not one line ends the debate: say it before the turn
    "all-yes-not-one-line": lambda turn, line: copy_the_line(
        f"At turn {turn - 1} every session said yes, but the bold lines were not one line",
        "If you hold the same answer,", line),
    # d59, d60: six or seven peers' files were 26,000-31,000 characters, and most sessions' shells cut
    # the middle out of them, silently; a Reasoning cut where it says so beats a hole nobody sees
    # the names: one Reasoning may be whole where another is cut (the room goes first to the shortest)
    "large-briefing": lambda peers, chars, cut: (
        f"The {peers} peer files are {chars:,} characters, more than many tools show of one "
        f"command: the Reasoning of {', '.join(f'`{slug}`' for slug in cut)} is cut (where it says so), the "
        "room shared out evenly; no other section is cut for size. "
        "Running `next` again with `--sections reasoning` shows the Reasonings whole (it changes "
        "nothing)."),
    # #27: a change to the proposal since the review began (W101 and its kin)
    "proposal-finding": lambda proposal, message, finding: (
        f"{proposal}: {message} ({finding}). Tell the user before you go on."),
    # --- the judge's
    "judgment-written": lambda name: f"You wrote your judgment ({name}): nothing more to do. Tell the user.",
    "judgment-not-yours": lambda name, problem: (
        f"{name} is there, but it is not your judgment (E111: {problem}). Ask the user "
        "to remove it; then write your own once it is due."),
    # #27: a judge waited for a whole review and nothing said how far it had got
    "judge-waiting": lambda progress: f"You are the judge; the debate runs: {progress}. {JUDGE_WAITING}",
    "no-judgment-needed": lambda state: (
        f"The debate ended {state}: the participants agree, so no judgment is needed. "
        "Tell the user; `multidebate report` shows the outcome."),
})
