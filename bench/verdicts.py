"""How right the comparison and the verdict are, on labelled data from real debates.

    python bench/verdicts.py            # the tables (dev and test split)
    python bench/verdicts.py --json     # the same numbers as JSON (tests/test_corpus.py reads them)
    python bench/verdicts.py --show dev # every dev pair the comparison got wrong or was unsure of

Data (bench/corpus/, described in its README.md):

- `pairs.jsonl`: pairs of recommendation lines from real debates, each labelled
  same / different / unclear by two annotators reading independently
  (disagreements settled and marked); `split` is `dev` (tuned on) or `test`
  (held out: never looked at while tuning).
- `debates.json`: for every debate folder and every turn prefix (turns 1..k),
  the verdict a careful reader expects.

Printed: per split, pairs judged, false same (a "different" pair called the
same: the error behind a false `converged`), false different (a "same" pair
called different: behind a false `hollow`), unsure share; per debate prefix,
the share judged right and the false `converged` / false `hollow` count.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from collections import Counter
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from multidebate.analysis.verdict import debate_context, judge  # noqa: E402
from multidebate.state.debate import Debate, load_debate  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
CORPUS = os.path.join(ROOT, "bench", "corpus")


def load_pairs() -> list[dict[str, Any]]:
    with open(os.path.join(CORPUS, "pairs.jsonl"), encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def load_expected() -> list[dict[str, Any]]:
    with open(os.path.join(CORPUS, "debates.json"), encoding="utf-8") as handle:
        data: list[dict[str, Any]] = json.load(handle)
        return data


_DEBATES: dict[str, Debate] = {}


def debate_of(folder: str) -> Debate:
    if folder not in _DEBATES:
        _DEBATES[folder] = load_debate(os.path.join(ROOT, folder), use_cache=False)
    return _DEBATES[folder]


def relation_of(pair: dict[str, Any]) -> tuple[str, str]:
    """The comparison's relation for a labelled pair, in its debate's context, and its evidence."""
    debate = debate_of(pair["folder"])
    left = debate.entry(pair["left"]["turn"], pair["left"]["slug"])
    right = debate.entry(pair["right"]["turn"], pair["right"]["slug"])
    assert left is not None and right is not None, pair["id"]
    found = debate_context(debate).compare(debate.details(left).sig, debate.details(right).sig)
    return found.relation, found.evidence


def pair_scores(pairs: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    scores: dict[str, dict[str, Any]] = {}
    for split in ("dev", "test"):
        chosen = [p for p in pairs if p["split"] == split and p["label"] in ("same", "different")]
        counts: Counter[tuple[str, str]] = Counter()
        for pair in chosen:
            counts[(pair["label"], relation_of(pair)[0])] += 1
        same = sum(n for (label, _r), n in counts.items() if label == "same")
        different = sum(n for (label, _r), n in counts.items() if label == "different")
        unsure = sum(n for (_l, r), n in counts.items() if r == "unsure")
        scores[split] = {
            "pairs": len(chosen), "labelled_same": same, "labelled_different": different,
            "false_same": counts[("different", "same")], "false_different": counts[("same", "different")],
            "false_different_share": round(counts[("same", "different")] / same, 4) if same else 0.0,
            "unsure": unsure, "unsure_share": round(unsure / len(chosen), 4) if chosen else 0.0,
            "right": counts[("same", "same")] + counts[("different", "different")],
        }
    return scores


def verdict_at(folder: str, turns: int) -> str:
    """The verdict on the debate as it stood after `turns` turns (a copy with only those files)."""
    source = os.path.join(ROOT, folder)
    with tempfile.TemporaryDirectory() as tmp:
        target = os.path.join(tmp, os.path.basename(folder))
        os.makedirs(target)
        for name in os.listdir(source):
            if name.startswith("turn-") and int(name.split("-")[1]) <= turns:
                shutil.copy2(os.path.join(source, name), target)
        with open(os.path.join(source, "TASK.md"), encoding="utf-8") as handle:
            task = handle.read()
        with open(os.path.join(target, "TASK.md"), "w", encoding="utf-8") as handle:
            # a sealed debate's published turns are all in the folder: the copy reads them as they are
            handle.write(task.replace("\nsealed: true\n", "\n"))
        state = os.path.join(source, ".multidebate")
        for part in ("ledger", "keys"):
            if os.path.isdir(os.path.join(state, part)):
                shutil.copytree(os.path.join(state, part), os.path.join(target, ".multidebate", part))
        return judge(load_debate(target, use_cache=False)).state


def prefix_scores(expected: list[dict[str, Any]]) -> dict[str, Any]:
    right = total = false_converged = false_hollow = 0
    wrong: list[str] = []
    by_split: dict[str, list[int]] = {}
    for debate in expected:
        for turns, want in enumerate(debate["expected"], start=1):
            got = verdict_at(debate["folder"], turns)
            total += 1
            tally = by_split.setdefault(debate["split"], [0, 0])
            tally[1] += 1
            if got == want:
                right += 1
                tally[0] += 1
            else:
                wrong.append(f"{debate['folder']} after turn {turns}: expected {want}, got {got}")
                false_converged += got == "converged"
                false_hollow += got == "hollow"
    return {"prefixes": total, "right": right, "accuracy": round(right / total, 4) if total else 0.0,
            "false_converged": false_converged, "false_hollow": false_hollow, "wrong": wrong,
            "by_split": {s: {"prefixes": t, "right": r, "accuracy": round(r / t, 4) if t else 0.0}
                         for s, (r, t) in sorted(by_split.items())}}


def main(argv: list[str]) -> int:
    pairs = load_pairs()
    if argv[:1] == ["--show"]:
        split = argv[1] if len(argv) > 1 else "dev"
        for pair in pairs:
            if pair["split"] != split or pair["label"] not in ("same", "different"):
                continue
            relation, evidence = relation_of(pair)
            if relation != pair["label"]:
                print(f"{pair['label']:9} got {relation:9} {pair['id']}\n   {pair['left']['line'][:160]}\n"
                      f"   {pair['right']['line'][:160]}\n   evidence: {evidence}")
        return 0
    result = {"pairs": pair_scores(pairs), "debates": prefix_scores(load_expected())}
    if argv[:1] == ["--json"]:
        print(json.dumps(result, indent=2))
        return 0
    print("pairs of recommendation lines (labelled same/different by two annotators)")
    print(f"  {'split':5} {'pairs':>5} {'same':>5} {'diff':>5} {'false same':>11} {'false diff':>11} "
          f"{'(share of same)':>16} {'unsure':>7} {'share':>6}")
    for split, s in result["pairs"].items():
        print(f"  {split:5} {s['pairs']:5} {s['labelled_same']:5} {s['labelled_different']:5} {s['false_same']:11} "
              f"{s['false_different']:11} {s['false_different_share']:16.1%} {s['unsure']:7} {s['unsure_share']:6.1%}")
    d = result["debates"]
    print(f"verdict on every turn prefix of {len(load_expected())} debates: {d['right']} of {d['prefixes']} right "
          f"({d['accuracy']:.1%}); false converged {d['false_converged']}, false hollow {d['false_hollow']}")
    for split, s in d["by_split"].items():
        print(f"  {split}: {s['right']} of {s['prefixes']} ({s['accuracy']:.1%})")
    for line in d["wrong"]:
        print(f"  wrong: {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
