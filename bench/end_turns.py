"""Where every shipped real debate ends: the verdict on each turn prefix, and the first final one.

    python bench/end_turns.py --json > ends.json        # record (e.g. on an older commit)
    python bench/end_turns.py --compare ends.json       # which debates now end later, earlier, or otherwise

A change to the verdict must not make a debate that real sessions ran with the
current skill end later than before.  The debates are grouped by the skill
they ran with (bench/corpus/README.md and bench/dogfood/README.md say which):
`old skill` (d01-d12, before the bold line was reused word for word),
`skill of its day` (d13-d63: the line reused, the proposed line not yet
printed), `current skill` (bench/dogfood and bench/accuracy: the proposed
line, `next` before `write`).  Review debates end by their own rules and are
left out.  Each prefix is judged on a copy holding only those turns, as
bench/verdicts.py does.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from cost import FINAL  # noqa: E402
from cost import folders as shipped  # noqa: E402
from verdicts import ROOT, verdict_at  # noqa: E402


def _group(folder: str) -> str:
    if folder.startswith("bench/corpus/"):
        number = int(os.path.basename(folder)[1:3])
        return "old skill" if number <= 12 else "skill of its day"
    return "current skill"


def folders() -> list[str]:
    """Every shipped open debate (reviews end by their own rules), as bench/cost.py lists them."""
    return shipped(ROOT)


def turns_of(folder: str) -> int:
    names = [n for n in os.listdir(os.path.join(ROOT, folder)) if n.startswith("turn-") and n.endswith(".md")]
    return max((int(n.split("-")[1]) for n in names), default=0)


def ends() -> dict[str, dict[str, Any]]:
    result = {}
    for folder in folders():
        states = [verdict_at(folder, k) for k in range(1, turns_of(folder) + 1)]
        end = next((k for k, s in enumerate(states, start=1) if s in FINAL), None)
        result[folder] = {"group": _group(folder), "states": states, "end_turn": end,
                          "end_state": states[end - 1] if end else (states[-1] if states else "empty")}
    return result


def compare(before: dict[str, dict[str, Any]], after: dict[str, dict[str, Any]]) -> dict[str, Any]:
    rows: dict[str, dict[str, list[str]]] = {}
    for folder, now in after.items():
        old = before.get(folder)
        if old is None:
            continue
        group = rows.setdefault(now["group"], {"same": [], "later": [], "earlier": [], "other state": []})
        old_end, new_end = old["end_turn"] or 99, now["end_turn"] or 99
        what = f"{folder}: {old['end_state']} at {old['end_turn']} -> {now['end_state']} at {now['end_turn']}"
        if new_end > old_end:
            group["later"].append(what)
        elif new_end < old_end:
            group["earlier"].append(what)
        elif old["end_state"] != now["end_state"]:
            group["other state"].append(what)
        else:
            group["same"].append(folder)
    return rows


def main(argv: list[str]) -> int:
    now = ends()
    if "--compare" in argv:
        with open(argv[argv.index("--compare") + 1], encoding="utf-8") as handle:
            before = json.load(handle)
        rows = compare(before, now)
        if "--json" in argv:
            print(json.dumps(rows, indent=1))
            return 0
        for group, kinds in rows.items():
            total = sum(len(v) for v in kinds.values())
            print(f"{group}: {total} debates; {len(kinds['same'])} end as before, {len(kinds['later'])} later, "
                  f"{len(kinds['earlier'])} earlier, {len(kinds['other state'])} in another state at the same turn")
            for kind in ("later", "earlier", "other state"):
                for line in kinds[kind]:
                    print(f"  {kind}: {line}")
        return 0
    if "--json" in argv:
        print(json.dumps(now, indent=1))
        return 0
    for folder, row in now.items():
        print(f"{row['group']:17} {folder}: {row['end_state']} at {row['end_turn']}  ({' '.join(row['states'])})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
