"""What the fake agents share: read the prompt `run` gives on stdin, and print a turn's sections."""

from __future__ import annotations

import os
import re
import sys


def prompt() -> str:
    """The prompt on stdin; kept in $FAKE_LOG (one file per start) when the test asks to see it."""
    text = sys.stdin.read()
    where = os.environ.get("FAKE_LOG")
    if where:
        slug, turn = whoami(text)
        tries = len([n for n in os.listdir(where) if n.startswith(f"{slug}-{turn}-")])
        with open(os.path.join(where, f"{slug}-{turn}-{tries + 1}.txt"), "w", encoding="utf-8") as handle:
            handle.write(text)
    return text


def whoami(text: str) -> tuple[str, int]:
    match = re.search(r"You are `([a-z0-9-]+)`: turn (\d+)", text)
    return (match.group(1), int(match.group(2))) if match else ("unknown", 0)


def peer_lines(text: str) -> list[tuple[str, str]]:
    """(slug, bold line) under BOLD LINES, in the order served (slug order)."""
    part = text.split("BOLD LINES OF TURN", 1)
    if len(part) < 2:
        return []
    return re.findall(r"^- ([a-z0-9-]+)(?: \([^)]*\))?: \*\*(.+?)\*\*", part[1], re.MULTILINE)


def peers(text: str) -> list[str]:
    """The peers quoted, by the fence of the first quote (a peer's text may imitate a quote of its own)."""
    found = re.findall(r"^<<<PEER ([a-z0-9-]+).*\[([0-9a-f]+)\]$", text, re.MULTILINE)
    return [slug for slug, fence in found if fence == found[0][1]] if found else []


def sections(turn: int, line: str, converged: bool, with_peers: list[str], reasoning: str = "") -> str:
    out = [f"## Reasoning\n{reasoning or f'My view at turn {turn}.'}\n", f"## Answer\n**{line}**\n\nBecause it fits.\n"]
    if turn > 1:
        agree = "\n".join(f"- With {p}: we weigh the same facts." for p in with_peers) or "- None"
        out += [f"## Agreements\n{agree}\n", "## Disagreements\n- None\n"]
    out += ["## Confidence\n80\n", "## Converged\n" + ("yes" if converged and turn > 1 else "no — still weighing")
            + "\n"]
    return "\n".join(out)
