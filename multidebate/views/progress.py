"""A progress line on stderr while a first run parses a big folder (later runs read the cache).

Shown only on a terminal, only once the work has taken half a second, and
redrawn at most ten times a second, so quick runs and pipes see nothing.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["ParseProgress"]


class ParseProgress:
    """The cache's progress hook for a terminal: `parsing turn files: 1200/10000`."""

    DELAY = 0.5
    INTERVAL = 0.1

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.started = time.monotonic()
        self.drawn_at = 0.0
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self.started < self.DELAY or (now - self.drawn_at < self.INTERVAL and done < total):
            return
        self.drawn_at = now
        self.shown = True
        self.stream.write(f"\rparsing turn files (cached for next time): {done}/{total}")
        self.stream.flush()

    def finish(self) -> None:
        """Clear the line, so the command's own output starts clean."""
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.shown = False
