"""TASK.md: the task text, and in its frontmatter the optional roster and turn limits."""

from __future__ import annotations

import json
import os
import re
from typing import NamedTuple
from datetime import datetime, timezone

from .errors import TaskError
from .findings import Finding, finding
from .frontmatter_split import split_frontmatter
from .lazy_re import LazyPattern
from .naming import is_slug
from .state_io import read_state, write_state
from .textfile import read_text
from . import __version__
from .atomic import create_exclusive

__all__ = ["Task", "TASK_FILE", "count_words", "load_task", "render_task", "create_task", "require_readable", "retire",
           "same_task", "word_limit"]

TASK_FILE = "TASK.md"


class Task(NamedTuple):
    """The debate's task and limits. `participants` None means "whoever writes a turn"."""

    text: str
    participants: tuple[str, ...] | None = None
    max_turns: int | None = None
    min_turns: int | None = None
    findings: tuple[Finding, ...] = ()
    sealed: bool = False
    retired: tuple[str, ...] = ()  # slugs the user retired: their turns stay as history, they write no more


def _positive_int(value: object) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        return None
    return value


def _identity(path: str) -> list[int] | None:
    try:
        info = os.lstat(path)
    except OSError:
        return None
    return [info.st_size, info.st_mtime_ns, info.st_ino, info.st_ctime_ns]


def _cache_path(folder: str) -> str:
    return os.path.join(folder, ".multidebate", "cache", "task.json")


def _from_cache(folder: str, path: str, identity: list[int]) -> Task | None:
    try:
        data = json.loads(read_state(_cache_path(folder), 1024 * 1024))
        if data["identity"] != identity or data["version"] != __version__:
            return None
        return Task(str(data["text"]), tuple(data["participants"]) if data["participants"] else None,
                    data["max_turns"], data["min_turns"],
                    tuple(finding(path, int(line), str(code), str(msg)) for line, code, msg in data["findings"]),
                    bool(data["sealed"]), tuple(data.get("retired") or ()))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _to_cache(folder: str, identity: list[int], task: Task) -> None:
    data = {"version": __version__, "identity": identity, "text": task.text,
            "participants": list(task.participants) if task.participants else None, "max_turns": task.max_turns,
            "min_turns": task.min_turns, "sealed": task.sealed, "retired": list(task.retired),
            "findings": [[f.line, f.code, f.message] for f in task.findings]}
    path = _cache_path(folder)
    try:
        write_state(path, json.dumps(data).encode("utf-8"))
    except OSError:
        pass


def load_task(folder: str) -> Task | None:
    """Read FOLDER/TASK.md; None when there is none. Problems become findings, never exceptions.

    Cached like turn files (cache.py): YAML is parsed only when TASK.md changed.
    """
    path = os.path.join(folder, TASK_FILE)
    if not os.path.lexists(path):
        return None
    identity = _identity(path)
    cached = _from_cache(folder, path, identity) if identity else None
    if cached is not None:
        return cached
    task = _read_task(path)
    if identity is not None and os.path.isfile(path) and not os.path.islink(path):
        _to_cache(folder, identity, task)
    return task


def require_readable(task: Task | None) -> None:
    """Fail closed: a TASK.md that exists but cannot be read must not silently drop the roster or `sealed`
    (a write would then publish a sealed turn and admit any slug).  TaskError naming the problems."""
    if task is None:
        return
    errors = [f for f in task.findings if f.severity == "error"]
    if errors:
        shown = "; ".join(f"{f.code} {f.message}" for f in errors[:3])
        raise TaskError(f"TASK.md cannot be used ({shown}); nothing was done. Ask the user to fix it "
                        "(`multidebate validate FOLDER` lists the problems): its roster, turn limits and `sealed` "
                        "decide who may write and what peers see.")


def _read_task(path: str) -> Task:
    read = read_text(path, shown_as=path)
    if read.text is None:
        return Task("", findings=read.findings)
    split = split_frontmatter(read.text)
    notes = list(read.findings)
    if split.error:
        notes.append(finding(path, split.error_line, "E073", split.error))
    meta = split.metadata
    participants: tuple[str, ...] | None = None
    raw = meta.get("participants")
    if raw is not None:
        if isinstance(raw, str):
            raw = [p.strip() for p in raw.split(",")]
        if isinstance(raw, list) and all(isinstance(p, str) and is_slug(p) for p in raw) and raw:
            participants = tuple(dict.fromkeys(raw))
        else:
            notes.append(finding(path, 2, "E073", "participants must be a list of slugs (lowercase letters, "
                                 "digits, single hyphens)"))
    limits: dict[str, int | None] = {}
    for key in ("max_turns", "min_turns"):
        value = meta.get(key)
        limits[key] = _positive_int(value)
        if value is not None and limits[key] is None:
            notes.append(finding(path, 2, "E073", f"{key} must be a positive integer, not {value!r}"))
    sealed = meta.get("sealed") is True
    if meta.get("sealed") not in (None, True, False):
        notes.append(finding(path, 2, "E073", f"sealed must be true or false, not {meta.get('sealed')!r}"))
    retired: tuple[str, ...] = ()
    raw_retired = meta.get("retired")
    if raw_retired is not None:
        if isinstance(raw_retired, list) and all(isinstance(p, str) and is_slug(p) for p in raw_retired):
            retired = tuple(dict.fromkeys(raw_retired))
            if participants and set(retired) & set(participants):
                notes.append(finding(path, 2, "E073", "a retired slug cannot also be a participant: "
                                     f"{', '.join(sorted(set(retired) & set(participants)))}"))
        else:
            notes.append(finding(path, 2, "E073", "retired must be a list of slugs"))
    if sealed and not participants:
        notes.append(finding(path, 2, "E073", "sealed: true needs a participants roster (who must write before "
                             "a turn is published)"))
        sealed = False
    return Task(split.body.strip(), participants, limits["max_turns"], limits["min_turns"], tuple(notes), sealed,
                retired)


def render_task(text: str, participants: tuple[str, ...] | None = None, max_turns: int | None = None,
                min_turns: int | None = None, recorded_by: str | None = None, sealed: bool = False,
                retired: tuple[str, ...] = (), created_at: str | None = None) -> str:
    """The TASK.md text for a task (frontmatter written by hand: a fixed, readable layout)."""
    lines = ["---", "protocol: 1"]
    if participants:
        lines.append("participants:")
        lines.extend(f"  - {slug}" for slug in participants)
    if retired:
        lines.append("retired:")
        lines.extend(f"  - {slug}" for slug in retired)
    if max_turns is not None:
        lines.append(f"max_turns: {max_turns}")
    if min_turns is not None:
        lines.append(f"min_turns: {min_turns}")
    if sealed:
        lines.append("sealed: true")
    if recorded_by:
        lines.append(f"recorded_by: {recorded_by}")
    lines.append(f"created_at: '{created_at or datetime.now(timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ')}'")
    lines.append("---")
    return "\n".join(lines) + "\n\n" + text.strip() + "\n"


def create_task(folder: str, content: str) -> str:
    """Create FOLDER/TASK.md atomically; TaskError when it exists already."""
    path = os.path.join(folder, TASK_FILE)
    if not create_exclusive(path, content.encode("utf-8")):
        raise TaskError(f"{path} exists already; edit it by hand or choose another folder")
    return path


def same_task(a: str, b: str) -> bool:
    """Two task texts are the same task when they match ignoring whitespace and case."""
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


_WORD_LIMIT_RE = LazyPattern(
    r"\b(?:at\s+most|no\s+more\s+than|up\s+to|under|max(?:imum)?|within|fewer\s+than|less\s+than)\s+"
    r"(\d{1,5})\s+words\b|\b(?:in\s+)?(\d{1,5})\s+words\s+or\s+(?:fewer|less)\b|(?:\u2264|<=)\s*(\d{1,5})\s+words\b",
    re.IGNORECASE)
_WORD_RE = LazyPattern(r"[^\W_](?:[\w'\u2019.-]*\w)?")


def count_words(text: str) -> int:
    """Words as a limit counts them: markup and list numbers are not words, `it's` and `v1.2` are one."""
    return len(_WORD_RE.findall(text))


def word_limit(task: str) -> int | None:
    """The Answer's word limit a task states ("at most 150 words", "in 200 words or fewer"), if any."""
    found = [int(n) for match in _WORD_LIMIT_RE.compiled.finditer(task) for n in match.groups() if n]
    return min(found) if found else None


def retire(folder: str, slug: str) -> Task:
    """Retire `slug` from the debate in `folder` (the user's decision, e.g. its session lost its key):
    off the roster, onto `retired:`; its turns stay as history, it writes no more, and turns complete
    without it.  TaskError when there is no usable TASK.md or the slug is not in the debate."""
    from .atomic import replace_file

    task = load_task(folder)
    if task is None:
        raise TaskError(f"{folder} has no TASK.md: retiring a participant is recorded there")
    require_readable(task)
    if slug in task.retired:
        raise TaskError(f"`{slug}` is retired already")
    roster = task.participants
    if roster is not None and slug not in roster:
        raise TaskError(f"`{slug}` is not on the roster ({', '.join(roster)})")
    path = os.path.join(folder, TASK_FILE)
    meta = split_frontmatter(read_text(path).text or "").metadata
    new_roster = tuple(s for s in roster if s != slug) if roster else None
    created = meta.get("created_at")
    content = render_task(task.text, new_roster, task.max_turns, task.min_turns,
                          str(meta["recorded_by"]) if meta.get("recorded_by") else None, task.sealed and bool(new_roster),
                          (*task.retired, slug), str(created) if created else None)
    try:
        replace_file(path, content.encode("utf-8"), ".TASK-")
    except OSError as exc:
        raise TaskError(f"cannot rewrite {path}: {exc.strerror or exc}") from exc
    return load_task(folder) or task

