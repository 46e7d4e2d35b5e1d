"""The library's front door: `multidebate.open(folder)` and what a session, a script or a server does with it.

    import multidebate

    debate = multidebate.open("my-debate")
    debate.init("Which database for the job queue?", participants=("opus", "gpt"))
    briefing = debate.next("opus")               # turn 1: the task (a Briefing; its `key` is opus's)
    result = debate.write("opus", sections, key=briefing.key)
    print(debate.status().state)

Each call returns the value the CLI renders (a Briefing, a WriteResult, a StatusOutput, the report's text) and
raises the library's errors (multidebate.protocol.errors); the CLI, `run` and the MCP server call these.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from .state.task_spec import TaskSpec
from .views.status_output import StatusOutput

if TYPE_CHECKING:
    from .protocol.findings import Finding
    from .turns.briefing_value import Briefing
    from .turns.write import WriteResult
    from .views.report import Report

# What each call needs is imported by the call: `import multidebate.api` stays as light as the CLI's start-up,
# and `write` never loads the briefing's code.

__all__ = ["DebateFolder", "open"]

REPORT_FORMATS = ("md", "json", "html")


class DebateFolder:
    """One debate folder, as the commands see it (the record of its parsed files is `state.debate.Debate`)."""

    def __init__(self, folder: str) -> None:
        self.folder = folder

    def __repr__(self) -> str:
        return f"DebateFolder({self.folder!r})"

    def init(self, task: str, *, participants: tuple[str, ...] | str | None = None, max_turns: int | None = None,
             min_turns: int | None = None, sealed: bool = False, mode: str = "open",
             proposal_path: str | None = None, roles: tuple[str, ...] | dict[str, str] = (),
             min_rounds: int | None = None, max_rounds: int | None = None, judge_when: str = "unresolved",
             agents: tuple[tuple[str, str], ...] = ()) -> tuple[str, TaskSpec]:
        """`init`: create the folder and TASK.md; its path and the TaskSpec recorded (a review's roster filled
        in).  `participants` as `a,b` or a tuple of slugs; `roles` as `SLUG=ROLE` specs or {slug: role}.
        SetupError when the setup cannot work (nothing is created); FolderError, TaskError."""
        from .state.new_debate import DebateSetup, create_debate, parse_roles, roster_of

        roster = roster_of(participants if isinstance(participants, str) or participants is None
                           else ",".join(participants))
        specs = tuple(f"{s}={r}" for s, r in roles.items()) if isinstance(roles, dict) else roles
        spec = TaskSpec(task, mode=mode, roles=parse_roles(specs), judge_when=judge_when, min_rounds=min_rounds,
                        max_rounds=max_rounds, participants=roster, agents=agents, max_turns=max_turns,
                        min_turns=min_turns, sealed=sealed)
        path, recorded = create_debate(self.folder, DebateSetup(spec, proposal_path))
        return path, recorded.spec

    def next(self, slug: str, *, key: str | None = None, task: str | None = None, wait: bool = False,
             timeout: float | None = None, sections: str | tuple[str, ...] | None = None, full: bool = False,
             on_wait: Callable[[str], None] | None = None,
             clock: Callable[[], float] = time.monotonic) -> Briefing:
        """`next`: the Briefing for `slug`'s next turn (with `task`, the folder and TASK.md are created when
        missing).  `wait`: first wait up to `timeout` seconds for the peers (the Briefing's `timed_out` says
        whether they all wrote).  `sections`: `answer,reasoning` or names; ValueError for an unknown one."""
        from .turns.briefing import brief, section_names
        from .turns.waiting import DEFAULT_TIMEOUT, brief_when_ready

        chosen = section_names(sections if isinstance(sections, str) else ",".join(sections)) \
            if sections is not None else None
        if not wait:
            return brief(self.folder, slug, task, create=True, key=key, sections=chosen, full=full)
        return brief_when_ready(self.folder, slug, task, create=True, key=key, sections=chosen, full=full,
                                timeout=DEFAULT_TIMEOUT if timeout is None else timeout, on_wait=on_wait,
                                clock=clock)

    def write(self, slug: str, sections_text: str | bytes, *, key: str | None = None,
              on_key: Callable[[WriteResult], None] | None = None, expect_turn: int | None = None) -> WriteResult:
        """`write`: check the sections (from `## Reasoning` on, or a whole turn file) and create turn-N-SLUG.md.
        A first write claims the slug: its WriteResult's `key` is the one to give from then on (`on_key` is
        called with it before the file exists).  InvalidTurn lists every problem (nothing is written)."""
        from .turns.write import write_turn

        content = sections_text.encode("utf-8") if isinstance(sections_text, str) else sections_text
        return write_turn(self.folder, slug, content, key, on_key=on_key, expect_turn=expect_turn)

    def status(self) -> StatusOutput:
        """`status`: its text, its `--json` data and the verdict's state."""
        from .views.status_output import status_output

        return status_output(self.folder)

    def validate(self) -> list[Finding]:
        """`validate`: every finding of the folder's files, in file:line order."""
        from .views.validate_output import validate_output

        return validate_output((self.folder,))

    def report(self, format: str = "md", *, weighted: bool = False) -> str:
        """`report --format md|json|html`: the document, as the command prints it before terminal escaping."""
        if format not in REPORT_FORMATS:
            raise ValueError(f"`{format}` is not one of {', '.join(REPORT_FORMATS)}")
        from .views.report import build_report, render_json, render_markdown
        from .views.report_html import render_html

        renderers: dict[str, Callable[[Report], str]] = {"md": render_markdown, "json": render_json,
                                                          "html": render_html}
        return renderers[format](build_report(self.folder, weighted))


def open(folder: str) -> DebateFolder:  # noqa: A001 (the library's entry point, as sqlite_utils.Database is)
    """The debate in `folder` (which need not exist yet: `init`, or `next` with a task, creates it)."""
    return DebateFolder(folder)


