"""What happened in a debate, turn by turn: who moved, toward whom, and what looks wrong.

The report's analysis (status and watch show only the verdict).  Every flag
is computed from the files with the same comparison as the verdict
(comparison.py, through the verdict's debate context), so the report never
disagrees with the verdict that status and watch show.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from ..protocol.mentions import Mention
from ..protocol.terms import key_terms
from ..state.debate import Debate, Entry
from .comparison import DIFFERENT, Comparison
from .verdict import Verdict, debate_context, judge

__all__ = ["MATRIX_MAX", "Position", "TurnAnalysis", "Flag", "Analysis", "analyse"]

MATRIX_MAX = 50  # participants up to which the report shows the agreement matrix


@dataclass(frozen=True)
class Position:
    """One participant at one turn."""

    slug: str
    turn: int
    recommendation: str
    confidence: int | None
    converged: bool | None
    valid: bool
    changed: bool | None  # shown to differ from its own previous turn; None on its first turn or when unsure
    change_evidence: str
    toward: tuple[str, ...]  # peers whose previous answer it now agrees with, and did not before
    disagreements: tuple[str, ...]

    def as_dict(self) -> dict[str, object]:
        return {
            "slug": self.slug, "turn": self.turn, "recommendation": self.recommendation,
            "confidence": self.confidence, "converged": self.converged, "valid": self.valid,
            "changed": self.changed, "change_evidence": self.change_evidence,
            "toward": list(self.toward), "disagreements": list(self.disagreements),
        }


@dataclass(frozen=True)
class TurnAnalysis:
    """One turn: every participant's position and the pairwise agreement between Answers."""

    turn: int
    complete: bool
    positions: dict[str, Position]
    matrix: dict[tuple[str, str], Comparison]

    def as_dict(self) -> dict[str, object]:
        return {
            "turn": self.turn,
            "complete": self.complete,
            "positions": {s: p.as_dict() for s, p in self.positions.items()},
            "matrix": [{"pair": [a, b], "relation": c.relation, "agree": c.agree, "basis": c.basis,
                        "evidence": c.evidence, "items": list(c.items)} for (a, b), c in sorted(self.matrix.items())],
        }


@dataclass(frozen=True)
class Flag:
    """Something a person should look at: a kind, where, and why."""

    kind: str  # hollow, latent, stalled, unexplained_flip, confidence_without_change, oscillation,
    #           misquote, absent_peer, yes_with_disagreements
    turn: int
    slug: str | None
    detail: str

    def as_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "turn": self.turn, "slug": self.slug, "detail": self.detail}


@dataclass(frozen=True)
class Analysis:
    """The whole debate: verdict, turns, flags."""

    verdict: Verdict
    participants: tuple[str, ...]
    turns: tuple[TurnAnalysis, ...]
    flags: tuple[Flag, ...]


def _disagreement_texts(debate: Debate, entry: Entry) -> tuple[str, ...]:
    return tuple(m.text for m in debate.details(entry).mentions if m.section == "Disagreements" and m.kind != "none")


def _cites_peers(debate: Debate, entry: Entry, peers: set[str]) -> bool:
    """Does the turn point at any peer's argument (a named mention, or a peer's slug in Reasoning)?"""
    if any(set(m.slugs) & peers or m.everyone for m in debate.details(entry).mentions):
        return True
    parsed = debate.parsed(entry)
    if parsed is None:
        return False
    reasoning = parsed.sections.get("Reasoning")
    text = reasoning.text.lower() if reasoning else ""
    return any(peer in text for peer in peers)


class _Analyser:
    def __init__(self, debate: Debate) -> None:
        self.debate = debate
        self.context = debate_context(debate)
        self.ignore = self.context.ignore
        self.cache: dict[tuple[tuple[int, str], tuple[int, str]], Comparison] = {}
        self.participants = debate.participants  # a property that builds a tuple: taken once
        self.absent: dict[int, list[str]] = {}

    def compare(self, a: tuple[int, str], b: tuple[int, str]) -> Comparison | None:
        left, right = self.debate.entry(*a), self.debate.entry(*b)
        if left is None or right is None:
            return None
        key = (a, b) if a <= b else (b, a)
        if key not in self.cache:
            self.cache[key] = self.context.compare(self.debate.details(left).sig, self.debate.details(right).sig)
        return self.cache[key]

    def position(self, turn: int, slug: str, entry: Entry) -> Position:
        previous = self.compare((turn - 1, slug), (turn, slug)) if turn > 1 else None
        toward = []
        if previous is not None and previous.relation == DIFFERENT:  # only a change of position moves toward anyone
            for peer in self.participants:
                if peer == slug:
                    continue
                now = self.compare((turn, slug), (turn - 1, peer))
                if now is None or not now.agree:
                    continue  # most peers: one comparison, not two
                before = self.compare((turn - 1, slug), (turn - 1, peer))
                if before is None or not before.agree:
                    toward.append(peer)
        changed = None if previous is None or previous.relation not in ("same", DIFFERENT) else previous.differ
        return Position(slug, turn, self.debate.details(entry).sig.recommendation, entry.confidence, entry.converged, entry.valid,
                        changed, "" if previous is None else previous.evidence, tuple(toward),
                        _disagreement_texts(self.debate, entry))

    def turn(self, turn: int, with_matrix: bool) -> TurnAnalysis:
        # turns are analysed in order and compare with the turn before only: forget older
        # pairs, or 100 participants x 100 turns hold a million comparisons
        self.cache = {k: v for k, v in self.cache.items() if max(k[0][0], k[1][0]) >= turn - 1}
        self.context.forget()
        positions = {}
        for slug in self.participants:
            entry = self.debate.entry(turn, slug)
            if entry is not None:
                positions[slug] = self.position(turn, slug, entry)
        matrix = {}
        # the full matrix is P*(P-1)/2 comparisons: the report shows it for the last turn only
        for a, b in combinations(sorted(positions), 2) if with_matrix else ():
            result = self.compare((turn, a), (turn, b))
            if result is not None:
                matrix[(a, b)] = result
        return TurnAnalysis(turn, self.debate.complete(turn), positions, matrix)

    def flags(self, turns: list[TurnAnalysis], verdict: Verdict) -> list[Flag]:
        flags: list[Flag] = []
        if verdict.state in ("hollow", "latent", "stalled"):
            flags.append(Flag(verdict.state, verdict.turn, None, verdict.detail))
        for row in turns:
            for slug, pos in row.positions.items():
                entry = self.debate.entry(row.turn, slug)
                if entry is None:  # a position is only ever made from an entry
                    continue
                flags.extend(self._position_flags(row.turn, slug, pos, entry))
        return flags

    def _position_flags(self, turn: int, slug: str, pos: Position, entry: Entry) -> list[Flag]:
        flags: list[Flag] = []
        before = self.debate.entry(turn - 1, slug)
        if pos.changed and not _cites_peers(self.debate, entry, set(self.participants) - {slug}):
            flags.append(Flag("unexplained_flip", turn, slug, f"{slug} changed its answer at turn {turn} "
                              "without naming any peer's argument"))
        if before is not None and pos.confidence is not None and before.confidence is not None \
                and pos.confidence > before.confidence and pos.disagreements and \
                self._same_texts(pos.disagreements, _disagreement_texts(self.debate, before)):
            flags.append(Flag("confidence_without_change", turn, slug, f"{slug}'s confidence rose from "
                              f"{before.confidence} to {pos.confidence} while its Disagreements stayed the same"))
        if turn > 2 and pos.changed and not self._adopted_peer_line(turn, slug, entry):
            back = self.compare((turn - 2, slug), (turn, slug))
            if back is not None and back.certain_same:
                flags.append(Flag("oscillation", turn, slug, f"{slug} returned at turn {turn} to its answer of "
                                  f"turn {turn - 2}"))
        if entry.converged and pos.disagreements and any(self._names_peer(m) for m in self._mentions(entry)):
            flags.append(Flag("yes_with_disagreements", turn, slug, f"{slug} says yes but still lists "
                              f"{len(pos.disagreements)} disagreement(s)"))
        if turn > 1:
            for peer in self._absent(turn):
                if peer != slug:
                    flags.append(Flag("absent_peer", turn, slug, f"{peer} wrote no turn {turn - 1} for {slug} "
                                      "to read"))
        return flags

    def _adopted_peer_line(self, turn: int, slug: str, entry: Entry) -> bool:
        """A return that copies a peer's turn N-1 line word for word goes toward that peer (as after a swap,
        when `next` tells one session to adopt the other's line): no oscillation."""
        line = self.debate.details(entry).sig.line
        return bool(line) and any((e := self.debate.entry(turn - 1, p)) is not None and self.debate.details(e).sig.line == line
                                  for p in self.participants if p != slug)

    def _absent(self, turn: int) -> list[str]:
        """Peers who wrote turn N-2 but no turn N-1: worked out once a turn, not once a participant."""
        if turn not in self.absent:
            self.absent[turn] = sorted(p for p in self.participants if self.debate.entry(turn - 1, p) is None
                                       and self.debate.scan.entry(turn - 2, p) is not None)
        return self.absent[turn]

    def _mentions(self, entry: Entry) -> tuple[Mention, ...]:
        return self.debate.details(entry).mentions

    @staticmethod
    def _names_peer(mention: Mention) -> bool:
        return mention.section == "Disagreements" and mention.is_point

    def _same_texts(self, a: tuple[str, ...], b: tuple[str, ...]) -> bool:
        if len(a) != len(b):
            return False
        left, right = key_terms(" ".join(a), self.ignore), key_terms(" ".join(b), self.ignore)
        if not left or not right:
            return left == right
        return len(left.keys() & right.keys()) / max(len(left), len(right)) >= 0.8


def analyse(debate: Debate, verdict: Verdict | None = None) -> Analysis:
    """Analyse every turn of `debate` (the verdict is judged once and shared)."""
    verdict = verdict or judge(debate)
    analyser = _Analyser(debate)
    # the matrix is P*(P-1)/2 comparisons and a P x P table: past MATRIX_MAX participants it is neither
    # readable nor affordable, and the report says it left it out
    matrix = len(debate.participants) <= MATRIX_MAX
    turns = [analyser.turn(t, matrix and t == debate.current_turn) for t in range(1, debate.current_turn + 1)]
    flags = analyser.flags(turns, verdict)
    # absent-peer flags repeat once per reader; keep one per absent peer and turn
    unique: dict[tuple[str, int, str | None, str], Flag] = {}
    for flag in flags:
        key = (flag.kind, flag.turn, None if flag.kind == "absent_peer" else flag.slug,
               flag.detail.split(" for ")[0] if flag.kind == "absent_peer" else flag.detail)
        unique.setdefault(key, flag)
    return Analysis(verdict, debate.participants, tuple(turns), tuple(unique.values()))
