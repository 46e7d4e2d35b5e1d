"""Mentions: the list items of Agreements and Disagreements, and the peers they name.

Kept apart from the parser so that reading cached summaries needs no markdown parser.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Mention"]


@dataclass(frozen=True)
class Mention:
    """A list item of Agreements/Disagreements, and the peers it names."""

    section: str
    text: str
    line: int
    slugs: tuple[str, ...]
    everyone: bool
    absent: bool

    @property
    def kind(self) -> str:
        """"none" (`- With x: None`), "minor" (`- With x: minor: ...`), or "point" for a real item."""
        plain = re.sub(r"[*_`]", "", self.text).strip()
        rest = plain.split(":", 1)[1] if self.slugs or self.everyone else plain
        rest = rest.strip().lower()
        if not rest or re.match(r"^(none|n/a|nothing|no disagreements?|no remaining)\b", rest):
            return "none"
        return "minor" if re.match(r"^(\(?minor\)?|nit)\b", rest) else "point"

    @property
    def is_point(self) -> bool:
        """A real Agreements/Disagreements item that names a peer (not `None`, not `minor:`)."""
        return (bool(self.slugs) or self.everyone) and self.kind == "point"
