"""A review's summary for the person who decides: computed from the case, never written by a model.

In the order a non-technical reader needs it: the verdict in one line, what
was resolved, what needs their decision (with the options), the actions by
priority, minority dissent worth a second look, and every finding's final
state.  A judge's contested points, when there is a judgment, join the
decisions.
"""

from __future__ import annotations

from typing import NamedTuple

from ..protocol.judgment import Judgment
from ..protocol.oneline import one_line
from ..protocol.review_items import class_for
from .decisions import Decision, judge_points
from .review_case import Case, FindingState, by_severity

__all__ = ["Action", "Summary", "summarise", "HEADLINES"]

HEADLINES = {
    "critique_wins": "Do not ship as written: the defender conceded a finding of severity 9 or more",
    "undecided": "Not decided: a finding of severity 8 or more is the person's to settle (its critic never reviewed "
                 "the defender's last answer, or the defender called it out of scope)",
    "empirical_test_agreed": "Ship only after the agreed tests pass: no finding of severity 9 or more was conceded",
    "defense_wins": "The proposal stands: no severe finding was conceded and none waits on a test",
    "fixes_agreed": "Ship with the conceded fixes, not as written: no finding is left at severity 9 or more after "
                    "its fix and none waits on a test",
}
_PRIORITY = {"FATAL": "BLOCKER", "MATERIAL": "HIGH", "MINOR": "MEDIUM", "NIT": "LOW"}


class Action(NamedTuple):
    priority: str  # BLOCKER, HIGH, MEDIUM, LOW
    what: str
    finding: str


class Summary(NamedTuple):
    headline: str
    resolved: tuple[str, ...]
    decisions: tuple[Decision, ...]
    actions: tuple[Action, ...]
    dissent: tuple[str, ...]
    checklist: tuple[FindingState, ...]  # most severe first, by the severity now
    unreviewed: tuple[str, ...] = ()  # answers of the defender's last round that no critic reviewed

    def as_dict(self) -> dict[str, object]:
        return {"headline": self.headline, "resolved": list(self.resolved), "unreviewed": list(self.unreviewed),
                "decisions": [{"point": d.point, "options": list(d.options)} for d in self.decisions],
                "actions": [{"priority": a.priority, "action": a.what, "finding": a.finding} for a in self.actions],
                "dissent": list(self.dissent), "checklist": [f.key for f in self.checklist]}


def _contested(f: FindingState) -> bool:
    """Argued back and forth: re-raised or rescored after a response."""
    return any("re-raised" in h or "rescored" in h for h in f.history)


def summarise(case: Case, judgment: Judgment | None = None) -> Summary:
    """The summary of a review's case (see the module doc)."""
    deciding = next((f for f in case.findings if f.key == case.deciding), None)
    label = "most severe" if case.verdict in ("defense_wins", "fixes_agreed") else "decided by"
    headline = HEADLINES[case.verdict] + (f" ({label}: {deciding.key}, severity {deciding.severity}, "
                                          f"{one_line(deciding.title)})" if deciding else " (no findings were raised)")
    # duplicates left out, as the decision brief counts them (r72: "17 fixes must go in" above "27" here)
    fixes = sum(1 for f in case.findings if f.state == "conceded" and not f.duplicate_of)
    if fixes and case.verdict != "critique_wins":
        headline += f"; {fixes} conceded fix{'es' if fixes > 1 else ''} must go in first"
    if not case.stop:
        headline = "Provisional, the review goes on: " + headline
    resolved: list[str] = []
    unreviewed: list[str] = []
    decisions = []
    actions = []
    dissent = []
    for f in case.findings:
        # file text: one line, its line breaks as spaces (r73: the report showed literal "\n" inside fixes), any
        # other control character escaped
        title, answer, claim = _flat(f.title), _flat(f.answer), _flat(f.claim)
        # r73: a fix of a severity-10 finding, lowered to 4 by that very fix, was listed MEDIUM below a severity-5
        # one: an action is as urgent as the flaw it fixes was when raised
        urgency = _PRIORITY.get(class_for(max(_raised_severity(f), f.severity)), "MEDIUM")
        if f.new_evidence:  # #27: after a re-raise, the critic's case as it now stands
            claim += f" (new evidence: {_flat(f.new_evidence)})"
        if f.unsettled:
            # issue 33: a last-round rebuttal, test or duplicate no critic answered, or "not our problem" at a
            # severe level, was listed as resolved: the person who decides settles it
            if f.awaiting_critic:
                unreviewed.append(f"{f.key} ({title}): {f.state} ({f.move}) in round {case.rounds}, not reviewed by "
                                  f"a critic: {answer}")
                point = (f"{f.key} ({title}): the critic re-raised it and the defender still rebuts it, in a round "
                         "the critic never answered: not reviewed" if f.state == "rebutted" and _contested(f) else
                         f"{f.key} ({title}) was {f.state} ({f.move}) in the last round read, which its critic had no "
                         "turn to answer: not reviewed")
            else:
                point = f"{f.key} ({title}) was rebutted as out of scope (REBUT-SCOPE) at severity {f.severity}"
            if f.state == "deferred":
                actions.append(Action(urgency, f"Run the test (not reviewed): {answer}", f.key))
                options = (f"run the test first: {answer}", f"treat it as the critic says: {claim}")
            else:
                options = (f"the critic: {claim}", f"the defender: {answer}")
            decisions.append(Decision(point, options, f.key))
        elif f.unanswered and f.move and f.state == "conceded":
            # #27: the last round's fixes were listed as resolved, though no critic ever saw them
            unreviewed.append(f"{f.key} ({title}): {f.state} in round {case.rounds}, not reviewed by a critic: {answer}")
            actions.append(Action(urgency, f"Fix (not reviewed): {answer}", f.key))
        elif f.state == "partial":
            actions.append(Action(urgency, f"Fix (partly conceded): {answer}", f.key))
            decisions.append(Decision(f"{f.key} ({title}) is partly conceded: the defender fixes a part and "
                                      "disputes the rest", (f"the critic: {claim}",
                                                            f"the defender: {_flat(f.disputed)}"), f.key))
        elif f.state == "conceded":
            resolved.append(f"{f.key} ({title}): conceded; fix: {answer}")
            actions.append(Action(urgency, f"Fix: {answer}", f.key))
        elif f.state == "deferred":
            resolved.append(f"{f.key} ({title}): settled by a test: {answer}")
            actions.append(Action(urgency, f"Run the test: {answer}", f.key))
        elif f.state == "withdrawn":
            resolved.append(f"{f.key} ({title}): withdrawn by its critic")
        elif f.state == "rebutted" and not _contested(f):
            resolved.append(f"{f.key} ({title}): rebutted ({f.move}), the critic accepted: {answer}")
        if f.state == "open":
            decisions.append(Decision(f"{f.key} ({title}) was left open at the end",
                                      (f"treat it as the critic says: {claim}", "ask the defender to answer it"), f.key))
        elif f.state == "rebutted" and _contested(f) and not f.unsettled:
            decisions.append(Decision(f"{f.key} ({title}): the critic re-raised it and the defender still rebuts it",
                                      (f"the critic: {claim}", f"the defender: {answer}"), f.key))
        if f.state == "rebutted" and _raised_severity(f) >= 6:
            dissent.append(f"{f.key} ({title}), raised at severity {_raised_severity(f)}: {claim} (rebutted: {answer})")
    decisions += [d._replace(point=f"{d.point} (the judge)") for d in judge_points(judgment)]
    order = ["BLOCKER", "HIGH", "MEDIUM", "LOW"]
    severity = {f.key: max(_raised_severity(f), f.severity) for f in case.findings}
    actions.sort(key=lambda a: (order.index(a.priority), -severity.get(a.finding, 0)))
    return Summary(headline, tuple(resolved), tuple(decisions), tuple(actions), tuple(dissent),
                   tuple(sorted(case.findings, key=by_severity)), tuple(unreviewed))


def _flat(text: str) -> str:
    """File text on one line for a report: line breaks and runs of spaces as one space, other control characters
    escaped."""
    return one_line(" ".join(text.split()))


def _raised_severity(f: FindingState) -> int:
    """The severity the critic first gave it (from its history)."""
    first = f.history[0] if f.history else ""
    digits = first.rsplit(" ", 1)[-1]
    return int(digits) if digits.isdigit() else f.severity
