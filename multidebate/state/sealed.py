"""Sealed turns: blind positions, published together once every roster member has written.

With `sealed: true` in TASK.md, `write` puts a turn under `.multidebate/sealed/`
instead of the folder.  Whichever write completes a turn (every roster
participant has a sealed file for it) publishes it: it hard-links each file
into the folder, then creates the turn's `published` marker.  Readers count a
sealed debate's turn files only once their marker exists, so no reader ever
sees a partly published turn.  No orchestrator is needed.
"""

from __future__ import annotations

import os

from ..protocol.naming import parse_turn_name, turn_file_name
from .atomic import create_exclusive
from .layout import make_state_dirs, sealed_dir

__all__ = ["sealed_turns", "published_turns", "seal", "publish_if_complete"]


def _marker(folder: str, turn: int) -> str:
    return os.path.join(sealed_dir(folder), f"turn-{turn}.published")


def sealed_turns(folder: str) -> dict[int, set[str]]:
    """Turn -> slugs with a sealed file for it (published or not)."""
    found: dict[int, set[str]] = {}
    try:
        names = os.listdir(sealed_dir(folder))
    except OSError:
        return found
    for name in names:
        parsed = parse_turn_name(name)
        if parsed is not None:
            found.setdefault(parsed.turn, set()).add(parsed.slug)
    return found


def published_turns(folder: str) -> set[int]:
    found: set[int] = set()
    try:
        names = os.listdir(sealed_dir(folder))
    except OSError:
        return found
    for name in names:
        if name.startswith("turn-") and name.endswith(".published"):
            number = name[len("turn-"):-len(".published")]
            if number.isdigit():
                found.add(int(number))
    return found


def seal(folder: str, turn: int, slug: str, data: bytes) -> bool:
    """Create the sealed file; False when it exists."""
    make_state_dirs(sealed_dir(folder))
    return create_exclusive(os.path.join(sealed_dir(folder), turn_file_name(turn, slug)), data)


def publish_if_complete(folder: str, turn: int, roster: tuple[str, ...]) -> bool:
    """Publish `turn` when every roster member has sealed it; True when it is (now or already) published."""
    if turn in published_turns(folder):
        return True
    if not roster or not set(roster) <= sealed_turns(folder).get(turn, set()):
        return False
    for slug in roster:
        name = turn_file_name(turn, slug)
        try:
            os.link(os.path.join(sealed_dir(folder), name), os.path.join(folder, name))
        except FileExistsError:
            pass  # another writer completing the same turn linked it first
    create_exclusive(_marker(folder, turn), b"")
    return True
