"""Building debate folders for tests: turns written the way sessions write them, through `write`."""

from __future__ import annotations

import os

from multidebate.state.task import create_task, render_task
from multidebate.turns.briefing import brief
from multidebate.turns.write import WriteResult, write_turn


def _served(folder: str, slug: str, key: str | None) -> None:
    """Run `next` first, as a session does (turn 1 too, before any key): `write` records as read only the peer
    files `next` served.  (A folder without TASK.md, as some tests build, gets no turn-1 `next`: it would need
    the task, which would create TASK.md.)"""
    if key is not None or os.path.exists(os.path.join(folder, "TASK.md")):
        brief(folder, slug, key=key)


def turn_body(turn: int, answer: str, confidence: int = 70, converged: bool = False,
              agreements: str = "- None", disagreements: str = "- None", reason: str = "") -> str:
    """The sections a session hands to `write` for one turn."""
    parts = [f"## Reasoning\nThinking for turn {turn}.\n", f"## Answer\n{answer}\n"]
    if turn > 1:
        parts += [f"## Agreements\n{agreements}\n", f"## Disagreements\n{disagreements}\n"]
    verdict = "yes" if converged else "no"
    parts += [f"## Confidence\n{confidence}\n", f"## Converged\n{verdict}" + (f" — {reason}" if reason else "") + "\n"]
    return "\n".join(parts)


KEYS: dict[tuple[str, str], str] = {}


def key_of(folder: str, slug: str) -> str:
    """The key `write` handed `slug` in `folder` (made by make_debate)."""
    return KEYS[(os.path.abspath(folder), slug)]


def make_debate(folder: str, turns: list[dict[str, str | tuple[str, bool]]], task: str = "Pick a config format.",
                participants: tuple[str, ...] | None = None, max_turns: int | None = None,
                sealed: bool = False, min_turns: int | None = None) -> str:
    """Write a debate: `turns` is a list of {slug: answer} or {slug: (answer, converged)} per turn.

    `min_turns=2` keeps a debate whose turn-1 lines are one line going (it would end `unanimous` at turn 1)."""
    os.makedirs(folder, exist_ok=True)
    create_task(folder, render_task(task, participants, max_turns, min_turns, sealed=sealed))
    for number, row in enumerate(turns, start=1):
        for slug, value in row.items():
            answer, converged = value if isinstance(value, tuple) else (value, False)
            where = (os.path.abspath(folder), slug)
            _served(folder, slug, KEYS.get(where))
            result = write_turn(folder, slug, turn_body(number, answer, converged=converged and number > 1).encode(),
                                KEYS.get(where))
            if result.key:
                KEYS[where] = result.key
    return folder


def write_keyed(folder: str, slug: str, content: bytes) -> WriteResult:
    """`write_turn` as the session that owns `slug` (keeping the key its first write handed out)."""
    where = (os.path.abspath(folder), slug)
    _served(folder, slug, KEYS.get(where))
    result = write_turn(folder, slug, content, KEYS.get(where))
    if result.key:
        KEYS[where] = result.key
    return result
