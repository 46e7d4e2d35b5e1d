"""The bundled SKILL.md and its installation where each assistant looks for skills.

A copy is installed as `<skills folder>/multidebate/SKILL.md`, beside a small
record (`.multidebate-skill.json`) holding the sha256 of what was written.
The record is how a copy we installed (safe to update or remove) is told
from one a person changed (kept unless forced): a file that differs both
from the bundled SKILL.md and from the recorded hash was edited by someone.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ..protocol.errors import SkillError
from ..state.jsonstate import loads_state
from ..version import __version__
from .agents import AGENTS, DEFAULT_AGENTS, FOLDERS, folder_for

__all__ = [
    "SKILL_NAME", "RECORD_NAME", "STATES", "Location", "Copy", "Change", "bundled_skill", "bundled_sha256",
    "locations", "targets", "custom_location", "inspect", "survey", "install", "uninstall",
]

SKILL_NAME = "multidebate"
RECORD_NAME = ".multidebate-skill.json"
STATES = ("missing", "covered", "current", "stale", "modified", "linked", "unreadable")


@dataclass(frozen=True)
class Location:
    """A skills folder that some assistants read; the skill lives in its `multidebate/` subfolder."""

    scope: str  # "user", "project" or "custom" (--dest)
    skills_dir: Path
    agents: tuple[str, ...]

    @property
    def folder(self) -> Path:
        return self.skills_dir / SKILL_NAME

    @property
    def skill_file(self) -> Path:
        return self.folder / "SKILL.md"

    @property
    def record_file(self) -> Path:
        return self.folder / RECORD_NAME

    @property
    def readers(self) -> str:
        return ", ".join(AGENTS[a] for a in self.agents) if self.agents else "(a folder you chose)"


@dataclass(frozen=True)
class Copy:
    """What is installed at one location, compared with the bundled SKILL.md."""

    location: Location
    state: str  # one of STATES
    installed_version: str | None  # from our record, when there is one

    def as_dict(self) -> dict[str, object]:
        return {
            "scope": self.location.scope,
            "agents": list(self.location.agents),
            "skills_dir": str(self.location.skills_dir),
            "path": str(self.location.skill_file),
            "state": self.state,
            "installed_version": self.installed_version,
        }


@dataclass(frozen=True)
class Change:
    """What install or uninstall did (or, in a dry run, would do) at one location."""

    location: Location
    before: str  # the copy's state before
    action: str  # "create", "update", "replace", "remove", "none" (up to date), "keep" or "fail"
    dry_run: bool
    note: str = ""

    @property
    def done(self) -> bool:
        return self.action in ("create", "update", "replace", "remove") and not self.dry_run

    @property
    def verb(self) -> str:
        """`created`, `kept`, ... or, in a dry run, `would create`, `would keep`, ..."""
        if self.action in ("none", "fail"):
            return "up to date" if self.action == "none" else "failed"
        if self.dry_run:
            return f"would {self.action}"
        return {"create": "created", "update": "updated", "replace": "replaced", "remove": "removed",
                "keep": "kept"}[self.action]


def bundled_skill() -> bytes:
    """The SKILL.md shipped in the package, byte for byte."""
    return resources.files("multidebate.skill").joinpath("SKILL.md").read_bytes()


def bundled_sha256() -> str:
    return hashlib.sha256(bundled_skill()).hexdigest()


def _base(scope: str, home: Path | None, project: Path | None) -> Path:
    """The home folder (HOME, as Path.home() reads it) for user scope, the current folder for project scope."""
    try:
        return (home or Path.home()) if scope == "user" else (project or Path.cwd())
    except (OSError, RuntimeError) as exc:
        where = "home folder (set HOME)" if scope == "user" else "current folder"
        raise SkillError(f"cannot find the {where}: {exc}; or give --dest DIR") from exc


def locations(scope: str, home: Path | None = None, project: Path | None = None) -> tuple[Location, ...]:
    """Every skills folder known for `scope`: under the home folder (user) or the project folder."""
    base = _base(scope, home, project)
    return tuple(Location(scope, base / folder, readers) for folder, readers in FOLDERS[scope])


def targets(agents: Iterable[str], scope: str, home: Path | None = None,
            project: Path | None = None) -> tuple[Location, ...]:
    """The folders to install into for `agents`: none given, the default pair; "all", every known folder."""
    known = locations(scope, home, project)
    chosen = tuple(agents) or DEFAULT_AGENTS
    if "all" in chosen:
        return known
    wanted = {folder_for(agent, scope) for agent in chosen}
    return tuple(loc for loc, (folder, _) in zip(known, FOLDERS[scope]) if folder in wanted)


def custom_location(dest: str | Path) -> Location:
    """`--dest DIR`: the skill goes to DIR/multidebate/."""
    return Location("custom", Path(dest), ())


def _read_record(location: Location) -> dict[str, str]:
    try:
        with open(location.record_file, "rb") as handle:
            data = loads_state(handle.read(1024 * 1024))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}


def inspect(location: Location, bundled: bytes | None = None) -> Copy:
    """The state of the copy at `location`. Never follows a link to decide it is ours."""
    bundled = bundled_skill() if bundled is None else bundled
    record = _read_record(location)
    version = record.get("version")
    try:
        if location.folder.is_symlink() or location.skill_file.is_symlink():
            return Copy(location, "linked", version)
        if not os.path.lexists(location.skill_file):
            return Copy(location, "missing", None)
        data = location.skill_file.read_bytes()
    except OSError:
        return Copy(location, "unreadable", version)  # not a copy we can vouch for, so never ours to touch
    if data == bundled:
        return Copy(location, "current", version)
    if record.get("sha256") == hashlib.sha256(data).hexdigest():
        return Copy(location, "stale", version)
    return Copy(location, "modified", version)


def survey(home: Path | None = None, project: Path | None = None,
           extra: Iterable[Location] = ()) -> tuple[Copy, ...]:
    """Every known location of both scopes (and `extra` ones), each once, with the state of its copy."""
    bundled = bundled_skill()
    seen: set[Path] = set()
    copies = []
    for location in [*locations("user", home, project), *locations("project", home, project), *extra]:
        # The project folder may be the home folder: the same path is listed once, under user.
        key = location.skills_dir.absolute()
        if key in seen:
            continue
        seen.add(key)
        copies.append(inspect(location, bundled))
    return _covered(tuple(copies))


def _covered(copies: tuple[Copy, ...]) -> tuple[Copy, ...]:
    """A missing copy whose every reader already reads a current copy elsewhere in its scope is `covered`:
    Gemini CLI, Cursor, Copilot and OpenCode read the shared `.agents/skills`, so their own folders need none."""
    served = {(c.location.scope, agent) for c in copies if c.state == "current" for agent in c.location.agents}
    return tuple(
        Copy(c.location, "covered", None) if c.state == "missing" and c.location.agents
        and all((c.location.scope, agent) in served for agent in c.location.agents) else c
        for c in copies)


def _write_atomically(path: Path, data: bytes) -> None:
    """Replace `path` with `data` in one rename, so an assistant never loads half a skill."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)  # honours the umask, like cp
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def _put(location: Location, bundled: bytes) -> None:
    if location.folder.is_symlink():
        location.folder.unlink()  # the link only (with --force), never what it points to
    location.folder.mkdir(parents=True, exist_ok=True)
    _write_atomically(location.skill_file, bundled)
    _put_record(location, bundled)


def _put_record(location: Location, bundled: bytes) -> None:
    record = {"tool": SKILL_NAME, "version": __version__, "sha256": hashlib.sha256(bundled).hexdigest()}
    _write_atomically(location.record_file, (json.dumps(record, indent=2) + "\n").encode())


def _oserror(exc: OSError) -> str:
    return f"{exc.strerror or exc}" + (f": {exc.filename}" if exc.filename else "")


_KEPT_BECAUSE = {
    "modified": "changed by a person; --force {verb} it",
    "linked": "a symbolic link; --force {verb} the link (not what it points to)",
    "unreadable": "cannot be read; --force {verb} it",
}


def install(where: Iterable[Location], force: bool = False, dry_run: bool = False) -> tuple[Change, ...]:
    """Install the bundled SKILL.md at each location; a copy a person changed is kept unless `force`."""
    bundled = bundled_skill()
    digest = hashlib.sha256(bundled).hexdigest()
    changes = []
    for location in where:
        copy = inspect(location, bundled)
        action = {"missing": "create", "stale": "update", "current": "none"}.get(copy.state, "keep")
        if action == "keep" and force:
            action = "replace"
        change = Change(location, copy.state, action, dry_run,
                        _KEPT_BECAUSE[copy.state].format(verb="replaces") if action == "keep" else "")
        try:
            if change.done:
                _put(location, bundled)
            elif action == "none" and not dry_run and _read_record(location).get("sha256") != digest:
                _put_record(location, bundled)  # a copy made by hand gets its record, so a later version updates it
        except OSError as exc:
            change = Change(location, copy.state, "fail", dry_run, _oserror(exc))
        changes.append(change)
    return tuple(changes)


def _remove(location: Location) -> str:
    """Remove our files from the location; the folder goes only when nothing else is in it."""
    if location.folder.is_symlink():
        location.folder.unlink()
        return ""
    for path in (location.skill_file, location.record_file):
        if os.path.lexists(path):
            path.unlink()
    try:
        location.folder.rmdir()
    except OSError:
        return f"kept the folder {location.folder}: it holds other files"
    return ""


def uninstall(where: Iterable[Location], force: bool = False, dry_run: bool = False) -> tuple[Change, ...]:
    """Remove the copies we installed; a copy a person changed is kept unless `force`. Missing ones are skipped."""
    bundled = bundled_skill()
    changes = []
    for location in where:
        copy = inspect(location, bundled)
        if copy.state == "missing":
            continue
        ours = copy.state in ("current", "stale")
        action = "remove" if ours or force else "keep"
        change = Change(location, copy.state, action, dry_run,
                        "" if action == "remove" else _KEPT_BECAUSE[copy.state].format(verb="removes"))
        try:
            if change.done:
                change = Change(location, copy.state, action, dry_run, _remove(location))
        except OSError as exc:
            change = Change(location, copy.state, "fail", dry_run, _oserror(exc))
        changes.append(change)
    return tuple(changes)
