"""The `multidebate` command: options in, one library call, formatted result out.

Each command lives in a module of this package that is imported only when
that command runs (or help lists it): a session's `next` does not pay for
building `report`, `watch` and `skill` at every start.
"""

from __future__ import annotations

import importlib
import os
import sys

import click

from ..version import __version__
from .common import EXIT_CODES_HELP

__all__ = ["EXIT_CODES_HELP", "cli", "main"]

# command name -> (module of this package, attribute), in the order of use that `--help` lists them in:
# set up (and `run`, which drives the agents), a session's turn, following the debate, then what a person runs
# when something goes wrong
_COMMANDS = {
    "init": ("turn_cmds", "init"),
    "run": ("run_cmds", "run"),
    "next": ("turn_cmds", "next_"),
    "write": ("turn_cmds", "write"),
    "status": ("view_cmds", "status"),
    "watch": ("view_cmds", "watch"),
    "sync": ("sync_cmds", "sync"),
    "report": ("view_cmds", "report"),
    "score": ("view_cmds", "score"),
    "validate": ("view_cmds", "validate"),
    "retire": ("turn_cmds", "retire"),
    "handover": ("turn_cmds", "handover"),
    "skill": ("skill_cmds", "skill_group"),
    "doctor": ("run_cmds", "doctor"),
    "mcp": ("mcp_cmds", "mcp"),
    "slug": ("turn_cmds", "slug"),
}


class _LazyGroup(click.Group):
    """A group whose commands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(_COMMANDS)  # in the order of use, not alphabetical (`handover` came first)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        where = _COMMANDS.get(cmd_name)
        if where is None:
            return None
        command = getattr(importlib.import_module(f"{__name__}.{where[0]}"), where[1])
        if not isinstance(command, click.Command):
            raise TypeError(f"{where} is no click command")
        return _with_color(command)


_COLOR_CHOICE = click.Choice(["auto", "always", "never"])


def _set_color(ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
    if value is not None:
        from ..views.style import color_setting

        ctx.color = color_setting(value, os.environ.get("NO_COLOR"))


def _with_color(command: click.Command) -> click.Command:
    """`--color` also after the command (`multidebate status X --color never`), as people type it."""
    if not any(p.name == "color" for p in command.params):
        command.params.append(click.Option(["--color"], type=_COLOR_CHOICE, default=None, expose_value=False,
                                           callback=_set_color, is_eager=True,
                                           help="As `multidebate --color`, given after the command."))
    return command


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]}, epilog=EXIT_CODES_HELP)
@click.version_option(__version__, "-V", "--version", prog_name="multidebate")
@click.option("--color", type=_COLOR_CHOICE, default="auto", show_default=True,
              help="Color human output: auto colors a terminal unless NO_COLOR is set. JSON is never colored.")
@click.pass_context
def cli(ctx: click.Context, color: str) -> None:
    """Several AI coding-assistant sessions debate a task in one folder until they really agree.

    Sessions call `next` and `write` each turn; people call `status`.
    `multidebate skill install` puts the skill where the assistants look for it.

    \b
    Example:
      multidebate init my-debate --task "Which database for ...?" --participants opus-4-7,gpt-5-5
      multidebate status my-debate
    """
    from ..views.style import color_setting

    # Subcommands' contexts inherit this, and click.echo strips styles when it is False.
    ctx.color = color_setting(color, os.environ.get("NO_COLOR"))
    if sys.stderr.isatty():
        from ..state.cache import report_progress
        from ..views.progress import ParseProgress

        progress = ParseProgress()
        report_progress(progress)
        ctx.call_on_close(progress.finish)


def main() -> None:
    """Console-script entry point."""
    import gc

    # A command is a short process that builds many small, acyclic objects (10,000 entries for a
    # big folder): collecting every 700 allocations costs a fifth of a warm status. mypy does the same.
    gc.set_threshold(50_000, 20, 100)
    cli(prog_name="multidebate")
