"""`score`: a debate's answers against an answer key, as one Score value and its text for a terminal."""

from __future__ import annotations

from ..analysis.answer_key import read_key
from ..analysis.ending import settle
from ..analysis.final import final_answer
from ..analysis.score import Change, Score, Tally, VoteScore, score, sheet_of
from ..state.debate import load_debate

__all__ = ["render_score", "score_folder"]


def score_folder(folder: str, key_path: str, use_cache: bool = True) -> Score:
    """The debate in `folder` scored against the key in `key_path`, with the final answer `report` gives.

    KeyFileError for a malformed key, FolderError when `folder` is no folder.
    """
    key = read_key(key_path)  # first: a bad key is reported before a large folder is read
    debate = load_debate(folder, use_cache)
    # as build_report judges, so the final answer is the report's; a move made after the end counts nowhere
    debate, _problems, verdict = settle(debate)
    return score(sheet_of(debate, final_answer(debate, verdict)), key)


def percent(share: float | None) -> str:
    """75%, 68.3%: one decimal only where it says something."""
    if share is None:
        return "-"
    text = f"{100 * share:.1f}".removesuffix(".0")
    return f"{text}%"


def _tally(tally: Tally) -> str:
    return f"{tally.right}/{tally.total} {percent(tally.share):>4}"


def _vote(vote: VoteScore) -> str:
    ties = f" ({vote.ties} tie{'s' if vote.ties != 1 else ''})" if vote.ties else ""
    return _tally(vote.tally) + ties


def _table(rows: list[list[str]], right_from: int = 1) -> list[str]:
    """Rows aligned in columns: the first `right_from` columns to the left, the others to the right."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(widths[i]) if i < right_from else cell.rjust(widths[i])
                      for i, cell in enumerate(row)).rstrip() for row in rows]


def _final_line(result: Score) -> str:
    final = result.final
    if final.kind == "none":
        return f"final answer: none (no readable Answer); every item counts as wrong: {_tally(final.tally)}"
    if final.kind == "split":
        return (f"final answer: none (turn {final.turn} is split: no answer is most held); every item counts as "
                f"wrong: {_tally(final.tally)}")
    how = "consensus" if final.kind == "consensus" else "most held, no consensus"
    missing = f", {final.tally.missing} missing" if final.tally.missing else ""
    whose = f"{final.representative}'s Answer" if final.representative else "the agreed line alone"
    return f"final answer ({how}, turn {final.turn}, {whose}): {_tally(final.tally)}{missing}"


def _changes(changes: list[Change]) -> list[str]:
    rows = [["moved", "turns", "right->wrong", "wrong->right"]]
    rows += [[c.who, f"{c.from_turn}->{c.to_turn}", str(c.right_to_wrong), str(c.wrong_to_right)] for c in changes]
    return _table(rows, right_from=1)


def render_score(result: Score) -> str:
    """The Score as a few aligned lines for a terminal."""
    lines = [f"{result.folder} against {result.key}: {result.items} items, {len(result.participants)} participants"]
    if not result.turns:
        return "\n".join(lines + ["no turn files yet"])
    header = ["turn", *result.participants, "vote", "ties"]
    rows = [header] + [[str(t.turn), *(_tally(t.participants[s]) if s in t.participants else "-"
                                        for s in result.participants), _tally(t.vote.tally), str(t.vote.ties)]
                       for t in result.turns]
    lines += [""] + _table(rows)
    missing = [f"{s} at turn {t.turn}: {c.missing}" for t in result.turns for s, c in t.participants.items()
               if c.missing]
    lines.append("missing items (counted wrong): " + ("; ".join(missing) if missing else "none"))
    lines.append("")
    singles = ", ".join(f"{s} {percent(c.share)}" for s, c in result.single.items())
    lines.append(f"one session, turn 1: {singles}; mean {percent(result.single_mean)}")
    if result.vote is not None:
        lines.append(f"turn-1 vote (majority of {result.vote.voters} answers): {_vote(result.vote)}")
    lines.append(_final_line(result))
    lines += [""] + _changes([*result.changes, result.vote_to_final._replace(who="vote->final")])
    return "\n".join(lines)
