"""The verdict on a debate: computed from the files, not only from what sessions say.

PRODUCT.md section 3 gives the order; the first rule that holds wins:
converged, in_progress (a later turn started / nothing complete), hollow,
max_turns, latent, stalled, in_progress.  Every verdict says why.

A yes counts toward convergence only when its session was shown every
participant's turn N-1 (the record `write` keeps of what `next` served): a
yes given before a late peer's answer existed is `latent` until one more
turn confirms it.
"""

from __future__ import annotations

from typing import NamedTuple
from itertools import combinations

from .debate import Debate
from .similarity import AGREE_THRESHOLD, MEASURE, Comparison, compare_signatures, slug_words

__all__ = ["STATES", "PairScore", "Verdict", "judge", "answers_agree"]

STATES = ("empty", "in_progress", "converged", "hollow", "latent", "stalled", "max_turns")
FINAL_STATES = frozenset({"converged", "hollow", "stalled", "max_turns"})


class PairScore(NamedTuple):
    """How two participants' Answers compare at one turn."""

    left: str
    right: str
    comparison: Comparison

    def as_dict(self) -> dict[str, object]:
        return {
            "pair": [self.left, self.right],
            "score": round(self.comparison.score, 3),
            "agree": self.comparison.agree,
            "basis": self.comparison.basis,
            "conflict": list(self.comparison.conflict),
        }


class Verdict(NamedTuple):
    """The state of a debate, the turn it was taken on, and why."""

    state: str
    turn: int
    detail: str
    pairs: tuple[PairScore, ...] = ()
    missing: tuple[str, ...] = ()
    extra_files: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def final(self) -> bool:
        return self.state in FINAL_STATES

    def as_dict(self) -> dict[str, object]:
        return {
            "state": self.state,
            "turn": self.turn,
            "detail": self.detail,
            "measure": MEASURE,
            "threshold": AGREE_THRESHOLD,
            "pairs": [p.as_dict() for p in self.pairs],
            "missing": list(self.missing),
            "extra_files": list(self.extra_files),
            "notes": list(self.notes),
        }


def _pairs(debate: Debate, turn: int) -> tuple[PairScore, ...]:
    slugs = debate.writers(turn)
    ignore = slug_words(debate.participants)  # once per turn: pairs grow with the square of participants
    scores = []
    for left, right in combinations(slugs, 2):
        a, b = debate.entry(turn, left), debate.entry(turn, right)
        assert a is not None and b is not None
        scores.append(PairScore(left, right, compare_signatures(a.sig, b.sig, ignore)))
        if not scores[-1].comparison.agree:
            # one disagreeing pair settles it: the verdict names it, and a debate of
            # a hundred participants need not compare all 4,950 pairs
            break
    return tuple(scores)


def answers_agree(pairs: tuple[PairScore, ...]) -> bool:
    """All Answers agree when every pair does (complete linkage: no chain of near-misses)."""
    return all(p.comparison.agree for p in pairs)


def _why(pairs: tuple[PairScore, ...]) -> str:
    if not pairs:
        return "only one participant so far"
    worst = min(pairs, key=lambda p: p.comparison.score)
    label = "" if len(pairs) == 1 else "lowest pair " if worst.comparison.agree else "for one "
    return f"{label}{worst.left} vs {worst.right}: {worst.comparison.explain()} (threshold {AGREE_THRESHOLD})"


def _all_yes(debate: Debate, turn: int) -> bool:
    return all((e := debate.entry(turn, s)) is not None and e.converged is True for s in debate.participants)


def _position_moved(debate: Debate, slug: str, before: int, after: int) -> bool:
    old, new = debate.entry(before, slug), debate.entry(after, slug)
    if old is None or new is None:
        return True
    if old.converged != new.converged:
        return True
    return not compare_signatures(old.sig, new.sig, slug_words(debate.participants)).agree


def _disagreement_notes(debate: Debate, turn: int) -> tuple[str, ...]:
    notes = []
    for slug in debate.participants:
        entry = debate.entry(turn, slug)
        if entry and entry.converged:
            left = [m for m in entry.mentions if m.section == "Disagreements" and m.is_point]
            if left:
                notes.append(f"{slug} says yes but still lists {len(left)} disagreement(s)")
    return tuple(notes)


def _blind_yeses(debate: Debate, turn: int) -> list[tuple[str, list[str]]]:
    """Who said yes at `turn` without having been shown a participant's turn N-1 file, and whose.

    `write` records the peer files `next` served; a participant whose turn N-1
    appeared later (a late joiner when there is no roster, or a peer that
    wrote after a `--wait` timed out) was never seen, so that yes is not yet
    agreement with it.  A hand-written file keeps no record and is trusted.
    """
    blind = []
    for slug in debate.participants:
        entry = debate.entry(turn, slug)
        record = entry.reading_record if entry is not None and entry.converged else None
        if record is None:
            continue
        read = {name.rsplit("/", 1)[-1] for name, _digest in record}
        missed = [peer for peer in debate.participants if peer != slug
                  and (earlier := debate.entry(turn - 1, peer)) is not None and earlier.filename not in read]
        if missed:
            blind.append((slug, missed))
    return blind


def _blind_detail(blind: list[tuple[str, list[str]]], turn: int) -> str:
    said = "; ".join(f"{slug} said yes without seeing the turn {turn - 1} of {', '.join(peers)}" for slug, peers in blind)
    return f"{said} (written after it read its peers): one more turn confirms"


def judge(debate: Debate) -> Verdict:
    """The verdict on `debate` (see the module doc)."""
    current = debate.current_turn
    if current == 0:
        return Verdict("empty", 0, "no turn files yet")
    complete = [t for t in range(1, current + 1) if debate.complete(t)]
    blind_at: dict[int, list[tuple[str, list[str]]]] = {}  # all-yes, agreeing turns that a blind yes kept open
    for turn in complete:
        if turn < 2 or not _all_yes(debate, turn):
            continue
        pairs = _pairs(debate, turn)
        if not answers_agree(pairs):
            continue
        blind = _blind_yeses(debate, turn)
        if blind:
            blind_at[turn] = blind
        else:
            extra = tuple(sorted(e.path for (t, _s), e in debate.entries.items() if t > turn))
            who = "both" if len(debate.participants) == 2 else f"all {len(debate.participants)}"
            detail = f"{who} say yes at turn {turn} and their answers agree ({_why(pairs)})"
            return Verdict("converged", turn, detail, pairs, (), extra, _disagreement_notes(debate, turn))
    last = complete[-1] if complete else 0
    if last < current or last == 0:
        started = last + 1 if last < current else current
        missing = debate.missing(started)
        detail = f"turn {started} in progress: waiting for {', '.join(missing) or 'nobody'}"
        # said while the next turn is in progress: why the all-yes turn before it did not end the debate
        notes = (f"turn {last} did not converge: {_blind_detail(blind_at[last], last)}",) if last in blind_at else ()
        return Verdict("in_progress", last, detail, (), missing, (), notes)
    pairs = _pairs(debate, last)
    agree = answers_agree(pairs)
    if _all_yes(debate, last) and not agree:
        return Verdict("hollow", last, f"all say yes at turn {last} but their answers differ ({_why(pairs)})", pairs)
    limit = debate.task.max_turns if debate.task else None
    if limit is not None and last >= limit:
        return Verdict("max_turns", last, f"turn limit {limit} reached without convergence", pairs)
    if last >= 2 and agree:
        holdouts = [s for s in debate.participants if (e := debate.entry(last, s)) is None or e.converged is not True]
        verb = "says" if len(holdouts) == 1 else "say"
        if holdouts:
            detail = f"answers agree at turn {last} ({_why(pairs)}) but {', '.join(holdouts)} still {verb} no"
        else:  # all say yes, and only a blind yes keeps it from converging
            detail = f"answers agree at turn {last} ({_why(pairs)}) but {_blind_detail(blind_at[last], last)}"
        return Verdict("latent", last, detail, pairs)
    if last >= 3 and not any(
        _position_moved(debate, s, last - 2, last - 1) or _position_moved(debate, s, last - 1, last)
        for s in debate.participants
    ):
        return Verdict("stalled", last, f"no position changed from turn {last - 2} to {last}", pairs)
    return Verdict("in_progress", last, f"turn {last} complete; the debate goes on ({_why(pairs)})", pairs)
