"""Modest color for human output: verdicts, finding codes, skill states.

Text is always styled here; `click.echo` removes the codes when color is off
(`--color never`, NO_COLOR, or not a terminal), so the plain text is the
same either way.  Never used for --json.
"""

from __future__ import annotations

import click

from ..protocol.findings import Finding

__all__ = ["color_setting", "verdict_line", "status_text", "finding_line", "state_word", "change_word", "STATE_WORDS"]

_VERDICT_COLORS = {
    "unanimous": "green",
    "converged": "green",
    "in_progress": "yellow",
    "latent": "yellow",
    "hollow": "red",
    "stalled": "red",
    "max_turns": "red",
}
_STATE_COLORS = {"current": "green", "covered": "green", "stale": "yellow", "modified": "red", "linked": "cyan", "unreadable": "red"}
_CHANGE_COLORS = {"create": "green", "update": "green", "replace": "yellow", "remove": "green",
                  "keep": "yellow", "fail": "red"}


def color_setting(choice: str, no_color: str | None) -> bool | None:
    """The click context's `color` for `--color CHOICE`: None lets click decide (a terminal or not).

    NO_COLOR (any non-empty value) turns `auto` off; an explicit `always` still wins, as no-color.org asks.
    """
    if choice == "always":
        return True
    if choice == "never" or no_color:
        return False
    return None


def verdict_line(line: str, state: str) -> str:
    color = _VERDICT_COLORS.get(state)
    return click.style(line, fg=color, bold=True) if color else line


def status_text(text: str, state: str) -> str:
    """`render_status`'s text with its verdict line colored by the verdict."""
    return "\n".join(verdict_line(line, state) if line.startswith("verdict: ") else line
                     for line in text.split("\n"))


def finding_line(item: Finding) -> str:
    """`path:line: CODE message` with the code red for errors, yellow for warnings."""
    from ..protocol.oneline import one_line

    code = click.style(item.code, fg="red" if item.severity == "error" else "yellow", bold=True)
    return f"{one_line(item.path)}:{item.line}: {code} {one_line(item.message)}"


# what `skill list` shows people for a state (the JSON keeps the state's name: programs read it)
STATE_WORDS = {"missing": "not installed"}


def state_word(state: str, width: int = 0) -> str:
    shown = STATE_WORDS.get(state, state)
    return click.style(shown.ljust(width), fg=_STATE_COLORS.get(state), dim=state == "missing")


def change_word(action: str, verb: str, width: int = 0) -> str:
    return click.style(verb.ljust(width), fg=_CHANGE_COLORS.get(action))
