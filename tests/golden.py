"""Golden-file helpers: a turn file's findings and values as stable, reviewable JSON."""

from __future__ import annotations

import json
import os
from typing import Any

from multidebate.protocol.naming import parse_turn_name
from multidebate.state.debate import read_entry
from multidebate.state.folder import TurnFile

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures", "turns")


def describe(case_dir: str) -> dict[str, Any]:
    """What the reader makes of the one turn file in `case_dir`."""
    (name,) = [n for n in os.listdir(case_dir) if n.startswith("turn-")]
    turn_name = parse_turn_name(name)
    assert turn_name is not None
    read = read_entry(TurnFile(turn_name, os.path.join(case_dir, name), True, False), shown_as=name)
    entry, parsed = read.entry, read.parsed
    return {
        "findings": [str(f) for f in entry.findings],
        "confidence": entry.confidence,
        "converged": entry.converged,
        "converged_reason": parsed.converged_reason if parsed else None,
        "sections": sorted(parsed.sections) if parsed else None,
        "answer_starts": read.details.answer[:40],
        "mentions": [[m.section, list(m.slugs), m.absent] for m in parsed.mentions] if parsed else None,
    }


def cases() -> list[str]:
    return sorted(d for d in os.listdir(FIXTURES) if os.path.isdir(os.path.join(FIXTURES, d)))


def regenerate() -> None:
    """Rewrite every expected.json from the current reader (review the diff before committing)."""
    for case in cases():
        path = os.path.join(FIXTURES, case, "expected.json")
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(describe(os.path.join(FIXTURES, case)), handle, indent=2, ensure_ascii=False)
            handle.write("\n")


if __name__ == "__main__":
    regenerate()
