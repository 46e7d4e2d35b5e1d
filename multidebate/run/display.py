"""How `run`'s events are shown: live lines on a terminal, one line per event elsewhere, or JSON Lines.

Text from agents and turn files is shown through `printable` (an escape sequence an agent printed is shown,
never obeyed); JSON escapes it itself.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from ..views.terminal import printable
from .events import Done, Failed, Retrying, RunEvent, Thinking, Waiting, Written

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
    return printable(f"[{event.at:6.1f}s] {event.text()}")


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
        scrolls = True  # the line stays above the live ones
        match event:
            case Waiting():
                for slug in event.waiting_for:
                    self.states[slug] = (f"turn {event.turn}: {_AWAITED}", self.clock(), True)
            case Thinking():
                self.states[event.slug] = (f"turn {event.turn}: thinking", self.clock(), True)
                scrolls = False  # shown on its live line only
            case Retrying():
                self.states[event.slug] = (f"turn {event.turn}: retrying", self.clock(), True)
            case Written():
                self.states[event.slug] = (f"turn {event.turn}: written", self.clock(), False)
            case Failed():
                self.states[event.slug] = (f"turn {event.turn}: {event.message}", self.clock(), False)
            case Done():
                self.states.clear()
        if scrolls:
            self.write(_line(event) + "\n")
        self._draw()

    def tick(self) -> None:
        self._erase()
        self._draw()

    def close(self) -> None:
        self.drawn = 0
