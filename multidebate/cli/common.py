"""What every command shares: exit codes, JSON output, and library errors as `Error: ...` lines."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NoReturn

import click

from ..protocol.errors import InvalidTurn, MultidebateError

if TYPE_CHECKING:
    from ..run.agents import Agent

__all__ = ["FolderPath", "EXIT_CODES_HELP", "EXIT_CONFLICT", "EXIT_ERROR", "EXIT_INTERRUPTED", "EXIT_NOT_CONVERGED",
           "EXIT_OK", "EXIT_REMOTE", "EXIT_TIMEOUT", "EXIT_USAGE", "emit_json", "fail", "json_option", "library_errors",
           "quiet_stdout"]

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2  # click's own code for a usage error
EXIT_NOT_CONVERGED = 3
EXIT_TIMEOUT = 3  # `watch --timeout`, `next --wait` timed out: the awaited state did not come, like `status --check`
EXIT_CONFLICT = 4  # `sync`: one file has two contents (this machine's and the remote's); a person decides
EXIT_REMOTE = 5  # `sync`: the remote cannot be reached, refused the credentials, or kept moving; try again later
EXIT_INTERRUPTED = 130  # Ctrl-C, as shells report SIGINT

EXIT_CODES_HELP = """\b
Exit codes: 0 success; 1 error (nothing written), or `validate` found errors,
or `skill install`/`uninstall` kept a copy a person changed; 2 usage error;
3 `status --check`: the debate has not converged, or `watch --timeout`,
`next --wait --timeout` or `sync --watch --timeout` reached, or
`watch --until converged` on a debate that ended otherwise; 4 `sync`: a file
has two contents (a real conflict); 5 `sync`: the remote cannot be reached
or refused the credentials;
130 interrupted (Ctrl-C) in `watch`, `next --wait` and `run`."""


class FolderPath(click.Path):
    """A debate folder argument: the shell completes it as a directory (click.Path() completes files), while what
    is wrong with a given path (missing, a file) is still the command's own clear error, not a usage error."""

    def shell_complete(self, ctx: click.Context, param: click.Parameter,
                       incomplete: str) -> list[click.shell_completion.CompletionItem]:
        from click.shell_completion import CompletionItem

        return [CompletionItem(incomplete, type="dir")]


def emit_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


@contextmanager
def library_errors(as_json: bool = False) -> Iterator[None]:
    """Turn library errors into `Error: ...` on stderr and exit 1, never a traceback."""
    try:
        yield
    except InvalidTurn as exc:
        fail(str(exc), exc.problems, as_json)
    except MultidebateError as exc:
        fail(str(exc), [], as_json)


def fail(message: str, problems: list[str], as_json: bool) -> NoReturn:
    if as_json:
        emit_json({"ok": False, "error": message, "problems": problems})
    else:
        from ..views.terminal import printable

        text = message + "".join(f"\n  - {p}" for p in problems)
        click.echo(f"Error: {printable(text)}", err=True)
    sys.exit(EXIT_ERROR)


def json_option(func: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON for programs and models.")(func)


def quiet_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's final flush cannot fail again."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


KEY_ENV = "MULTIDEBATE_KEY"


def key_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """`--key`, `--key-file` and $MULTIDEBATE_KEY: the key off the command line (where `ps` shows it) when wanted."""
    func = click.option("--key-file", type=click.Path(dir_okay=False), metavar="PATH",
                        help="Read the key from this file (keeps it out of the process list).")(func)
    return click.option("--key", envvar=KEY_ENV, show_envvar=True,
                        help="The key `write` gave this session on its first turn (required from then on).")(func)


def key_argument(key: str | None, key_file: str | None) -> str:
    """The key option as the session gave it, for the commands `next` and `write` print: ` --key KEY` only when
    it was typed as `--key`; ` --key-file PATH` for a file; nothing for $MULTIDEBATE_KEY (it stays set)."""
    from click.core import ParameterSource

    if key_file is not None:
        import shlex  # here: a warm `next --key` imports nothing it does not use

        return f" --key-file {shlex.quote(key_file)}"
    if key is None:
        return ""
    context = click.get_current_context(silent=True)
    if context is not None and context.get_parameter_source("key") is ParameterSource.ENVIRONMENT:
        return ""
    return f" --key {key}"


def resolve_key(key: str | None, key_file: str | None) -> str | None:
    """The key given by --key / $MULTIDEBATE_KEY, else read from --key-file (its first line)."""
    if key_file is None:
        return key
    if key is not None and os.environ.get(KEY_ENV) != key:
        raise click.UsageError("give the key once: --key or --key-file, not both")
    try:
        with open(key_file, encoding="utf-8") as handle:
            return handle.readline(200).strip() or None
    except (OSError, UnicodeDecodeError) as exc:
        raise click.BadParameter(f"cannot read {key_file}: {getattr(exc, 'strerror', None) or exc}",
                                 param_hint="--key-file") from exc



def agent_options(specs: tuple[str, ...]) -> dict[str, Agent]:
    """`--agent SLUG=AGENT` options -> {slug: agent}, as `init` and `run` read them (a usage error names the bad one)."""
    from ..protocol.errors import AgentSpecError
    from ..run.agents import (
        parse_agent,  # only when agents are given: the other commands stay light
    )

    agents: dict[str, Agent] = {}
    for spec in specs:
        try:
            agent = parse_agent(spec)
        except AgentSpecError as exc:
            raise click.BadParameter(str(exc), param_hint="--agent") from exc
        if agent.slug in agents:
            raise click.BadParameter(f"`{agent.slug}` has two agents; give each participant one", param_hint="--agent")
        agents[agent.slug] = agent
    return agents
