"""`next --wait`: the briefing, once every peer has written the turn the session must read.

The waiting is event-driven (turn_events.TurnEvents: native events, or polling
where they cannot be had, for the turn files and TASK.md only: other files
that change in the folder wake nobody), and also looks every RECHECK seconds,
since a network file system may deliver no event for a file another machine
wrote.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

from ..analysis.verdict import AGREED_STATES
from ..protocol.errors import FolderError
from ..protocol.naming import turn_file_name
from ..protocol.notes import Note, note, render
from ..protocol.textfile import read_text
from ..state.observe import SETTLE, FileLook, look
from .briefing import Briefing, brief
from .turn_events import TurnEvents
from .wait_notes import CATALOGUE as WAIT_NOTES  # noqa: F401  (registers the notes `next --wait` says)

__all__ = ["ANY_PEER", "DEFAULT_TIMEOUT", "RECHECK", "brief_when_ready"]

DEFAULT_TIMEOUT = 600.0
RECHECK = 2.0
ANNOUNCE_AFTER = 1.0  # seconds of waiting before `on_wait` is told


# Awaited when a debate has no roster and no peer has written yet: any peer's turn N-1 file.
ANY_PEER = "a peer"


def _awaited(folder: str, briefing: Briefing) -> dict[str, str]:
    """Peer -> turn N-1 file name, for the peers still to wait for: file missing, or empty (only created).

    With no roster and nobody else in the folder yet, the first peer to write
    turn N-1 is awaited (ANY_PEER), so a session does not debate alone
    because it started a moment before the others.
    """
    if briefing.reads < 1 or briefing.verdict.state in AGREED_STATES or (
            briefing.verdict.review is not None and briefing.verdict.final):
        return {}
    if not briefing.roster and not (briefing.peers or briefing.absent or briefing.waiting):
        return {ANY_PEER: ""}
    awaited = {peer: turn_file_name(briefing.reads, peer) for peer in briefing.waiting}
    for peer in briefing.peers:
        if not peer.text and any(f.code == "E004" for f in read_text(os.path.join(folder, peer.file)).findings):
            awaited[peer.slug] = peer.file
    return awaited


def _awaiting(briefing: Briefing, waited_for: list[str], timeout: float) -> Note:
    """Whom a wait is for: a sealed peer that has written is awaited only for publication."""
    return note("waiting-up-to", timeout=timeout, turn=briefing.reads,
                unwritten=tuple(p for p in waited_for if p not in briefing.sealed_written),
                sealed=tuple(p for p in waited_for if p in briefing.sealed_written))


def _timed_out(folder: str, briefing: Briefing, awaited: dict[str, str], timeout: float) -> Note:
    """Who did not write turn N-1 in time (exit status 3)."""
    unwritten = tuple(p for p in awaited if p not in briefing.sealed_written)
    missing = () if ANY_PEER in awaited else unwritten or tuple(awaited)
    return note("wait-timed-out", timeout=timeout, turn=briefing.reads, missing=missing, awaited=tuple(awaited),
                folder=folder)


def _said(briefing: Briefing, said: Note, *, first: bool = False, timed_out: bool = False) -> Briefing:
    """The briefing with a wait's note added: its text among the notes, the value in `waited`."""
    text = (render(said),)
    return briefing._replace(notes=text + briefing.notes if first else briefing.notes + text,
                             waited=briefing.waited + (said,), timed_out=timed_out or briefing.timed_out)


def _looks(folder: str, names: list[str], briefing: Briefing) -> dict[str, FileLook | None]:
    if names == [""]:  # ANY_PEER: whichever turn N-1 files of others exist now
        prefix, own = f"turn-{briefing.reads}-", turn_file_name(briefing.reads, briefing.slug)
        try:
            names = [n for n in os.listdir(folder) if n.startswith(prefix) and n.endswith(".md") and n != own]
        except OSError:
            names = []
        if not names:
            return {"": None}
    return {name: look(os.path.join(folder, name)) for name in names}


def brief_when_ready(folder: str, slug: str, task: str | None = None, *, create: bool = False,
                     key: str | None = None, sections: tuple[str, ...] | None = None, full: bool = False,
                     timeout: float = DEFAULT_TIMEOUT, poll: float | None = None,
                     on_wait: Callable[[str], None] | None = None,
                     clock: Callable[[], float] = time.monotonic) -> Briefing:
    """`brief`, after waiting up to `timeout` seconds for the peers' turn N-1 files.

    Awaited: every peer in the briefing's `waiting` list, and any peer whose
    file is still empty.  A file counts once it is not empty and unchanged
    across two looks SETTLE apart (a tool that writes in place may still be at
    it).  On timeout the briefing holds what exists and a note naming who did
    not write; after a wait that ended well, a note says for whom it waited.
    `on_wait` is told once, when the wait has lasted ANNOUNCE_AFTER seconds
    (a shorter wait is not worth a word, on either stream).
    """
    briefing = brief(folder, slug, task, create, key=key, sections=sections, full=full)
    if briefing.role == "judge":
        return _until_ended(folder, slug, briefing, key, timeout, poll, on_wait, clock)
    awaited = _awaited(folder, briefing)
    if not awaited:
        return briefing
    started = clock()
    deadline = started + timeout
    waited_for = list(awaited)
    # Said only once the wait has lasted ANNOUNCE_AFTER (wait_notes.py says why).
    announce_at: float | None = started + ANNOUNCE_AFTER if on_wait is not None else None
    with TurnEvents(folder, poll, clock=clock) as events:
        last: dict[str, FileLook | None] | None = None
        last_at = 0.0
        briefed_at: dict[str, FileLook | None] | None = None  # the files as they were at the last brief
        while True:
            if not os.path.isdir(folder):
                raise FolderError(f"the debate folder {folder} was removed while waiting")
            now = clock()
            seen = _looks(folder, list(awaited.values()), briefing)
            wait = RECHECK
            if seen != briefed_at and all(s is not None and s.size > 0 for s in seen.values()):
                if seen == last and now - last_at >= SETTLE:
                    briefing = brief(folder, slug, task, create, key=key, sections=sections, full=full)
                    awaited = _awaited(folder, briefing)
                    if not awaited:
                        if announce_at is not None:
                            return briefing  # a moment's wait: nothing to say
                        waited = note("waited", seconds=clock() - started, peers=tuple(waited_for),
                                      turn=briefing.reads)
                        return _said(briefing, waited, first=True)  # first: it came first
                    # still waiting (an empty-looking file, a participant who joined): for a change
                    briefed_at, last = _looks(folder, list(awaited.values()), briefing), None
                    continue
                if seen != last:
                    last, last_at = seen, now
                wait = max(0.0, last_at + SETTLE - now)
            else:
                last = None
            remaining = deadline - now
            if remaining <= 0:
                break
            if announce_at is not None and now >= announce_at and on_wait is not None:
                on_wait(render(_awaiting(briefing, waited_for, timeout)))
                announce_at = None
            elif announce_at is not None:
                wait = min(wait, announce_at - now)
            events.wait(min(wait, remaining))
    briefing = brief(folder, slug, task, create, key=key, sections=sections, full=full)
    awaited = _awaited(folder, briefing)
    if not awaited:
        return briefing
    return _said(briefing, _timed_out(folder, briefing, awaited, timeout), timed_out=True)


def _until_ended(folder: str, slug: str, briefing: Briefing, key: str | None, timeout: float, poll: float | None,
                 on_wait: Callable[[str], None] | None, clock: Callable[[], float]) -> Briefing:
    """A judge's wait: until the debate has ended (then its judgment may be due), or the timeout."""
    if briefing.verdict.final:
        return briefing
    deadline = clock() + timeout
    if on_wait is not None:
        on_wait(render(note("judge-waiting-up-to", timeout=timeout)))
    judged = _turn_files(folder)
    with TurnEvents(folder, poll, clock=clock) as events:
        while not briefing.verdict.final:
            remaining = deadline - clock()
            if remaining <= 0:
                return _said(briefing, note("judge-wait-timed-out", timeout=timeout), timed_out=True)
            events.wait(min(RECHECK, remaining))
            if not os.path.isdir(folder):
                raise FolderError(f"the debate folder {folder} was removed while waiting")
            now = _turn_files(folder)
            if now != judged:  # judged again only when a turn file or TASK.md changed, never for other files
                judged = now
                briefing = brief(folder, slug, key=key)
    return briefing


def _turn_files(folder: str) -> tuple[tuple[str, object], ...]:
    """The turn files, the sealed turns and TASK.md as they are now (names and identities): what a verdict
    depends on.  One listing and a few stats, where a verdict reads and compares every file."""
    from ..state.folder import scan_folder
    from ..state.layout import lstat_identity, sealed_dir

    try:
        scan = scan_folder(folder)
    except FolderError:
        return ()
    try:
        sealed = tuple(sorted(os.listdir(sealed_dir(folder))))
    except OSError:
        sealed = ()
    return (*((t.filename, t.identity) for t in scan.turns), *((name, None) for name in sealed),
            ("TASK.md", lstat_identity(os.path.join(folder, "TASK.md"))))
