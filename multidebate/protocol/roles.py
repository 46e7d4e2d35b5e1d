"""Roles: who does what in a debate.

An open debate has equal peers.  A review debate has critics (each with a
lens), one defender and a proposal they argue about, in rounds: in round k
every critic writes turn k, having read the defender's turn k-1; then the
defender writes turn k, having read the critics' turn k.  Either kind of
debate may have a judge, who writes nothing while the debate runs and one
judgment once it has ended.

A role is written `critic:<lens>`, `defender` or `judge` (on the command line
as `--role SLUG=ROLE`, in TASK.md under `roles:`).  A lens is one of LENSES
or free text of the user's own.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["Role", "LENSES", "KINDS", "MODES", "JUDGE_WHEN", "parse_role", "lens_text", "reads"]

KINDS = ("critic", "defender", "judge")
MODES = ("open", "review")
JUDGE_WHEN = ("unresolved", "always")

# The two built-in lenses: what a critic with the lens looks for first.
LENSES: dict[str, str] = {
    "consistency": "internal consistency and logic; gaps in validation and coverage; failure modes under scale, "
                   "change or partial failure; unstated assumptions; missing constraints and edge cases; "
                   "implementation risk",
    "security": "security and attack surface; observability (logs, metrics, alerts); deployment and rollback; "
                "dependency and version risk; operational and maintenance burden; recovery and data integrity",
}
MAX_LENS_CHARS = 300


class Role(NamedTuple):
    """A participant's role; `lens` is a critic's: a LENSES name or the user's own words."""

    kind: str
    lens: str = ""

    def __str__(self) -> str:
        return f"{self.kind}:{self.lens}" if self.lens else self.kind


def parse_role(spec: str) -> Role:
    """`critic:security`, `critic:cost and latency`, `defender`, `judge` -> Role; ValueError saying why not."""
    kind, _, lens = spec.strip().partition(":")
    kind, lens = kind.strip().lower(), " ".join(lens.split())
    if kind not in KINDS:
        raise ValueError(f"unknown role `{kind or spec}`; a role is critic[:LENS], defender or judge")
    if lens and kind != "critic":
        raise ValueError(f"only a critic has a lens (`{spec.strip()}`)")
    if len(lens) > MAX_LENS_CHARS:
        raise ValueError(f"a lens is at most {MAX_LENS_CHARS} characters (this one has {len(lens)})")
    if kind == "critic" and not lens:
        lens = "consistency"
    return Role(kind, lens.lower() if lens.lower() in LENSES else lens)


def lens_text(role: Role) -> str:
    """What a critic looks for, in words (the built-in lens's list, or the user's text)."""
    return LENSES.get(role.lens, role.lens)


def reads(roles: dict[str, Role], slug: str, turn: int) -> tuple[int, tuple[str, ...] | None]:
    """(the turn a session reads, whose files: None = every peer) for `slug`'s turn `turn` in a review debate.

    A critic reads every peer's turn N-1 (the defender's answers to it); the
    defender reads the critics' turn N, the findings it answers.
    """
    role = roles.get(slug)
    if role is not None and role.kind == "defender":
        return turn, tuple(s for s, r in roles.items() if r.kind == "critic")
    return turn - 1, None
