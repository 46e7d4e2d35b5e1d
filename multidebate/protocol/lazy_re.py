"""Regular expressions compiled on first use, not at import.

Compiling a pattern costs a fraction of a millisecond; the parsing patterns
add up to milliseconds that every `status` would pay at start-up although a
warm status parses nothing.
"""

from __future__ import annotations

import re

__all__ = ["LazyPattern"]


class LazyPattern:
    """A `re.Pattern` that compiles itself when first used (the methods the package uses)."""

    __slots__ = ("pattern", "flags", "_compiled")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self.flags)
        return self._compiled

    def match(self, string: str, pos: int = 0) -> re.Match[str] | None:
        return self.compiled.match(string, pos)

    def search(self, string: str, pos: int = 0) -> re.Match[str] | None:
        return self.compiled.search(string, pos)

    def split(self, string: str, maxsplit: int = 0) -> list[str]:
        return self.compiled.split(string, maxsplit)

    def findall(self, string: str) -> list[str]:
        return self.compiled.findall(string)

    def sub(self, repl: str, string: str) -> str:
        return self.compiled.sub(repl, string)
