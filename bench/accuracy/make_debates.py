"""Deal the items into debates of 20 and create each debate folder with `multidebate init` (sealed turns),
its answer key and item list. Run: python bench/accuracy/make_debates.py ITEMS.jsonl PREFIX OUT-DIR KEYS-DIR"""
from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

SEED = 2026_11_26
PER_DEBATE = 20
INTRO = ("Answer each of the {n} items below. Work without running code, calculators or date tools: reason it "
         "through yourself, as a chat session would. Your bold line lists every item, in order: "
         "`Q1: <answer>, Q2: <answer>, ...` (whole numbers without thousands separators, weekdays as names, dates as "
         "YYYY-MM-DD, options as the letter alone).")


def main() -> int:
    source, prefix, out, keys = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3]), Path(sys.argv[4])
    items = [json.loads(line) for line in source.open(encoding="utf-8")]
    rng = random.Random(SEED)
    by_category: dict[str, list[dict[str, str]]] = defaultdict(list)
    for item in items:
        by_category[item["category"]].append(item)
    dealt: list[dict[str, str]] = []
    for category in sorted(by_category):  # stratified: each debate gets two or three of every category
        group = by_category[category]
        rng.shuffle(group)
        dealt.extend(group)
    debates = [dealt[i::len(items) // PER_DEBATE] for i in range(len(items) // PER_DEBATE)]
    keys.mkdir(parents=True, exist_ok=True)
    for number, chosen in enumerate(debates, 1):
        rng.shuffle(chosen)
        name = f"{prefix}{number:02d}"
        task = INTRO.format(n=len(chosen)) + "\n\n" + "\n\n".join(
            f"Q{q}. {item['question']}" for q, item in enumerate(chosen, 1))
        subprocess.run(["multidebate", "init", str(out / name), "--task", task, "--sealed", "--max-turns", "4",
                        "--participants", ",".join(f"{name}-{p}" for p in ("quick", "careful", "agreeable"))],
                       check=True)
        (keys / f"{name}.txt").write_text(
            "".join(f"Q{q}: {item['answer']}\n" for q, item in enumerate(chosen, 1)), encoding="utf-8")
        (keys / f"{name}.ids").write_text(
            "".join(f"Q{q}\t{item['id']}\t{item['category']}\n" for q, item in enumerate(chosen, 1)), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
