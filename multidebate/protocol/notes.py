"""What the tool tells a session or a person, as values: `Note(code, fields)`, and the one `render`.

flake8's `Violation` and formatter: a message is decided where the facts are (`next`'s plan, `write`,
`next --wait`, `status`, the verdict) as a stable code and the values its sentence is made of, and worded
in one place, from a template per code.  So a test checks what was said (the code and its fields) apart
from how it is worded, and a wording fix touches one template.

The templates live beside their command, one catalogue a module (yamllint's one module per rule family:
`turns/notes.py` for `next`, `turns/write_notes.py`, `turns/wait_notes.py`, `views/advice.py`,
`analysis/verdict_notes.py`); each registers here, and a code belongs to one catalogue only.

Why here, in protocol: `views` and `turns` are siblings that may not import each other, and the verdict
(`analysis`) says things too; the lowest layer is the one all of them may import.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import NamedTuple

__all__ = ["Note", "Template", "catalogue", "note", "render"]

Template = Callable[..., str]

# every registered code -> its template, across the catalogues
_TEMPLATES: dict[str, Template] = {}
_OWNER: dict[str, str] = {}  # code -> the module whose catalogue holds it


class Note(NamedTuple):
    """One thing said: a stable code and the values its sentence is made of."""

    code: str
    fields: tuple[tuple[str, object], ...] = ()

    @property
    def text(self) -> str:
        """The note in English (`render`)."""
        return render(self)

    def field(self, name: str) -> object:
        """One field's value (KeyError for a field the note does not have)."""
        return dict(self.fields)[name]


def catalogue(owner: str, templates: dict[str, Template]) -> Mapping[str, Template]:
    """Register a command's templates under `owner` (its module's name) and give them back, read-only.

    A code already held by another module's catalogue is refused: one code, one template, one place.  The
    same module registering again (a reloaded module) replaces its own."""
    for code in templates:
        held = _OWNER.get(code)
        if held is not None and held != owner:
            raise ValueError(f"note {code!r} is in two catalogues: {held} and {owner}")
    for code, template in templates.items():
        _TEMPLATES[code] = template
        _OWNER[code] = owner
    return MappingProxyType(templates)


def note(code: str, **fields: object) -> Note:
    """A Note, its fields given by name (its code checked against the catalogues at once, not when rendered)."""
    if code not in _TEMPLATES:
        raise KeyError(f"no note {code!r} in the catalogue")
    return Note(code, tuple(fields.items()))


def render(n: Note) -> str:
    """A note in English: its code's template, filled with its fields.  The one place a note becomes text."""
    return _TEMPLATES[n.code](**dict(n.fields))
