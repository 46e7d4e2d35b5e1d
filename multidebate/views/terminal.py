"""Text made safe for a terminal: what a turn file or TASK.md says is shown, never obeyed.

Peer files and TASK.md are written by anyone with access to the folder.  An
ESC sequence in them, printed raw by `status`, `validate` or `report`, could
erase a line and print a fake verdict; a carriage return could overwrite one;
a bidirectional override could reorder what a person reads.  Every human
output escapes them visibly (`\\x1b`), so nothing is lost and nothing acts.
"""

from __future__ import annotations

import re

__all__ = ["printable"]

# C0 controls but tab and newline, DEL, C1 controls, and the Unicode bidi overrides and isolates
_CONTROL_RE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """`text` with every control character (but tab and newline) written out as an escape."""
    return _CONTROL_RE.sub(_escape, text)
