"""The mechanical verdict of a review debate: each finding's state, the case verdict, and when it stops.

Round k is the critics' turn k and then the defender's turn k.  Each finding
(named `<critic>/F<n>`) moves as the files say:

- a critic raises it (`open`); the defender answers it with CONCEDE
  (`conceded`), DEFER with a concrete test (`deferred`), REBUT-DESIGN /
  REBUT-SCOPE (`rebutted`), or PARTIAL (`partial`: it concedes a part with a
  fix and disputes the rest; not terminal, so the defender answers it again
  next round, and the review cannot end `fully_resolved` while it stands);
- in a later round its critic may `accept` the response (the default for a
  finding it does not list), `withdraw` it (`withdrawn`), or `re-raise` it
  with new evidence or `rescore` it, which opens it again for the defender.

A finding's verdict: `critique_wins` when it ends conceded at severity >= 9
(or is left unanswered, or partly conceded, at that severity: a finding the
defence never settled stands); `undecided` when it is unsettled at severity >= 8
(FATAL): rebutted or deferred (a duplicate is a rebuttal) by the defender's last
response, which its critic never answered, or rebutted as out of scope
(REBUT-SCOPE) at that severity: the person decides, and the case cannot go to
the defence while one stands; `empirical_test_agreed` when it ends deferred with a test;
`defense_wins` otherwise.  The case verdict is the most severe finding
verdict, and the finding that decides it is the most severe finding with
that verdict; a case that would be `defense_wins` while some finding ended
conceded or partly conceded (below 9 after its fix) is `fixes_agreed`: the
proposal stands only with those fixes (r72, r73: eight of eight sessions
read `defense_wins` after every finding was conceded as "the proposal was
sound").  Severity is the latest one stated, the defender's adjusted
severity included.

The debate stops in round k >= min_rounds once the critics' turns of that
round raised and reopened nothing and every finding is terminal
(`fully_resolved`: the defender has nothing left to answer and writes no
turn k), or after round max_rounds (`max_rounds`).
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Any, NamedTuple

from ..protocol.findings import Finding, finding
from ..protocol.oneline import one_line
from ..protocol.review_items import CLASSES, FindingItem, ResponseItem, class_for
from ..protocol.roles import Role

if TYPE_CHECKING:
    from ..state.debate import Debate

__all__ = ["FindingState", "Case", "VERDICTS", "CASE_VERDICTS", "TERMINAL", "OPEN_STATES", "STATE_WORDS", "by_severity", "case_lines",
           "finding_line", "review_case", "finding_key"]

VERDICTS = ("critique_wins", "undecided", "empirical_test_agreed", "defense_wins")  # a finding's, most severe first
CASE_VERDICTS = VERDICTS + ("fixes_agreed",)  # the case's: defense_wins with fixes conceded is fixes_agreed
TERMINAL = frozenset({"conceded", "deferred", "rebutted", "withdrawn"})
# what the defender must answer (again) in its next turn: E105 when it does not
OPEN_STATES = frozenset({"open", "partial"})
_MOVE_STATE = {"CONCEDE": "conceded", "PARTIAL": "partial", "DEFER": "deferred", "REBUT-DESIGN": "rebutted",
               "REBUT-SCOPE": "rebutted"}
# "As gemini-3/F4", "same as gemini-3/F4", "duplicate of gemini-3/F4", "see gemini-3/F4": a finding (or its
# answer) that says it is another one (#27: two critics raised one flaw and the report showed two)
# "As gemini-3/F4.", "Same fix as gemini-3/F4", "Duplicate of gemini-3/F4": a text that opens by pointing at
# another finding; it marks a duplicate only when little else follows (r72: "Revocation in seconds as in
# rv-ops/F1. Self-service create/revoke ..." was marked a duplicate, and its own fix left the action list)
_SAME_AS = re.compile(r"^\W*(?:fix:\s*)?(?:the\s+)?(?:same(?:\s+fix)?\s+as|duplicates?(?:\s+of)?|as\s+in|as|see)"
                      r"[ \t]+(?:in[ \t]+)?(?P<key>[a-z0-9]+(?:-[a-z0-9]+)*/F[0-9]{1,3})\b(?P<rest>.*)$",
                      re.IGNORECASE | re.DOTALL)
# issue 33: a FATAL finding rebutted in the last round, which its critic never answered, or "not our problem"
# (REBUT-SCOPE) at severity 10, came out `defense_wins` under "What was resolved": such a finding is the person's
UNSETTLED_FROM = CLASSES["FATAL"][0]
_DUPLICATE_REST_WORDS = 8  # "As x/F4, with the same test." is a duplicate; a fix of its own after it is not


class FindingState(NamedTuple):
    """Where one finding stands after the last round read."""

    critic: str
    id: str
    title: str
    severity: int
    klass: str
    claim: str
    evidence: str
    failure_mode: str
    state: str  # open, partial, conceded, deferred, rebutted, withdrawn
    move: str = ""  # the defender's last move
    answer: str = ""  # the fix, test or reason that came with it (PARTIAL: the fix of the conceded part)
    raised: int = 1  # the round it was raised in
    history: tuple[str, ...] = ()  # what happened, round by round, for the report
    unanswered: bool = False  # the defender's last response came after the critic's last turn
    lowered_from: int = -1  # the critic's severity, when the unanswered response lowered it (else -1)
    disputed: str = ""  # PARTIAL: the part the defender disputes, and why
    new_evidence: str = ""  # the critic's latest re-raise: what the response did not weigh
    duplicate_of: str = ""  # the key of the finding this one says it repeats ("As gemini-3/F4")
    raised_severity: int = -1  # the severity its critic raised it at (r72: a judge could not tell [0] from 7)

    @property
    def key(self) -> str:
        return f"{self.critic}/{self.id}"

    @property
    def awaiting_critic(self) -> bool:
        """Rebutted or deferred (a duplicate included) by a response its critic has not answered: nobody agreed."""
        return self.unanswered and self.state in ("rebutted", "deferred")

    @property
    def unsettled(self) -> bool:
        """Not reviewed by its critic (see `awaiting_critic`), or rebutted as out of scope while still severe:
        the person who decides settles it, never the defender alone."""
        return self.awaiting_critic or (self.state == "rebutted" and self.move == "REBUT-SCOPE"
                                        and self.severity >= UNSETTLED_FROM)

    @property
    def verdict(self) -> str:
        if self.state in ("conceded", "open", "partial") and self.severity >= 9:
            return "critique_wins"
        if self.unsettled and self.severity >= UNSETTLED_FROM:
            return "undecided"
        if self.state == "deferred":
            return "empirical_test_agreed"
        return "defense_wins"

    def as_dict(self) -> dict[str, object]:
        return {"finding": self.key, "title": self.title, "severity": self.severity, "class": self.klass,
                "state": self.state, "move": self.move or None, "answer": self.answer or None,
                "verdict": self.verdict, "claim": self.claim, "evidence": self.evidence,
                "failure_mode": self.failure_mode, "raised_in_round": self.raised, "history": list(self.history),
                "disputed": self.disputed or None, "new_evidence": self.new_evidence or None,
                "duplicate_of": self.duplicate_of or None,
                "raised_severity": self.raised_severity if self.raised_severity >= 0 else None,
                # the defender answered after the critic's last turn: no critic has reviewed this answer
                "reviewed": not self.unanswered, "needs_decision": self.unsettled}


class Case(NamedTuple):
    """The case after the last complete round (the provisional one while a round runs)."""

    findings: tuple[FindingState, ...]
    rounds: int  # complete rounds
    min_rounds: int
    max_rounds: int
    verdict: str
    deciding: str  # the deciding finding's key, "" when there are no findings
    stop: str  # "fully_resolved", "max_rounds" or "" (not stopped)
    problems: tuple[Finding, ...]

    @property
    def open(self) -> tuple[FindingState, ...]:
        return tuple(f for f in self.findings if f.state not in TERMINAL)

    def summary(self) -> str:
        """`critique_wins (gpt-5-5/F1 conceded at severity 9)`; defense_wins says what it did not find."""
        if not self.deciding:
            return f"{self.verdict} (no findings)"
        f = next(x for x in self.findings if x.key == self.deciding)
        if self.verdict == "undecided":
            why = "not reviewed by its critic" if f.awaiting_critic else "as out of scope"
            return f"{self.verdict} ({f.key} {f.state} ({f.move}) at severity {f.severity}, {why}: the person decides)"
        if self.verdict not in ("defense_wins", "fixes_agreed"):
            return f"{self.verdict} ({f.key} {f.state} at severity {f.severity})"
        conceded = [x.key for x in self.findings if x.state in ("conceded", "partial")]
        count = f"{len(conceded)} findings" if len(conceded) != 1 else "1 finding"
        fixes = (f"; the proposal stands only with the fixes of the {count} conceded: {', '.join(conceded)}"
                 if conceded else "")
        return (f"{self.verdict} (no finding is left at severity 9 or more after its fix, none deferred to a "
                f"test{fixes})")

    def as_dict(self) -> dict[str, object]:
        return {"verdict": self.verdict, "deciding_finding": self.deciding or None, "rounds": self.rounds,
                "min_rounds": self.min_rounds, "max_rounds": self.max_rounds, "stop_reason": self.stop or None,
                "findings": [f.as_dict() for f in self.findings],
                "problems": [p.as_dict() for p in self.problems]}


def finding_key(critic: str, fid: str) -> str:
    return f"{critic}/{fid}"


def _order(f: FindingState) -> tuple[int, int, str, int]:
    return (VERDICTS.index(f.verdict), -f.severity, f.critic, int(f.id[1:]))


def _quoted(evidence: str) -> list[str]:
    """The quoted passages of an evidence field (straight or curly quotes, or backticks), 12+ characters;
    a quote shortened with an ellipsis is its pieces."""
    quotes = [q for q in re.findall(r"\"([^\"]{12,})\"|\u201c([^\u201d]{12,})\u201d|`([^`]{12,})`", evidence)
              for q in q if q]
    return [piece.strip() for q in quotes for piece in re.split(r"\.\.\.|\u2026|\[\.\.\.\]", q)
            if len(piece.strip()) >= 12]


def _plain(text: str) -> str:
    return " ".join(re.sub(r"[*_`>#]", " ", text).split()).casefold()


class _Reader:
    """One pass over the rounds, in order."""

    def __init__(self, debate: Debate, roles: dict[str, Role], proposal: str | None) -> None:
        self.debate = debate
        self.roles = roles
        self.critics = tuple(s for s in debate.participants if roles.get(s, Role("")).kind == "critic")
        self.defender = next((s for s in debate.participants if roles.get(s, Role("")).kind == "defender"), "")
        self.proposal = _plain(proposal) if proposal else None
        self.said = ""  # the defender's responses so far: a finding about a fix quotes the fix
        self.states: dict[str, FindingState] = {}
        self.problems: list[Finding] = []

    def items(self, turn: int, slug: str) -> tuple[list[Any], str] | None:
        """The findings or responses of `slug`'s turn `turn` as the parser read them, and the file's path;
        None when there is no such turn, or it does not fit the writer's role (E100)."""
        entry = self.debate.entry(turn, slug)
        parsed = self.debate.parsed(entry) if entry is not None else None
        if entry is None or parsed is None:
            return None
        role = self.roles[slug].kind
        name = "Findings" if role == "critic" else "Responses"
        if name not in parsed.sections:
            wrong = "Responses" if name == "Findings" else "Findings"
            if wrong in parsed.sections:
                self.problems.append(finding(entry.path, parsed.sections[wrong].line, "E100",
                                             f"`{slug}` is the {role}: its turns carry `## {name}`, not `## {wrong}`"))
            return None
        return list(parsed.review_items), entry.path

    def critic_turn(self, turn: int, slug: str, items: list[FindingItem], path: str) -> bool:
        """Apply a critic's turn; True when it raised or reopened a finding.  A response it does not
        re-raise or rescore is accepted here, with the severity the defender gave it."""
        for key, held in self.states.items():
            if held.critic == slug and held.unanswered:
                self.states[key] = held._replace(unanswered=False, lowered_from=-1)
        moved = False
        for item in items:
            moved = self._critic_item(turn, slug, item, path) or moved
        return moved

    def unaccepted(self) -> None:
        """A severity the defender lowered in the last round's response, which its critic never answered, does
        not decide the case: the critic's stands."""
        for key, held in self.states.items():
            if held.unanswered and held.lowered_from >= 0:
                self.states[key] = held._replace(
                    severity=held.lowered_from, klass=class_for(held.lowered_from),
                    history=held.history + (f"severity {held.severity} never accepted by {held.critic} (no later "
                                            f"round): counted at {held.lowered_from}",))

    def _critic_item(self, turn: int, slug: str, item: FindingItem, path: str) -> bool:
        key = finding_key(slug, item.id)
        old = self.states.get(key)
        if old is None:
            if item.answer is not None:
                self.problems.append(finding(path, item.line, "E104", f"{item.id}: `{slug}` raised no {item.id}; "
                                             "give a new finding all its fields and no `answer:`"))
                return False
            self._check_evidence(item, path)
            self.states[key] = FindingState(slug, item.id, item.title or item.claim[:60], item.severity or 0,
                                            item.klass or "", item.claim, item.evidence, item.failure_mode, "open",
                                            raised=turn, history=(f"round {turn}: raised at severity "
                                                                  f"{item.severity}",),
                                            raised_severity=item.severity or 0)
            return True
        if item.answer in (None, "accept"):
            if item.answer is None and item.claim and _plain(item.claim) != _plain(old.claim):
                self.problems.append(finding(path, item.line, "E109", f"{item.id} is an id `{slug}` used in round "
                                             f"{old.raised}; a new finding takes a new id"))
            return False
        if item.answer == "withdraw":
            self.states[key] = old._replace(state="withdrawn", history=old.history + (f"round {turn}: withdrawn",))
            return False
        if item.answer == "re-raise" and not item.new_evidence:
            return False  # E107 is the file's finding: a re-raise without new evidence reopens nothing
        severity = item.severity if item.severity is not None else old.severity
        what = "re-raised" if item.answer == "re-raise" else "rescored"
        # the claim as the critic now states it (#27: the report showed the original after a re-raise)
        self.states[key] = old._replace(state="open", severity=severity, klass=class_for(severity),
                                        claim=item.claim or old.claim,
                                        new_evidence=item.new_evidence or old.new_evidence,
                                        history=old.history + (f"round {turn}: {what} at severity {severity}",))
        return True

    def _check_evidence(self, item: FindingItem, path: str) -> None:
        if self.proposal is None:
            return
        quotes = _quoted(item.evidence)
        missing = [q for q in quotes if _plain(q) not in self.proposal and _plain(q) not in self.said]
        if missing:
            self.problems.append(finding(path, item.line, "W100", f"{item.id}: the evidence quotes "
                                         f"\u201c{missing[0][:60]}\u201d, which is neither in the proposal nor in "
                                         "the defender's turns"))

    def defender_turn(self, turn: int, items: list[ResponseItem], path: str) -> None:
        """Apply the defender's turn; an open finding it leaves unanswered is E105."""
        self.said += " " + " ".join(_plain(f"{i.fix} {i.test} {i.reason}") for i in items)
        answered = set()
        for item in items:
            key = self._resolve(item, path)
            if key is None:
                continue
            answered.add(key)
            old = self.states[key]
            if item.move is None:
                continue
            state = _MOVE_STATE[item.move]
            if item.move == "DEFER" and not item.test:
                state = "open"  # no concrete test: nothing was agreed
            severity = item.severity if item.severity is not None else old.severity
            answer = item.fix if item.move == "PARTIAL" else item.fix or item.test or item.reason
            lowered = (old.lowered_from if old.unanswered and old.lowered_from >= 0 else old.severity) \
                if severity < old.severity or old.unanswered and old.lowered_from > severity else -1
            self.states[key] = old._replace(state=state, severity=severity, klass=class_for(severity),
                                            move=item.move, answer=answer, unanswered=True, lowered_from=lowered,
                                            disputed=item.reason if item.move == "PARTIAL" else "",
                                            history=old.history + (f"round {turn}: {item.move} at severity "
                                                                   f"{severity}",))
        for key, held in self.states.items():
            if held.state in OPEN_STATES and key not in answered:
                what = "is open" if held.state == "open" else "is partly conceded (PARTIAL) and still open"
                self.problems.append(finding(path, 1, "E105", f"{key} (severity {held.severity}) {what} and "
                                             f"turn {turn} does not answer it"))

    def _resolve(self, item: ResponseItem, path: str) -> str | None:
        key, problem = resolve(tuple(self.states), item)
        if key is None:
            self.problems.append(finding(path, item.line, "E104", problem))
        return key

    def run(self, rounds: tuple[int, int]) -> tuple[int, str]:
        """Every round in order; (complete rounds, stop reason).  Stops reading at the first round that runs."""
        low, high = rounds
        debate = self.debate
        for turn in range(1, min(debate.current_turn, high) + 1):
            critics_done = all(debate.entry(turn, c) is not None for c in self.critics)
            moved = False
            for critic in self.critics:
                got = self.items(turn, critic)
                if got is not None:
                    moved = self.critic_turn(turn, critic, *got) or moved
            if critics_done and turn > 1 and turn >= low and not moved and all(
                    s.state in TERMINAL for s in self.states.values()):
                # the critics accept every answer and raise nothing: the defender has nothing left to answer
                return turn, "fully_resolved"
            if not critics_done or debate.entry(turn, self.defender) is None:
                return turn - 1, ""  # round `turn` runs: the states shown are provisional
            got = self.items(turn, self.defender)
            if got is not None:
                # r72: a critic quoted the defender's Reasoning and was told it quoted neither the proposal nor
                # the defender: every section of its turns is the defender's words
                entry = debate.entry(turn, self.defender)
                parsed = debate.parsed(entry) if entry is not None else None
                if parsed is not None:
                    self.said += " " + " ".join(_plain(section.body) for section in parsed.sections.values())
                self.defender_turn(turn, *got)
            if turn >= high:
                return turn, "max_rounds"
        return min(debate.current_turn, high), ""


def resolve(keys: tuple[str, ...], item: ResponseItem) -> tuple[str | None, str]:
    """The finding a response answers (`critic/F1`, or a bare `F1` only one critic uses); else None and why."""
    if item.critic is not None:
        key = finding_key(item.critic, item.id)
        return (key, "") if key in keys else (None, f"{key}: no such finding (findings: {', '.join(keys) or 'none'})")
    matches = [k for k in keys if k.endswith(f"/{item.id}")]
    if len(matches) == 1:
        return matches[0], ""
    if not matches:
        return None, f"{item.id}: no critic raised it (findings: {', '.join(keys) or 'none'})"
    return None, f"{item.id} is ambiguous ({', '.join(matches)}): name the critic, e.g. `{matches[0]}`"


def new_turn_problems(debate: Debate, roles: dict[str, Role], rounds: tuple[int, int], proposal: str | None,
                      slug: str, turn: int, items: list[Any]) -> list[Finding]:
    """What a turn about to be written gets wrong against the findings so far (for `write`): the same
    reader as the case, given the new turn after the rounds before it."""
    reader = _Reader(debate, roles, proposal)
    reader.run(rounds)
    before = len(reader.problems)
    if roles[slug].kind == "critic":
        reader.critic_turn(turn, slug, items, "<input>")
    else:
        reader.defender_turn(turn, items, "<input>")
    return reader.problems[before:]


def review_case(debate: Debate, roles: dict[str, Role], rounds: tuple[int, int], proposal: str | None) -> Case:
    """The case of a review debate, after its last complete round (see the module doc)."""
    reader = _Reader(debate, roles, proposal)
    low, high = rounds
    done, stop = reader.run(rounds)
    if stop == "max_rounds":
        reader.unaccepted()  # while rounds remain, the critic still answers the response: the case is provisional
    findings = tuple(sorted(_duplicates(reader.states).values(), key=_order))
    verdict = findings[0].verdict if findings else "defense_wins"
    if verdict == "defense_wins" and any(f.state in ("conceded", "partial") for f in findings):
        verdict = "fixes_agreed"
    deciding = findings[0].key if findings else ""
    return Case(findings, done, low, high, verdict, deciding, stop, tuple(sorted(set(reader.problems))))


def _duplicates(states: dict[str, FindingState]) -> dict[str, FindingState]:
    """Each finding whose own words or answer open by pointing at another finding and add little, marked as
    that one's duplicate.  A duplicate always points at a finding that is none: chains are followed to their
    first finding, and of two findings that point at each other (r72: rv-ops/F1 and rv-sec/F12) the one
    named first by severity, then key, stays the original."""
    wanted: dict[str, str] = {}
    for key, f in states.items():
        # the defender's word alone makes no duplicate: its critic must have had a turn after it (issue 33)
        for text in (f.title, f.claim) + (() if f.unanswered else (f.answer, f.disputed)):
            m = _SAME_AS.match(text.strip())
            if m and m.group("key") in states and m.group("key") != key \
                    and len(re.findall(r"\w+", m.group("rest"))) <= _DUPLICATE_REST_WORDS:
                wanted[key] = m.group("key")
                break
    marked = dict(states)
    roots: dict[str, str] = {}  # duplicate -> its original
    originals: set[str] = set()  # findings that wanted another but stay originals (a cycle's first)
    for key in sorted(wanted, key=lambda k: (-states[k].severity, k)):
        target, seen = wanted[key], {key}
        while target in wanted and target not in seen and target not in originals:
            if target in roots:
                target = roots[target]
                break
            seen.add(target)
            target = wanted[target]
        if target in seen:
            originals.add(key)  # a cycle: this one, the first by severity, stays the original
            continue
        roots[key] = target
        marked[key] = states[key]._replace(duplicate_of=target)
    return marked


def proposal_text(folder: str, name: str | None) -> str | None:
    """The proposal's text (None when there is none or it cannot be read)."""
    if not name:
        return None
    from ..protocol.textfile import read_text

    return read_text(os.path.join(folder, name)).text


def review_findings(debate: Debate) -> list[Finding]:
    """The folder-level findings of roles: a turn that does not fit its writer's role (E100), the case's
    problems (unknown ids, unanswered findings, evidence the proposal lacks) and a changed proposal (W101)."""
    task = debate.task
    found: list[Finding] = []
    if task is None or not task.review:
        # an open debate's valid turn always has a Confidence: one without is a review turn
        found.extend(finding(e.path, 1, "E100", "a review turn (`## Findings` or `## Responses`) in an open "
                             "debate: write `## Answer`, `## Confidence` and the other sections")
                     for e in debate.entries.values() if e.readable and e.valid and e.confidence is None)
        return found
    from ..protocol.profile import profile_for

    roles = task.role_map
    for (turn, slug), entry in sorted(debate.entries.items()):
        role = roles.get(slug)
        parsed = debate.parsed(entry)
        if role is None or parsed is None or role.kind == "judge":
            continue
        expected = profile_for(role.kind)
        if parsed.profile != expected:
            found.append(finding(entry.path, 1, "E100", f"`{slug}` is a {role.kind}: its turns have the sections "
                                 f"{', '.join(expected.sections)}"))
    case = review_case(debate, roles, task.rounds, proposal_text(debate.folder, task.proposal))
    found.extend(case.problems)
    found.extend(proposal_findings(debate.folder, task.proposal, task.proposal_sha256))
    return found


def proposal_findings(folder: str, name: str | None, digest: str | None) -> list[Finding]:
    """W101 when the proposal is no longer the file the review began with (or is gone)."""
    import hashlib

    from ..protocol.textfile import read_text

    if not name or not digest:
        return []
    path = os.path.join(folder, name)
    read = read_text(path)
    if read.text is None:
        return [finding(path, 1, "W101", "the proposal cannot be read: " +
                        ("; ".join(f.message for f in read.findings) or "it is gone"))]
    if hashlib.sha256(read.raw).hexdigest() != digest:
        return [finding(path, 1, "W101", "the proposal changed since the review began: findings quote the text "
                        "`init` copied; restore it, or start a new review for the new text")]
    return []


def review_problem_lines(debate: Debate, case: Case | None) -> tuple[str, ...]:
    """A review's problems for the status and report: the case's errors and a changed proposal, one line each."""
    task = debate.task
    if task is None or not task.review:
        return ()
    found = [f for f in (case.problems if case else ()) if f.severity == "error"]
    found += proposal_findings(debate.folder, task.proposal, task.proposal_sha256)
    return tuple(f"{os.path.basename(f.path)}: {f.code} {f.message}" for f in found)


def by_severity(f: FindingState) -> tuple[int, str, int]:
    """Most severe first (the severity now, not the one first given), then by critic and id."""
    return (-f.severity, f.critic, int(f.id[1:]))


def case_lines(case: Case | None, slug: str | None = None, detailed: bool = False,
               most_severe_first: bool = False) -> list[str]:
    """The findings as one line each: `- gpt-5-5/F1 [9 FATAL] conceded (CONCEDE): title`; `detailed` adds the
    claim and the last fix, test or reason (a judge sees only final turns, where a settled finding is gone)."""
    if case is None:
        return []
    shown = [f for f in case.findings if slug is None or f.critic == slug]
    if most_severe_first:
        shown.sort(key=by_severity)
    elif slug is not None:  # a critic's own list, in the order of its ids
        shown.sort(key=lambda f: int(f.id[1:]))
    if detailed:
        # a critic's claim and the defender's fix, test or reason are file text: one escaped line each, so none
        # can start a line of its own in a briefing (`NOTE: ...`)
        return [f"{finding_line(f)}\n  claim: {one_line(f.claim)}"
                + (f"\n  {f.move or 'answer'}: {one_line(f.answer)}" if f.answer else "") for f in shown]
    return [finding_line(f) for f in shown]


STATE_WORDS = {"partial": "partly conceded"}


def finding_line(f: FindingState) -> str:
    """`- gpt-5-5/F1 [2 MINOR, raised at 9] conceded (CONCEDE, not reviewed): title`: the severity now and, when
    it moved, the one it was raised at (r72: a judge read [0] beside a claim that said "I score this 7"); an answer
    no critic has seen yet is "not reviewed"; `(duplicate of ...)` when it says it is one."""
    unseen = ", not reviewed" if f.unanswered and f.state != "open" else ""
    unseen += ", needs the person's decision" if f.unsettled and not f.awaiting_critic else ""
    move = f" ({f.move}{unseen})" if f.move and f.state != "open" else ""
    state = STATE_WORDS.get(f.state, f.state)
    same = f" (duplicate of {f.duplicate_of})" if f.duplicate_of else ""
    was = f", raised at {f.raised_severity}" if 0 <= f.raised_severity != f.severity else ""
    return f"- {f.key} [{f.severity} {f.klass}{was}] {state}{move}{same}: {one_line(f.title, 80)}"
