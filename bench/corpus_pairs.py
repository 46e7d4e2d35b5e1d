"""Extract candidate pairs of recommendation lines from real debate folders, for labelling.

For every debate folder and turn N: each pair of participants' turn-N lines
(the verdict's question), each participant's turn N-1 line against its turn-N
line (the analysis's "changed?"), and each turn-N line against a peer's turn
N-1 line (the analysis's "toward?"), and each participant's turn-1 line against
each peer's last line ("span": did they start where they ended?).  Pairs whose folded lines are identical
are kept once per debate (they are the easy case); every other pair is kept.

    python bench/corpus_pairs.py FOLDER... > new-pairs.jsonl
    python bench/corpus_pairs.py --all FOLDER...   # also every other two lines of a debate ("any")

Sessions that copy an agreed line word for word leave few distinct lines in
a debate, so the verdict's own pairs are few; `--all` adds every other pair
of two distinct lines written in the debate (any turns, any writers): real
lines still, compared as the final answer and the report compare them.

Each line: {"id", "debate", "kind", "turn", "left": {slug, turn, line}, "right": {...},
"left_answer", "right_answer", "task"}; labels are added by people (see bench/corpus/README.md).
"""

from __future__ import annotations

import json
import os
import sys
from itertools import combinations

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from multidebate.protocol.answer import normalise_line  # noqa: E402
from multidebate.state.debate import load_debate  # noqa: E402


def pairs_of(folder: str, every: bool = False) -> list[dict[str, object]]:
    debate = load_debate(folder, use_cache=False)
    name = os.path.basename(os.path.normpath(folder))
    task = debate.task.text if debate.task else ""
    out: list[dict[str, object]] = []
    seen: set[tuple[str, str]] = set()

    def add(kind: str, turn: int, a: tuple[int, str], b: tuple[int, str]) -> None:
        left, right = debate.entry(*a), debate.entry(*b)
        if left is None or right is None:
            return
        la, lb = debate.details(left).sig.recommendation, debate.details(right).sig.recommendation
        key = tuple(sorted((normalise_line(la), normalise_line(lb))))
        if key in seen:
            return
        seen.add(key)  # type: ignore[arg-type]
        out.append({
            "id": f"{name}/{kind}/{a[0]}-{a[1]}/{b[0]}-{b[1]}", "debate": name, "kind": kind, "turn": turn,
            "left": {"slug": a[1], "turn": a[0], "line": la}, "right": {"slug": b[1], "turn": b[0], "line": lb},
            "left_answer": debate.details(left).answer, "right_answer": debate.details(right).answer, "task": task,
        })

    for turn in range(1, debate.current_turn + 1):
        writers = debate.writers(turn)
        for a, b in combinations(writers, 2):
            add("peers", turn, (turn, a), (turn, b))
        if turn > 1:
            for slug in writers:
                add("own", turn, (turn - 1, slug), (turn, slug))
                for peer in debate.writers(turn - 1):
                    if peer != slug:
                        add("toward", turn, (turn - 1, peer), (turn, slug))
    last = debate.current_turn
    for slug in debate.writers(1):
        for peer in debate.writers(last):
            if peer != slug and last > 2:
                add("span", last, (1, slug), (last, peer))
    if every:
        written = [(turn, slug) for turn in range(1, last + 1) for slug in debate.writers(turn)]
        for a, b in combinations(written, 2):
            add("any", max(a[0], b[0]), a, b)
    return out


def main(args: list[str]) -> int:
    every = "--all" in args
    for folder in [a for a in args if a != "--all"]:
        for pair in pairs_of(folder, every):
            print(json.dumps(pair, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
