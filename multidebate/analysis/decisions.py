"""What the person who decides a review settles: a point with its options.

Both the review's summary (review_summary.py: the findings' points) and its first screen (decision_brief.py:
the judge's points first, then the findings') list them, so the record and the judge's points live here,
below both.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..protocol.judgment import Judgment

__all__ = ["Decision", "judge_points"]


class Decision(NamedTuple):
    """A point the reader settles, with its options."""

    point: str
    options: tuple[str, ...]
    finding: str = ""  # the finding it is about ("" for a judge's point)


def judge_points(judgment: Judgment | None) -> list[Decision]:
    """The judge's Contested points, one per top-level item, its sub-items as the options (#27: each nested
    bullet had become an item of its own, with stray `**`)."""
    text = judgment.sections.get("Contested points", "") if judgment is not None else ""
    points: list[Decision] = []
    item = re.compile(r"^(?P<indent>[ \t]*)(?:[-*+]|\d{1,9}[.)])[ \t]+(?P<text>.*)$")
    for line in text.splitlines():
        match = item.match(line)
        if not line.strip():
            continue
        if match and not match.group("indent"):
            points.append(Decision(match.group("text").strip(), ()))
        elif match and points:
            points[-1] = points[-1]._replace(options=points[-1].options + (match.group("text").strip(),))
        elif points and points[-1].options:  # a sub-item's own continuation
            last = points[-1]
            points[-1] = last._replace(options=last.options[:-1] + (f"{last.options[-1]} {line.strip()}",))
        elif points:
            points[-1] = points[-1]._replace(point=f"{points[-1].point} {line.strip()}")
        else:
            points.append(Decision(line.strip(), ()))
    return [p for p in points if p.point.lower().strip(" .*_") not in ("none", "n/a", "nothing")]
