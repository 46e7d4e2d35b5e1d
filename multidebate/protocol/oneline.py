"""File text shown inside the tool's own lines: always one line, every control character made visible.

A value read from a file (a slug in a frontmatter, a finding's claim, an Answer's line) is written by
whoever shares the folder.  Copied raw into a message, a newline in it starts a line that reads as the
tool's own (`NOTE: ...`, `verdict: converged`); a carriage return or an ESC sequence can overwrite what
a person reads.  `one_line` writes newlines as `\\n`, carriage returns as `\\r` and other controls as
`\\x1b`, so the value stays on the line it was put on and nothing in it acts.
"""

from __future__ import annotations

import re
import shlex

__all__ = ["one_line", "shell_word"]

# every C0 control (tab and newline included), DEL, C1 controls, line and paragraph separators, and the
# Unicode bidi overrides and isolates
_BREAKING_RE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\x85]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    char = match.group(0)
    code = ord(char)
    return _NAMED.get(char) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def one_line(value: object, limit: int | None = None) -> str:
    """`value` as text on one line, escaped; cut to `limit` characters (with `…`) when given."""
    text = _BREAKING_RE.sub(_escape, str(value))
    if limit is not None and len(text) > limit:
        return text[:max(0, limit - 1)] + "\u2026"
    return text


def shell_word(value: str) -> str:
    """A path or name as one word of a command line the tool prints: shell-quoted, and safe on a terminal (an
    ESC sequence in a folder name is shown as `\\x1b`, never sent to the terminal raw: issue 33)."""
    return one_line(shlex.quote(value))
