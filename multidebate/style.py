"""Modest color for human output: skill states and changes.

Text is always styled here; `click.echo` removes the codes when color is off
(not a terminal), so the plain text is the same either way.  Never used
for --json.
"""

from __future__ import annotations

import click

__all__ = ["state_word", "change_word"]

_STATE_COLORS = {"current": "green", "stale": "yellow", "modified": "red", "linked": "cyan", "unreadable": "red"}
_CHANGE_COLORS = {"create": "green", "update": "green", "replace": "yellow", "remove": "green",
                  "keep": "yellow", "fail": "red"}


def state_word(state: str, width: int = 0) -> str:
    return click.style(state.ljust(width), fg=_STATE_COLORS.get(state), dim=state == "missing")


def change_word(action: str, verb: str, width: int = 0) -> str:
    return click.style(verb.ljust(width), fg=_CHANGE_COLORS.get(action))
