"""A review's report in Markdown: the decider's one screen, then the details; and a judgment, whole.

The one screen (#27) is at most SCREEN_LINES lines of at most SCREEN_WIDTH characters, counted from its
`## Decision summary` heading to the next `## ` heading (docs/reports.md): what a decider reads before
scrolling.  The HTML report renders these same lines.
"""

from __future__ import annotations

import re
import textwrap

from ..analysis.decision_brief import DecisionBrief
from ..analysis.review_case import STATE_WORDS, Case, FindingState
from ..analysis.review_summary import Summary
from ..protocol.judgment import Judgment
from ..protocol.oneline import one_line

__all__ = ["SCREEN_LINES", "SCREEN_WIDTH", "brief_markdown", "summary_markdown", "judgment_markdown"]

SCREEN_LINES = 40
SCREEN_WIDTH = 100


def _cell(value: object) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


def _clip(text: str, width: int) -> str:
    text = one_line(text)
    if len(text) <= width:
        return text
    cut = text[:width - 1]
    return (cut.rsplit(" ", 1)[0] if " " in cut[width // 2:] else cut).rstrip(" ,;:") + "\u2026"


def _wrap(text: str, first: str = "", rest: str = "") -> list[str]:
    return textwrap.wrap(one_line(text), SCREEN_WIDTH, initial_indent=first, subsequent_indent=rest,
                         break_on_hyphens=False) or [first.rstrip()]


def brief_markdown(brief: DecisionBrief) -> list[str]:
    """The decider's one screen (see the module doc): as many decisions and actions as fit, and how many more
    the details below hold."""
    for decisions, options, actions in ((4, 3, 6), (3, 2, 5), (2, 2, 4), (1, 2, 3), (1, 1, 2), (0, 0, 1)):
        out = _brief(brief, decisions, options, actions)
        if len(out) <= SCREEN_LINES:
            return out
    return out[:SCREEN_LINES]


def _brief(brief: DecisionBrief, decisions: int, options: int, actions: int) -> list[str]:
    state = "Provisional (the review goes on): " if brief.provisional else ""
    out = ["## Decision summary", "", *_wrap(f"**{state}{brief.headline}**"), "",
           *_wrap(" ".join(brief.why)), ""]
    if brief.decisions:
        more = len(brief.decisions) - decisions
        out.append(f"**What needs your decision** ({len(brief.decisions)}"
                   + (f"; {more} more under Details" if more > 0 else "") + "):")
        for d in brief.decisions[:decisions]:
            out.append(f"- {_clip(d.point, SCREEN_WIDTH - 2)}")
            out += [f"  - {_clip(o, SCREEN_WIDTH - 4)}" for o in d.options[:options]]
            if len(d.options) > options:
                out.append(f"  - ({len(d.options) - options} more options under Details)")
    else:
        out += _wrap(f"**{brief.instead}**")
    out.append("")
    if brief.actions:
        more = len(brief.actions) - actions
        out.append(f"**Actions by priority** ({len(brief.actions)}" + (f"; the first {actions} here, all under "
                                                                       "Details" if more > 0 else "") + "):")
        out += [_clip(f"{i}. {a.priority} {a.finding}: {a.what}", SCREEN_WIDTH)
                for i, a in enumerate(brief.actions[:actions], start=1)]
        out.append("")
    return out


def _state(f: FindingState) -> str:
    words = STATE_WORDS.get(f.state, f.state)
    return words + (", not reviewed" if f.unanswered and f.move and f.state != "open" else "") \
        + (", needs your decision" if f.unsettled else "")


def summary_markdown(summary: Summary, case: Case) -> list[str]:
    """A review's details for the person who decides, after the one screen."""
    out = ["## Details", "", f"{summary.headline}.", ""]
    stop = f"stopped after round {case.rounds}: {case.stop}" if case.stop else f"round {case.rounds} done"
    out += [f"Rounds allowed: {case.min_rounds} to {case.max_rounds}; {stop}.", ""]
    out += ["### What was resolved", ""] + ([f"- {_cell(line)}" for line in summary.resolved] or ["- Nothing."])
    if summary.unreviewed:
        out += ["", "### Not reviewed: answers of the last round no critic saw", ""]
        out += [f"- {_cell(line)}" for line in summary.unreviewed]
    out += ["", "### What needs your decision", ""]
    if summary.decisions:
        for d in summary.decisions:
            out.append(f"- {_cell(d.point)}" + ("".join(f"\n  - option: {_cell(o)}" for o in d.options)))
    else:
        out.append("- Nothing: every finding ended in a fix, a test or a rebuttal its critic accepted.")
    out += ["", "### Recommended actions", ""]
    if summary.actions:
        out += ["| priority | action | finding |", "|---|---|---|"]
        out += [f"| {a.priority} | {_cell(a.what)} | {a.finding} |" for a in summary.actions]
    else:
        out.append("None.")
    out += ["", "### Minority dissent worth reconsidering", ""]
    out += [f"- {_cell(line)}" for line in summary.dissent] or ["- None."]
    out += ["", "### Every finding, most severe first", "",
            "| finding | title | severity | class | state | move | fix, test or reason |", "|---|---|---|---|---|---|---|"]
    out += [f"| {f.key} | {_cell(f.title)}" + (f" (duplicate of {f.duplicate_of})" if f.duplicate_of else "")
            + f" | {f.severity} | {f.klass} | {_state(f)} | {f.move or '-'} | {_cell(f.answer) or '-'}"
            + (f"; disputed: {_cell(f.disputed)}" if f.disputed else "") + " |" for f in summary.checklist]
    out.append("")
    return out


def _demoted(text: str) -> str:
    """A section's body under a `### ` heading: its own headings one level down, outside code fences."""
    out, fence = [], False
    for line in text.split("\n"):
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
        out.append("#" + line if not fence and line.startswith("#") else line)
    return "\n".join(out)


def judgment_markdown(judgment: Judgment) -> list[str]:
    """The judge's decision beside the computed verdict (it never replaces it): every section it wrote, whole,
    in its order and structure (#27: the Decision's body was dropped, sections of its own too)."""
    out = [f"## Judgment by {judgment.slug}", "", f"**{judgment.decision or '(no decision line)'}**", ""]
    if not judgment.valid:
        out += ["The judgment file has problems (`multidebate validate` lists them).", ""]
    for name, text in judgment.sections.items():
        text = text.strip()
        if name == "Decision":  # its bold line is shown above: the rest of its body, whole
            text = re.sub(r"^\s*\*\*.+?\*\*[ \t]*\n?", "", text, count=1).strip()
        if text:
            out += [f"### {name}", "", _demoted(text), ""]
    return out
