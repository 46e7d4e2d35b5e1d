"""TaskSpec: what TASK.md records, as one value; rendered to TASK.md and kept in the task cache from its fields.

A TASK.md field is a field here (in the order the frontmatter writes it), read by task.py's reader: the
renderer, the cache, `init` and `retire` all take it from this one value.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from datetime import datetime, timezone
from typing import Any

from ..protocol.front_matter import render_frontmatter

__all__ = ["TaskSpec", "render_spec", "spec_fields_from_json", "spec_to_json"]


@dataclass(frozen=True)
class TaskSpec:
    """The task text and its frontmatter. `participants` None means "whoever writes a turn"."""

    text: str
    mode: str = "open"  # or "review": critics, a defender and a proposal (roles.py)
    proposal: str | None = None  # review: the proposal's file name in the folder
    proposal_sha256: str | None = None  # what `init` copied: a later edit of the proposal is detected
    roles: tuple[tuple[str, str], ...] = ()  # (slug, role as written: `critic:security`, `defender`, `judge`)
    judge_when: str = "unresolved"  # when the judge writes: once a debate ends unresolved, or always
    min_rounds: int | None = None
    max_rounds: int | None = None
    participants: tuple[str, ...] | None = None
    retired: tuple[str, ...] = ()  # slugs the user retired: their turns stay as history, they write no more
    agents: tuple[tuple[str, str], ...] = ()  # (slug, agent spec as written, e.g. `claude:opus`) for `run`
    max_turns: int | None = None
    min_turns: int | None = None
    sealed: bool = False
    recorded_by: str | None = None  # the session whose `next --task` created TASK.md
    created_at: str | None = None  # None: now, when rendered


def _spec_fields() -> list[Any]:
    return [f for f in fields(TaskSpec)]


def render_spec(spec: TaskSpec) -> str:
    """The TASK.md text: the frontmatter in the fields' order (a field at its default is left out), then the task."""
    meta: dict[str, object] = {"protocol": 1}
    for field in _spec_fields():
        if field.name in ("text", "created_at"):
            continue
        value = getattr(spec, field.name)
        if value == field.default or value in ((), "", None):
            continue
        if field.name in ("roles", "agents"):
            value = dict(value)
        elif isinstance(value, tuple):
            value = list(value)
        meta[field.name] = value
    meta["created_at"] = spec.created_at or datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    # written by python-frontmatter: a slug YAML would read as another type (`no`, `123`) is quoted
    return render_frontmatter(meta) + "\n" + spec.text.strip() + "\n"


def spec_to_json(spec: TaskSpec) -> dict[str, Any]:
    """The spec's fields as JSON (tuples as lists), for the task cache."""
    def plain(value: object) -> object:
        return [plain(v) for v in value] if isinstance(value, tuple) else value

    return {field.name: plain(getattr(spec, field.name)) for field in _spec_fields()}


def spec_fields_from_json(data: dict[str, Any]) -> dict[str, Any]:
    """TaskSpec's keyword arguments from `spec_to_json`'s output; KeyError or TypeError when it is not that."""
    def typed(name: str, value: Any) -> Any:
        if name in ("roles", "agents"):
            return tuple((str(a), str(b)) for a, b in value)
        if name == "participants":
            return tuple(str(s) for s in value) if value else None
        if name == "retired":
            return tuple(str(s) for s in value)
        if name in ("text", "mode", "judge_when"):
            return str(value)
        if name == "sealed":
            return bool(value)
        if value is not None and not isinstance(value, (str, int)) or isinstance(value, bool):
            raise TypeError(f"{name}: {value!r}")
        return value

    found = {}
    for field in _spec_fields():
        if field.name not in data and field.default is MISSING:
            raise KeyError(field.name)
        found[field.name] = typed(field.name, data.get(field.name, field.default))
    return found
