"""`sync --watch`: sync every few seconds, and at once when a session writes here, until the debate ends.

A session's loop stays `next --wait`, think, `write`: its peers' files arrive through this loop, and its own
leave through it.  The debate has ended when its verdict is final (and a judgment that is due is written);
one more sync then pushes what the last turn left.  A remote that cannot be reached for a moment is said and
tried again; a problem only a person can fix (a real conflict, a dirty work tree) ends the loop.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..protocol.errors import SyncError
from .engine import SyncResult, sync_once

__all__ = ["debate_ended", "sync_until_end"]


def debate_ended(folder: str) -> bool:
    from ..analysis.verdict import judge, judgment_due
    from ..protocol.judgment import judgment_name
    from ..state.debate import load_debate

    try:
        debate = load_debate(folder)
    except Exception:  # a folder in the middle of arriving reads as "not ended yet"
        return False
    if not debate.scan.turns:
        return False
    verdict = judge(debate)
    if not verdict.final:
        return False
    task = debate.task
    if task is not None and task.judge is not None and judgment_due(task, verdict):
        import os

        return os.path.exists(os.path.join(folder, judgment_name(task.judge)))
    return True


def sync_until_end(folder: str, interval: float, remote: str | None, on_sync: Callable[[SyncResult], None],
                   on_problem: Callable[[SyncError], None], timeout: float | None = None,
                   clock: Callable[[], float] = time.monotonic) -> bool:
    """Sync until the debate ends (True) or `timeout` seconds pass (False).  SyncError for what a person must
    fix; a remote problem is told through `on_problem` and tried again at the next interval."""
    from ..state.observe import FolderEvents

    deadline = None if timeout is None else clock() + timeout

    def once() -> None:
        try:
            on_sync(sync_once(folder, remote))
        except SyncError as exc:
            if exc.kind != "remote":
                raise
            on_problem(exc)

    once()  # first: on a clone the debate has not reached yet, this creates the folder to watch
    with FolderEvents(folder) as events:
        while True:
            if debate_ended(folder):
                on_sync(sync_once(folder, remote))  # what the last writes left, pushed
                return True
            remaining = interval if deadline is None else min(interval, deadline - clock())
            if remaining <= 0:
                return False
            events.wait(remaining)  # a session wrote here: sync now, not at the end of the interval
            once()
