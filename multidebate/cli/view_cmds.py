"""The commands people run to follow a debate: `status`, `watch`, `validate`, `report`, `score`."""

from __future__ import annotations

import sys

import click

from .common import (
    EXIT_ERROR,
    EXIT_INTERRUPTED,
    EXIT_NOT_CONVERGED,
    EXIT_OK,
    EXIT_TIMEOUT,
    FolderPath,
    emit_json,
    json_option,
    library_errors,
    quiet_stdout,
)

__all__ = ["report", "score", "status", "validate", "watch"]


@click.command()
@click.argument("folder", type=FolderPath())
@click.option("--check", is_flag=True, help="Exit 0 only when converged or unanimous (all answered turn 1 alike, "
                                                   "independently), 3 otherwise.")
@json_option
def status(folder: str, check: bool, as_json: bool) -> None:
    """Where the debate stands: turns x participants, who is missing, the verdict.

    Exits 0 whatever the verdict (files with errors are shown, marked `!`),
    unless --check is given.

    \b
    Example:
      multidebate status my-debate --check || echo "not converged yet"
    """
    from ..views.status_output import status_output
    from ..views.style import status_text
    from ..views.terminal import printable

    with library_errors(as_json):
        text, data, state = status_output(folder)
    if as_json:
        emit_json(data)
    else:
        click.echo(status_text(printable(text), state))
    if check and state not in ("converged", "unanimous"):  # both are agreement (verdict.AGREED_STATES)
        sys.exit(EXIT_NOT_CONVERGED)


@click.command()
@click.argument("folder", type=FolderPath())
@click.option("--json", "as_json", is_flag=True, help="Print JSON Lines: one object per line, with a `type`.")
@click.option("--until", type=click.Choice(["converged", "end"]),
              help="Exit 0 once the debate converges (converged: converged or unanimous) or reaches any final "
                   "verdict (end: unanimous, converged, hollow, stalled, max_turns; a review: fully_resolved, "
                   "max_rounds). converged exits 3 at once when the debate ends otherwise.")
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
    --until reached, 1 folder missing or removed, 3 --timeout reached or
    the debate ended otherwise (--until converged on a hollow, stalled or
    max_turns verdict), 130 interrupted (Ctrl-C).

    \b
    Example:
      multidebate watch my-debate --until end --timeout 3600
    """
    from contextlib import closing

    from ..protocol.errors import MultidebateError
    from ..views.terminal import printable
    from ..views.watch import missed, reached, watch_folder
    from ..views.watch_events import (
        StateEvent,
        VerdictEvent,
        error_line,
        json_line,
        text_line,
    )

    render = json_line if as_json else (lambda event: printable(text_line(event)))
    state = ""
    try:
        with closing(watch_folder(folder, poll, timeout)) as events:
            for event in events:
                click.echo(render(event))
                if isinstance(event, (StateEvent, VerdictEvent)):
                    state = event.verdict.state
                    if reached(state, until):
                        sys.exit(EXIT_OK)
                    if missed(state, until):
                        # a final verdict never changes: waiting on would wait forever
                        click.echo(f"Stopped: the debate ended {state} at turn {event.verdict.turn}, so it will "
                                   f"never reach --until {until} (exit {EXIT_NOT_CONVERGED}).", err=True)
                        sys.exit(EXIT_NOT_CONVERGED)
    except MultidebateError as exc:
        if as_json:
            click.echo(error_line(str(exc)))
        click.echo(f"Error: {exc}", err=True)
        sys.exit(EXIT_ERROR)
    except KeyboardInterrupt:
        sys.exit(EXIT_INTERRUPTED)
    except BrokenPipeError:
        quiet_stdout()  # the reader (e.g. `head`) has gone: stop without a traceback
        sys.exit(EXIT_ERROR)
    # on stderr: stdout stays events (JSON Lines with --json)
    goal = f" before the debate reached --until {until}" if until else ""
    click.echo(f"Stopped: --timeout {timeout:g} s passed{goal}; the verdict is {state or 'unknown'} (exit "
               f"{EXIT_TIMEOUT}).", err=True)
    sys.exit(EXIT_TIMEOUT)


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--strict", is_flag=True, help="Fail on warnings too.")
@json_option
def validate(paths: tuple[str, ...], strict: bool, as_json: bool) -> None:
    """Check turn files or whole debate folders against the format.

    Prints `path:line: CODE message` per finding; exits 1 on any error
    (with --strict, on any warning too), else 0.

    \b
    Example:
      multidebate validate my-debate --strict
    """
    from ..views.style import finding_line
    from ..views.validate_output import validate_output

    with library_errors(as_json):
        findings = validate_output(paths)
    if as_json:
        emit_json([f.as_dict() for f in findings])
    else:
        for item in findings:
            click.echo(finding_line(item))
        errors = sum(1 for f in findings if f.severity == "error")
        # on stdout, as its last line: on stderr it landed wherever the caller's tool put stderr, in the
        # middle of or after the caller's next output (three sessions were misled)
        click.echo(f"{errors} error(s), {len(findings) - errors} warning(s)")
    # 1 on an error (with --strict, on any finding); views/validate.py's exit_code, without importing the rules
    failed = any(f.severity == "error" for f in findings) or (strict and bool(findings))
    sys.exit(EXIT_ERROR if failed else EXIT_OK)


@click.command()
@click.argument("folder", type=FolderPath())
@click.option("--format", "fmt", type=click.Choice(["md", "json", "html"]), default="md", show_default=True,
              help="Markdown, JSON, or one self-contained HTML page.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True),
              help="Write the report to this file instead of stdout.")
@click.option("--weighted", is_flag=True, help="Weigh answers by confidence when no consensus was reached.")
@click.option("--force", is_flag=True, help="With -o: replace an existing file (by a rename: its other names, "
              "such as a hard link, keep their content).")
@click.option("--json", "as_json", is_flag=True, help="The same as --format json (as other commands spell it).")
def report(folder: str, fmt: str, output: str | None, weighted: bool, force: bool, as_json: bool) -> None:
    """The debate as a document: verdict and why, final answer, turns, agreement, flags.

    With -o, the report goes to a new file named *.md, *.markdown, *.json,
    *.html, *.htm or *.txt; never to the debate's own files, through a link,
    or over an existing file without --force.

    \b
    Example:
      multidebate report my-debate --format html -o report.html
    """
    from ..views.report import build_report, render_json, render_markdown
    from ..views.report_file import save_report
    from ..views.report_html import render_html

    if as_json and fmt != "md":
        if fmt != "json":
            raise click.UsageError(f"--json is --format json: give one of --json and --format {fmt}")
    fmt = "json" if as_json else fmt
    json_errors = fmt == "json"  # a program reading JSON gets its errors as JSON too (error.schema.json)
    with library_errors(json_errors):
        built = build_report(folder, weighted)
    from ..views.terminal import printable

    text = {"md": render_markdown, "json": render_json, "html": render_html}[fmt](built)
    text = printable(text)  # JSON escapes control characters itself; markdown and HTML would carry them raw
    if output is None:
        click.echo(text)
        return
    with library_errors(json_errors):
        save_report(folder, output, text, force)
    click.echo(f"Wrote {printable(output)}", err=True)


@click.command()
@click.argument("folder", type=FolderPath())
@click.option("--key", "key_file", required=True, type=click.Path(dir_okay=False), metavar="FILE",
              help="The answer key: one line per item, `Q1: A` or the value alone (line n is Qn); "
                   "blank lines and `#` comments are ignored.")
@json_option
def score(folder: str, key_file: str, as_json: bool) -> None:
    """Score an item-by-item debate (Q1: ..., Q2: ...) against an answer key.

    Prints per turn and participant the share of items right (a missing item
    counts as wrong), one session's accuracy at turn 1, the majority of the
    turn-1 answers (the vote: the same first answers, no debate), the
    majority at each later turn, the final answer `report` gives, and the
    items that moved right to wrong and wrong to right.  Answers are compared
    after folding case, quotes and a trailing period, numbers as numbers
    (1,234 = 1234.0 = $1234) and letter choices as letters ((C) = C); see
    docs/accuracy.md.

    Measure whether debating helps with your own models: run debates with
    known answers (for example through `multidebate run`), then score them.
    Exit 1 when the key is malformed (the message names its line).

    \b
    Example:
      multidebate score my-debate --key answers.txt
    """
    from ..views.score import render_score, score_folder
    from ..views.terminal import printable

    with library_errors(as_json):
        result = score_folder(folder, key_file)
    if as_json:
        emit_json(result.as_dict())
    else:
        click.echo(printable(render_score(result)))
