"""The `multidebate` command: options in, one library call, formatted result out."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

import click

from . import __version__
from .errors import InvalidTurn, MultidebateError

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_NOT_CONVERGED = 3
EXIT_TIMEOUT = 3  # `watch --timeout`: the awaited state did not come, like `status --check`
EXIT_INTERRUPTED = 130  # Ctrl-C, as shells report SIGINT


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


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="multidebate")
def cli() -> None:
    """Several AI coding-assistant sessions debate a task in one folder until they really agree.

    Sessions call `next` and `write` each turn; people call `status`.
    """


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
def init(folder: str, task_text: str, participants: str | None, max_turns: int | None,
         min_turns: int | None) -> None:
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
    if not task_text.strip():
        raise click.BadParameter("the task is empty", param_hint="--task")
    with _library_errors():
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError as exc:
            raise click.ClickException(f"cannot create {folder}: {exc.strerror or exc}") from exc
        path = create_task(folder, render_task(task_text, roster, max_turns, min_turns))
    click.echo(f"Created {path}. Each session now runs: multidebate next {folder} --slug <its slug>")


@cli.command(name="next")
@click.argument("folder", type=click.Path())
@click.option("--slug", "slug_", required=True, help="This session's slug (see `multidebate slug`).")
@click.option("--task", "task_text", help="The user's task; needed on the first turn of a folder without TASK.md.")
@click.option("--wait", is_flag=True, help="Block until every peer has written the previous turn, then answer.")
@click.option("--timeout", type=click.FloatRange(min=0), metavar="SECONDS",
              help="With --wait: stop waiting after SECONDS (default 600) and answer with what exists.")
@_json_option
def next_(folder: str, slug_: str, task_text: str | None, wait: bool, timeout: float | None,
          as_json: bool) -> None:
    """Everything a session needs for its next turn: number, task, peers' previous turn.

    Serves only the peers' turn N-1 files, and prints the exact `write`
    command to use.  Creates FOLDER when --task is given and it is missing.
    With --wait, first blocks until every peer has written turn N-1; on
    timeout it answers with what exists and a note naming who did not write
    (exit 0).  Ctrl-C exits 130.
    """
    from .briefing import brief, render_briefing

    if timeout is not None and not wait:
        raise click.BadParameter("only applies with --wait", param_hint="--timeout")
    try:
        with _library_errors(as_json):
            if wait:
                from .waiting import DEFAULT_TIMEOUT, brief_when_ready

                briefing = brief_when_ready(folder, slug_, task_text, create=True,
                                            timeout=DEFAULT_TIMEOUT if timeout is None else timeout,
                                            on_wait=lambda message: click.echo(message, err=True))
            else:
                briefing = brief(folder, slug_, task_text, create=True)
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
@_json_option
def write(folder: str, slug_: str, source: Any, as_json: bool) -> None:
    """Validate a turn's sections and create turn-N-SLUG.md atomically.

    Give the sections (## Reasoning, ## Answer, [## Agreements, ## Disagreements,]
    ## Confidence, ## Converged) on stdin or with --file; the title and
    metadata are added.  Never overwrites; on invalid input nothing is
    written and every problem is listed.
    """
    from .status import debate_status
    from .write import write_turn

    if source is sys.stdin.buffer and sys.stdin.isatty():
        raise click.UsageError("give the sections on stdin (a heredoc) or with --file")
    content = source.read()
    with _library_errors(as_json):
        result = write_turn(folder, slug_, content)
        status = debate_status(folder)
    # Say how far the turn is, never what peers answered: a session must not learn
    # its peers' current-turn positions before its next `next`.
    turn_state = status.turns[result.turn - 1] if len(status.turns) >= result.turn else None
    written = len(turn_state.entries) if turn_state else 0
    waiting = [s for s in status.participants if turn_state is None or s not in turn_state.entries]
    progress = f"Turn {result.turn}: {written} of {len(status.participants)} written" + (
        f"; waiting for {', '.join(waiting)}." if waiting else "; the turn is complete.")
    ended = status.verdict.state == "converged"
    if as_json:
        _emit_json({"ok": True, "path": result.path, "turn": result.turn, "slug": result.slug,
                    "confidence": result.confidence, "converged": result.converged,
                    "normalised": list(result.normalised),
                    "peers_read": [{"file": f, "sha256": h} for f, h in result.peers_read],
                    "progress": {"written": written, "waiting": waiting},
                    "debate": {"state": status.verdict.state, "turn": status.verdict.turn}})
        return
    click.echo(f"Wrote {result.path} (turn {result.turn}, confidence {result.confidence}, "
               f"converged {'yes' if result.converged else 'no'}).")
    for note in result.normalised:
        click.echo(f"  normalised: {note}")
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

    with _library_errors(as_json):
        result = debate_status(folder)
    if as_json:
        _emit_json(result.as_dict())
    else:
        click.echo(render_status(result))
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
    from .validate import exit_code, validate_paths

    with _library_errors(as_json):
        findings = validate_paths(paths)
    if as_json:
        _emit_json([f.as_dict() for f in findings])
    else:
        for item in findings:
            click.echo(str(item))
        errors = sum(1 for f in findings if f.severity == "error")
        click.echo(f"{errors} error(s), {len(findings) - errors} warning(s)", err=True)
    sys.exit(exit_code(findings, strict))


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="multidebate")
