"""What an agent's process inherits: the same for `run`'s turns and `doctor`'s probes, so a probe answers as a
turn would."""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["agent_environment"]

# a person's session key in the environment (`next`/`write` read it): no agent may write as that person
_PRIVATE = ("MULTIDEBATE_KEY",)


def agent_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """What an agent's process inherits: the user's environment (its tool's credentials included), without
    multidebate's own secrets."""
    return {name: value for name, value in environ.items() if name not in _PRIVATE}
