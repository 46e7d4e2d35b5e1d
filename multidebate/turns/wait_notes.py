"""What `next --wait` says while and after it waits, as notes (protocol/notes.py): this catalogue holds their
words; waiting.py decides them.  The notes after a wait go into the briefing (stdout, before `next`'s own);
the one said while waiting goes to `on_wait` (stderr, or the MCP server's log)."""

from __future__ import annotations

import os
import shlex

from ..protocol.notes import catalogue

__all__ = ["CATALOGUE"]


def _names(names: tuple[str, ...]) -> str:
    return ", ".join(names)


def _has(names: tuple[str, ...]) -> str:
    return "has" if len(names) == 1 else "have"


def _awaiting(timeout: float, turn: int, unwritten: tuple[str, ...], sealed: tuple[str, ...]) -> str:
    # a sealed peer that has written is awaited only for publication
    said = f"{_names(unwritten)} to write turn {turn}" if unwritten else f"turn {turn} to be published"
    sealed_said = f" ({_names(sealed)} ha{'s' if len(sealed) == 1 else 've'} written it, sealed)" if sealed else ""
    return f"Waiting up to {timeout:g} s for {said}{sealed_said} (Ctrl-C to stop)..."


def _timed_out(timeout: float, turn: int, missing: tuple[str, ...], awaited: tuple[str, ...], folder: str) -> str:
    """`missing`: who did not write (empty: no peer at all wrote, in a debate without a roster)."""
    who = f"{_names(missing)} did not write" if missing else "no peer wrote"
    gone = "" if not missing else (
        f" If {' or '.join(awaited)} has dropped out, the user (not you) runs `multidebate retire "
        f"{shlex.quote(os.path.abspath(folder))} {awaited[0] if len(awaited) == 1 else 'SLUG'}` to go on "
        "without it; tell the user so.")
    return (f"Waited {timeout:g} s (`next --wait`, exit status 3): {who} turn {turn}. "
            # d75: a hands-free session read "answer with the files that exist" as leave to write ahead of a peer
            "Run `next --wait` again to keep waiting; after 10 minutes in all, stop and tell the user who is "
            f"missing: write this turn without it only if the user tells you to.{gone}")


CATALOGUE = catalogue(__name__, {
    # said only once the wait has lasted a moment: a peer that was finishing its file is common, and a
    # "Waiting..." line for it shows up after the answer in captured output
    "waiting-up-to": _awaiting,
    "judge-waiting-up-to": lambda timeout: (
        f"Waiting up to {timeout:g} s for the debate to end (Ctrl-C to stop)..."),
    # said in the briefing itself (stdout): a session that reads stdout and stderr apart cannot tell
    # otherwise whether, and for whom, it waited
    # d65: "Waited 30 s for x" after "Waiting up to 300 s" read as a wait cut short
    "waited": lambda seconds, peers, turn: (
        f"Waited {seconds:.0f} s: {_names(peers)} {_has(peers)} now written turn {turn}."),
    "wait-timed-out": _timed_out,
    # exit status 3, as `watch --timeout` (#27: a timed-out wait exited 0, like success)
    "judge-wait-timed-out": lambda timeout: (
        f"Waited {timeout:g} s (`next --wait`, exit status 3): the debate has not ended. Run `next --wait` "
        "again to keep waiting."),
})
