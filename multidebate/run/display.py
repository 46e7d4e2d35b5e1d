"""How `run`'s events are shown: live lines on a terminal, one line per event elsewhere, or JSON Lines.

Text from agents and turn files is shown through `printable` (an escape sequence an agent printed is shown,
never obeyed); JSON escapes it itself.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from ..views.terminal import printable
from .events import RunEvent

__all__ = ["Display", "JsonLines", "LiveLines", "PlainLines"]

Write = Callable[[str], None]  # writes the text as given (newlines included) and flushes

_AWAITED = "awaited (a session a person runs)"


class Display:
    """Told every event (`show`) and, while agents think, about once a second (`tick`)."""

    def show(self, event: RunEvent) -> None:
        raise NotImplementedError

    def tick(self) -> None:
        pass

    def close(self) -> None:
        pass


def _line(event: RunEvent) -> str:
    who = f"{event.slug} " if event.slug else ""
    turn = f"turn {event.turn}: " if event.turn and event.kind in ("thinking", "retrying", "written", "failed") else ""
    return printable(f"[{event.at:6.1f}s] {who}{turn}{event.message}")


class PlainLines(Display):
    """Off a terminal: one line per event."""

    def __init__(self, write: Write) -> None:
        self.write = write

    def show(self, event: RunEvent) -> None:
        self.write(_line(event) + "\n")


class JsonLines(Display):
    """`--json`: one JSON object per event (schemas/run-event.schema.json)."""

    def __init__(self, write: Write) -> None:
        self.write = write

    def show(self, event: RunEvent) -> None:
        self.write(json.dumps(event.as_dict(), ensure_ascii=False) + "\n")


class LiveLines(Display):
    """On a terminal: the events that stay (written, failed, verdict, ...) scroll by, and under them one live
    line per agent (thinking for 42 s / retrying / written / failed: why), redrawn in place."""

    def __init__(self, write: Write, clock: Callable[[], float] = time.monotonic) -> None:
        self.write = write
        self.clock = clock
        self.states: dict[str, tuple[str, float, bool]] = {}  # slug -> (what it does, since when, still running)
        self.drawn = 0

    def _erase(self) -> None:
        if self.drawn:
            self.write(f"\x1b[{self.drawn}A\r\x1b[J")  # up over the live lines, and clear them
            self.drawn = 0

    def _draw(self) -> None:
        now = self.clock()
        lines = []
        for slug, (state, since, running) in self.states.items():
            shown = f"{state} for {now - since:.0f} s" if running else state
            lines.append(printable(f"  {slug:<16} {shown}"))
        if lines:
            self.write("".join(line + "\n" for line in lines))
        self.drawn = len(lines)

    def show(self, event: RunEvent) -> None:
        self._erase()
        for slug in [s for s, (state, _since, _running) in self.states.items() if state.endswith(_AWAITED)]:
            del self.states[slug]  # any news: whoever was awaited has written, or is awaited anew below
        if event.kind == "waiting":
            awaited = event.data.get("waiting_for")
            for slug in awaited if isinstance(awaited, list) else []:
                self.states[str(slug)] = (f"turn {event.turn}: {_AWAITED}", self.clock(), True)
        if event.kind in ("thinking", "retrying", "written", "failed") and event.slug:
            label = {"thinking": f"turn {event.turn}: thinking", "retrying": f"turn {event.turn}: retrying",
                     "written": f"turn {event.turn}: written", "failed": f"turn {event.turn}: {event.message}"}
            self.states[event.slug] = (label[event.kind], self.clock(), event.kind in ("thinking", "retrying"))
        if event.kind not in ("thinking",):
            self.write(_line(event) + "\n")
        if event.kind == "done":
            self.states.clear()
        self._draw()

    def tick(self) -> None:
        self._erase()
        self._draw()

    def close(self) -> None:
        self.drawn = 0
