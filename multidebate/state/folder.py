"""Scan a debate folder: which files are turns, who takes part, where the gaps are."""

from __future__ import annotations

import os
import stat
from functools import cached_property
from typing import NamedTuple

from ..protocol.errors import FolderError
from ..protocol.naming import TurnName, looks_like_turn_attempt, parse_turn_name

__all__ = ["STATE_DIR", "Scan", "TurnFile", "scan_folder", "scan_of"]

from .fingerprint import FileIdentity, file_identity
from .layout import STATE_DIR


class TurnFile(NamedTuple):
    """A directory entry whose name is a canonical turn-file name."""

    name: TurnName
    path: str
    is_file: bool
    is_symlink: bool
    # (size, mtime_ns, ino, ctime_ns) from the listing: what the parse cache keys on
    identity: FileIdentity | None = None

    @property
    def filename(self) -> str:
        return self.name.filename  # the canonical name round-trips: cheaper than basename


class Scan:
    """What a folder holds, by name only: nothing is read here.

    A plain class, not a dataclass: building a dataclass costs a millisecond
    at import, and `status` must start in a blink.  Treat it as immutable.
    """

    def __init__(self, folder: str, turns: tuple[TurnFile, ...], attempts: tuple[str, ...], has_task: bool,
                 by_slug: dict[str, dict[int, TurnFile]], strays: tuple[TurnFile, ...] = ()) -> None:
        self.folder = folder
        self.turns = turns
        self.attempts = attempts
        self.has_task = has_task
        self.by_slug = by_slug
        # turn files cut off from their slug's turn 1 by a missing file: reported (E070), never analysed
        self.strays = strays

    def __repr__(self) -> str:
        return f"Scan({self.folder!r}, {len(self.turns)} turn files, {len(self.attempts)} attempts)"

    @cached_property
    def slugs(self) -> tuple[str, ...]:
        """Every slug with at least one turn file, in order of first appearance (turn, then name)."""
        return tuple(sorted(self.by_slug, key=lambda s: (min(self.by_slug[s]), s)))

    @property
    def current_turn(self) -> int:
        return max((t.name.turn for t in self.turns), default=0)

    def entry(self, turn: int, slug: str) -> TurnFile | None:
        return self.by_slug.get(slug, {}).get(turn)

    def own_count(self, slug: str) -> int:
        return len(self.by_slug.get(slug, {}))

    def restricted_to(self, turns: set[int]) -> Scan:
        """The same scan with only the turn files of `turns` (a sealed debate's published turns)."""
        kept = [t for t in self.turns if t.name.turn in turns]
        restricted = scan_of(self.folder, kept, self.attempts, self.has_task)
        restricted.strays = tuple(sorted(self.strays + restricted.strays, key=_order))
        return restricted

    def gaps(self) -> list[TurnFile]:
        """Turn files N of a slug with no unbroken run of files 1..N-1 before them (the strays)."""
        return list(self.strays)


def scan_folder(folder: str) -> Scan:
    """List `folder` once and classify its entries by name. Symlinks are never followed."""
    if not os.path.exists(folder):
        raise FolderError(f"no such folder: {folder}")
    if not os.path.isdir(folder):
        raise FolderError(f"not a folder: {folder}")
    if STATE_DIR in os.path.realpath(folder).split(os.sep):
        # sealed turns, keys and the ledger live there: read as a debate, they would show unpublished turns
        raise FolderError(f"{folder} is inside a debate's {STATE_DIR}/ (the tool's own state), not a debate "
                          "folder: give the folder that holds TASK.md and the turn files")
    turns: list[TurnFile] = []
    attempts: list[str] = []
    has_task = False
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                name = entry.name
                if name == "TASK.md":
                    has_task = True
                    continue
                parsed = parse_turn_name(name)
                if parsed is None:
                    if looks_like_turn_attempt(name):
                        attempts.append(name)
                    continue
                is_link = entry.is_symlink()
                identity = None
                try:
                    info = entry.stat(follow_symlinks=False)
                    is_file = not is_link and stat.S_ISREG(info.st_mode)
                    if is_file:
                        identity = file_identity(info)
                except OSError:
                    is_file = False
                turns.append(TurnFile(parsed, entry.path, is_file, is_link, identity))  # entry.path: folder joined to name
    except OSError as exc:
        raise FolderError(f"cannot list {folder}: {exc.strerror or exc}") from exc
    return scan_of(folder, turns, attempts, has_task)


def scan_of(folder: str, turns: list[TurnFile], attempts: list[str] | tuple[str, ...] = (),
            has_task: bool = False) -> Scan:
    """The Scan of turn entries already known (the watcher keeps them between listings)."""
    every: dict[str, dict[int, TurnFile]] = {}
    for turn_file in turns:
        every.setdefault(turn_file.name.slug, {})[turn_file.name.turn] = turn_file
    # A slug's turns are the unbroken run 1, 2, ... of its files; any later file is a stray.  So the
    # debate's turn number is bounded by the number of files, never by a number in a name: a
    # hand-made `turn-999999999-x.md` must not make every command walk a billion turns.
    by_slug: dict[str, dict[int, TurnFile]] = {}
    kept: list[TurnFile] = []
    strays: list[TurnFile] = []
    for slug, files in every.items():
        number = 1
        while number in files:
            by_slug.setdefault(slug, {})[number] = files[number]
            kept.append(files[number])
            number += 1
        if len(files) >= number:
            strays.extend(entry for turn, entry in files.items() if turn > number)
    kept.sort(key=_order)
    strays.sort(key=_order)
    return Scan(folder, tuple(kept), tuple(sorted(attempts)), has_task, by_slug, tuple(strays))


def _order(entry: TurnFile) -> tuple[int, str]:
    return (entry.name.turn, entry.name.slug)
