"""The debate's final answer: a text every participant read and accepted, or, without a consensus, the positions.

Converged at turn N (docs/reports.md, "The final answer"): the agreed line is
the turn-N bold line every participant wrote.  The text shown is the Answer
that carried that line at turn N-1, from the participant who first wrote the
line (ties to the first slug): every yes at N was given having been served
it, and each turn-N file's `peers_read` hash proves which ones read it.  What
a session wrote at turn N beyond that text no peer ever read: it is listed
per session as added at the last turn.  When no turn-N-1 Answer carried the
line (the lines first became one at N), the final answer is the agreed line
alone, and every session's body is its own, unread by its peers.

Unanimous at turn 1 (every turn-1 line one line, written independently): the
agreed line is that line, the text shown is the first slug's turn-1 Answer, and
every other session's turn-1 Answer is listed as its own; nobody read a peer,
so nobody accepted a peer's text.

Not converged: the Answers of the last complete turn grouped by one bold line,
word for word (protocol.bold_line, the verdict's rule); the largest group is
the most-held answer, not a consensus (shown: the Answer of the member that
first wrote that line), and a tie is `split`.  The comparison
decides nothing here: two lines it calls "the same" are two positions.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..protocol.bold_line import group_lines, same_line
from ..state.debate import Debate, Entry
from .verdict import Verdict, line_of

__all__ = ["ADDED_MAX", "Dissent", "FinalAnswer", "LastTurnText", "final_answer"]

ADDED_MAX = 200  # lines of a session's last-turn additions kept (the report shows fewer)


@dataclass(frozen=True)
class Dissent:
    slug: str
    recommendation: str
    reason: str


@dataclass(frozen=True)
class LastTurnText:
    """What one session's turn-N Answer says beyond the agreed text: written at the last turn, read by no peer."""

    slug: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class FinalAnswer:
    """The answer a person should take away, who read and accepted it, and who does not hold it."""

    kind: str  # "consensus", "modal", "split" (a tie: no answer is most held) or "none"
    turn: int
    representative: str | None  # whose Answer is shown
    recommendation: str  # the bold line, as written, without its outer bold markers
    answer: str  # the Answer shown ("" for a consensus with no text every participant read)
    supporters: tuple[str, ...]
    dissenters: tuple[Dissent, ...]
    minority_points: tuple[str, ...]
    weighted: bool = False
    answer_turn: int = 0  # the turn of the Answer shown: N-1 for a consensus text every yes read
    read_by: tuple[str, ...] = ()  # besides its writer, whose turn-N file records reading that Answer, hash matching
    unrecorded: tuple[str, ...] = ()  # whose turn-N file keeps no reading record (written by hand)
    not_read_by: tuple[str, ...] = ()  # whose record shows it was not served that Answer
    added: tuple[LastTurnText, ...] = ()  # per session, what its turn-N Answer adds
    line_since: int = 0  # the turn at which the representative first wrote the agreed line
    independent: bool = False  # unanimous at turn 1: the Answers were written without reading a peer

    @property
    def line_only(self) -> bool:
        """A consensus whose final answer is the agreed line alone: no turn N-1 Answer carried it."""
        return self.kind == "consensus" and not self.answer

    def as_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind, "turn": self.turn, "representative": self.representative,
            "recommendation": self.recommendation, "answer": self.answer, "supporters": list(self.supporters),
            "dissenters": [{"slug": d.slug, "recommendation": d.recommendation, "reason": d.reason}
                           for d in self.dissenters],
            "minority_points": list(self.minority_points), "confidence_weighted": self.weighted,
            "answer_turn": self.answer_turn, "read_by": list(self.read_by), "unrecorded": list(self.unrecorded),
            "not_read_by": list(self.not_read_by), "line_only": self.line_only,
            "added_at_last_turn": [{"slug": a.slug, "lines": list(a.lines)} for a in self.added],
            "line_since": self.line_since,
            "independent": self.independent,
        }


def _unbolded(line: str) -> str:
    stripped = line.strip()
    if len(stripped) > 4 and stripped.startswith("**") and stripped.endswith("**"):
        return stripped[2:-2].strip()
    return stripped


def _reason(debate: Debate, entry: Entry) -> str:
    return entry.converged_reason or next(
        (m.text for m in debate.details(entry).mentions if m.section == "Disagreements"), "")


def _points(debate: Debate, slugs: tuple[str, ...], turn: int) -> tuple[str, ...]:
    points = []
    for slug in slugs:
        entry = debate.entry(turn, slug)
        for mention in debate.details(entry).mentions if entry is not None else ():
            if mention.section == "Disagreements" and (mention.slugs or mention.everyone) and mention.kind != "none":
                points.append(f"{slug}: {mention.text}")
    return tuple(points)


def final_answer(debate: Debate, verdict: Verdict, weighted: bool = False) -> FinalAnswer:
    """The final answer (see the module doc)."""
    if verdict.state == "converged":
        return _consensus(debate, verdict.turn)
    if verdict.state == "unanimous":
        return _unanimous(debate)
    turn = debate.last_complete_turn or debate.current_turn
    entries = {s: e for s in debate.participants if (e := debate.entry(turn, s)) is not None and e.readable}
    if not entries:
        return FinalAnswer("none", turn, None, "", "", (), (), ())
    order = sorted(entries)  # by slug, never by file time: a file's owner sets its mtime
    groups = [[slug for slug, _line in group]
              for group in group_lines([(s, line_of(debate, entries[s])) for s in order])]

    def weight(group: list[str]) -> float:
        return sum(entries[s].confidence or 0 for s in group) if weighted else float(len(group))

    best = max(groups, key=weight)  # the first of the heaviest: groups are in slug order
    if len(groups) > 1 and sum(1 for g in groups if weight(g) == weight(best)) > 1:
        # a tie: naming one side "most held" would present it as the winner
        return FinalAnswer("split", turn, None, "", "", (), tuple(
            Dissent(s, _unbolded(line_of(debate, entries[s])), entries[s].converged_reason) for s in order), (),
            weighted)
    # the one who first wrote the most-held line, as for a consensus (d75: sessions expected that text, not the first
    # slug's); ties to the first slug
    line = line_of(debate, entries[best[0]])
    representative = min(best, key=lambda s: (_first_wrote(debate, s, line, turn), s))
    dissenters = tuple(Dissent(s, _unbolded(line_of(debate, entries[s])), _reason(debate, entries[s]))
                       for s in order if s not in best)
    chosen = entries[representative]
    return FinalAnswer("modal", turn, representative, _unbolded(line_of(debate, chosen)),
                       debate.details(chosen).answer, tuple(best), dissenters, _points(debate, tuple(best), turn),
                       weighted, answer_turn=turn)


def _first_wrote(debate: Debate, slug: str, line: str, before: int) -> int:
    """The first turn at which `slug` wrote `line` (as one line), up to `before`."""
    return next((t for t in range(1, before + 1) if (e := debate.entry(t, slug)) is not None
                 and same_line(line_of(debate, e), line)), before)


def _answer_at(debate: Debate, slug: str, turn: int) -> str:
    entry = debate.entry(turn, slug)
    return debate.details(entry).answer if entry is not None and entry.readable else ""


def _added(source: str, answer: str, line: str) -> tuple[str, ...]:
    """The lines of a last-turn Answer that the agreed text does not hold (its bold line aside)."""
    known = {" ".join(text.split()) for text in source.splitlines()}
    out = []
    for text in answer.splitlines():
        folded = " ".join(text.split())
        if folded and folded not in known and not same_line(folded, line):
            out.append(text.rstrip())
    return tuple(out[:ADDED_MAX])


def _consensus(debate: Debate, turn: int) -> FinalAnswer:
    slugs = tuple(sorted(s for s in debate.participants if debate.entry(turn, s) is not None))
    entries = {s: debate.entry(turn, s) for s in slugs}
    line = next(line_of(debate, e) for e in entries.values() if e is not None)
    carriers = [s for s in slugs if (e := debate.entry(turn - 1, s)) is not None and e.readable
                and same_line(line_of(debate, e), line)]
    points = _points(debate, slugs, turn)
    if not carriers:  # the lines first became one at N: nobody read a text that carried it
        added = tuple(LastTurnText(s, _added("", debate.details(e).answer, line))
                      for s, e in entries.items() if e is not None)
        return FinalAnswer("consensus", turn, None, _unbolded(line), "", slugs, (), points, answer_turn=turn,
                           added=added)
    source_slug = min(carriers, key=lambda s: (_first_wrote(debate, s, line, turn - 1), s))
    since = _first_wrote(debate, source_slug, line, turn - 1)
    source = next(e for s, e in ((s, debate.entry(turn - 1, s)) for s in carriers) if s == source_slug and e)
    text = debate.details(source).answer
    read_by, unrecorded, not_read = [], [], []
    for slug in slugs:
        if slug == source_slug:
            continue
        entry = entries[slug]
        record = debate.details(entry).reading_record if entry is not None else None
        if record is None:
            unrecorded.append(slug)
        elif any(name.rsplit("/", 1)[-1] == source.filename and digest == source.sha256 for name, digest in record):
            read_by.append(slug)
        else:
            not_read.append(slug)
    # what a session's own turn-N-1 Answer said, its peers read at N too (d81: a turn-3 Answer that repeated the
    # turn-2 one was listed whole as "not read by peers")
    added = tuple(LastTurnText(s, lines) for s, e in entries.items()
                  if e is not None and (lines := _added(text + "\n" + _answer_at(debate, s, turn - 1),
                                                        debate.details(e).answer, line)))
    return FinalAnswer("consensus", turn, source_slug, _unbolded(line_of(debate, source)), text, slugs, (), points,
                       answer_turn=turn - 1, read_by=tuple(read_by), unrecorded=tuple(unrecorded),
                       not_read_by=tuple(not_read), added=added, line_since=since)


def _unanimous(debate: Debate) -> FinalAnswer:
    """Every turn-1 line one line, written independently: the first slug's turn-1 Answer, and each other
    session's turn-1 Answer as its own (what it says beyond its bold line)."""
    slugs = tuple(sorted(s for s in debate.participants if debate.entry(1, s) is not None))
    entries = {s: e for s in slugs if (e := debate.entry(1, s)) is not None}
    first = entries[slugs[0]]
    line = line_of(debate, first)
    own = tuple(LastTurnText(s, lines) for s, e in entries.items()
                if s != slugs[0] and (lines := _added("", debate.details(e).answer, line)))
    return FinalAnswer("consensus", 1, slugs[0], _unbolded(line), debate.details(first).answer, slugs, (), (),
                       answer_turn=1, added=own, independent=True)
