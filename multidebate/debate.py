"""A debate as read from its folder: task, participants, and every turn file parsed."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from .findings import Finding
from .folder import Scan, TurnEntry, scan_folder
from .parse import ParsedTurn, parse_turn
from .sealed import published_turns, sealed_turns
from .task import Task, load_task
from .textfile import read_text

__all__ = ["Entry", "Debate", "load_debate", "read_entry", "visible_scan"]


@dataclass(frozen=True)
class Entry:
    """One turn file: where it is, what it says (None when unreadable), and its findings."""

    turn: int
    slug: str
    path: str
    parsed: ParsedTurn | None
    findings: tuple[Finding, ...]
    mtime: float
    sha256: str

    @property
    def valid(self) -> bool:
        return not any(f.severity == "error" for f in self.findings)

    @property
    def confidence(self) -> int | None:
        return self.parsed.confidence if self.parsed else None

    @property
    def converged(self) -> bool | None:
        return self.parsed.converged if self.parsed else None

    @property
    def answer(self) -> str:
        return self.parsed.answer if self.parsed else ""


def read_entry(entry: TurnEntry, shown_as: str | None = None) -> Entry:
    """Read and parse one turn file; never raises."""
    import hashlib

    name = shown_as or entry.path
    read = read_text(entry.path, shown_as=name)
    try:
        mtime = os.lstat(entry.path).st_mtime
    except OSError:
        mtime = 0.0
    if read.text is None:
        return Entry(entry.name.turn, entry.name.slug, entry.path, None, read.findings, mtime, "")
    parsed = parse_turn(read.text, name, entry.name)
    findings = tuple(sorted(read.findings + parsed.findings))
    return Entry(entry.name.turn, entry.name.slug, entry.path, parsed, findings, mtime,
                 hashlib.sha256(read.raw).hexdigest())


@dataclass(frozen=True)
class Debate:
    """Everything `status`, `validate` and `next` need to know about a folder."""

    folder: str
    scan: Scan
    task: Task | None
    entries: dict[tuple[int, str], Entry]
    sealed_pending: dict[int, frozenset[str]] = field(default_factory=dict)

    @property
    def participants(self) -> tuple[str, ...]:
        """The roster when TASK.md has one, else everyone who has written a turn."""
        if self.task and self.task.participants:
            return self.task.participants
        return self.scan.slugs

    @property
    def current_turn(self) -> int:
        return self.scan.current_turn

    def entry(self, turn: int, slug: str) -> Entry | None:
        return self.entries.get((turn, slug))

    def writers(self, turn: int) -> tuple[str, ...]:
        return tuple(slug for slug in self.participants if (turn, slug) in self.entries)

    def missing(self, turn: int) -> tuple[str, ...]:
        return tuple(slug for slug in self.participants if (turn, slug) not in self.entries)

    def complete(self, turn: int) -> bool:
        return bool(self.participants) and not self.missing(turn)

    @property
    def last_complete_turn(self) -> int:
        return max((t for t in range(1, self.current_turn + 1) if self.complete(t)), default=0)


def visible_scan(folder: str) -> tuple[Scan, Task | None, dict[int, frozenset[str]]]:
    """The folder's scan as readers see it: in a sealed debate, published turns only.

    Also returns the task and, for a sealed debate, the slugs that sealed each
    unpublished turn.
    """
    scan = scan_folder(folder)
    task = load_task(folder) if scan.has_task else None
    pending: dict[int, frozenset[str]] = {}
    if task is not None and task.sealed:
        published = published_turns(folder)
        scan = scan.restricted_to(published)
        pending = {t: frozenset(s) for t, s in sealed_turns(folder).items() if t not in published}
    return scan, task, pending


def load_debate(folder: str) -> Debate:
    """Scan `folder` and parse every visible turn file in it (FolderError when it is no folder)."""
    scan, task, pending = visible_scan(folder)
    entries = {(t.name.turn, t.name.slug): read_entry(t) for t in scan.turns}
    return Debate(folder, scan, task, entries, pending)
