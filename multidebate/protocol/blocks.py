"""Block-level markdown structure with line numbers, on top of mistune.

mistune 3's AST has no positions.  We subclass its block parser and record,
for top-level headings and fenced code, where they start and end; parsing
blocks only (no inline pass) is all the section reader needs and is fast.
Tested with mistune 3.1 - 3.x (see tests/test_blocks.py).
"""

from __future__ import annotations

import bisect
import itertools
import string
from dataclasses import dataclass
from typing import Any, Match

from mistune.block_parser import BlockParser
from mistune.core import BlockState

__all__ = ["Heading", "Outline", "outline"]

_MAX_NESTING = 6


@dataclass(frozen=True)
class Heading:
    """A top-level ATX heading: level, text, 1-based line and character span."""

    level: int
    text: str
    line: int
    start: int
    end: int


@dataclass(frozen=True)
class Outline:
    """The headings and fenced/indented code spans at the top level of a text."""

    text: str
    headings: tuple[Heading, ...]
    code_spans: tuple[tuple[int, int], ...]
    line_starts: tuple[int, ...]

    def line_of(self, pos: int) -> int:
        """1-based line number of character offset `pos`."""
        return bisect.bisect_right(self.line_starts, pos)

    def in_code(self, pos: int) -> bool:
        """True when offset `pos` lies inside a top-level code block."""
        return any(start <= pos < end for start, end in self.code_spans)


def _without_closing_hashes(text: str) -> str:
    """`Answer ##` -> `Answer`: a heading's closing sequence of `#`, which follows a space (or is all there is)."""
    bare = text.rstrip("#")
    if bare == text or bare and bare[-1] not in string.whitespace:
        return text
    return bare.rstrip(string.whitespace)


class _RecordingParser(BlockParser):
    def parse_atx_heading(self, m: Match[str], state: BlockState) -> int:
        # Not mistune's own: its trim pattern, `(\s+|^)#+\s*$`, is searched at every space of the heading and
        # backtracks quadratically on a heading holding a long run of spaces.
        text = _without_closing_hashes(m.group("atx_2").strip(string.whitespace))
        token = {"type": "heading", "text": text, "attrs": {"level": len(m.group("atx_1"))}, "style": "atx"}
        state.append_token(token)
        end = m.end() + 1
        if state.parent is None:
            _log(state).append(("heading", m.start(), end, token))
        return end

    def parse_fenced_code(self, m: Match[str], state: BlockState) -> int | None:
        end = super().parse_fenced_code(m, state)
        if end is not None and state.parent is None:
            _log(state).append(("code", m.start(), end, {}))
        return end


def _log(state: BlockState) -> list[tuple[str, int, int, dict[str, Any]]]:
    log: list[tuple[str, int, int, dict[str, Any]]] = state.env.setdefault("multidebate_log", [])
    return log


_PARSER = _RecordingParser(max_nested_level=_MAX_NESTING)
# Only the rules that decide where a top-level heading can start.  Lists and
# block quotes are left out: a line that begins with `-` or `>` is never an
# ATX heading, and skipping their (recursive) parsing halves the cost.  The
# one difference: a heading indented 1-3 spaces under a list item counts as
# top-level here, where CommonMark nests it in the item.
_PARSER.rules = ["fenced_code", "indent_code", "atx_heading", "thematic_break", "raw_html", "blank_line"]


def outline(text: str) -> Outline:
    """Parse `text` (LF line endings) into its top-level outline."""
    src = text if text.endswith("\n") else text + "\n"
    state = BlockState()
    state.process(src)
    try:
        _PARSER.parse(state)
    except RecursionError:
        # Pathological nesting: keep what was recorded before the parser gave up.
        pass
    headings: list[Heading] = []
    code: list[tuple[int, int]] = []
    # where each line starts: one pass in C (split, accumulate), not a Python loop over characters
    starts = tuple(itertools.accumulate((len(line) + 1 for line in src.split("\n")), initial=0))[:-1]
    for kind, start, end, token in state.env.get("multidebate_log", []):
        if kind == "code":
            code.append((start, end))
            continue
        # the match may begin with the previous line's newline or indentation
        line = bisect.bisect_right(starts, start + (1 if src[start] == "\n" else 0))
        heading_text = str(token.get("text", "")).strip(string.whitespace)
        headings.append(Heading(int(token["attrs"]["level"]), heading_text, line, start, min(end, len(src))))
    return Outline(src, tuple(headings), tuple(code), starts)
