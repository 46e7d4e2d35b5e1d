"""The tag that marks where quoted text begins and ends in what `next` serves (`<<<PEER b [3f9a0c1e]`).

One generator for every briefing (open debates, reviews, a judge's, a kept answer refilled): drawn anew for
each answer, so a file cannot predict it, and never one that the quoted texts contain, so a file cannot
close its own quote.
"""

from __future__ import annotations

from os import urandom

__all__ = ["fence_id"]


def fence_id(texts: list[str]) -> str:
    """A fence id no file can predict (drawn at random for each briefing) and that no served text contains."""
    while True:
        # 32 random bits, as secrets.token_hex(4) draws them, without importing secrets and random (a warm
        # `next` refills its kept answer with a new fence and should stay light)
        fence = urandom(4).hex()
        if not any(fence in text for text in texts):
            return fence
