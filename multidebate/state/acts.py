"""What a person did to a debate: `retire` and `handover`, recorded append-only in `.multidebate/acts.jsonl`.

Both are a person's commands (the skill pre-approves only a session's commands, so a session that tries
one meets its assistant's permission prompt).  Each is recorded with the time and the turn it came at, so
`status` and `report` can say "x was retired at turn 3 by the person's command" and keep showing what x
wrote, and so the session that held a handed-over slug is told when it lost it.  A retirement found in
TASK.md with no record here was made by editing TASK.md, which anyone sharing the folder can do:
`status` and `report` name it as a problem.
"""

from __future__ import annotations

import json
import os
import re
from datetime import datetime, timezone
from typing import NamedTuple

from ..protocol.naming import is_slug
from .jsonstate import read_records
from .layout import STATE_DIR, open_state_append

__all__ = ["Act", "ACTS", "acts_path", "read_acts", "read_acts_checked", "record_act"]

ACTS = ("retire", "handover")
_TIME_RE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]{5,20}Z")


class Act(NamedTuple):
    """One person's command: which, on which slug, at which turn of the debate, when (UTC)."""

    act: str
    slug: str
    turn: int
    at: str

    def as_dict(self) -> dict[str, object]:
        return {"act": self.act, "slug": self.slug, "turn": self.turn, "at": self.at}

    def sentence(self) -> str:
        """`x was retired at turn 3 by the person's command (2026-...)`."""
        done = "retired" if self.act == "retire" else "handed over to another session"
        return f"{self.slug} was {done} at turn {self.turn} by the person's command ({self.at})"


def acts_path(folder: str) -> str:
    return os.path.join(folder, STATE_DIR, "acts.jsonl")


def record_act(folder: str, act: str, slug: str, turn: int) -> Act:
    """Append one act (one write(2) with O_APPEND, so two people's acts at once are both kept)."""
    record = Act(act, slug, turn, datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"))
    fd = open_state_append(acts_path(folder))
    try:
        os.write(fd, (json.dumps(record.as_dict()) + "\n").encode("utf-8"))
        os.fsync(fd)
    finally:
        os.close(fd)
    return record


def _act(data: dict[str, object]) -> Act | None:
    act, slug, turn, at = data.get("act"), data.get("slug"), data.get("turn"), data.get("at")
    # the slug and time reach the tool's own lines in status and report: a newline in either would start one
    if act not in ACTS or not isinstance(slug, str) or not is_slug(slug) or not isinstance(turn, int) \
            or isinstance(turn, bool) or not isinstance(at, str) or not _TIME_RE.fullmatch(at):
        return None
    return Act(str(act), slug, turn, at)


def read_acts(folder: str) -> tuple[Act, ...]:
    """Every recorded act, oldest first; a missing, unsafe or damaged record reads as what it still holds."""
    return read_acts_checked(folder)[0]


def read_acts_checked(folder: str) -> tuple[tuple[Act, ...], tuple[int, ...]]:
    """Every recorded act, and the numbers of the lines that are no act (a damaged record: `validate` says so)."""
    records, damaged = read_records(acts_path(folder), 4 * 1024 * 1024)
    acts = []
    for number, data in records:
        act = _act(data)
        if act is None:
            damaged.append(number)
        else:
            acts.append(act)
    return tuple(acts), tuple(sorted(damaged))
