"""Does debating help? Re-score every shipped accuracy debate against its key, with 95 % intervals (#28).

    python bench/accuracy.py                 # Markdown tables: per debate, then totals
    python bench/accuracy.py --json          # the same numbers for programs
    python bench/accuracy.py --root DIR      # DIR/debates/<name>/ scored with DIR/keys/<name>.txt

Each debate folder is kept as the sessions wrote it; this only reads it (the
parse cache is not used; the untracked `.multidebate/cache/` may get its task
record).  Scoring is `multidebate score`'s (views/score.py).
Totals pool the items of every debate (item-weighted).  Intervals, 95 %
(docs/accuracy.md says why these):

- one answer per item (the turn-1 vote, a turn's majority, the final answer,
  the vote's moves to the final): Wilson score interval over items;
- figures that pool several sessions' answers to one item (one session at
  turn 1, the sessions' moves), and the paired differences final - turn-1
  vote and final - one session: percentile bootstrap over items, the same
  resampled items for both sides of a difference, 10,000 resamples, seed 28.

Items of one debate are not independent (its final answer is one Answer for
all of them), so every interval here is narrower than the truth would be.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
from typing import Any, NamedTuple

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from multidebate.analysis.score import Score  # noqa: E402
from multidebate.protocol.errors import MultidebateError  # noqa: E402
from multidebate.views.score import percent, score_folder  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "accuracy")
Z = 1.959963984540054  # the normal quantile of 97.5 %
RESAMPLES = 10_000
SEED = 28  # the number: fixed, so a re-run prints the same intervals


def wilson(right: int, n: int) -> tuple[float, float]:
    """The Wilson score interval of right/n (95 %); (0, 1) when n is 0."""
    if n == 0:
        return 0.0, 1.0
    p = right / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def bootstrap(values: list[float], resamples: int = RESAMPLES, seed: int = SEED) -> tuple[float, float]:
    """The 95 % percentile bootstrap interval of the mean of per-item `values` (resampling items)."""
    if not values:
        return 0.0, 0.0
    rng = random.Random(seed)
    n = len(values)
    means = sorted(sum(rng.choices(values, k=n)) / n for _ in range(resamples))
    return means[int(0.025 * resamples)], means[int(0.975 * resamples) - 1]


class Item(NamedTuple):
    """What the totals need of one item of one debate."""

    sessions: int  # turn-1 answers to it
    first_right: int  # of them right
    moved_wrong: int  # sessions right at turn 1 and wrong at their last turn
    moved_right: int
    vote: bool  # turn-1 vote right
    last: bool  # the majority at the debate's last turn right
    final: bool
    by_turn: dict[int, bool]  # the majority at each turn right

    @property
    def single(self) -> float:
        return self.first_right / self.sessions if self.sessions else 0.0


def items_of_score(result: Score) -> list[Item]:
    """One Item per item of a scored debate."""
    out = []
    for row in result.rows:
        starts = {s: a.right for t, s, a in row.answers if t == 1}
        last = {s: a.right for _t, s, a in row.answers}  # answers are in turn order: the last one stays
        votes = {t: a.right for t, a, _tie in row.votes}
        out.append(Item(len(starts), sum(starts.values()), sum(1 for s, r in starts.items() if r and not last[s]),
                        sum(1 for s, r in starts.items() if not r and last[s]), votes.get(1, False),
                        votes[max(votes)] if votes else False, row.final.right, votes))
    return out


def figure(name: str, values: list[float], how: str, counts: tuple[int, int] | None = None) -> dict[str, Any]:
    """One row of the totals: the mean of per-item values, its interval, and the counts behind it."""
    n = len(values)
    mean = sum(values) / n if n else 0.0
    low, high = wilson(round(sum(values)), n) if how == "wilson" else bootstrap(values)
    right, of = counts if counts is not None else (round(sum(values)), n)
    row = {"figure": name, "value": round(mean, 4), "low": round(low, 4), "high": round(high, 4), "method": how}
    return row if how == "paired bootstrap" else {**row, "right": right, "n": of}


def totals(items: list[Item]) -> list[dict[str, Any]]:
    """Every total of docs/accuracy.md, pooled over the items of all debates."""
    answers = sum(i.sessions for i in items)
    rows = [figure("one session, turn 1", [i.single for i in items], "bootstrap",
                   (sum(i.first_right for i in items), answers)),
            figure("turn-1 vote", [float(i.vote) for i in items], "wilson")]
    for turn in range(2, max((max(i.by_turn) for i in items if i.by_turn), default=1) + 1):
        reached = [float(i.by_turn[turn]) for i in items if turn in i.by_turn]
        rows.append(figure(f"majority at turn {turn}", reached, "wilson"))
    rows += [figure("majority at the last turn", [float(i.last) for i in items], "wilson"),
             figure("final answer", [float(i.final) for i in items], "wilson"),
             figure("final - turn-1 vote", [i.final - i.vote for i in items], "paired bootstrap"),
             figure("final - one session", [i.final - i.single for i in items], "paired bootstrap"),
             figure("sessions moved right -> wrong", [i.moved_wrong / i.sessions if i.sessions else 0.0
                                                      for i in items], "bootstrap",
                    (sum(i.moved_wrong for i in items), answers)),
             figure("sessions moved wrong -> right", [i.moved_right / i.sessions if i.sessions else 0.0
                                                      for i in items], "bootstrap",
                    (sum(i.moved_right for i in items), answers)),
             figure("vote -> final: right -> wrong", [float(i.vote and not i.final) for i in items], "wilson"),
             figure("vote -> final: wrong -> right", [float(i.final and not i.vote) for i in items], "wilson")]
    return rows


def debate_row(name: str, result: Score) -> dict[str, Any]:
    vote, final = result.vote, result.final
    last = result.turns[-1].vote if result.turns else None
    return {"debate": name, "items": result.items, "turns": len(result.turns),
            "single_mean": result.single_mean, "vote": vote.as_dict() if vote else None,
            "last_majority": last.as_dict() if last else None, "final": final.as_dict(),
            "sessions_right_to_wrong": sum(c.right_to_wrong for c in result.changes),
            "sessions_wrong_to_right": sum(c.wrong_to_right for c in result.changes),
            "vote_to_final": result.vote_to_final.as_dict()}


def score_all(root: str) -> tuple[list[dict[str, Any]], list[Item]]:
    """Every debate under root/debates scored with its key (MultidebateError when a key is missing or bad)."""
    debates = os.path.join(root, "debates")
    names = sorted(n for n in os.listdir(debates) if os.path.isdir(os.path.join(debates, n))) \
        if os.path.isdir(debates) else []
    rows, items = [], []
    for name in names:
        key = os.path.join(root, "keys", f"{name}.txt")
        if not os.path.isfile(key):
            raise MultidebateError(f"no answer key for debate {name}: expected {key}")
        result = score_folder(os.path.join(debates, name), key, use_cache=False)
        rows.append(debate_row(name, result))
        items += items_of_score(result)
    return rows, items


def _points(value: float) -> str:
    return f"{100 * value:+.1f} points"


def _shown(row: dict[str, Any]) -> tuple[str, str]:
    if row["method"] == "paired bootstrap":
        return _points(row["value"]), f"{_points(row['low'])} to {_points(row['high'])}"
    counts = f" ({row['right']}/{row['n']})"
    return f"{percent(row['value'])}{counts}", f"{percent(row['low'])} to {percent(row['high'])}"


def markdown(rows: list[dict[str, Any]], total: list[dict[str, Any]]) -> str:
    if not rows:
        return "no debates yet"
    lines = ["| debate | items | turns | one session, turn 1 (mean) | turn-1 vote | last-turn majority | final answer "
             "| sessions right -> wrong / wrong -> right | vote -> final right -> wrong / wrong -> right |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        vote, last, final = r["vote"], r["last_majority"], r["final"]
        shown_vote = f"{vote['right']}/{vote['total']} ({vote['ties']} ties)" if vote else "-"
        shown_last = f"{last['right']}/{last['total']}" if last else "-"
        lines.append(f"| {r['debate']} | {r['items']} | {r['turns']} | {percent(r['single_mean'])} | {shown_vote} "
                     f"| {shown_last} | {final['right']}/{final['total']} ({final['kind']}) "
                     f"| {r['sessions_right_to_wrong']} / {r['sessions_wrong_to_right']} "
                     f"| {r['vote_to_final']['right_to_wrong']} / {r['vote_to_final']['wrong_to_right']} |")
    n = sum(r["items"] for r in rows)
    lines += ["", f"Totals over {n} items in {len(rows)} debate{'s' if len(rows) != 1 else ''} (item-weighted):", "",
              "| figure | value | 95 % interval | method |", "|---|---|---|---|"]
    for row in total:
        value, interval = _shown(row)
        lines.append(f"| {row['figure']} | {value} | {interval} | {row['method']} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--root", default=ROOT, help="holds debates/<name>/ and keys/<name>.txt")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    try:
        rows, items = score_all(args.root)
    except MultidebateError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 1
    total = totals(items) if items else []
    if args.json:
        print(json.dumps({"debates": rows, "items": len(items), "totals": total or None,
                          "resamples": RESAMPLES, "seed": SEED, "note": None if rows else "no debates yet"},
                         indent=2))
    else:
        print(markdown(rows, total))
    return 0


if __name__ == "__main__":
    sys.exit(main())
