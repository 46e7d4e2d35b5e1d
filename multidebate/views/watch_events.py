"""What `watch` says: one event value per line of output, as plain text for people or JSON Lines.

A `WatchEvent` is one of these records; the debate as a document is the other
module's `Report` (views/report.py).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import ClassVar, Union

from ..analysis.verdict import Verdict
from ..state.debate import Debate, Entry

__all__ = [
    "StateEvent",
    "TurnFileEvent",
    "TurnCompleteEvent",
    "VerdictEvent",
    "RemovedEvent",
    "WatchEvent",
    "state_of",
    "text_line",
    "json_line",
    "error_line",
]


def _yes_no(value: bool | None) -> str:
    return {True: "yes", False: "no", None: "?"}[value]


def _verdict_text(verdict: Verdict) -> str:
    at = f" at turn {verdict.turn}" if verdict.turn else ""
    return f"{verdict.state}{at} - {verdict.detail}"


@dataclass(frozen=True)
class StateEvent:
    """Where the debate stands when watching starts."""

    type: ClassVar[str] = "state"
    folder: str
    current_turn: int
    written: tuple[str, ...]
    missing: tuple[str, ...]
    participants: tuple[str, ...]
    verdict: Verdict
    observer: str

    def as_dict(self) -> dict[str, object]:
        return {"folder": self.folder, "current_turn": self.current_turn, "written": list(self.written),
                "missing": list(self.missing), "participants": list(self.participants),
                "observer": self.observer, "verdict": self.verdict.as_dict()}

    def text(self) -> str:
        if self.current_turn == 0:
            where = "no turn files yet"
        else:
            where = f"turn {self.current_turn} written by {', '.join(self.written) or 'nobody'}"
            if self.missing:
                where += f"; waiting for {', '.join(self.missing)}"
        return f"watching {self.folder} ({self.observer}): {where}; verdict {_verdict_text(self.verdict)}"


def state_of(debate: Debate, verdict: Verdict, observer: str) -> StateEvent:
    """The StateEvent of `debate`."""
    current = debate.current_turn
    written = debate.writers(current) if current else ()
    missing = debate.missing(current) if current else ()
    return StateEvent(debate.folder, current, written, missing, debate.participants, verdict, observer)


@dataclass(frozen=True)
class TurnFileEvent:
    """A turn file that arrived complete (or changed after it was reported: `edited`)."""

    type: ClassVar[str] = "turn_file"
    entry: Entry
    path: str
    edited: bool = False

    def as_dict(self) -> dict[str, object]:
        e = self.entry
        return {"file": os.path.basename(self.path), "path": self.path, "turn": e.turn, "slug": e.slug,
                "confidence": e.confidence, "converged": e.converged, "valid": e.valid, "edited": self.edited,
                "sha256": e.sha256, "findings": [f.as_dict() for f in e.findings]}

    def text(self) -> str:
        e = self.entry
        conf = "?" if e.confidence is None else str(e.confidence)
        line = f"{os.path.basename(self.path)}: {e.slug} turn {e.turn}, confidence {conf}, converged {_yes_no(e.converged)}"
        if self.edited:
            line += " (changed after it was first written)"
        errors = [f for f in e.findings if f.severity == "error"]
        warnings = len(e.findings) - len(errors)
        if errors:
            line += "; errors: " + "; ".join(f"line {f.line} {f.code} {f.message}" for f in errors)
        if warnings:
            line += f"; {warnings} warning(s) (see `multidebate validate`)"
        return line


@dataclass(frozen=True)
class TurnCompleteEvent:
    """Every participant has written `turn`."""

    type: ClassVar[str] = "turn_complete"
    turn: int
    entries: tuple[Entry, ...]

    def as_dict(self) -> dict[str, object]:
        return {"turn": self.turn, "entries": [{"slug": e.slug, "confidence": e.confidence,
                                                 "converged": e.converged, "valid": e.valid}
                                                for e in self.entries]}

    def text(self) -> str:
        cells = ", ".join(f"{e.slug} {'?' if e.confidence is None else e.confidence} {_yes_no(e.converged)}"
                          for e in self.entries)
        return f"turn {self.turn} complete: {cells}"


@dataclass(frozen=True)
class VerdictEvent:
    """The verdict's state (or the turn it is taken on) changed."""

    type: ClassVar[str] = "verdict"
    verdict: Verdict
    previous: str

    def as_dict(self) -> dict[str, object]:
        return {"previous": self.previous, **self.verdict.as_dict()}

    def text(self) -> str:
        return f"verdict: {_verdict_text(self.verdict)}"


@dataclass(frozen=True)
class RemovedEvent:
    """A reported turn file was deleted or renamed away."""

    type: ClassVar[str] = "removed"
    path: str
    turn: int
    slug: str

    def as_dict(self) -> dict[str, object]:
        return {"file": os.path.basename(self.path), "path": self.path, "turn": self.turn, "slug": self.slug}

    def text(self) -> str:
        return f"removed: {os.path.basename(self.path)} ({self.slug} turn {self.turn})"


WatchEvent = Union[StateEvent, TurnFileEvent, TurnCompleteEvent, VerdictEvent, RemovedEvent]


def _stamp(at: float | None) -> datetime:
    return datetime.fromtimestamp(time.time() if at is None else at, tz=timezone.utc)


def text_line(event: WatchEvent, at: float | None = None) -> str:
    """The event as one plain line for people, led by the local time."""
    return f"{_stamp(at).astimezone().strftime('%H:%M:%S')} {event.text()}"


def json_line(event: WatchEvent, at: float | None = None) -> str:
    """The event as one JSON object on one line, with its `type` and UTC `time`."""
    stamp = _stamp(at).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return json.dumps({"type": event.type, "time": stamp, **event.as_dict()}, ensure_ascii=False)


def error_line(message: str, at: float | None = None) -> str:
    """A fatal error as a JSON line (`type` error) for programs that read only stdout."""
    stamp = _stamp(at).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return json.dumps({"type": "error", "time": stamp, "message": message}, ensure_ascii=False)
