"""Starting a debate: a setup checked whole, then the folder, the proposal's copy and TASK.md.

`init` (the CLI) and `debate_init` (the MCP server) both call `create_debate`; each turns a SetupError into
its own kind of error (a usage error naming the option, a tool error naming the argument).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, replace

from ..protocol.errors import FolderError, RosterFormatError, SetupError, TaskError
from ..protocol.naming import is_slug, parse_roster
from ..protocol.roles import parse_role
from ..protocol.textfile import read_text
from .atomic import create_exclusive
from .task import create_task
from .task_spec import TaskSpec, render_spec

__all__ = ["DebateSetup", "TaskSpec", "check_setup", "create_debate", "parse_roles", "roster_of"]


@dataclass(frozen=True)
class DebateSetup:
    """What a person (or a session, through MCP) asks `init` for: TASK.md's value, and a review's proposal file
    (`spec.proposal` and its digest are filled in when it is copied into the folder)."""

    spec: TaskSpec
    proposal_path: str | None = None

    @property
    def judges(self) -> tuple[str, ...]:
        return tuple(slug for slug, role in self.spec.roles if role.startswith("judge"))


def roster_of(participants: str | None) -> tuple[str, ...] | None:
    """`--participants a,b`, read as TASK.md's roster is (naming.parse_roster)."""
    if not participants:
        return None
    try:
        return parse_roster(participants)
    except RosterFormatError as exc:
        raise SetupError(str(exc), "--participants") from exc


def parse_roles(specs: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """`gpt-5-5=critic:security` specs -> ((slug, role as TASK.md writes it), ...)."""
    roles: dict[str, str] = {}
    for spec in specs:
        slug, sep, text = spec.partition("=")
        slug = slug.strip()
        if not sep or not is_slug(slug):
            raise SetupError(f"`{spec}` is not SLUG=ROLE (e.g. gpt-5-5=critic:security)", "--role")
        if slug in roles:
            raise SetupError(f"`{slug}` has two roles; give each participant one", "--role")
        try:
            roles[slug] = str(parse_role(text))
        except ValueError as exc:
            raise SetupError(f"`{spec}`: {exc}", "--role") from exc
    return tuple(roles.items())


def check_setup(setup: DebateSetup) -> DebateSetup:
    """The setup as it will be recorded (a review's roster filled in), or SetupError saying what cannot work."""
    spec = setup.spec
    roster, roles, max_turns, min_turns = spec.participants, spec.roles, spec.max_turns, spec.min_turns
    if min_turns is not None and max_turns is not None and min_turns > max_turns:
        raise SetupError(f"--min-turns {min_turns} is more than --max-turns {max_turns}: the debate could never "
                         "converge")
    if roster is not None and len(roster) < 2:
        raise SetupError(f"--participants {roster[0]} names one participant: the debate could never converge "
                         "(two at least)")
    if max_turns is not None and max_turns < 1:
        raise SetupError(f"{max_turns}: a debate takes 2 turns or more", "--max-turns")
    if max_turns == 1 and not setup.judges:
        raise SetupError("--max-turns 1: the debate could never converge (turn 1 is each session's own answer; "
                         "agreement counts from turn 2). Use 2 or more, or add a judge: --role SLUG=judge")
    if spec.sealed and not roster:
        raise SetupError("--sealed needs --participants: the roster says who must write before publishing")
    if not spec.text.strip():
        raise SetupError("the task is empty", "--task")
    debaters = tuple(slug for slug, role in roles if not role.startswith("judge"))
    judges = setup.judges
    if len(judges) > 1:
        raise SetupError(f"one judge at most, not {', '.join(judges)}", "--role")
    if roster and set(judges) & set(roster):
        raise SetupError(f"the judge `{judges[0]}` debates nothing: leave it out of --participants", "--role")
    if spec.mode == "review":
        _check_review(setup, debaters)
        roster = roster or debaters
    else:
        if debaters:
            raise SetupError("critic and defender roles need --mode review")
        for flag, value in (("--proposal", setup.proposal_path), ("--min-rounds", spec.min_rounds),
                            ("--max-rounds", spec.max_rounds)):
            if value is not None:
                raise SetupError(f"{flag} is for --mode review")
    if spec.min_rounds is not None and spec.max_rounds is not None and spec.min_rounds > spec.max_rounds:
        raise SetupError(f"--min-rounds {spec.min_rounds} is more than --max-rounds {spec.max_rounds}")
    if spec.judge_when == "always" and not judges:
        raise SetupError("--judge-when always needs a judge: add --role SLUG=judge")
    if spec.judge_when not in ("unresolved", "always"):
        raise SetupError(f"`{spec.judge_when}` is not unresolved or always", "--judge-when")
    if spec.mode not in ("open", "review"):
        raise SetupError(f"`{spec.mode}` is not open or review", "--mode")
    return replace(setup, spec=replace(spec, participants=roster))


def _check_review(setup: DebateSetup, debaters: tuple[str, ...]) -> None:
    """A review's setup is whole (a SetupError saying what is not)."""
    spec = setup.spec
    kinds = [role.split(":")[0] for _slug, role in spec.roles]
    if kinds.count("defender") != 1 or "critic" not in kinds:
        raise SetupError("a review needs one defender and at least one critic, e.g. --role gpt-5-5=critic:"
                         "security --role opus-4-7=defender")
    if setup.proposal_path is None:
        raise SetupError("a review needs --proposal FILE: the text the critics review")
    if spec.sealed:
        raise SetupError("a review cannot be --sealed: the defender reads the critics' turn as soon as it is "
                         "written")
    if spec.max_turns is not None or spec.min_turns is not None:
        raise SetupError("a review counts rounds: use --min-rounds and --max-rounds")
    if spec.participants is not None and set(spec.participants) != set(debaters):
        raise SetupError("in a review, --participants must be exactly the critics and the defender "
                         f"({', '.join(sorted(debaters))}); or leave it out", "--participants")


def _read_proposal(path: str) -> tuple[str, bytes]:
    """The proposal's name in the folder and its bytes; a clear error for anything that is no text file."""
    read = read_text(path, shown_as=path)
    if read.text is None:
        why = "; ".join(f.message for f in read.findings) or "cannot be read"
        raise SetupError(f"{path}: {why}", "--proposal")
    return "PROPOSAL" + (os.path.splitext(path)[1].lower() or ".md"), read.raw


def create_debate(folder: str, setup: DebateSetup) -> tuple[str, DebateSetup]:
    """Check `setup`, create FOLDER (when missing), copy a review's proposal in and create TASK.md: its path, and
    the setup as recorded (a review's roster filled in).

    SetupError: the setup cannot work (nothing is created); FolderError, TaskError: the folder cannot be made,
    or already holds a debate."""
    setup = check_setup(setup)
    proposal = _read_proposal(setup.proposal_path) if setup.proposal_path is not None else None
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        raise FolderError(f"cannot create {folder}: {exc.strerror or exc}") from exc
    digest = None
    if proposal is not None:
        target = os.path.join(folder, proposal[0])
        if not create_exclusive(target, proposal[1]):
            raise TaskError(f"{target} exists already; choose a new folder for the review")
        digest = hashlib.sha256(proposal[1]).hexdigest()
    if proposal is not None:
        setup = replace(setup, spec=replace(setup.spec, proposal=proposal[0], proposal_sha256=digest))
    return create_task(folder, render_spec(setup.spec)), setup
