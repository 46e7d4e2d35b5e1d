"""The judge: a participant that writes nothing while the debate runs, then one judgment.

A judgment is due once the debate has ended without agreement (an open
debate `hollow`, `stalled` or at `max_turns`; a review at `max_rounds`), or
whenever it has ended if TASK.md says `judge_when: always`.  The judge is
served every participant's final turn and writes `judgment-<slug>.md` with
JUDGMENT_SECTIONS; status and report show its decision beside the computed
verdict, which it never replaces.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, NamedTuple

from .findings import Finding, finding

if TYPE_CHECKING:
    from ..state.task import Task
    from ..analysis.verdict import Verdict

__all__ = ["JUDGMENT_SECTIONS", "Judgment", "judgment_name", "judgment_due", "parse_judgment", "read_judgment",
           "judge_instructions"]

JUDGMENT_SECTIONS = ("Decision", "Reasoning", "What each side got right", "Contested points")
_AGREED = frozenset({"converged", "fully_resolved"})


class Judgment(NamedTuple):
    """A judgment file as read: its decision line, its sections, and what is wrong with it."""

    slug: str
    path: str
    decision: str
    sections: dict[str, str]
    findings: tuple[Finding, ...]

    @property
    def valid(self) -> bool:
        return not any(f.severity == "error" for f in self.findings)

    def as_dict(self) -> dict[str, object]:
        return {"slug": self.slug, "file": os.path.basename(self.path), "decision": self.decision,
                "reasoning": self.sections.get("Reasoning", ""),
                "each_side": self.sections.get("What each side got right", ""),
                "contested": self.sections.get("Contested points", ""), "valid": self.valid}


def judgment_name(slug: str) -> str:
    return f"judgment-{slug}.md"


def judgment_due(task: Task | None, verdict: Verdict) -> bool:
    """Whether the judge writes now: the debate ended, unresolved (or `judge_when: always`)."""
    if task is None or task.judge is None or not verdict.final:
        return False
    return task.judge_when == "always" or verdict.state not in _AGREED


def _canon(text: str) -> str | None:
    cleaned = " ".join(re.sub(r"[*_`:#]", " ", text).split()).lower()
    return next((name for name in JUDGMENT_SECTIONS if name.lower() == cleaned), None)


def parse_judgment(text: str, path: str) -> tuple[dict[str, str], list[Finding]]:
    """The sections of a judgment (`## Decision` ...), and E110 for each one missing or empty."""
    from .front_matter import strip_frontmatter

    body = strip_frontmatter(text)
    sections: dict[str, str] = {}
    current: str | None = None
    fence = False
    for line in body.split("\n"):
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
        match = None if fence else re.match(r"^#{1,3}\s+(.*?)\s*#*\s*$", line)
        name = _canon(match.group(1)) if match else None
        if name is not None and name not in sections:
            current = name
            sections[name] = ""
            continue
        if match and match.group(0).startswith("# "):
            current = None  # the title
            continue
        if current is not None:
            sections[current] += line + "\n"
    sections = {name: value.strip() for name, value in sections.items()}
    found = [finding(path, 1, "E110", f"the judgment has no `## {name}` (or it is empty)")
             for name in JUDGMENT_SECTIONS if not sections.get(name)]
    return sections, found


def decision_line(decision: str) -> str:
    """The bold first line of a Decision, else its first line."""
    bold = re.match(r"^\s*\*\*(.+?)\*\*", decision)
    first = bold.group(1) if bold else next((ln for ln in decision.splitlines() if ln.strip()), "")
    return " ".join(first.split())


def read_judgment(folder: str, task: Task | None) -> Judgment | None:
    """The debate's judgment, when its judge has written one."""
    from .textfile import read_text

    if task is None or task.judge is None:
        return None
    path = os.path.join(folder, judgment_name(task.judge))
    if not os.path.lexists(path):
        return None
    read = read_text(path, shown_as=path)
    if read.text is None:
        return Judgment(task.judge, path, "", {}, read.findings)
    sections, found = parse_judgment(read.text, path)
    return Judgment(task.judge, path, decision_line(sections.get("Decision", "")), sections,
                    tuple(read.findings) + tuple(found))


def judge_instructions(verdict: Verdict, review: bool) -> str:
    """What the judge's judgment must contain."""
    ended = f"The debate ended: {verdict.state} at {'round' if review else 'turn'} {verdict.turn} ({verdict.detail})."
    return "\n".join([
        "ROLE: judge. " + ended,
        "Below is every participant's final turn. Judge on the arguments and evidence, not on who agreed with "
        "whom or who wrote more; a position held by fewer can be right. Do not reopen the debate: decide it.",
        "Write these sections:",
        "## Decision", "**<the decision, in one sentence>**", "<which answer or which findings stand, and what the "
        "user should do>",
        "## Reasoning", "<why, weighing the strongest argument of each side>",
        "## What each side got right", "- <slug>: <what it got right>",
        "## Contested points", "- <a point a person must settle, with the options> (or `- None`)",
    ])
