"""The debate as a document: one Report value, rendered as Markdown, JSON or HTML (report_html.py)."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from ..analysis.agent_costs import AgentCost, agent_costs, cost_words
from ..analysis.decision_brief import DecisionBrief, decision_brief
from ..analysis.dropouts import Dropout, dropout_line, dropouts
from ..analysis.ending import settle
from ..analysis.final import FinalAnswer, final_answer
from ..analysis.first_vote import FirstVote, first_vote
from ..analysis.integrity import HAND_WRITTEN_NOTE, only_notes, problem_lines
from ..analysis.quotes import Attribution, check_attributions
from ..analysis.retirements import Retirement, person_acts, retirements
from ..analysis.review_case import review_problem_lines
from ..analysis.review_summary import Summary, summarise
from ..analysis.run_failures import RunFailure, run_failures
from ..analysis.trajectory import MATRIX_MAX, Analysis, analyse
from ..analysis.verdict import AGREED_STATES, MEASURE
from ..protocol.judgment import Judgment
from ..state.acts import Act, read_acts
from ..state.debate import Debate, load_debate
from .advice import advice, advice_text, verdict_words
from .consensus_text import consensus_markdown
from .review_report import brief_markdown, judgment_markdown, summary_markdown

if TYPE_CHECKING:
    from ..protocol.mentions import Mention
    from ..protocol.parse import ParsedTurn

__all__ = ["Report", "build_report", "render_markdown", "render_json", "judgment_markdown", "summary_markdown",
           "brief_markdown", "no_flags"]


@dataclass(frozen=True)
class Report:
    """Everything the report shows; the renderers only format it."""

    folder: str
    task: str | None
    analysis: Analysis
    final: FinalAnswer
    attributions: tuple[Attribution, ...]
    unresolved: tuple[tuple[str, str], ...]  # (slug, disagreement item) at the final turn
    problems: tuple[str, ...] = ()  # TASK.md and integrity problems (integrity.problem_lines)
    judgment: Judgment | None = None  # the judge's, once written
    summary: Summary | None = None  # a review's summary for the person who decides
    cruxes: tuple[Crux, ...] = ()  # an unconverged debate's 1-3 most severe disagreements at its last turn
    dropouts: tuple[Dropout, ...] = ()  # participants that stopped writing
    advice: str = ""  # what the reader of an open debate should do, in one sentence
    retired: tuple[Retirement, ...] = ()  # retired slugs, the person's act, and what they held then
    handovers: tuple[Act, ...] = ()  # slugs a person handed over to another session
    agent_costs: tuple[AgentCost, ...] = ()  # what the agents `multidebate run` started cost, per participant
    first_vote: FirstVote | None = None  # an item-by-item final answer against the turn-1 majority (#28)
    brief: DecisionBrief | None = None  # a review's first screen for the person who decides (#27)
    run_failures: tuple[RunFailure, ...] = ()  # agents `run` started that failed a turn still unwritten

    def person_lines(self) -> list[str]:
        """One sentence per retirement and handover, shown right under the verdict."""
        return [r.sentence() for r in self.retired] + [a.sentence() for a in self.handovers]

    def as_dict(self) -> dict[str, object]:
        verdict = self.analysis.verdict
        return {
            "folder": self.folder,
            "task": self.task,
            "participants": list(self.analysis.participants),
            "verdict": verdict.as_dict(),
            "final_answer": self.final.as_dict(),
            "first_vote": self.first_vote.as_dict() if self.first_vote is not None else None,
            "turns": [t.as_dict() for t in self.analysis.turns],
            "flags": [f.as_dict() for f in self.analysis.flags],
            "attributions": [a.as_dict() for a in self.attributions],
            "unresolved_disagreements": [{"slug": s, "text": t} for s, t in self.unresolved],
            "problems": list(self.problems),
            "judgment": self.judgment.as_dict() if self.judgment is not None else None,
            "summary": self.summary.as_dict() if self.summary is not None else None,
            "decision_summary": self.brief.as_dict() if self.brief is not None else None,
            "cruxes": [c._asdict() for c in self.cruxes],
            "dropouts": [d.as_dict() for d in self.dropouts],
            "advice": self.advice or None,
            "retired": [r.as_dict() for r in self.retired],
            "handovers": [a.as_dict() for a in self.handovers],
            "agent_costs": [c.as_dict() for c in self.agent_costs],
            "run_failures": [f.as_dict() for f in self.run_failures],
        }


class TurnCell(NamedTuple):
    """One participant's turn in the turn table, as the Markdown and the HTML report show it."""

    recommendation: str
    confidence: str  # "?" when unreadable
    converged: str  # yes, no or ?
    change: str  # against its own previous line: "changed", "reworded", "new line" (unsure which) or ""


def turn_rows(report: Report) -> list[tuple[int, bool, list[TurnCell | None]]]:
    """The turn table: per turn, its number, whether it is complete, and a cell per participant (None: no file)."""
    from ..protocol.answer import normalise_line

    rows: list[tuple[int, bool, list[TurnCell | None]]] = []
    previous: dict[str, str] = {}  # each participant's last line, folded
    for row in report.analysis.turns:
        cells: list[TurnCell | None] = []
        for name in report.analysis.participants:
            pos = row.positions.get(name)
            if pos is None:
                cells.append(None)
                continue
            line = normalise_line(pos.recommendation)
            # a reader saw one session's reused line marked and another's not (d49): every new line is marked,
            # and the mark says whether the position moved
            moved = name in previous and line != previous[name]
            change = "changed" if pos.changed else "" if not moved else "reworded" if pos.changed is False \
                else "new line"
            previous[name] = line
            cells.append(TurnCell(pos.recommendation, "?" if pos.confidence is None else str(pos.confidence),
                                  {True: "yes", False: "no", None: "?"}[pos.converged], change))
        rows.append((row.turn, row.complete, cells))
    return rows


def clip(text: str, limit: int) -> str:
    """`text` cut to `limit` characters at a word boundary, with an ellipsis when cut."""
    if len(text) <= limit:
        return text
    cut = text[:limit - 1]
    return (cut.rsplit(" ", 1)[0] if " " in cut[limit // 2:] else cut).rstrip(" ,;:") + "\u2026"


class Crux(NamedTuple):
    """A disagreement that keeps a debate open: who holds it against whom, how severe, what would settle it."""

    severity: str  # critical, major, unrated or minor
    slug: str
    peers: tuple[str, ...]
    text: str
    resolves_if: str


_RANK = {"critical": 0, "major": 1, "unrated": 2, "minor": 3}
_ITEM_START = re.compile(r"^(?P<indent>[ \t]*)(?:[-*+]|\d{1,9}[.)])[ \t]+")


def whole_item(parsed: ParsedTurn | None, mention: Mention) -> str:
    """A list item with the lines under it (its sub-bullets, its continuation), not only its first line."""
    section = parsed.sections.get(mention.section) if parsed is not None else None
    if section is None:
        return mention.text
    lines = section.body.split("\n")
    first = mention.line - section.body_line
    if not 0 <= first < len(lines):
        return mention.text
    start = _ITEM_START.match(lines[first])
    depth = len(start.group("indent").expandtabs(4)) if start else 0
    kept = [mention.text]
    for line in lines[first + 1:]:
        item = _ITEM_START.match(line)
        indent = len(line) - len(line.lstrip())
        if (item and len(item.group("indent").expandtabs(4)) <= depth) or (line.strip() and indent <= depth
                                                                           and not kept[-1].strip()):
            break  # the next item, or a paragraph after a blank line
        kept.append(line.rstrip())
    while kept and not kept[-1].strip():
        kept.pop()
    # sub-lines two spaces under the item, whatever their indent was: a nested list in Markdown
    return "\n".join([kept[0]] + ["  " + line.strip() if line.strip() else "" for line in kept[1:]])


def _cruxes(debate: Debate, turn: int, converged: bool) -> tuple[Crux, ...]:
    """The 1-3 most severe Disagreements items of the last turn (none once the debate converged)."""
    if converged:
        return ()
    found = []
    for slug in debate.participants:
        entry = debate.entry(turn, slug)
        parsed = debate.parsed(entry) if entry is not None else None
        for mention in parsed.mentions if parsed is not None else ():
            if mention.section == "Disagreements" and (mention.slugs or mention.everyone) and mention.kind != "none":
                found.append(Crux(mention.severity or "unrated", slug, mention.slugs, whole_item(parsed, mention),
                                  mention.resolves_if))
    found.sort(key=lambda c: _RANK[c.severity])  # stable: the roster's order within a severity
    return tuple(found[:3])


def _unresolved(debate: Debate, turn: int) -> tuple[tuple[str, str], ...]:
    items = []
    for slug in debate.participants:
        entry = debate.entry(turn, slug)
        if entry is None:
            continue
        # the final turn's files are read again: the cache keeps only the first 160 characters of an item
        parsed = debate.parsed(entry)
        mentions = parsed.mentions if parsed is not None else debate.details(entry).mentions
        for mention in mentions:
            if mention.section == "Disagreements" and (mention.slugs or mention.everyone) and mention.kind != "none":
                moved = [p for p in mention.slugs if _answer_changed(debate, p, turn)]
                # written at once: the point answers the peer's turn N-1 Answer, which that peer changed at N
                # d81: "answered in the same turn?" read as a doubt about the point; say what happened
                names, its = ", ".join(moved), "its" if len(moved) == 1 else "their"
                note = (f" (written against {names}'s turn-{turn - 1} Answer: {names} changed {its} Answer at "
                        f"turn {turn}, at the same time, so this point may be answered there)") if moved else ""
                items.append((slug, whole_item(parsed, mention) + note))
    return tuple(items)


def _answer_changed(debate: Debate, slug: str, turn: int) -> bool:
    now, before = debate.entry(turn, slug), debate.entry(turn - 1, slug)
    return now is not None and before is not None and \
        debate.details(now).sig.fingerprint != debate.details(before).sig.fingerprint


def build_report(folder: str, weighted: bool = False) -> Report:
    """Read the debate in `folder` once and build its report."""
    # files written by hand after the debate ended count nowhere: not in the turns, the chart or the flags
    debate, problems, verdict = settle(load_debate(folder))
    analysis = analyse(debate, verdict)
    final = final_answer(debate, verdict, weighted)
    attributions = tuple(check_attributions(debate))
    flags = list(analysis.flags)
    from ..analysis.trajectory import Flag

    for item in attributions:
        if not item.supported:
            flags.append(Flag("misquote", item.turn, item.slug, f"{item.slug} attributes to {item.peer} "
                              f"\u201c{clip(item.claim, 80)}\u201d, which {item.peer}'s turn {item.turn - 1} does not "
                              f"support ({item.support:.0%} of its terms)"))
    analysis = Analysis(analysis.verdict, analysis.participants, analysis.turns, tuple(flags))
    from ..analysis.judgment_check import check_judgment

    judged = check_judgment(debate, verdict)
    judgment = judged.judgment
    summary = summarise(verdict.review, judgment) if verdict.review is not None else None
    brief = decision_brief(verdict.review, summary, judgment) if verdict.review is not None and summary else None
    failed = run_failures(debate)  # an agent that failed is no session that dropped out
    dropped = tuple(d for d in dropouts(debate) if d.slug not in {f.slug for f in failed})
    missing = debate.missing(debate.current_turn) if debate.current_turn else ()
    acts = read_acts(folder)
    return Report(folder, debate.task.text if debate.task else None, analysis, final, attributions,
                  _unresolved(debate, final.turn),
                  problem_lines(debate, problems) + review_problem_lines(debate, verdict.review)
                  + tuple(f"{os.path.basename(f.path)}: {f.code} {f.message}" for f in judged.findings
                          if f.code == "E111"), judgment, summary,
                  _cruxes(debate, final.turn, verdict.state in AGREED_STATES) if verdict.review is None else (),
                  dropped, advice_text(advice(folder, verdict, missing, dropped, debate.task, failed)),
                  retirements(debate, acts), person_acts(debate, acts), agent_costs(folder), first_vote(debate, final),
                  brief=brief, run_failures=failed)


def render_json(report: Report) -> str:
    return json.dumps(report.as_dict(), indent=2, ensure_ascii=False)


_SEVERITY_WORDS = {"unrated": "not rated"}


def _item_text(text: str) -> str:
    """A whole Disagreements item as a list entry: its first line, then its own lines as a nested list."""
    first, *rest = text.split("\n")
    return "\n".join([_cell(first)] + rest)


def _cell(value: object) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


_MARK = {"same": "✓ same", "different": "✗ different", "unsure": "? unsure"}


def _amount(value: int | None) -> str:
    return "-" if value is None else f"{value:,}"


def no_flags(report: Report) -> str:
    """What the Flags section says when it has none: a plain "None." would vouch for files it could not check."""
    if any(line.endswith(HAND_WRITTEN_NOTE) for line in report.problems):
        return ("None found in what could be checked: the turn files written by hand (see Notes) have no ledger "
                "entry, so an edit to them after they were written would not show.")
    return "None."


def render_markdown(report: Report) -> str:
    """The report as Markdown."""
    verdict = report.analysis.verdict
    final = report.final
    review = verdict.review if report.summary is not None else None
    out = [f"# {'Review' if review is not None else 'Debate'} report: {report.folder}", ""]
    if report.brief is not None:
        out += brief_markdown(report.brief)  # the decider's one screen, before anything else
    if report.task:
        out += ["## Task", "", report.task.strip(), ""]
    out += ["## Verdict", "", f"**{verdict_words(verdict.state)}**" + (f" at turn {verdict.turn}" if verdict.turn
                                                                        else "") + f": {verdict.detail}.", ""]
    if verdict.extra_files:
        extra = ", ".join(os.path.basename(path) for path in verdict.extra_files)
        out += [f"Written after the debate ended, and left out of this report: {extra}.", ""]
    out += [f"{dropout_line(report.folder, d, report.analysis.turns[-1].turn if report.analysis.turns else 0)}"
            for d in report.dropouts] + ([""] if report.dropouts else [])
    out += [f"**Run failed:** {f.sentence()}" for f in report.run_failures] + ([""] if report.run_failures else [])
    if report.advice:
        out += [f"**What to do:** {report.advice}", ""]
    if review is None:
        # d81: under the verdict, "a line that only adds detail count[s] as the same" read as the verdict's rule
        out += [f"The verdict needs {MEASURE}. The agreement table compares lines more loosely, to show who is "
                "close: the same value for every item, or a line that only adds detail, counts as the same; a "
                "different option, number, letter, keep-or-change verb, negation or item counts as different; "
                "anything else is unsure.", ""]
    if report.person_lines():
        out += ["## Retired and handed over", "", "The verdict counts only the participants left; by the person's "
                "commands:", ""]
        for retired in report.retired:
            out.append(f"- {retired.sentence()}")
            out += [f"  - turn {turn}: {_cell(answer) or '(review turn)'} (converged: "
                    f"{ {True: 'yes', False: 'no', None: '?'}[converged]})"
                    for turn, answer, converged in retired.history]
        out += [f"- {act.sentence()}" for act in report.handovers]
        out.append("")
    if report.agent_costs:
        out += ["## What the agents cost", "", f"By `multidebate run`: {cost_words(report.agent_costs)}.", "",
                "| participant | agent | turns | seconds | tokens in | tokens out | cost |", "|---|---|---|---|---|---|---|"]
        out += [f"| {c.slug} | {_cell(c.agent)} | {c.turns} | {c.seconds:.0f} | {_amount(c.tokens_in)} | "
                f"{_amount(c.tokens_out)} | {'-' if c.cost_usd is None else f'${c.cost_usd:.4f}'} |"
                for c in report.agent_costs]
        out.append("")
    if report.problems:
        out += (["## Notes", "", "Worth knowing; nothing to act on (`multidebate validate` explains):", ""]
                if only_notes(report.problems) else
                ["## Problems", "", "Act on these before trusting this report (`multidebate validate` explains):", ""])
        out += [f"- {line}" for line in report.problems]
        out.append("")
    if report.judgment is not None:
        out += judgment_markdown(report.judgment)
    if report.summary is not None and review is not None:
        # a review's turns carry findings, not answers: the details say it all
        return "\n".join(out + summary_markdown(report.summary, review))
    out += ["## Final answer", ""]
    if final.kind == "none":
        out += ["No answer yet.", ""]
    elif final.kind == "split":
        out += [f"No answer is held by more participants than another at turn {final.turn}: the participants are "
                "split evenly. Their positions:", ""]
        out += [f"- {d.slug}: {d.recommendation}" for d in final.dissenters]
        out.append("")
    elif final.kind == "consensus":
        out += consensus_markdown(final)
    else:
        end = "" if final.recommendation.endswith((".", "!", "?")) else "."
        out += [f"Most-held answer (not a consensus) at turn {final.turn}, held by {', '.join(final.supporters)} "
                f"(one bold line, word for word): **{final.recommendation}**{end} Shown: {final.representative}'s "
                "Answer.", "", final.answer.strip(), ""]
    if final.kind in ("consensus", "modal"):
        if report.first_vote is not None:
            out += [report.first_vote.sentence(), ""]
        if final.dissenters:
            out += ["**Dissent**", ""]
            out += [f"- {d.slug}: {d.recommendation}" + (f" ({d.reason})" if d.reason else "")
                    for d in final.dissenters]
            out.append("")
    names = list(report.analysis.participants)
    out += ["## Turns", "", "| turn | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    for turn, complete, turn_cells in turn_rows(report):
        cells = ["-" if c is None else _cell(f"{clip(c.recommendation, 80)} — {c.confidence}, {c.converged}"
                                             + (f" ({c.change})" if c.change else "")) for c in turn_cells]
        out.append(f"| {turn}{'' if complete else '*'} | " + " | ".join(cells) + " |")
    out.append("")
    last = report.analysis.turns[-1] if report.analysis.turns else None
    if last and len(names) > MATRIX_MAX:
        out += [f"## Agreement at turn {last.turn}", "", f"Not shown for {len(names)} participants (at most "
                f"{MATRIX_MAX}); the verdict above compared them.", ""]
    if last and last.matrix:
        out += [f"## Agreement at turn {last.turn}", "", "| | " + " | ".join(names) + " |",
                "|---" * (len(names) + 1) + "|"]
        for a in names:
            row_cells = []
            for b in names:
                if a == b:
                    row_cells.append("—")
                    continue
                result = last.matrix.get((a, b)) or last.matrix.get((b, a))
                row_cells.append("-" if result is None else _MARK[result.relation])
            out.append(f"| {a} | " + " | ".join(row_cells) + " |")
        out.append("")
    if report.cruxes:
        unrated = any(c.severity == "unrated" for c in report.cruxes)
        # "unrated" is no fault: the skill never asks sessions to rate their disagreements
        out += ["## Cruxes", "", "What keeps the debate open, most severe first (from the last turn's "
                "Disagreements" + ("; an item without a `[critical]`, `[major]` or `[minor]` tag is listed as "
                                   "not rated" if unrated else "") + "):", ""]
        for severity in ("critical", "major", "unrated", "minor"):
            group = [c for c in report.cruxes if c.severity == severity]
            # the item's own text says `resolves if:` when it has one: not repeated after it
            out += [f"- **{_SEVERITY_WORDS.get(severity, severity)}** {c.slug} vs {', '.join(c.peers) or 'all'}: "
                    f"{_item_text(c.text)}" for c in group]
        out.append("")
    if report.unresolved:
        out += ["## Remaining disagreements (minor ones included)", ""]
        out += [f"- {slug}: {_item_text(text)}" for slug, text in report.unresolved]
        out.append("")
    out += ["## Flags", ""]
    if report.analysis.flags:
        out += [f"- **{f.kind}** (turn {f.turn}): {f.detail}" for f in report.analysis.flags]
    else:
        out.append(no_flags(report))
    out.append("")
    return "\n".join(out)
