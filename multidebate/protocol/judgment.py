"""The judgment file: `judgment-<slug>.md`, the judge's one file, with JUDGMENT_SECTIONS.

When a judgment is due is the verdict's to say (`analysis.verdict.judgment_due`);
what the judge is told is the briefing's (`turns.role_briefing.judge_instructions`).
Status and report show the decision beside the computed verdict, which it
never replaces.
"""

from __future__ import annotations

import os
import re
from typing import NamedTuple

from .findings import Finding, finding

__all__ = ["JUDGMENT_SECTIONS", "Judgment", "decision_line", "judgment_name", "parse_judgment", "read_judgment"]

JUDGMENT_SECTIONS = ("Decision", "Reasoning", "What each side got right", "Contested points")


class Judgment(NamedTuple):
    """A judgment file as read: its decision line, its sections, and what is wrong with it."""

    slug: str
    path: str
    decision: str
    sections: dict[str, str]  # in the order written: JUDGMENT_SECTIONS and any `## <other>` the judge added
    findings: tuple[Finding, ...]

    @property
    def valid(self) -> bool:
        return not any(f.severity == "error" for f in self.findings)

    def as_dict(self) -> dict[str, object]:
        return {"slug": self.slug, "file": os.path.basename(self.path), "decision": self.decision,
                # #27: the Decision's body was dropped from every report; every section, as written
                "decision_text": self.sections.get("Decision", ""),
                "reasoning": self.sections.get("Reasoning", ""),
                "each_side": self.sections.get("What each side got right", ""),
                "contested": self.sections.get("Contested points", ""),
                "sections": [{"name": name, "text": text} for name, text in self.sections.items()],
                "valid": self.valid}


def judgment_name(slug: str) -> str:
    return f"judgment-{slug}.md"


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
        if name is None and match and match.group(0).startswith("## ") and current is not None:
            # a section of the judge's own (`## Conditions for shipping`): kept as one, not run into the last
            name = " ".join(match.group(1).split())
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


def read_judgment(folder: str, judge: str | None) -> Judgment | None:
    """The debate's judgment, when it has a judge (its slug) and the judge has written one."""
    from .textfile import read_text

    if judge is None:
        return None
    path = os.path.join(folder, judgment_name(judge))
    if not os.path.lexists(path):
        return None
    read = read_text(path, shown_as=path)
    if read.text is None:
        return Judgment(judge, path, "", {}, read.findings)
    sections, found = parse_judgment(read.text, path)
    return Judgment(judge, path, decision_line(sections.get("Decision", "")), sections,
                    tuple(read.findings) + tuple(found))
