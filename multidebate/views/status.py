"""`status`: where a debate stands, as one value the CLI formats as a table or JSON."""

from __future__ import annotations

import os
import time
from typing import NamedTuple

from ..analysis.agent_costs import AgentCost, agent_costs, cost_words
from ..analysis.dropouts import Dropout, dropout_line, dropouts
from ..analysis.ending import settle
from ..analysis.integrity import deleted_files, disowned, problem_lines
from ..analysis.retirements import Retirement, person_acts, retirements
from ..analysis.run_failures import RunFailure, run_failures
from ..analysis.verdict import Verdict
from ..protocol.findings import Finding
from ..protocol.judgment import Judgment
from ..protocol.naming import parse_turn_name
from ..state.acts import Act, read_acts
from ..state.debate import Debate, Entry, load_debate
from .advice import advice, advice_text

__all__ = ["Cell", "TurnRow", "Status", "debate_status", "render_status"]


class Cell(NamedTuple):
    """One participant's file at one turn."""

    file: str
    confidence: int | None
    converged: bool | None
    valid: bool
    errors: int
    warnings: int
    integrity: str = ""  # the file's integrity finding code (E080, E085, E022, W080), or ""
    items: str = ""  # a review turn: `2 findings`, `3 responses`

    def as_dict(self) -> dict[str, object]:
        return {"file": self.file, "confidence": self.confidence, "converged": self.converged,
                "valid": self.valid, "errors": self.errors, "warnings": self.warnings,
                "integrity": self.integrity or None, "items": self.items or None}


class TurnRow(NamedTuple):
    turn: int
    complete: bool
    entries: dict[str, Cell]


class Status(NamedTuple):
    """The table of turns x participants, who is missing, and the verdict."""

    folder: str
    task: str | None
    participants: tuple[str, ...]
    current_turn: int
    missing: tuple[str, ...]
    waiting_seconds: float | None
    turns: tuple[TurnRow, ...]
    verdict: Verdict
    outsiders: tuple[str, ...]
    sealed: dict[int, tuple[str, ...]]
    roster: bool = False
    problems: tuple[str, ...] = ()  # TASK.md and integrity findings, one line each, for people to act on
    judge: str | None = None  # the judge's slug, when the debate has one
    judgment: Judgment | None = None  # its judgment, once written
    judgment_due: bool = False  # the debate ended so that the judge writes now
    deleted: tuple[str, ...] = ()  # missing participants whose turn file was deleted (E081): no one to wait for
    dropouts: tuple[Dropout, ...] = ()  # participants that stopped writing (dropouts.py)
    advice: str = ""  # what the reader should do, in one sentence, while the debate is open
    retired: tuple[Retirement, ...] = ()  # retired slugs: their columns stay, the person's act is shown
    handovers: tuple[Act, ...] = ()  # slugs a person handed over to another session
    agent_costs: tuple[AgentCost, ...] = ()  # what the agents `multidebate run` started cost, per participant
    run_failures: tuple[RunFailure, ...] = ()  # agents `run` started that failed a turn still unwritten

    def progress(self, turn: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(who has written `turn`, who has not), sealed files included."""
        row = self.turns[turn - 1] if 0 < turn <= len(self.turns) else None
        done = set(row.entries) if row else set()
        done |= set(self.sealed.get(turn, ()))
        written = tuple(s for s in self.participants if s in done)
        return written, tuple(s for s in self.participants if s not in done)

    def as_dict(self) -> dict[str, object]:
        return {
            "folder": self.folder,
            "task": self.task,
            "participants": list(self.participants),
            "current_turn": self.current_turn,
            "missing": list(self.missing),
            "waiting_seconds": None if self.waiting_seconds is None else round(self.waiting_seconds, 1),
            "turns": [
                {"turn": r.turn, "complete": r.complete, "entries": {s: c.as_dict() for s, c in r.entries.items()}}
                for r in self.turns
            ],
            "verdict": self.verdict.as_dict(),
            "outsiders": list(self.outsiders),
            "sealed": {str(t): list(s) for t, s in sorted(self.sealed.items())},
            "roster": self.roster,
            "problems": list(self.problems),
            "judge": self.judge,
            "judgment": self.judgment.as_dict() if self.judgment is not None else None,
            "judgment_due": self.judgment_due,
            "dropouts": [d.as_dict() for d in self.dropouts],
            "advice": self.advice or None,
            "retired": [r.as_dict() for r in self.retired],
            "handovers": [a.as_dict() for a in self.handovers],
            "agent_costs": [c.as_dict() for c in self.agent_costs],
            "run_failures": [f.as_dict() for f in self.run_failures],
        }


def _cells(debate: Debate, problems: dict[tuple[int, str], Finding]) -> dict[int, dict[str, Cell]]:
    """Every turn's cells, in one pass over the entries."""
    cells: dict[int, dict[str, Cell]] = {}
    for (turn, slug), entry in sorted(debate.entries.items()):
        errors = sum(1 for f in entry.findings if f.severity == "error")
        warnings = len(entry.findings) - errors
        problem = problems.get((turn, slug))
        if problem is not None and problem.code not in {f.code for f in entry.findings}:
            errors, warnings = (errors + 1, warnings) if problem.severity == "error" else (errors, warnings + 1)
        cells.setdefault(turn, {})[slug] = Cell(entry.path, entry.confidence, entry.converged,
                                                entry.valid and errors == 0, errors, warnings,
                                                problem.code if problem else "",
                                                _items(debate, entry) if debate.task and debate.task.review else "")
    return cells


def _items(debate: Debate, entry: Entry) -> str:
    """How many findings or responses a review turn lists (its cell in the table)."""
    parsed = debate.parsed(entry)
    if parsed is None:
        return "?"
    name = next((n for n in ("Findings", "Responses") if n in parsed.sections), "")
    if not name:
        return "?"
    count = len(parsed.review_items)
    if not count:
        return f"no {name.lower()}"
    return f"{count} {name.lower() if count != 1 else name.lower()[:-1]}"


def debate_status(folder: str, now: float | None = None) -> Status:
    """The status of the debate in `folder` (FolderError when it is no folder)."""
    # files written by hand after the debate ended are left out of every row (the verdict lists them)
    debate, problems, verdict = settle(load_debate(folder))
    current = debate.current_turn
    cells = _cells(debate, problems)
    left_out = disowned(problems)  # a copied, hand-written or non-regular file does not complete its turn
    rows = tuple(TurnRow(t, debate.complete(t) and not any(key[0] == t for key in left_out), cells.get(t, {}))
                 for t in range(1, current + 1))
    missing = debate.missing(current) if current else ()
    waiting = None
    if missing and current:
        written = [e.mtime for (t, _s), e in debate.entries.items() if t == current]
        if written:
            waiting = max(0.0, (now if now is not None else time.time()) - min(written))
    roster = set(debate.participants)
    retired = set(debate.task.retired) if debate.task else set()
    outsiders = tuple(s for s in debate.scan.slugs if s not in roster and s not in retired)
    sealed = {t: tuple(sorted(s)) for t, s in debate.sealed_pending.items()}
    if verdict.review is not None and verdict.final:
        missing, waiting = (), None  # the review ended: no one is waited for
    names = [parse_turn_name(os.path.basename(f.path)) for f in deleted_files(debate, list(missing))]
    deleted = tuple(dict.fromkeys(name.slug for name in names if name is not None))
    failed = run_failures(debate)  # an agent that failed is no session that dropped out
    dropped = tuple(d for d in dropouts(debate, now) if d.slug not in deleted and d.slug not in {f.slug for f in failed})
    lines = problem_lines(debate, problems)
    if debate.task is not None and debate.task.review:  # an open debate does not load the review's rules
        from ..analysis.review_case import review_problem_lines

        lines += review_problem_lines(debate, verdict.review)
    from ..analysis.judgment_check import check_judgment
    from ..analysis.verdict import judgment_due

    judged = check_judgment(debate, verdict)
    lines += tuple(f"{os.path.basename(f.path)}: {f.code} {f.message}" for f in judged.findings if f.code == "E111")

    acts = read_acts(folder)
    return Status(folder, debate.task.text if debate.task else None, debate.participants, current, missing,
                  waiting, rows, verdict, outsiders, sealed,
                  bool(debate.task and debate.task.participants), lines,
                  debate.task.judge if debate.task else None, judged.judgment,
                  judgment_due(debate.task, verdict), deleted, dropped,
                  advice_text(advice(folder, verdict, missing, dropped, debate.task, failed)),
                  retirements(debate, acts), person_acts(debate, acts), agent_costs(folder), failed)


def keepable(status: Status) -> bool:
    """The output depends on the files alone, not on the clock: no participant is missing from the current turn
    (so no waiting time, and no one idle long enough to have dropped out), so a later run may print it again
    while nothing changed (state/snapshot.py)."""
    return not status.missing and not status.dropouts and status.waiting_seconds is None


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f}s"
    if seconds < 5400:
        return f"{seconds / 60:.0f}m"
    return f"{seconds / 3600:.1f}h"


def _cell_text(cell: Cell | None) -> str:
    if cell is None:
        return "-"
    mark = " !" if not cell.valid else (" ~" if cell.warnings else "")
    if cell.items:
        return cell.items + mark
    conf = "?" if cell.confidence is None else str(cell.confidence)
    conv = {True: "yes", False: "no", None: "?"}[cell.converged]
    mark = " !" if not cell.valid else (" ~" if cell.warnings else "")
    return f"{conf} {conv}{mark}"


def render_status(status: Status) -> str:
    """The status as a plain-text table for people."""
    if status.current_turn == 0 and not status.sealed:
        hint = [] if status.task is not None else [
            "This folder has no TASK.md and no turn file: it is no debate yet. Start one with `multidebate init "
            "FOLDER --task \"...\"`, or give the folder the sessions write their turn-N-<slug>.md files to."]
        if status.task is None:
            who = []
        elif status.roster:
            who = [f"participants: {', '.join(status.participants)} (the roster); none has written turn 1 yet"]
        else:
            # no roster: nobody to name yet, so say who will count
            who = ["participants: none yet (TASK.md has no roster: every session that writes a turn takes part)"]
        return "\n".join([f"{status.folder}: no turn files yet."] + hint + who
                         + [f"problem: {line}" for line in status.problems]
                         + [f"verdict: {status.verdict.state} - {status.verdict.detail}"]
                         + ([f"what to do: {status.advice}"] if status.advice and status.task is not None else []))
    names = list(status.participants) + [s for s in status.outsiders if s not in status.participants]
    names += [r.slug for r in status.retired if r.last_turn is not None and r.slug not in names]
    retired = {r.slug for r in status.retired}
    header = ["turn"] + [f"{n} (retired)" if n in retired else n for n in names]
    rows = [header]
    for turn_row in status.turns:
        label = f"{turn_row.turn}" + ("" if turn_row.complete else "*")
        rows.append([label] + [_cell_text(turn_row.entries.get(name)) for name in names])
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    first = status.task.splitlines()[0] if status.task else ""
    gist = first if len(first) <= 70 else first[:69].rsplit(" ", 1)[0] + "\u2026"
    lines = [f"{status.folder}" + (f" - {gist}" if gist else "")]
    for index, cells in enumerate(rows):
        lines.append("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(cells)).rstrip())
        if index == 0:
            lines.append("  ".join("-" * w for w in widths))
    review = status.verdict.review
    if review is not None:
        lines.append("turns are rounds: critics, then the defender; * round incomplete; ! file has errors; "
                     "~ warnings (see `multidebate validate`)")
    else:
        lines.append("cells: confidence, then converged (yes/no); * turn incomplete; ! file has errors; ~ warnings "
                     "(see `multidebate validate`)")
    if status.missing:
        awaited = [s for s in status.missing if s not in status.deleted]
        waited = f" (waiting {_duration(status.waiting_seconds)})" if status.waiting_seconds is not None and awaited \
            else ""
        named = [s + (" (a turn file of it was deleted: see problem)" if s in status.deleted else "")
                 for s in status.missing]
        lines.append(f"missing from turn {status.current_turn}: {', '.join(named)}{waited}")
    lines.extend(dropout_line(status.folder, d, status.current_turn) for d in status.dropouts)
    lines.extend(f"run failed: {f.sentence()}" for f in status.run_failures)
    for turn, slugs in sorted(status.sealed.items()):
        lines.append(f"turn {turn}: {len(slugs)}/{len(status.participants)} sealed "
                     "(published when every participant has written it)")
    if status.outsiders:
        lines.append(f"not on the roster: {', '.join(status.outsiders)}")
    lines.extend(f"problem: {line}" for line in status.problems)
    verdict = status.verdict
    if review is not None:
        from ..analysis.review_case import case_lines

        lines.append(f"findings after round {review.rounds}:" if review.rounds else "findings raised so far:")
        lines.extend("  " + line for line in case_lines(review) or ["- none"])
    lines.extend(f"retired: {r.sentence()}" for r in status.retired)
    lines.extend(f"handed over: {a.sentence()}" for a in status.handovers)
    lines.append(f"verdict: {verdict.state}" + (f" at turn {verdict.turn}" if verdict.turn else "")
                 + f" - {verdict.detail}")
    lines.extend(f"  note: {note}" for note in verdict.notes)
    if status.judgment is not None:
        flag = "" if status.judgment.valid else " (the file has problems: see `multidebate validate`)"
        lines.append(f"judgment by {status.judgment.slug}: {status.judgment.decision or '(no decision line)'}{flag}")
    elif status.judge:
        # #27: after a `fully_resolved` review this still said the judge "writes once the debate has ended"
        lines.append(f"judge {status.judge}: " + ("its judgment is due (it runs `multidebate next`)"
                                                  if status.judgment_due else
                                                  f"writes no judgment: the debate ended {verdict.state}, in "
                                                  "agreement" if verdict.final else
                                                  "writes once the debate has ended, if it ends without agreement"))
    if verdict.next_step:
        lines.append(f"  next turn: {verdict.next_step}")
    if verdict.extra_files:
        lines.append(f"  written after the debate ended (left out): {', '.join(verdict.extra_files)}")
    if status.agent_costs:
        lines.append(f"agents (multidebate run): {cost_words(status.agent_costs)}")
    if status.advice:
        lines.append(f"what to do: {status.advice}")
    return "\n".join(lines)
