"""A session's place in a debate: is its slug usable, which turn is next."""

from __future__ import annotations

from .debate import Debate
from .errors import RosterError, SlugError, TurnConflict
from .naming import is_slug, slugify, turn_file_name

__all__ = ["check_slug", "next_turn_number"]


def check_slug(debate: Debate, slug: str) -> None:
    """SlugError for a malformed slug, RosterError for one the roster does not list."""
    if not is_slug(slug):
        suggestion = slugify(slug)
        hint = f"; use `{suggestion}`" if suggestion else ""
        raise SlugError(f"`{slug}` is not a slug (lowercase letters, digits, single hyphens, at most 64){hint}")
    roster = debate.task.participants if debate.task else None
    if roster and slug not in roster:
        raise RosterError(
            f"`{slug}` is not on this debate's roster: {', '.join(roster)}. "
            "Use the roster's name for your model (rerun with --slug <that name>)."
        )


def next_turn_number(debate: Debate, slug: str) -> int:
    """A slug's next turn: its own count of turn files + 1 (TurnConflict on a gap)."""
    turn = debate.scan.own_count(slug) + 1
    if debate.scan.entry(turn, slug) is not None:
        have = ", ".join(str(t) for t in sorted(debate.scan.by_slug[slug]))
        raise TurnConflict(
            f"`{slug}` has turn files {have}: a turn is missing, so its next turn cannot be told. "
            f"Ask the user to restore the missing file (expected {turn_file_name(turn - 1, slug)} or earlier)."
        )
    return turn
