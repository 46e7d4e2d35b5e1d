"""The first screen of a review's report: what the person who decides reads before anything else (#27).

The verdict in plain words (blocked / ship after the tests / ship with the fixes / ship), three to five
sentences on why, what needs their decision with its options (or, when nothing does, what they do
instead), and the actions by priority.  Computed from the case and the judgment, never written by a model;
the full details (review_summary.py) follow it in the report.  The points to decide (decisions.py) are
shared with the summary.
"""

from __future__ import annotations

from typing import NamedTuple

from ..protocol.judgment import Judgment
from ..protocol.oneline import one_line
from .decisions import Decision, judge_points
from .review_case import Case, FindingState
from .review_summary import Action, Summary

__all__ = ["DecisionBrief", "decision_brief", "WORDS"]

# the verdict in plain words, by case verdict (defense_wins splits on whether fixes were conceded)
WORDS = {"critique_wins": "blocked", "undecided": "your decision", "empirical_test_agreed": "ship after the tests", "fixes": "ship with the fixes",
         "fixes_agreed": "ship with the fixes", "defense_wins": "ship"}


class DecisionBrief(NamedTuple):
    """One screen for the person who decides."""

    verdict: str  # one of WORDS' values
    provisional: bool  # the review goes on: this is where it stands now
    headline: str  # one sentence
    why: tuple[str, ...]  # 3-5 sentences
    decisions: tuple[Decision, ...]  # what needs the decider, with options; empty when nothing does
    instead: str  # when nothing needs a decision: what the decider does
    actions: tuple[Action, ...]  # by priority, duplicates left out

    def as_dict(self) -> dict[str, object]:
        return {"verdict": self.verdict, "provisional": self.provisional, "headline": self.headline,
                "why": list(self.why),
                "decisions": [{"point": d.point, "options": list(d.options)} for d in self.decisions],
                "instead": self.instead or None,
                "actions": [{"priority": a.priority, "action": a.what, "finding": a.finding} for a in self.actions]}


def _plural(n: int, word: str, many: str = "") -> str:
    return f"{n} {word if n == 1 else many or word + 's'}"


def _counts(case: Case) -> str:
    states = [f.state for f in case.findings]
    parts = [f"{states.count(s)} {w}" for s, w in (("conceded", "conceded"), ("partial", "partly conceded"),
                                                    ("deferred", "deferred to a test"), ("rebutted", "rebutted"),
                                                    ("withdrawn", "withdrawn"), ("open", "left open"))
             if states.count(s)]
    duplicates = sum(1 for f in case.findings if f.duplicate_of)
    critics = len({f.critic for f in case.findings})
    end = {"fully_resolved": "every finding settled", "max_rounds": "at its round limit"}.get(case.stop, "still running")
    return (f"The review ran {_plural(case.rounds, 'round')} ({end}): {_plural(critics, 'critic')} raised "
            f"{_plural(len(states), 'finding')}" + (f" ({_plural(duplicates, 'duplicate')})" if duplicates else "")
            + (f"; {', '.join(parts)}." if parts else "."))


def _why(case: Case, deciding: FindingState | None, judgment: Judgment | None) -> list[str]:
    out = []
    if deciding is not None and case.verdict == "critique_wins":
        how = {"conceded": "conceded", "partial": "partly conceded", "open": "left unanswered"}.get(deciding.state,
                                                                                                    deciding.state)
        out.append(f"{deciding.key} ({one_line(deciding.title, 80)}) was {how} at severity {deciding.severity}: a "
                   "finding conceded, partly conceded or unanswered at 9 or more blocks the proposal as written.")
    elif deciding is not None and case.verdict == "undecided":
        how = (f"was {deciding.state} ({deciding.move}) in the last round and its critic never answered"
               if deciding.awaiting_critic else "was rebutted as out of scope (REBUT-SCOPE)")
        out.append(f"{deciding.key} ({one_line(deciding.title, 80)}) {how}, at severity {deciding.severity}: a "
                   "finding of 8 or more that no critic accepted is not settled for the defence, and needs your "
                   "decision.")
    elif deciding is not None and case.verdict == "empirical_test_agreed":
        tests = sum(1 for f in case.findings if f.state == "deferred")
        out.append(f"No finding was conceded at severity 9 or more, but {_plural(tests, 'finding waits', 'findings wait')} "
                   f"on an agreed test; the most severe is {deciding.key} ({one_line(deciding.title, 80)}, severity "
                   f"{deciding.severity}).")
    else:
        out.append("No finding was conceded at severity 9 or more and none waits on a test.")
    out.append(_counts(case))
    unreviewed = [f for f in case.findings if f.unanswered and f.move]
    if unreviewed:
        out.append(f"{_plural(len(unreviewed), 'answer')} of the defender's last round "
                   f"({_plural(sum(1 for f in unreviewed if f.state == 'conceded'), 'fix', 'fixes')}) came after the "
                   "critics' last turn: no critic reviewed them, and they are marked \"not reviewed\".")
    if judgment is not None and judgment.decision:
        out.append(f"The judge ({judgment.slug}) decided: {one_line(judgment.decision, 240)}")
    return out[:5]


def decision_brief(case: Case, summary: Summary, judgment: Judgment | None) -> DecisionBrief:
    """The first screen of a review's report (see the module doc)."""
    deciding = next((f for f in case.findings if f.key == case.deciding), None)
    fixes = [f for f in case.findings if f.state in ("conceded", "partial") and not f.duplicate_of]
    tests = [f for f in case.findings if f.state == "deferred" and not f.duplicate_of]
    verdict = WORDS["fixes" if case.verdict == "defense_wins" and fixes else case.verdict]
    headline = {"blocked": "Blocked: do not ship the proposal as written",
                "your decision": "Not decided: a severe finding is yours to settle before the proposal ships",
                "ship after the tests": "Ship only after the agreed tests pass",
                "ship with the fixes": "Ship with the conceded fixes, not as written",
                "ship": "Ship: the proposal stands as written"}[verdict]
    partly = sum(1 for f in fixes if f.state == "partial")
    if fixes:
        headline += (f"; {_plural(len(fixes), 'fix', 'fixes')} conceded" + (f" ({partly} in part)" if partly else "")
                     + (" must go in" if verdict != "blocked" else ""))
    # the judge's points first (what it says a person must settle), then the findings' by severity
    severity = {f.key: f.severity for f in case.findings}
    decisions = [d._replace(point=f"{d.point} (the judge)") for d in judge_points(judgment)]
    decisions += sorted((d for d in summary.decisions if d.finding), key=lambda d: -severity.get(d.finding, 0))
    instead = ""
    if not decisions:
        steps = []
        if fixes:
            steps.append(f"build the revised design with the {_plural(len(fixes), 'conceded fix', 'conceded fixes')}")
        if tests:
            steps.append(f"run the {_plural(len(tests), 'agreed test')} first")
        unreviewed = [f for f in fixes if f.unanswered]
        if unreviewed:
            steps.append(f"have a critic review the {_plural(len(unreviewed), 'last-round fix', 'last-round fixes')}")
        instead = ("Nothing needs your decision: " + "; ".join(steps) + "." if steps
                   else "Nothing needs your decision: ship the proposal as written.")
    duplicates = {f.key for f in case.findings if f.duplicate_of}
    actions = tuple(a for a in summary.actions if a.finding not in duplicates)
    return DecisionBrief(verdict, not case.stop, headline + ".", tuple(_why(case, deciding, judgment)),
                         tuple(decisions), instead, actions)
