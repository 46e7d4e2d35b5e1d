"""Protocol profiles: which sections a turn has, in which order.

A later profile (review debates: Findings/Responses) adds sections here and
the reader, writer and validator follow.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["Profile", "PROFILE_V1", "PROFILE_CRITIC", "PROFILE_DEFENDER", "PROTOCOL_VERSION", "profile_for"]

PROTOCOL_VERSION = 1


class Profile(NamedTuple):
    """The sections of a turn file, their order, and which apply from turn 2 on."""

    name: str
    sections: tuple[str, ...]
    later_turns_only: frozenset[str]
    free_text: frozenset[str]

    def required(self, turn: int) -> tuple[str, ...]:
        """The sections a turn `turn` file must have, in order."""
        return tuple(s for s in self.sections if turn > 1 or s not in self.later_turns_only)


PROFILE_V1 = Profile(
    name="debate-v1",
    sections=("Reasoning", "Answer", "Agreements", "Disagreements", "Confidence", "Converged"),
    later_turns_only=frozenset({"Agreements", "Disagreements"}),
    free_text=frozenset({"Reasoning", "Answer"}),
)

# Review debates (roles.py): a critic's turn carries its findings, the defender's its responses.
PROFILE_CRITIC = Profile(
    name="review-critic",
    sections=("Reasoning", "Findings"),
    later_turns_only=frozenset(),
    free_text=frozenset({"Reasoning", "Findings"}),
)
PROFILE_DEFENDER = Profile(
    name="review-defender",
    sections=("Reasoning", "Responses"),
    later_turns_only=frozenset(),
    free_text=frozenset({"Reasoning", "Responses"}),
)


def profile_for(role: str | None) -> Profile:
    """The profile of a turn written by a participant with role kind `role` (None: an open debate's peer)."""
    return {"critic": PROFILE_CRITIC, "defender": PROFILE_DEFENDER}.get(role or "", PROFILE_V1)
