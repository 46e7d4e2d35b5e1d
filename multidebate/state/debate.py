"""A debate as read from its folder: task, participants, and every turn file parsed."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from .cache import read_entries
from .details import DetailStore
from .entry import Details, Entry, read_entry
from .folder import Scan, scan_folder
from .sealed import published_turns, sealed_turns
from .task import Task, load_task

if TYPE_CHECKING:
    from ..protocol.parse import ParsedTurn

__all__ = ["Details", "Entry", "Debate", "load_debate", "read_entry", "visible_scan"]


class Debate(NamedTuple):
    """Everything `status`, `validate` and `next` need to know about a folder."""

    folder: str
    scan: Scan
    task: Task | None
    entries: dict[tuple[int, str], Entry]
    sealed_pending: dict[int, frozenset[str]]
    store: DetailStore

    def details(self, entry: Entry) -> Details:
        """What the file says of its peers, and its Answer as the comparison needs it."""
        return self.store.details(entry)

    def vocabulary(self, entry: Entry) -> str:
        """The file's key terms, for the quote check."""
        return self.store.vocabulary(entry)

    def parsed(self, entry: Entry) -> ParsedTurn | None:
        """The file's full parse (its sections), read again on first use."""
        return self.store.parsed(entry)

    @property
    def participants(self) -> tuple[str, ...]:
        """The roster when TASK.md has one, else everyone who has written a turn."""
        if self.task and self.task.participants:
            return self.task.participants
        retired = set(self.task.retired) if self.task else set()
        return tuple(s for s in self.scan.slugs if s not in retired)

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
        if task.participants and _finish_publishing(folder, task.participants):
            scan = scan_folder(folder)
        published = published_turns(folder)
        scan = scan.restricted_to(published)
        pending = {t: frozenset(s) for t, s in sealed_turns(folder).items() if t not in published}
    return scan, task, pending


def _finish_publishing(folder: str, roster: tuple[str, ...]) -> bool:
    """Publish every turn all of the roster has sealed: a completing write killed between sealing and
    publishing must not leave the debate stuck for ever, so any later command finishes its work."""
    from .sealed import publish_if_complete

    published = published_turns(folder)
    done = False
    for turn, slugs in sorted(sealed_turns(folder).items()):
        if turn not in published and set(roster) <= slugs:
            try:
                done = publish_if_complete(folder, turn, roster) or done
            except OSError:
                pass  # a read-only folder: shown as sealed, published by the next command that can
    return done


def load_debate(folder: str, use_cache: bool = True) -> Debate:
    """Scan `folder` and read every visible turn file in it (FolderError when it is no folder).

    Unchanged files come from the parse cache (cache.py).
    """
    scan, task, pending = visible_scan(folder)
    entries, store = read_entries(folder, scan.turns, use_cache)
    return Debate(folder, scan, task, entries, pending, store)
