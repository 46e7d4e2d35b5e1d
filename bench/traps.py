"""Constructed trap pairs of the classes the verdicts issue names, against the comparison.

    python bench/traps.py [--all]

Data: bench/corpus/traps.jsonl, pairs written by the maintainer to break the
comparison (words that are glue elsewhere but decide here: before/after,
on/off, and/or; amounts in other words or units; one clause shared and the
rest different; option letters with a second letter), each with the relation
a careful reader expects.  `unsure` is never an error (the verdict waits);
an error is `same` for an expected `different` (a false consensus) or the
reverse.  These are constructed, not real: the measured numbers are
bench/verdicts.py's.  The pairs that matter most are also in
tests/test_comparison.py.
"""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from multidebate.analysis.comparison import compare  # noqa: E402

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "traps.jsonl")


def main(argv: list[str]) -> int:
    with open(DATA, encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    wrong = 0
    for row in rows:
        found = compare(f"**{row['left']}**", f"**{row['right']}**")
        error = found.relation != "unsure" and found.relation != row["expect"]
        wrong += error
        if error or "--all" in argv:
            print(f"{'WRONG' if error else 'ok   '} expect {row['expect']:9} got {found.relation:9} "
                  f"{row['left']!r} | {row['right']!r}: {found.evidence}")
    unsure = sum(compare(f"**{r['left']}**", f"**{r['right']}**").relation == "unsure" for r in rows)
    print(f"{len(rows)} trap pairs: {wrong} wrong, {unsure} unsure")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
