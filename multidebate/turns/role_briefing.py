"""What `next` tells a critic or the defender of a review debate: its role, its lens, the findings so far,
and exactly what its turn must contain.

These instructions live here, not in SKILL.md: only sessions with a role pay
for them, and only on the turns they apply to.
"""

from __future__ import annotations

from ..analysis.review_case import TERMINAL, Case, by_severity, finding_line
from ..analysis.verdict import Verdict
from ..protocol.review_items import CLASSES
from ..protocol.roles import Role, lens_text

__all__ = ["role_instructions", "judge_instructions", "VERDICT_RULE", "SEVERITY_RULE", "JUDGE_WAITING"]

# review_case.py's rule, in words (#27: sessions read severity two ways, and the verdict turns on it)
# r73: "critique_wins if any finding ends conceded ..., partly conceded or unanswered with its severity still 9 or
# more" was read as "any concession wins", by a critic and the defender: the severity comes first now
VERDICT_RULE = ("Case verdict, computed from the files after each round, from each finding's severity at the end "
                "(the severity left after the defender's fix, below): critique_wins if a finding at 9 or more ends "
                "conceded (CONCEDE), partly conceded (PARTIAL) or unanswered (one such finding decides the case); "
                "else undecided if a finding at 8 or more ends rebutted or deferred by the defender's last answer, "
                "which its critic never answered, or rebutted as out of scope (REBUT-SCOPE): the person decides; "
                "else empirical_test_agreed if one ends deferred (DEFER) with a test; else fixes_agreed if any "
                "finding was conceded with a fix below 9 (the proposal stands only with those fixes); else "
                "defense_wins (it stands as written).")
SEVERITY_RULE = ("Severity after a response is what is left after the defender's fix, as the defender states it; "
                 "a critic who does not list the finding next round accepts that severity, a lowered one "
                 "included (to dispute it, re-raise or rescore). A severity lowered in the last round, which its "
                 "critic cannot answer, does not count: the critic's stands.")
_CLASSES = " | ".join(f"{name} ({low}-{high})" for name, (low, high) in CLASSES.items())


def _next_id(case: Case | None, slug: str) -> str:
    used = [int(f.id[1:]) for f in case.findings if f.critic == slug] if case else []
    return f"F{max(used, default=0) + 1}"


def role_instructions(role: Role, slug: str, turn: int, rounds: tuple[int, int], case: Case | None,
                      roles: dict[str, Role] | None = None) -> str:
    """The ROLE block of a briefing for `slug`'s turn `turn`."""
    low, high = rounds
    head = (f"ROLE: {role.kind}, round {turn} of at most {high}. Each round the critics write, then the defender "
            f"answers. From round {max(low, 2)} on, the review ends by itself when the critics raise and reopen "
            "nothing; `next` says when it has ended.")
    if roles:
        # #27: a critic worked out who the defender was from its turn
        head += " Who holds each role: " + "; ".join(
            f"{kind} {', '.join(f'{s} (you)' if s == slug else s for s, r in sorted(roles.items()) if r.kind == kind)}"
            for kind in ("critic", "defender", "judge") if any(r.kind == kind for r in roles.values())) + "."
    if role.kind == "critic":
        return "\n".join([head, *_critic(role, slug, turn, case)])
    return "\n".join([head, *_defender(case)])


def _critic(role: Role, slug: str, turn: int, case: Case | None) -> list[str]:
    out = [f"Your lens: {lens_text(role)}.",
           "Challenge the proposal; do not improve it or soften a finding to agree with others. Evidence quotes "
           "the proposal word for word (or, for a flaw in a fix, the defender's words). A flaw another critic "
           "raised already is theirs: raise it only with what it misses, and say `As <critic>/F<n>` in the claim.",
           VERDICT_RULE, SEVERITY_RULE]
    new = (f"New finding, with the next id ({_next_id(case, slug)}; never reuse one):",
           f"### {_next_id(case, slug)} \u2014 <short title>", "- severity: <0-10>", f"- class: {_CLASSES}",
           "- claim: <what is wrong>", "- evidence: \"<exact quote of the proposal>\"",
           "- failure mode: <what breaks, and when>")
    if turn == 1:
        return out + ["In `## Findings`, one item per finding (none: write `None.`)."] + list(new[1:])
    mine = [f for f in case.findings if f.critic == slug and f.state != "withdrawn"] if case else []
    others = [f for f in case.findings if f.critic != slug and f.state != "withdrawn"] if case else []
    out += ["YOUR FINDINGS, most severe first (key [severity class] state (the defender's move): title; the "
            "defender's words are in its turn below):", *([finding_line(f) for f in sorted(mine, key=by_severity)]
                                                         or ["- none"])]
    if others:
        out += ["OTHER CRITICS' FINDINGS (one line each):", *[finding_line(f) for f in sorted(others, key=by_severity)]]
    out += ["In `## Findings` list only what changes; a finding you do not list is accepted as answered, at the "
            "defender's severity:",
            "### F1 \u2014 <title>", "- answer: withdraw | re-raise (then `- new evidence: <what the response did not "
            "weigh>`, `- claim:` if you restate it, and `- severity:` if you dispute the defender's) | rescore (then "
            "`- severity: <0-10>` and `- claim: <why>`)", *new,
            "Nothing to change or add: write `None.` in `## Findings`."]
    return out


def _defender(case: Case | None) -> list[str]:
    findings = case.findings if case else ()
    open_ = sorted((f for f in findings if f.state not in TERMINAL), key=by_severity)
    closed = sorted((f for f in findings if f.state in TERMINAL), key=by_severity)
    out = ["You defend the proposal. Concede only when the evidence overrides its rationale; do not rebut a fact "
           "you cannot dispute; defer when a concrete test would settle it; when you agree with part of a finding, "
           "PARTIAL: concede that part (`fix`) and dispute the rest (`reason`). PARTIAL settles nothing: the "
           "finding stays open, you answer it again next round, and the review cannot end fully_resolved while it "
           "stands.", VERDICT_RULE, SEVERITY_RULE]
    out += ["OPEN FINDINGS, most severe first (answer every one):", *([finding_line(f) for f in open_] or ["- none"])]
    if closed:
        out += ["Answered before (answer one again to change its move, fix, test or reason; a change made only in "
                "another item is lost):", *[finding_line(f) for f in closed]]
    several = len({f.critic for f in findings}) > 1
    example = open_[0].key if open_ and several else (open_[0].id if open_ else "F1")
    out += ["In `## Responses`, one item per finding" + (" (name the critic: `<critic>/F1`)" if several else "")
            + "; answering two findings with one fix, write it under the first and `As <critic>/F<n>` under the "
            "other:", f"### {example} \u2014 CONCEDE | PARTIAL | DEFER | REBUT-DESIGN | REBUT-SCOPE",
            "- severity: <what is left after your fix, 0-10>",
            "- fix: <the fix you commit to> (CONCEDE, PARTIAL) | test: <a concrete test and the result that settles "
            "it> (DEFER) | reason: <why it is wrong (DESIGN) or out of scope (SCOPE); PARTIAL: the part you dispute>"]
    if not open_:
        out.append("No finding is open: write `None.` in `## Responses` unless you change a move.")
    return out


JUDGE_WAITING = ("You write nothing while the debate runs: run `next --wait` (with `--timeout` below your shell's "
                 "command limit, e.g. `--timeout 90`). It answers when the debate has ended, or at the timeout with "
                 "exit status 3 and how far the debate has got: run it again while a round advances. If a whole "
                 "hour passes with no round advancing, tell the user who is awaited and stop. Once `next` serves "
                 "the final turns, write your judgment once; then stop.")


def judge_instructions(verdict: Verdict, review: bool) -> str:
    """What the judge's judgment must contain."""
    ended = f"The debate ended: {verdict.state} at {'round' if review else 'turn'} {verdict.turn} ({verdict.detail})."
    return "\n".join([
        "ROLE: judge. " + ended,
        "Below is every participant's final turn" + (", every finding and the proposal" if review else "")
        + ". Judge on the arguments and evidence, not on who agreed with whom or who wrote more; a position held "
        "by fewer can be right. Do not reopen the debate: decide it. Write your judgment once, then stop.",
        *([VERDICT_RULE] if review else []),
        "Write these sections:",
        "## Decision", "**<the decision, in one sentence>**", "<which answer or which findings stand, and what the "
        "user should do>",
        "## Reasoning", "<why, weighing the strongest argument of each side>",
        "## What each side got right", "- <slug>: <what it got right>",
        "## Contested points", "- <a point a person must settle, with the options as sub-items> (or `- None`)",
    ])
