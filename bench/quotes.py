"""How often the quote check (W090, the `misquote` flag) is right when it speaks.

    python bench/quotes.py [--json]

Data: bench/corpus/attributions.jsonl, every Agreements/Disagreements item
of the corpus debates that names one peer (250), each labelled by two
annotators who read the peer's own turns: supported, unsupported, or unclear
(nothing checkable attributed).  The check judges the items whose attributed
part it can extract and that have three key terms or more; printed: items
judged, flags, flags on items the annotators found supported (false flags),
and flags on unsupported items.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from multidebate.analysis.quotes import check_attributions  # noqa: E402
from multidebate.state.debate import load_debate  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def measure() -> dict[str, Any]:
    with open(os.path.join(ROOT, "bench", "corpus", "attributions.jsonl"), encoding="utf-8") as handle:
        labelled = [json.loads(line) for line in handle if line.strip()]
    by_place = {(r["folder"], r["turn"], r["slug"], r["line"]): r for r in labelled}
    judged = flags = false_flags = true_flags = 0
    for folder in sorted({r["folder"] for r in labelled}):
        for found in check_attributions(load_debate(os.path.join(ROOT, folder), use_cache=False)):
            row = by_place.get((folder, found.turn, found.slug, found.line))
            if row is None:
                continue
            judged += 1
            if not found.supported:
                flags += 1
                false_flags += row["label"] == "supported"
                true_flags += row["label"] == "unsupported"
    return {"labelled": len(labelled), "supported": sum(r["label"] == "supported" for r in labelled),
            "unsupported": sum(r["label"] == "unsupported" for r in labelled), "judged": judged, "flags": flags,
            "false_flags": false_flags, "true_flags": true_flags}


def main(argv: list[str]) -> int:
    result = measure()
    if argv[:1] == ["--json"]:
        print(json.dumps(result, indent=2))
        return 0
    print(f"{result['labelled']} labelled attributions ({result['supported']} supported, {result['unsupported']} "
          f"unsupported); the check judged {result['judged']} and flagged {result['flags']}: "
          f"{result['false_flags']} false flags, {result['true_flags']} right")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
