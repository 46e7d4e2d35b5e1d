"""Labelled pairs of bold lines, each played out by two sessions the way sessions work, and the verdict.

    python bench/pair_verdicts.py PAIRS.jsonl [--json] [--show]

For every pair, two sessions `a` and `b` debate in a fresh folder through the
library calls the CLI makes (`next`, then `write`, with the key): at turn 1 `a`
writes line A and `b` writes line B; at turn 2 each keeps its own line and says
yes; at turn 3 each keeps its line and says yes again.  The verdict is read
after turn 2 and after turn 3.

A pair labelled `different` that ends `converged` is a false consensus (the
costliest error); a pair labelled `same` that ends `hollow` at turn 2, the
first all-yes turn, is a real agreement thrown away.  Under the strict rule a
same-meaning pair written in two wordings costs one turn (`unconfirmed` at 2)
and, if the sessions still do not copy one line, ends `hollow` at 3: the
turn-3 column says so.

PAIRS.jsonl holds one object a line: `a`/`b` (or `left`/`right`) and `label`
(or `expect`): `same` or `different`.  Lines without ``**`` are made bold.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections import Counter
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from multidebate.analysis.verdict import judge  # noqa: E402
from multidebate.state.debate import load_debate  # noqa: E402
from multidebate.state.task import create_task, render_task  # noqa: E402
from multidebate.turns.briefing import brief  # noqa: E402
from multidebate.turns.write import write_turn  # noqa: E402


def _bold(line: str) -> str:
    return line if "**" in line else f"**{line}**"


def _sections(turn: int, line: str, yes: bool) -> bytes:
    parts = [f"## Reasoning\nTurn {turn}: I keep my line.\n", f"## Answer\n{line}\n\nDetails as before.\n"]
    if turn > 1:
        parts += ["## Agreements\n- None\n", "## Disagreements\n- None\n"]
    parts += ["## Confidence\n80\n", f"## Converged\n{'yes' if yes else 'no'}\n"]
    return "\n".join(parts).encode("utf-8")


def play(line_a: str, line_b: str) -> tuple[str, str]:
    """The verdict after turn 2 and after turn 3 of two sessions that keep lines A and B and say yes."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = os.path.join(tmp, "d")
        os.makedirs(folder)
        # min_turns 2: a pair written alike at turn 1 would end `unanimous` there (#36); the bench measures
        # what all-yes turns with these two lines end as
        create_task(folder, render_task("Decide the setting the team will apply.", ("a", "b"), 4, min_turns=2))
        keys: dict[str, str | None] = {"a": None, "b": None}
        states = []
        for turn in (1, 2, 3):
            for slug, line in (("a", line_a), ("b", line_b)):
                brief(folder, slug, key=keys[slug])
                result = write_turn(folder, slug, _sections(turn, line, turn > 1), keys[slug])
                keys[slug] = keys[slug] or result.key
            if turn > 1:
                verdict = judge(load_debate(folder, use_cache=False))
                states.append(verdict.state)
                if verdict.final:  # `write` refuses a turn after the end (#34): the end stands at turn 3
                    return states[0], states[-1]
        return states[0], states[1]


def main(argv: list[str]) -> int:
    paths = [a for a in argv if not a.startswith("--")]
    if not paths:
        print(__doc__)
        return 2
    rows: list[dict[str, Any]] = []
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            rows += [json.loads(line) for line in handle if line.strip()]
    counts: Counter[tuple[str, str, str]] = Counter()
    results = []
    for row in rows:
        a, b = _bold(row.get("a", row.get("left", ""))), _bold(row.get("b", row.get("right", "")))
        label = row.get("label", row.get("expect"))
        at2, at3 = play(a, b)
        counts[(label, at2, at3)] += 1
        results.append({"id": row.get("id", ""), "label": label, "turn2": at2, "turn3": at3, "a": a, "b": b})
    different = [r for r in results if r["label"] == "different"]
    same = [r for r in results if r["label"] == "same"]
    summary = {
        "pairs": len(results), "different": len(different), "same": len(same),
        "false_converged": sum(r["turn2"] == "converged" or r["turn3"] == "converged" for r in different),
        "same_hollow_at_first_yes": sum(r["turn2"] == "hollow" for r in same),
        "same_converged": sum(r["turn2"] == "converged" for r in same),
        "outcomes": {f"{k[0]}: turn 2 {k[1]}, turn 3 {k[2]}": n for k, n in sorted(counts.items())},
    }
    if "--json" in argv:
        print(json.dumps({"summary": summary, "results": results}, indent=1))
        return 0
    print(f"{summary['pairs']} pairs ({summary['different']} different, {summary['same']} same)")
    print(f"  false converged (a different pair ends converged): {summary['false_converged']}")
    print(f"  same pairs ended hollow at the first all-yes turn: {summary['same_hollow_at_first_yes']}")
    print(f"  same pairs converged at turn 2 as written: {summary['same_converged']}")
    for outcome, n in summary["outcomes"].items():
        print(f"  {n:4}  {outcome}")
    if "--show" in argv:
        for r in results:
            bad = (r["label"] == "different" and "converged" in (r["turn2"], r["turn3"])) or (
                r["label"] == "same" and r["turn2"] == "hollow")
            if bad:
                print(f"WRONG {r['id']} {r['label']}: {r['turn2']}/{r['turn3']}\n   {r['a']}\n   {r['b']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
