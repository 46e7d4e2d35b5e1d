"""Where a debate ended: the verdict taken as of its end, and the debate without the files written after it.

A final verdict (converged, hollow, stalled, max_turns) ends the debate: `next`
says so and `write` refuses another turn.  A file written by hand after the
end must not reopen it: once a later turn is started, `judge` alone sees a
turn in progress ("waiting for b"), and every view would count the extra
file (a status row, a chart point, a scored move).  `settle` finds the turn
the debate ended at and cuts the debate there; the files after it are the
verdict's `extra_files`, listed as such and counted nowhere else.

The end is looked for only where it can be, so a live debate pays nothing:
the last complete turn when a later one was started, every complete turn
where all said yes (a hollow or converged end), and the first complete turn
at the task's turn limit; and only before a later file that `write` did not
vouch for (written by hand, edited, or a copy), since `write` refuses a turn
after the end.  A review debate's end is its case's (review_case.py).
"""

from __future__ import annotations

from typing import NamedTuple

from ..protocol.findings import Finding
from ..state.debate import Debate
from ..state.folder import scan_of
from .integrity import file_problems
from .verdict import Verdict, judge

__all__ = ["Settled", "settle", "cut_at"]


class Settled(NamedTuple):
    """A debate as of its end (the whole debate while it runs), its file problems, and its verdict."""

    debate: Debate
    problems: dict[tuple[int, str], Finding]
    verdict: Verdict


def cut_at(debate: Debate, turn: int) -> Debate:
    """`debate` without any file of a turn after `turn` (a participant who first wrote later is no participant)."""
    scan = debate.scan
    kept = [t for t in scan.turns if t.name.turn <= turn]
    cut = scan_of(scan.folder, kept, scan.attempts, scan.has_task)
    entries = {key: entry for key, entry in debate.entries.items() if key[0] <= turn}
    pending = {t: slugs for t, slugs in debate.sealed_pending.items() if t <= turn}
    return debate._replace(scan=cut, entries=entries, sealed_pending=pending)


def settle(debate: Debate, problems: dict[tuple[int, str], Finding] | None = None) -> Settled:
    """The verdict on `debate`, taken at the turn it ended when files were written after that (see the module doc)."""
    if problems is None:
        problems = file_problems(debate)
    verdict = judge(debate, problems)
    if verdict.review is not None:
        return Settled(debate, problems, verdict)
    if verdict.final:
        end = verdict.turn
    else:
        found = _ended_before(debate, problems, verdict)
        if found is None:
            return Settled(debate, problems, verdict)
        end, verdict = found
    if debate.current_turn <= end:
        return Settled(debate, problems, verdict)
    extra = tuple(sorted(e.path for (t, _s), e in debate.entries.items() if t > end))
    kept = {key: finding for key, finding in problems.items() if key[0] <= end}
    return Settled(cut_at(debate, end), kept, verdict._replace(extra_files=extra))


def _ended_before(debate: Debate, problems: dict[tuple[int, str], Finding],
                  verdict: Verdict) -> tuple[int, Verdict] | None:
    """The first turn, before the one `verdict` was taken on, at which the debate had ended, and its verdict."""
    participants = debate.participants
    if len(participants) < 2:
        return None
    current = debate.current_turn
    complete = [t for t in range(1, current + 1) if debate.complete(t)]
    last = complete[-1] if complete else 0
    limit = debate.task.max_turns if debate.task else None
    candidates = {t for t in complete if t < current and all(
        (e := debate.entry(t, s)) is not None and e.converged is True for s in participants)}
    if last and last < current:
        candidates.add(last)  # a started turn after a hollow, stalled or limit-reaching one
    if limit is not None:
        at_limit = [t for t in complete if t >= limit]
        if at_limit and at_limit[0] < current:
            candidates.add(at_limit[0])
    # `write` refuses a turn after the end: a turn written through it (a file with no integrity problem) shows
    # the debate had not ended before it.  Only a later file written by hand (W080), edited, or copied can
    # follow an end, so a live debate whose files are all `write`'s is judged once, as before.
    unproven = max((t for t, _slug in problems), default=0)
    for turn in sorted(candidates):
        if turn >= unproven:
            break
        cut = cut_at(debate, turn)
        ended = judge(cut, {key: finding for key, finding in problems.items() if key[0] <= turn})
        if ended.final:
            return turn, ended
    return None
