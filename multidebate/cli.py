"""The `multidebate` command: options in, one library call, formatted result out."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NoReturn

import click

from . import __version__
from .errors import InvalidTurn, MultidebateError
from .agents import AGENTS, SCOPES, folder_table

if TYPE_CHECKING:
    from .skill import Change, Location

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2  # click's own code for a usage error
EXIT_NOT_CONVERGED = 3
EXIT_TIMEOUT = 3  # `watch --timeout`: the awaited state did not come, like `status --check`
EXIT_INTERRUPTED = 130  # Ctrl-C, as shells report SIGINT

EXIT_CODES_HELP = """\b
Exit codes: 0 success; 1 error (nothing written), or `validate` found errors,
or `skill install`/`uninstall` kept a copy a person changed; 2 usage error;
3 `status --check`: the debate has not converged."""


def _emit_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


@contextmanager
def _library_errors(as_json: bool = False) -> Iterator[None]:
    """Turn library errors into `Error: ...` on stderr and exit 1, never a traceback."""
    try:
        yield
    except InvalidTurn as exc:
        _fail(str(exc), exc.problems, as_json)
    except MultidebateError as exc:
        _fail(str(exc), [], as_json)


def _fail(message: str, problems: list[str], as_json: bool) -> NoReturn:
    if as_json:
        _emit_json({"ok": False, "error": message, "problems": problems})
    else:
        text = message + "".join(f"\n  - {p}" for p in problems)
        click.echo(f"Error: {text}", err=True)
    sys.exit(EXIT_ERROR)


def _json_option(func: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON for programs and models.")(func)


@click.group(context_settings={"help_option_names": ["-h", "--help"]}, epilog=EXIT_CODES_HELP)
@click.version_option(__version__, prog_name="multidebate")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True,
              help="Color human output: auto colors a terminal unless NO_COLOR is set. JSON is never colored.")
@click.pass_context
def cli(ctx: click.Context, color: str) -> None:
    """Several AI coding-assistant sessions debate a task in one folder until they really agree.

    Sessions call `next` and `write` each turn; people call `status`.
    `multidebate skill install` puts the skill where the assistants look for it.
    """
    from .style import color_setting

    # Subcommands' contexts inherit this, and click.echo strips styles when it is False.
    ctx.color = color_setting(color, os.environ.get("NO_COLOR"))
    if sys.stderr.isatty():
        from .cache import report_progress
        from .progress import ParseProgress

        progress = ParseProgress()
        report_progress(progress)
        ctx.call_on_close(progress.finish)


@cli.command()
@click.argument("name")
def slug(name: str) -> None:
    """Print the slug for a model NAME (`Claude Opus 4.7` -> `claude-opus-4-7`)."""
    from .naming import slugify

    result = slugify(name)
    if not result:
        raise click.ClickException(f"no slug can be made from {name!r}: use letters or digits")
    click.echo(result)


@cli.command()
@click.argument("folder", type=click.Path(file_okay=False))
@click.option("--task", "task_text", required=True, help="The task every session debates.")
@click.option("--participants", help="Comma-separated roster of slugs, e.g. opus-4-7,gpt-5-5.")
@click.option("--max-turns", type=click.IntRange(min=1), help="Stop the debate after this many turns.")
@click.option("--min-turns", type=click.IntRange(min=1), help="Turns to take before convergence counts.")
@click.option("--sealed", is_flag=True, help="Blind turns: publish a turn only when every participant wrote it.")
def init(folder: str, task_text: str, participants: str | None, max_turns: int | None,
         min_turns: int | None, sealed: bool) -> None:
    """Create FOLDER and its TASK.md (task text, optional roster and turn limits)."""
    import os

    from .naming import is_slug
    from .task import create_task, render_task

    roster: tuple[str, ...] | None = None
    if participants:
        roster = tuple(dict.fromkeys(p.strip() for p in participants.split(",") if p.strip()))
        bad = [p for p in roster if not is_slug(p)]
        if bad:
            raise click.BadParameter(f"not slugs: {', '.join(bad)} (see `multidebate slug NAME`)",
                                     param_hint="--participants")
    if sealed and not roster:
        raise click.UsageError("--sealed needs --participants: the roster says who must write before publishing")
    if not task_text.strip():
        raise click.BadParameter("the task is empty", param_hint="--task")
    with _library_errors():
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError as exc:
            raise click.ClickException(f"cannot create {folder}: {exc.strerror or exc}") from exc
        path = create_task(folder, render_task(task_text, roster, max_turns, min_turns, sealed=sealed))
    click.echo(f"Created {path}. Each session now runs: multidebate next {folder} --slug <its slug>")


@cli.command(name="next")
@click.argument("folder", type=click.Path())
@click.option("--slug", "slug_", required=True, help="This session's slug (see `multidebate slug`).")
@click.option("--task", "task_text", help="The user's task; needed on the first turn of a folder without TASK.md.")
@click.option("--key", help="The key `write` gave this session on its first turn.")
@click.option("--sections", "sections_spec", metavar="LIST",
              help="Serve only these sections of each peer file, e.g. answer,disagreements (large debates).")
@click.option("--wait", is_flag=True, help="Block until every peer has written the previous turn, then answer.")
@click.option("--timeout", type=click.FloatRange(min=0), metavar="SECONDS",
              help="With --wait: stop waiting after SECONDS (default 600) and answer with what exists.")
@_json_option
def next_(folder: str, slug_: str, task_text: str | None, key: str | None, sections_spec: str | None, wait: bool,
          timeout: float | None, as_json: bool) -> None:
    """Everything a session needs for its next turn: number, task, peers' previous turn.

    Serves only the peers' turn N-1 files, and prints the exact `write`
    command to use.  Creates FOLDER when --task is given and it is missing.
    With --wait, first blocks until every peer has written turn N-1; on
    timeout it answers with what exists and a note naming who did not write
    (exit 0).  Ctrl-C exits 130.
    """
    from .briefing import brief, render_briefing

    from .briefing import section_names

    sections = None
    if sections_spec is not None:
        try:
            sections = section_names(sections_spec)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--sections") from exc
    if timeout is not None and not wait:
        raise click.BadParameter("only applies with --wait", param_hint="--timeout")
    try:
        with _library_errors(as_json):
            if wait:
                from .waiting import DEFAULT_TIMEOUT, brief_when_ready

                briefing = brief_when_ready(folder, slug_, task_text, create=True, key=key, sections=sections,
                                            timeout=DEFAULT_TIMEOUT if timeout is None else timeout,
                                            on_wait=lambda message: click.echo(message, err=True))
            else:
                briefing = brief(folder, slug_, task_text, create=True, key=key, sections=sections)
    except KeyboardInterrupt:
        sys.exit(EXIT_INTERRUPTED)
    if as_json:
        _emit_json(briefing.as_dict())
    else:
        click.echo(render_briefing(briefing))


@cli.command()
@click.argument("folder", type=click.Path())
@click.option("--slug", "slug_", required=True, help="This session's slug.")
@click.option("--file", "source", type=click.File("rb"), default="-", show_default="stdin",
              help="Read the sections from this file instead of stdin.")
@click.option("--key", help="The key `write` gave this session on its first turn (required from then on).")
@_json_option
def write(folder: str, slug_: str, source: Any, key: str | None, as_json: bool) -> None:
    """Validate a turn's sections and create turn-N-SLUG.md atomically.

    Give the sections (## Reasoning, ## Answer, [## Agreements, ## Disagreements,]
    ## Confidence, ## Converged) on stdin or with --file; the title and
    metadata are added.  Never overwrites; on invalid input nothing is
    written and every problem is listed.  The first write under a slug
    claims it and prints a key; later writes need `--key`.
    """
    from .status import debate_status
    from .write import write_turn

    if source is sys.stdin.buffer and sys.stdin.isatty():
        raise click.UsageError("give the sections on stdin (a heredoc) or with --file")
    content = source.read()
    with _library_errors(as_json):
        result = write_turn(folder, slug_, content, key)
        status = debate_status(folder)
    # Say how far the turn is, never what peers answered: a session must not learn
    # its peers' current-turn positions before its next `next`.
    done, waiting = status.progress(result.turn)
    written = len(done)
    if status.roster:
        progress = f"Turn {result.turn}: {written} of {len(status.participants)} written" + (
            f"; waiting for {', '.join(waiting)}." if waiting else "; the turn is complete.")
    else:
        progress = (f"Turn {result.turn}: written so far by {', '.join(done)} (no roster: whoever writes "
                    "takes part).")
    ended = status.verdict.state == "converged"
    if as_json:
        _emit_json({"ok": True, "path": result.path, "turn": result.turn, "slug": result.slug,
                    "confidence": result.confidence, "converged": result.converged,
                    "normalised": list(result.normalised),
                    "peers_read": [{"file": f, "sha256": h} for f, h in result.peers_read],
                    "progress": {"written": written, "waiting": list(waiting)},
                    "key": result.key, "sealed": result.sealed, "published": result.published,
                    "debate": {"state": status.verdict.state, "turn": status.verdict.turn}})
        return
    click.echo(f"Wrote {result.path} (turn {result.turn}, confidence {result.confidence}, "
               f"converged {'yes' if result.converged else 'no'}).")
    for note in result.normalised:
        click.echo(f"  normalised: {note}")
    if result.key:
        click.echo(f"Your key for `{result.slug}` is {result.key}: keep it, and add --key {result.key} to every "
                   "later `multidebate next` and `multidebate write` of this debate.")
    if result.sealed and result.published:
        click.echo(f"Every participant has written turn {result.turn}: it is now published.")
    elif result.sealed:
        click.echo(f"Turn {result.turn} stays sealed (unseen by peers) until every participant has written it; "
                   "nothing to do.")
    click.echo(progress)
    if ended:
        click.echo(f"The debate converged at turn {status.verdict.turn}: it is over.")
    elif status.verdict.final:
        click.echo(f"The debate ended: {status.verdict.state} at turn {status.verdict.turn} "
                   f"({status.verdict.detail}). Tell the user.")


@cli.command()
@click.argument("folder", type=click.Path())
@click.option("--check", is_flag=True, help="Exit 0 only when converged, 3 otherwise.")
@_json_option
def status(folder: str, check: bool, as_json: bool) -> None:
    """Where the debate stands: turns x participants, who is missing, the verdict.

    Exits 0 whatever the verdict (files with errors are shown, marked `!`),
    unless --check is given.
    """
    from .status import debate_status, render_status
    from .style import status_text

    with _library_errors(as_json):
        result = debate_status(folder)
    if as_json:
        _emit_json(result.as_dict())
    else:
        click.echo(status_text(render_status(result), result.verdict.state))
    if check and result.verdict.state != "converged":
        sys.exit(EXIT_NOT_CONVERGED)


@cli.command()
@click.argument("folder", type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Print JSON Lines: one object per line, with a `type`.")
@click.option("--until", type=click.Choice(["converged", "end"]),
              help="Exit 0 once the debate converges (converged) or reaches any final verdict "
                   "(end: converged, hollow, stalled, max_turns).")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS",
              help="Exit 3 after SECONDS.")
@click.option("--poll", type=click.FloatRange(min=0.01), is_flag=False, flag_value=1.0, default=None,
              metavar="[SECONDS]", help="Poll the folder every SECONDS (1.0 if no value is given) instead of "
                                         "native events: for network and synced folders.")
def watch(folder: str, as_json: bool, until: str | None, timeout: float | None, poll: float | None) -> None:
    """Follow a debate live, one line per event.

    Prints the current state, then a line per new turn file once it is
    complete (confidence, converged, format errors), per completed turn, per
    removed turn file, and whenever the verdict changes.  Exit codes: 0
    --until reached, 1 folder missing or removed, 3 --timeout reached, 130
    interrupted (Ctrl-C).
    """
    from contextlib import closing

    from .errors import MultidebateError
    from .watch import reached, watch_folder
    from .watch_reports import StateReport, VerdictReport, error_line, json_line, text_line

    render = json_line if as_json else text_line
    try:
        with closing(watch_folder(folder, poll, timeout)) as reports:
            for report in reports:
                click.echo(render(report))
                if isinstance(report, (StateReport, VerdictReport)) and reached(report.verdict.state, until):
                    sys.exit(EXIT_OK)
    except MultidebateError as exc:
        if as_json:
            click.echo(error_line(str(exc)))
        click.echo(f"Error: {exc}", err=True)
        sys.exit(EXIT_ERROR)
    except KeyboardInterrupt:
        sys.exit(EXIT_INTERRUPTED)
    except BrokenPipeError:
        _quiet_stdout()  # the reader (e.g. `head`) has gone: stop without a traceback
        sys.exit(EXIT_ERROR)
    sys.exit(EXIT_TIMEOUT)


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's final flush cannot fail again."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--strict", is_flag=True, help="Fail on warnings too.")
@_json_option
def validate(paths: tuple[str, ...], strict: bool, as_json: bool) -> None:
    """Check turn files or whole debate folders against the format.

    Prints `path:line: CODE message` per finding; exits 1 on any error
    (with --strict, on any warning too), else 0.
    """
    from .style import finding_line
    from .validate import exit_code, validate_paths

    with _library_errors(as_json):
        findings = validate_paths(paths)
    if as_json:
        _emit_json([f.as_dict() for f in findings])
    else:
        for item in findings:
            click.echo(finding_line(item))
        errors = sum(1 for f in findings if f.severity == "error")
        click.echo(f"{errors} error(s), {len(findings) - errors} warning(s)", err=True)
    sys.exit(exit_code(findings, strict))


@cli.command()
@click.argument("folder", type=click.Path())
@click.option("--format", "fmt", type=click.Choice(["md", "json", "html"]), default="md", show_default=True,
              help="Markdown, JSON, or one self-contained HTML page.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True),
              help="Write the report to this file instead of stdout.")
@click.option("--weighted", is_flag=True, help="Weigh answers by confidence when no consensus was reached.")
def report(folder: str, fmt: str, output: str | None, weighted: bool) -> None:
    """The debate as a document: verdict and why, final answer, turns, agreement, flags."""
    from .report import build_report, render_json, render_markdown
    from .report_html import render_html

    with _library_errors():
        built = build_report(folder, weighted)
    text = {"md": render_markdown, "json": render_json, "html": render_html}[fmt](built)
    if output is None:
        click.echo(text)
        return
    try:
        with open(output, "w", encoding="utf-8") as handle:
            handle.write(text if text.endswith("\n") else text + "\n")
    except OSError as exc:
        raise click.ClickException(f"cannot write {output}: {exc.strerror or exc}") from exc
    click.echo(f"Wrote {output}", err=True)


# --- skill: the bundled SKILL.md where the assistants look for it --------------------------------

_FOLDERS_HELP = "\b\n" + "\n".join(
    f"{agent:<9} {user:<26} {project}" for agent, user, project in
    [("--agent", "user folder", "project folder"), *folder_table()])
_TARGET_HELP = "--dest DIR names the folder itself; leave out --agent and --scope."


def _where(agents: tuple[str, ...], scope: str | None, dest: str | None,
           default: tuple[str, ...]) -> tuple[Location, ...]:
    from .skill import custom_location, targets

    if dest is not None:
        if agents or scope:
            raise click.UsageError(_TARGET_HELP)
        return (custom_location(dest),)
    return targets(agents or default, scope or "user")


def _echo_changes(changes: tuple[Change, ...], closing: str, force_hint: str) -> None:
    """One line per location: what was (or would be) done, where, and for whom or why not.

    Exits 1 when a copy was kept or a location failed: what was asked is not fully done.
    """
    from .style import change_word

    width = max(len(c.verb) for c in changes)
    for change in changes:
        why = change.note or (f"for {change.location.readers}" if change.location.agents else "")
        click.echo(f"{change_word(change.action, change.verb, width)}  {change.location.skill_file}"
                   + (f"  ({why})" if why else ""))
    if closing:
        click.echo(closing)
    kept = sum(1 for c in changes if c.action == "keep")
    failed = sum(1 for c in changes if c.action == "fail")
    if kept or failed:
        would = " would be" if changes[0].dry_run else ""
        problems = [f"{kept} cop{'y' if kept == 1 else 'ies'}{would} kept ({force_hint})"] if kept else []
        problems += [f"{failed} location(s) failed"] if failed else []
        click.echo(f"Error: {'; '.join(problems)}", err=True)
        sys.exit(EXIT_ERROR)


def _target_options(func: Callable[..., Any]) -> Callable[..., Any]:
    options = [
        click.option("--agent", "agents", multiple=True, type=click.Choice([*AGENTS, "all"]),
                     help="An assistant whose skills folder to use (repeatable); `all`: every known folder."),
        click.option("--scope", type=click.Choice(SCOPES),
                     help="user: under your home folder (the default); project: under the current folder."),
        click.option("--dest", type=click.Path(file_okay=False), metavar="DIR",
                     help="Use DIR/multidebate/ instead of an assistant's folder."),
        click.option("--force", is_flag=True, help="Also replace or remove a copy a person changed, or a link."),
        click.option("--dry-run", is_flag=True, help="Say what would be done; change nothing."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


@cli.group(name="skill")
def skill_group() -> None:
    """Install, list, show and uninstall the bundled SKILL.md."""


@skill_group.command(name="show")
def skill_show() -> None:
    """Print the bundled SKILL.md."""
    from .skill import bundled_skill

    click.echo(bundled_skill().decode("utf-8"), nl=False)


@skill_group.command(name="install", epilog=_FOLDERS_HELP)
@_target_options
def skill_install(agents: tuple[str, ...], scope: str | None, dest: str | None, force: bool,
                  dry_run: bool) -> None:
    """Install the bundled SKILL.md where assistants look for skills.

    Writes <skills folder>/multidebate/SKILL.md.  Without --agent: the shared .agents/skills folder (read by Codex, Gemini
    CLI, Cursor, Copilot, OpenCode and Goose) and Claude Code's .claude/skills.
    An assistant with a folder of its own gets that folder.  Says what was
    written where.  A copy a person changed is kept (exit 1) unless --force.
    """
    from .skill import install

    with _library_errors():
        changes = install(_where(agents, scope, dest, ()), force=force, dry_run=dry_run)
    closing = ""
    if dry_run:
        closing = "Dry run: nothing was written."
    elif any(c.done for c in changes):
        closing = ("New sessions load it. Claude Code: `/multidebate <folder>`; Codex: `$multidebate`; "
                   "others: ask to debate a task in a folder.")
    _echo_changes(changes, closing, "rerun with --force to replace")


@skill_group.command(name="uninstall", epilog=_FOLDERS_HELP)
@_target_options
def skill_uninstall(agents: tuple[str, ...], scope: str | None, dest: str | None, force: bool,
                    dry_run: bool) -> None:
    """Remove the copies of SKILL.md that multidebate installed.

    Without --agent: every known folder of the scope.  Only our SKILL.md and
    its record go (the folder too, when nothing else is in it); a copy a
    person changed is kept (exit 1) unless --force.
    """
    from .skill import uninstall

    with _library_errors():
        where = _where(agents, scope, dest, ("all",))
        changes = uninstall(where, force=force, dry_run=dry_run)
    if not changes:
        click.echo("No copy of the skill in " + ", ".join(str(loc.skills_dir) for loc in where) + ".")
        return
    _echo_changes(changes, "Dry run: nothing was removed." if dry_run else "", "rerun with --force to remove")


_STATE_LEGEND = ("current: the bundled SKILL.md; stale: an earlier version multidebate installed "
                 "(`skill install` updates it);\nmodified: changed by a person (kept unless --force); "
                 "linked: a symbolic link (never followed)")


@skill_group.command(name="list")
@click.option("--dest", multiple=True, type=click.Path(file_okay=False), metavar="DIR",
              help="Also check DIR/multidebate/ (repeatable).")
@_json_option
def skill_list(dest: tuple[str, ...], as_json: bool) -> None:
    """Where the skill is installed: every known folder, user and project scope.

    Each copy is current (the bundled SKILL.md), stale (an earlier version
    multidebate installed), modified (changed by a person), linked (a
    symbolic link) or missing.
    """
    from .skill import bundled_sha256, custom_location, survey
    from .style import state_word

    with _library_errors(as_json):
        copies = survey(extra=[custom_location(d) for d in dest])
    if as_json:
        _emit_json({"bundled": {"version": __version__, "sha256": bundled_sha256()},
                    "copies": [c.as_dict() for c in copies]})
        return
    click.echo(f"bundled SKILL.md: multidebate {__version__}, sha256 {bundled_sha256()[:12]}")
    rows = [(c.location.scope, c.state, str(c.location.skill_file), c.location.readers) for c in copies]
    widths = [max(len(r[i]) for r in rows + [("scope", "state", "path", "")]) for i in range(3)]
    click.echo(f"{'scope':<{widths[0]}}  {'state':<{widths[1]}}  {'path':<{widths[2]}}  read by")
    for scope_, state, path, readers in rows:
        click.echo(f"{scope_:<{widths[0]}}  {state_word(state, widths[1])}  {path:<{widths[2]}}  {readers}")
    click.echo(_STATE_LEGEND)


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="multidebate")
