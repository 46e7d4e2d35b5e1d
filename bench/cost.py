"""What a debate costs before and after #36: turns to the end, characters `next` serves, accuracy of the answer.

    python bench/cost.py                     # Markdown: this tree's rules against BASE's (git archive of it)
    python bench/cost.py --base REV          # against another commit's rules (default: the commit before #36)
    python bench/cost.py --json              # the same numbers for programs
    python bench/cost.py --measure           # one side only, this tree's rules, as JSON (what the comparison runs)

Every shipped debate that is no review (bench/corpus/debates, bench/dogfood d*, bench/accuracy/debates) is
replayed as prefixes, as bench/end_turns.py does: the verdict on a copy holding turns 1..k gives the turn the
debate ends at (the first final verdict).  For each turn N up to that end and each session that wrote turn N,
`next` is rendered for it on a copy holding turns < N (its TASK.md shown as a session saw it after turn 1:
named, not repeated, when long), and its characters are counted: the whole answer, and the peers' files in it.
For bench/accuracy/debates the final answer (`report`'s, as `multidebate score` reads it) is scored against the
key with the whole folder, under each side's rules.

The "before" side runs this same script on a copy of BASE's package (`git archive`), in a subprocess; the data
is this tree's.  Replaying cannot show what sessions would have written had they read less or stopped sooner:
the later turns are the ones they wrote having read everything.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

BASE = "4378e5e"  # the merge before #36: the rules without `unanimous` and without serving less
PARENTS = ("bench/corpus/debates", "bench/dogfood", "bench/accuracy/debates")
FINAL = {"unanimous", "converged", "hollow", "stalled", "max_turns"}


def folders(data: str) -> list[str]:
    found = []
    for parent in PARENTS:
        for name in sorted(os.listdir(os.path.join(data, parent))):
            path = os.path.join(data, parent, name)
            task = os.path.join(path, "TASK.md")
            if not os.path.isfile(task):
                continue
            with open(task, encoding="utf-8") as handle:
                if "\nmode: review\n" in handle.read():
                    continue
            found.append(f"{parent}/{name}")
    return found


def _turn_of(name: str) -> int:
    return int(name.split("-")[1])


def _copy(source: str, target: str, below: int) -> None:
    """Turns < `below` of `source` in `target`, with TASK.md (unsealed: every published turn is there) and the
    ledger; no keys (`next` is rendered for each session without its key)."""
    os.makedirs(target)
    with open(os.path.join(source, "TASK.md"), encoding="utf-8") as handle:
        task = handle.read()
    with open(os.path.join(target, "TASK.md"), "w", encoding="utf-8") as handle:
        handle.write(task.replace("\nsealed: true\n", "\n"))
    for name in os.listdir(source):
        if name.startswith("turn-") and name.endswith(".md") and _turn_of(name) < below:
            shutil.copy2(os.path.join(source, name), target)
    ledger = os.path.join(source, ".multidebate", "ledger")
    if os.path.isdir(ledger):
        shutil.copytree(ledger, os.path.join(target, ".multidebate", "ledger"))


def _turns(source: str) -> int:
    return max((_turn_of(n) for n in os.listdir(source) if n.startswith("turn-") and n.endswith(".md")), default=0)


def measure(data: str) -> dict[str, Any]:
    """This package's rules on every debate: end, characters served per briefing, accuracy."""
    import multidebate
    from multidebate.analysis.verdict import judge
    from multidebate.protocol.errors import MultidebateError
    from multidebate.state.debate import load_debate
    from multidebate.turns.briefing import plan_briefing
    try:
        from multidebate.turns.briefing_text import render_briefing
    except ImportError:  # a BASE before #38 split the briefing's text from its plan
        from multidebate.turns.briefing import render_briefing  # type: ignore[attr-defined,no-redef]

    out: dict[str, Any] = {"package": os.path.dirname(multidebate.__file__), "debates": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for index, folder in enumerate(folders(data)):
            source = os.path.join(data, folder)
            last = _turns(source)
            states = []
            for k in range(1, last + 1):
                target = os.path.join(tmp, f"v{index}-{k}")
                _copy(source, target, k + 1)
                states.append(judge(load_debate(target, use_cache=False)).state)
            end = next((k for k, s in enumerate(states, start=1) if s in FINAL), None)
            full = load_debate(source, use_cache=False)
            served = []
            for turn in range(1, (end or last) + 1):
                target = os.path.join(tmp, f"b{index}-{turn}")
                _copy(source, target, turn)
                debate = load_debate(target, use_cache=False)
                for slug in full.writers(turn):
                    try:
                        briefing = plan_briefing(debate, slug).briefing
                    except MultidebateError:
                        continue
                    if turn > 1:  # the task as a session saw it after its turn 1 (the copy's times say otherwise)
                        briefing = briefing._replace(task_seen=True)
                    served.append({"turn": turn, "slug": slug, "chars": len(render_briefing(briefing)),
                                   "peer_chars": sum(len(p.text) for p in briefing.peers)})
            row: dict[str, Any] = {"states": states, "end_turn": end,
                                   "end_state": states[end - 1] if end else (states[-1] if states else "empty"),
                                   "served": served}
            if folder.startswith("bench/accuracy/"):
                row["accuracy"] = _accuracy(data, folder, tmp, index)
            out["debates"][folder] = row
    return out


def _accuracy(data: str, folder: str, tmp: str, index: int) -> dict[str, int]:
    from multidebate.views.score import score_folder

    name = os.path.basename(folder)
    target = os.path.join(tmp, f"a{index}")
    _copy(os.path.join(data, folder), target, 10**6)
    result = score_folder(target, os.path.join(data, "bench", "accuracy", "keys", f"{name}.txt"), use_cache=False)
    return {"right": result.final.tally.right, "total": result.final.tally.total}


def measure_base(base: str, data: str) -> dict[str, Any]:
    """`measure` under BASE's package: this script, run on a `git archive` of BASE's multidebate/."""
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", data, "archive", base, "multidebate"], check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        os.makedirs(os.path.join(tmp, "bench"))
        shutil.copy2(os.path.abspath(__file__), os.path.join(tmp, "bench", "cost.py"))
        done = subprocess.run([sys.executable, os.path.join(tmp, "bench", "cost.py"), "--measure", "--data", data],
                              check=True, capture_output=True, text=True, cwd=tmp)
        result: dict[str, Any] = json.loads(done.stdout)
        if not result["package"].startswith(tmp):
            raise SystemExit(f"the base side imported {result['package']}, not BASE's copy")
        return result


def _group(folder: str) -> str:
    return {"bench/corpus/debates": "corpus (d01-d64)", "bench/dogfood": "dogfood",
            "bench/accuracy/debates": "accuracy"}[folder.rsplit("/", 1)[0]]


def summary(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    groups: dict[str, dict[str, Any]] = {}
    changed = []
    for folder, new in after["debates"].items():
        old = before["debates"].get(folder)
        if old is None:
            continue
        group = groups.setdefault(_group(folder), {"debates": 0, "turns_before": 0, "turns_after": 0,
                                                   "briefings_before": 0, "briefings_after": 0,
                                                   "chars_before": 0, "chars_after": 0,
                                                   "peer_chars_before": 0, "peer_chars_after": 0,
                                                   "ended_earlier": 0, "right_before": 0, "right_after": 0,
                                                   "items": 0})
        group["debates"] += 1
        for side, row in (("before", old), ("after", new)):
            group[f"turns_{side}"] += row["end_turn"] or len(row["states"])
            group[f"briefings_{side}"] += len(row["served"])
            group[f"chars_{side}"] += sum(s["chars"] for s in row["served"])
            group[f"peer_chars_{side}"] += sum(s["peer_chars"] for s in row["served"])
        if (new["end_turn"] or 99) < (old["end_turn"] or 99):
            group["ended_earlier"] += 1
        if "accuracy" in new:
            group["right_before"] += old["accuracy"]["right"]
            group["right_after"] += new["accuracy"]["right"]
            group["items"] += new["accuracy"]["total"]
        if (old["end_state"], old["end_turn"]) != (new["end_state"], new["end_turn"]) or \
                old.get("accuracy") != new.get("accuracy"):
            changed.append({"debate": folder, "before": f"{old['end_state']} at {old['end_turn']}",
                            "after": f"{new['end_state']} at {new['end_turn']}",
                            "accuracy_before": old.get("accuracy"), "accuracy_after": new.get("accuracy")})
    return {"groups": groups, "changed": changed}


def markdown(result: dict[str, Any]) -> str:
    lines = ["| debates | n | turns to the end, before → after | ended earlier | `next` answers | characters "
             "served, before → after | of which peers' files | per answer, before → after |",
             "|---|---|---|---|---|---|---|---|"]
    for name, g in result["groups"].items():
        per_before = g["chars_before"] // max(g["briefings_before"], 1)
        per_after = g["chars_after"] // max(g["briefings_after"], 1)
        lines.append(f"| {name} | {g['debates']} | {g['turns_before']} → {g['turns_after']} | {g['ended_earlier']} "
                     f"| {g['briefings_before']} → {g['briefings_after']} "
                     f"| {g['chars_before']:,} → {g['chars_after']:,} ({_change(g['chars_before'], g['chars_after'])}) "
                     f"| {g['peer_chars_before']:,} → {g['peer_chars_after']:,} "
                     f"| {per_before:,} → {per_after:,} |")
    lines += ["", "| debate | end before | end after | final answer right, before → after |", "|---|---|---|---|"]
    for row in result["changed"]:
        b, a = row["accuracy_before"], row["accuracy_after"]
        right = f"{b['right']}/{b['total']} → {a['right']}/{a['total']}" if b and a else "-"
        lines.append(f"| {row['debate']} | {row['before']} | {row['after']} | {right} |")
    return "\n".join(lines)


def _change(before: int, after: int) -> str:
    return f"{100 * (after - before) / before:+.0f} %" if before else "-"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--base", default=BASE, help="the commit whose rules are 'before'")
    parser.add_argument("--data", default=os.path.abspath(os.path.join(HERE, "..")), help="the tree with bench/")
    parser.add_argument("--measure", action="store_true", help="one side only (this package), as JSON")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.measure:
        print(json.dumps(measure(args.data)))
        return 0
    before, after = measure_base(args.base, args.data), measure(args.data)
    result = summary(before, after)
    print(json.dumps({"summary": result, "before": before, "after": after}, indent=1) if args.json
          else markdown(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
