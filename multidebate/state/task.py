"""TASK.md: the task text, and in its frontmatter the optional roster and turn limits."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, fields, replace
from typing import NamedTuple

from ..protocol.errors import RosterFormatError, TaskError
from ..protocol.findings import Finding, finding
from ..protocol.front_matter import split_frontmatter
from ..protocol.naming import is_slug, parse_roster
from ..protocol.roles import JUDGE_WHEN, MODES, Role, parse_role
from ..protocol.textfile import read_text
from ..version import __version__
from .atomic import create_exclusive
from .fingerprint import FileIdentity, lstat_identity, same_identity
from .jsonstate import loads_state
from .layout import read_state, task_cache_path, write_json_state
from .shared import write_gitignore
from .task_spec import TaskSpec, render_spec, spec_fields_from_json, spec_to_json

__all__ = ["Task", "TaskSpec", "TASK_FILE", "check_retire", "count_words", "load_task", "render_spec", "render_task", "create_task",
           "require_readable", "retire", "same_task", "word_limit"]

TASK_FILE = "TASK.md"


@dataclass(frozen=True)
class Task(TaskSpec):
    """The debate's task and limits as TASK.md records them (TaskSpec), and what its reader found wrong."""

    findings: tuple[Finding, ...] = ()

    @property
    def spec(self) -> TaskSpec:
        """The recorded value alone, as `render_spec` writes it."""
        return TaskSpec(**{f.name: getattr(self, f.name) for f in fields(TaskSpec)})

    @property
    def review(self) -> bool:
        return self.mode == "review"

    @property
    def role_map(self) -> dict[str, Role]:
        """slug -> Role (specs TASK.md could not read are left out: its findings say so)."""
        found: dict[str, Role] = {}
        for slug, spec in self.roles:
            try:
                found[slug] = parse_role(spec)
            except ValueError:
                continue
        return found

    @property
    def judge(self) -> str | None:
        """The judge's slug, if the debate has one."""
        return next((slug for slug, role in self.role_map.items() if role.kind == "judge"), None)

    @property
    def rounds(self) -> tuple[int, int]:
        """(min, max) rounds of a review debate: 2 and 4 unless TASK.md says otherwise."""
        low, high = self.min_rounds or 2, self.max_rounds or 4
        return min(low, high), high


def _positive_int(value: object) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        return None
    return value


def _from_cache(folder: str, path: str, identity: FileIdentity) -> Task | None:
    try:
        data = loads_state(read_state(task_cache_path(folder), 1024 * 1024))
        if not same_identity(data["identity"], identity) or data["version"] != __version__:
            return None
        return Task(**spec_fields_from_json(data["spec"]), findings=tuple(
            finding(path, int(line), str(code), str(msg)) for line, code, msg in data["findings"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _to_cache(folder: str, identity: FileIdentity, task: Task) -> None:
    data = {"version": __version__, "identity": list(identity), "spec": spec_to_json(task.spec),
            "findings": [[f.line, f.code, f.message] for f in task.findings]}
    try:
        write_json_state(task_cache_path(folder), data)
    except OSError:
        pass


def load_task(folder: str) -> Task | None:
    """Read FOLDER/TASK.md; None when there is none. Problems become findings, never exceptions.

    Cached like turn files (cache.py): YAML is parsed only when TASK.md changed.
    """
    path = os.path.join(folder, TASK_FILE)
    if not os.path.lexists(path):
        return None
    identity = lstat_identity(path)
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
        try:
            participants = parse_roster(raw, repeats=True) or None  # the same reader as `init --participants`
        except RosterFormatError as exc:
            notes.append(finding(path, 2, "E073", f"participants: {exc}"))
        else:
            if participants is None:
                notes.append(finding(path, 2, "E073", "participants: names no one (leave it out when whoever "
                                     "writes takes part)"))
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
    setup = _read_setup(meta, participants, notes, path)
    agents = _read_agents(meta.get("agents"), notes, path)
    participants = setup.participants
    if sealed and setup.mode == "review":
        notes.append(finding(path, 2, "E073", "a review debate cannot be sealed: the defender reads the critics' "
                             "turn as soon as they wrote it"))
        sealed = False
    if sealed and not participants:
        notes.append(finding(path, 2, "E073", "sealed: true needs a participants roster (who must write before "
                             "a turn is published)"))
        sealed = False
    recorded_by, created_at = meta.get("recorded_by"), meta.get("created_at")
    return Task(split.body.strip(), setup.mode, setup.proposal, setup.proposal_sha256, setup.roles, setup.judge_when,
                setup.min_rounds, setup.max_rounds, participants, retired, agents, limits["max_turns"],
                limits["min_turns"], sealed, str(recorded_by) if recorded_by else None,
                str(created_at) if created_at else None, findings=tuple(notes))


def _read_agents(raw: object, notes: list[Finding], path: str) -> tuple[tuple[str, str], ...]:
    """`agents: {opus: "claude:opus"}`: which participants `multidebate run` drives, and with what (the spec
    itself is `run`'s to read); a malformed map is an E073 finding."""
    if raw is None:
        return ()
    if not isinstance(raw, dict) or not all(isinstance(k, str) and is_slug(k) and isinstance(v, str) and v.strip()
                                            for k, v in raw.items()):
        notes.append(finding(path, 2, "E073", "agents must map slugs to agents, e.g. `opus-4-7: claude:opus`"))
        return ()
    return tuple((k, v.strip()) for k, v in raw.items())


class _Setup(NamedTuple):
    mode: str
    roles: tuple[tuple[str, str], ...]
    participants: tuple[str, ...] | None
    proposal: str | None
    proposal_sha256: str | None
    min_rounds: int | None
    max_rounds: int | None
    judge_when: str


def _read_setup(meta: dict[str, object], participants: tuple[str, ...] | None, notes: list[Finding],
                path: str) -> _Setup:
    """The mode, roles, proposal and rounds; each problem an E073 finding (the debate then runs as open)."""
    def bad(message: str) -> None:
        notes.append(finding(path, 2, "E073", message))

    mode = meta.get("mode", "open")
    if mode not in MODES:
        bad(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        mode = "open"
    roles: dict[str, Role] = {}
    raw = meta.get("roles")
    if raw is not None and not isinstance(raw, dict):
        bad("roles must map slugs to roles, e.g. `opus-4-7: defender`")
    for slug, spec in (raw.items() if isinstance(raw, dict) else ()):
        if not (isinstance(slug, str) and is_slug(slug)) or not isinstance(spec, str):
            bad(f"roles: `{slug}: {spec}` must be `<slug>: <role>`")
            continue
        try:
            roles[slug] = parse_role(spec)
        except ValueError as exc:
            bad(f"roles: `{slug}`: {exc}")
    judges = [s for s, r in roles.items() if r.kind == "judge"]
    if len(judges) > 1:
        bad(f"a debate has at most one judge, not {len(judges)} ({', '.join(judges)})")
    debaters = tuple(s for s, r in roles.items() if r.kind != "judge")
    if participants and set(judges) & set(participants):
        bad(f"the judge `{judges[0]}` debates nothing: take it off participants")
    rounds: dict[str, int | None] = {}
    for key in ("min_rounds", "max_rounds"):
        value = meta.get(key)
        rounds[key] = _positive_int(value)
        if value is not None and rounds[key] is None:
            bad(f"{key} must be a positive integer, not {value!r}")
    if rounds["min_rounds"] and rounds["max_rounds"] and rounds["min_rounds"] > rounds["max_rounds"]:
        bad(f"min_rounds {rounds['min_rounds']} is more than max_rounds {rounds['max_rounds']}")
    judge_when = meta.get("judge_when", "unresolved")
    if judge_when not in JUDGE_WHEN:
        bad(f"judge_when must be one of {', '.join(JUDGE_WHEN)}, not {judge_when!r}")
        judge_when = "unresolved"
    proposal = meta.get("proposal")
    digest = meta.get("proposal_sha256")
    if proposal is not None and not (isinstance(proposal, str) and _plain_name(proposal)):
        bad(f"proposal must be the name of a file in the debate folder, not {proposal!r}")
        proposal = None
    if mode == "review":
        critics = [s for s, r in roles.items() if r.kind == "critic"]
        defenders = [s for s, r in roles.items() if r.kind == "defender"]
        if not critics or len(defenders) != 1:
            bad(f"a review debate needs at least one critic and exactly one defender (it has {len(critics)} and "
                f"{len(defenders)})")
        if proposal is None:
            bad("a review debate needs `proposal:` (the file the critics review)")
        if participants is None:
            participants = debaters or None
        elif set(participants) != set(debaters):
            bad("in a review debate every participant has a critic or defender role and no one else writes turns")
    elif any(r.kind != "judge" for r in roles.values()):
        bad("critic and defender roles need `mode: review`")
    return _Setup(str(mode), tuple((s, str(r)) for s, r in roles.items()), participants,
                  proposal if isinstance(proposal, str) else None, digest if isinstance(digest, str) else None,
                  rounds["min_rounds"], rounds["max_rounds"], str(judge_when))


def _plain_name(name: str) -> bool:
    """A file name inside the folder: no path, no hidden or state file."""
    return bool(name) and "/" not in name and "\\" not in name and not name.startswith(".") and name != TASK_FILE


def render_task(text: str, participants: tuple[str, ...] | None = None, max_turns: int | None = None,
                min_turns: int | None = None, recorded_by: str | None = None, sealed: bool = False,
                created_at: str | None = None) -> str:
    """The TASK.md text of an open debate's task (a shorthand of `render_spec` for the common fields)."""
    return render_spec(TaskSpec(text, participants=participants, max_turns=max_turns, min_turns=min_turns,
                                recorded_by=recorded_by, sealed=sealed, created_at=created_at))


def create_task(folder: str, content: str) -> str:
    """Create FOLDER/TASK.md atomically; TaskError when it exists already."""
    path = os.path.join(folder, TASK_FILE)
    if not create_exclusive(path, content.encode("utf-8")):
        raise TaskError(f"{path} exists already; edit it by hand or choose another folder")
    try:
        write_gitignore(folder)  # a folder shared through git (`sync`) never commits this machine's state
    except OSError:
        pass  # the debate works without it; `sync` writes it again before its first commit
    return path


def same_task(a: str, b: str) -> bool:
    """Two task texts are the same task when they match ignoring whitespace and case."""
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


_WORD_LIMIT_RE = re.compile(
    r"\b(?:at\s+most|no\s+more\s+than|up\s+to|under|max(?:imum)?|within|fewer\s+than|less\s+than)\s+"
    r"(\d{1,5})\s+words\b|\b(?:in\s+)?(\d{1,5})\s+words\s+or\s+(?:fewer|less)\b|(?:\u2264|<=)\s*(\d{1,5})\s+words\b",
    re.IGNORECASE)
_WORD_RE = re.compile(r"[^\W_](?:[\w'\u2019.-]*\w)?")


def count_words(text: str) -> int:
    """Words as a limit counts them: markup and list numbers are not words, `it's` and `v1.2` are one."""
    return len(_WORD_RE.findall(text))


def word_limit(task: str) -> int | None:
    """The Answer's word limit a task states ("at most 150 words", "in 200 words or fewer"), if any."""
    found = [int(n) for match in _WORD_LIMIT_RE.finditer(task) for n in match.groups() if n]
    return min(found) if found else None


def check_retire(folder: str, slug: str) -> Task:
    """The task, when `slug` may be retired from it; TaskError saying why not."""
    task = load_task(folder)
    if task is None:
        raise TaskError(f"{folder} has no TASK.md: retiring a participant is recorded there")
    require_readable(task)
    if slug in task.retired:
        raise TaskError(f"`{slug}` is retired already")
    roster = task.participants
    if roster is not None and slug not in roster:
        raise TaskError(f"`{slug}` is not on the roster ({', '.join(roster)})")
    role = task.role_map.get(slug)
    if task.review and role is not None and (role.kind == "defender" or sum(
            r.kind == "critic" for r in task.role_map.values()) == 1):
        raise TaskError(f"`{slug}` is this review's {'defender' if role.kind == 'defender' else 'only critic'}: "
                        "a review cannot go on without it. Start a new debate instead.")
    return task


def retire(folder: str, slug: str) -> Task:
    """Retire `slug` from the debate in `folder` (the user's decision, e.g. its session lost its key):
    off the roster, onto `retired:`; its turns stay as history, it writes no more, and turns complete
    without it.  TaskError when there is no usable TASK.md or the slug is not in the debate."""
    from .atomic import replace_file

    task = check_retire(folder, slug)
    path = os.path.join(folder, TASK_FILE)
    roster = task.participants
    new_roster = tuple(s for s in roster if s != slug) if roster else None
    content = render_spec(replace(task.spec, participants=new_roster, sealed=task.sealed and bool(new_roster),
                                  retired=(*task.retired, slug), roles=tuple((s, r) for s, r in task.roles if s != slug),
                                  agents=tuple((s, a) for s, a in task.agents if s != slug)))
    try:
        replace_file(path, content.encode("utf-8"), ".TASK-")
    except OSError as exc:
        raise TaskError(f"cannot rewrite {path}: {exc.strerror or exc}") from exc
    return load_task(folder) or task

