"""Building debate folders for tests: turns written the way sessions write them, through `write`.

A session keeps the key its first `write` handed it; a `Debate` does the same for each slug of one folder, in
that folder's own small store (a file named for the folder in this process's key folder), so `make_debate`,
`key_of`, `write_keyed` and the `debate` fixture of conftest.py all see the same keys, and no dict keyed by
every folder of the run is kept in memory."""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import shutil
import tempfile

from multidebate.state.task import create_task, render_task
from multidebate.turns.briefing import brief
from multidebate.turns.write import WriteResult, write_turn

# each folder's keys live here, never in the debate folder itself (a stray file there would be read by commands)
_KEYS_HOME = tempfile.mkdtemp(prefix="multidebate-test-keys-")
atexit.register(shutil.rmtree, _KEYS_HOME, True)

Turns = list[dict[str, str | tuple[str, bool]]]


def turn_body(turn: int, answer: str, confidence: int = 70, converged: bool = False,
              agreements: str = "- None", disagreements: str = "- None", reason: str = "") -> str:
    """The sections a session hands to `write` for one turn."""
    parts = [f"## Reasoning\nThinking for turn {turn}.\n", f"## Answer\n{answer}\n"]
    if turn > 1:
        parts += [f"## Agreements\n{agreements}\n", f"## Disagreements\n{disagreements}\n"]
    verdict = "yes" if converged else "no"
    parts += [f"## Confidence\n{confidence}\n", f"## Converged\n{verdict}" + (f" — {reason}" if reason else "") + "\n"]
    return "\n".join(parts)


class Debate:
    """One debate folder and the sessions that write in it: each slug's key, kept from its first `write`."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        where = os.path.abspath(folder)
        self._store = os.path.join(_KEYS_HOME, hashlib.sha256(where.encode()).hexdigest() + ".json")
        self._where = where

    def __fspath__(self) -> str:
        return self.folder

    def __str__(self) -> str:
        return self.folder

    @property
    def keys(self) -> dict[str, str]:
        """slug -> the key `write` handed it (empty before any write)."""
        try:
            with open(self._store, encoding="utf-8") as handle:
                kept: dict[str, str] = json.load(handle)["keys"]
        except FileNotFoundError:
            return {}
        return kept

    def key(self, slug: str) -> str:
        """The key `write` handed `slug` here (KeyError if it has not written)."""
        return self.keys[slug]

    def keep(self, slug: str, key: str) -> None:
        """Keep the key a first `write` handed `slug` (the CLI prints it; `write` here keeps it itself)."""
        keys = self.keys
        keys[slug] = key
        with open(self._store, "w", encoding="utf-8") as handle:
            json.dump({"folder": self._where, "keys": keys}, handle)

    def _served(self, slug: str) -> None:
        """Run `next` first, as a session does (turn 1 too, before any key): `write` records as read only the
        peer files `next` served.  (A folder without TASK.md, as some tests build, gets no turn-1 `next`: it
        would need the task, which would create TASK.md.)"""
        key = self.keys.get(slug)
        if key is not None or os.path.exists(os.path.join(self.folder, "TASK.md")):
            brief(self.folder, slug, key=key)

    def write(self, slug: str, content: bytes | str) -> WriteResult:
        """`next` then `write` as the session that owns `slug`, keeping the key its first write hands out."""
        self._served(slug)
        data = content.encode() if isinstance(content, str) else content
        result = write_turn(self.folder, slug, data, self.keys.get(slug))
        if result.key:
            self.keep(slug, result.key)
        return result

    def create(self, task: str = "Pick a config format.", participants: tuple[str, ...] | None = None,
               max_turns: int | None = None, min_turns: int | None = None, sealed: bool = False) -> Debate:
        """The folder and its TASK.md, as `init` writes it."""
        os.makedirs(self.folder, exist_ok=True)
        create_task(self.folder, render_task(task, participants, max_turns, min_turns, sealed=sealed))
        return self

    def play(self, turns: Turns) -> Debate:
        """Write `turns`: a list of {slug: answer} or {slug: (answer, converged)} per turn, turn 1 first."""
        for number, row in enumerate(turns, start=1):
            for slug, value in row.items():
                answer, converged = value if isinstance(value, tuple) else (value, False)
                self.write(slug, turn_body(number, answer, converged=converged and number > 1))
        return self


def key_of(folder: str, slug: str) -> str:
    """The key `write` handed `slug` in `folder` (made by make_debate)."""
    return Debate(folder).key(slug)


def make_debate(folder: str, turns: Turns, task: str = "Pick a config format.",
                participants: tuple[str, ...] | None = None, max_turns: int | None = None,
                sealed: bool = False, min_turns: int | None = None) -> str:
    """Write a debate: `turns` is a list of {slug: answer} or {slug: (answer, converged)} per turn.

    `min_turns=2` keeps a debate whose turn-1 lines are one line going (it would end `unanimous` at turn 1)."""
    Debate(folder).create(task, participants, max_turns, min_turns, sealed).play(turns)
    return folder


def write_keyed(folder: str, slug: str, content: bytes) -> WriteResult:
    """`write_turn` as the session that owns `slug` (keeping the key its first write handed out)."""
    return Debate(folder).write(slug, content)
