"""`run` and `doctor`: the assistants' tools started headless (multidebate/run)."""

from __future__ import annotations

import json
import math
import os
import shlex
import signal
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import TYPE_CHECKING

import click

from ..protocol.errors import MultidebateError
from ..protocol.oneline import shell_word
from .common import (
    EXIT_ERROR,
    EXIT_INTERRUPTED,
    agent_options,
    emit_json,
    json_option,
    library_errors,
)

if TYPE_CHECKING:
    from ..run.agents import Agent

__all__ = ["doctor", "run"]

AGENT_HELP = ("A participant's agent: SLUG=PRESET[:MODEL] (presets: claude, codex, gemini, qwen, copilot, opencode, "
              "cursor), or 'SLUG=cmd:COMMAND LINE' (the prompt on its stdin, the turn's sections on its stdout, "
              "exit 0). Repeat; given, only these run (TASK.md's `agents:` adds none).")


def _agents(specs: tuple[str, ...], extra: tuple[str, ...]) -> list[Agent]:
    """`--agent` and `--agent-args` options -> agents (a usage error names the bad one)."""
    from dataclasses import replace


    agents = agent_options(specs)
    for item in extra:
        slug, sep, words = item.partition("=")
        if not sep or slug not in agents:
            raise click.BadParameter(f"`{item}` is not SLUG=ARGS for a slug given with --agent", param_hint="--agent-args")
        try:
            agents[slug] = replace(agents[slug], extra_args=agents[slug].extra_args + tuple(shlex.split(words)))
        except ValueError as exc:
            raise click.BadParameter(f"`{item}`: {exc}", param_hint="--agent-args") from exc
    return list(agents.values())


# SIGHUP: a closed terminal or a dropped ssh; left to its default, `run` died and every agent ran on
_STOPPING = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


@contextmanager
def _signals_as_interrupt() -> Iterator[None]:
    """SIGTERM and SIGHUP stop `run` as Ctrl-C does: every agent's process group killed, nothing half-written."""
    def interrupt(_signum: int, _frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    previous = {}
    try:
        for sig in _STOPPING:
            previous[sig] = signal.signal(sig, interrupt)
    except ValueError:  # not the main thread
        pass
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _finite(_ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    """`nan` and `inf` pass FloatRange and remove the bound they set: refused."""
    if value is not None and not math.isfinite(value):
        raise click.BadParameter(f"{value} is no number of seconds: give a finite number", param=param)
    return value


def _confirmer(yes: bool, as_json: bool) -> Callable[[list[tuple[str, str]]], bool]:
    """How `run` asks before it starts agents TASK.md names that the person never recorded: --yes starts them
    (their command lines shown); a person at a terminal is asked; anything else is refused, naming --yes."""
    def confirm(lines: list[tuple[str, str]]) -> bool:
        from ..views.terminal import printable

        if not yes and (as_json or not (sys.stdin.isatty() and sys.stderr.isatty())):
            return False
        click.echo("TASK.md names agents your own `multidebate init` did not record for this folder (TASK.md is "
                   "shared: anyone writing in the folder can change it). `run` will start:", err=True)
        for slug, line in lines:
            click.echo(printable(f"  {slug}: {line}"), err=True)
        if yes:
            click.echo("Starting them (--yes).", err=True)
            return True
        return click.confirm("Start these commands?", default=False, err=True)

    return confirm


def _writer() -> Callable[[str], None]:
    def write(text: str) -> None:
        click.echo(text, nl=False)
        sys.stdout.flush()

    return write


@click.command()
@click.argument("folder", type=click.Path(file_okay=False))
@click.option("--agent", "agent_specs", multiple=True, metavar="SLUG=AGENT", help=AGENT_HELP)
@click.option("--agent-args", "agent_args", multiple=True, metavar="SLUG=ARGS",
              help="More arguments for SLUG's tool, split as a shell would, e.g. 'gpt=-c model_provider=local'. "
                   "Repeat. (MULTIDEBATE_<PRESET>_ARGS adds words to every call of a preset.)")
@click.option("--turn-timeout", type=click.FloatRange(min=1), default=600, show_default=True, metavar="SECONDS",
              callback=_finite, help="Stop an agent's turn after this long (its whole process group is killed).")
@click.option("--idle-timeout", type=click.FloatRange(min=1), default=300, show_default=True, metavar="SECONDS",
              callback=_finite,
              help="Stop an agent that printed nothing for this long (agents whose tools stream: codex, copilot, "
                   "opencode, cmd:; the others print only at the end).")
@click.option("--max-output", type=click.IntRange(min=1024), default=4 * 1024 * 1024, show_default=True,
              metavar="BYTES", help="Stop an agent that prints more than this.")
@click.option("--wait-timeout", type=click.FloatRange(min=0), default=3600, show_default=True, metavar="SECONDS",
              callback=_finite, help="How long to wait for a session a person runs (a participant without an agent).")
@click.option("--yes", "-y", "yes", is_flag=True,
              help="Start the agents TASK.md names even where your own `init` did not record them (their command "
                   "lines are shown). Without it, run asks at a terminal and refuses elsewhere.")
@json_option
def run(folder: str, agent_specs: tuple[str, ...], agent_args: tuple[str, ...], turn_timeout: float,
        idle_timeout: float, max_output: int, wait_timeout: float, yes: bool, as_json: bool) -> None:
    """Start each participant's agent every turn, headless, until the debate ends.

    \b
    Example:
      multidebate run my-debate --agent opus=claude:opus --agent gpt=codex:gpt-5.5
      multidebate run my-debate --agent 'opus=cmd:python3 my_agent.py' --agent gpt=gemini

    (my-debate made by `multidebate init my-debate --task "..." --participants opus,gpt`.)

    With --agent, only the agents given run; without, TASK.md's `agents:`,
    those your own `init` recorded (TASK.md is shared: an agent it names
    that you never recorded is shown and needs your yes, or --yes).

    Each turn, every agent whose turn is due gets what `next` would serve it
    (its peers' previous turn only) and runs in parallel, in the current
    folder, with no or read-only tools; its reply goes through `write` with
    the key `run` keeps for it in your private state folder (mode 0600).  A
    reply `write` refuses goes back to the agent, twice at most; then `run`
    stops with the reason (exit 1), `status` shows it, and running it again
    resumes.  A participant without an agent is a session a person runs:
    `run` waits for its turns.  One `run` per folder.  Ends with the verdict,
    what it cost, and the report command; Ctrl-C, SIGTERM or SIGHUP kills
    every agent and exits 130.  --json prints JSON Lines (one event a line).
    """
    from ..run.display import JsonLines, LiveLines, PlainLines
    from ..run.loop import RunOptions, run_debate
    from ..state.cache import report_progress

    report_progress(None)  # the parse progress line would break into run's own live lines
    agents = _agents(agent_specs, agent_args)
    write = _writer()
    display = JsonLines(write) if as_json else LiveLines(write) if sys.stdout.isatty() else PlainLines(write)
    options = RunOptions(turn_timeout=turn_timeout, idle_timeout=idle_timeout, max_output=max_output,
                         wait_timeout=wait_timeout, cwd=os.getcwd())
    began = time.monotonic()
    try:
        with _signals_as_interrupt(), library_errors():
            try:
                outcome = run_debate(folder, agents, options, display.show, display.tick,
                                     confirm=_confirmer(yes, as_json))
            except MultidebateError as exc:
                if not as_json:
                    raise
                # one line, as every other line of the stream (error.schema.json)
                write(json.dumps({"ok": False, "error": str(exc), "problems": getattr(exc, "problems", [])},
                                 ensure_ascii=False) + "\n")
                sys.exit(EXIT_ERROR)
    except KeyboardInterrupt:
        from ..run.events import Interrupted

        display.close()
        interrupted = Interrupted(at=time.monotonic() - began)
        if as_json:  # a program reading the stream learns how it ended (schemas/run-event.schema.json)
            display.show(interrupted)
        click.echo(interrupted.message, err=True)
        sys.exit(EXIT_INTERRUPTED)
    display.close()
    if not as_json:
        from ..views.terminal import printable

        verdict = outcome.verdict
        click.echo(printable(f"Verdict: {verdict.state} at turn {verdict.turn} - {verdict.detail}"))
        click.echo(f"Cost: {outcome.seconds:.0f} s in all; {outcome.turns} agent turn(s): {outcome.cost.describe()} "
                   "(tokens and money as the tools report them)")
        click.echo(f"Report: multidebate report {shell_word(folder)}")


@click.command()
@click.option("--agent", "agent_specs", multiple=True, metavar="SLUG=AGENT",
              help="An agent to probe, as `run --agent` takes it. Repeat; without it, --probe tries every preset "
                   "found on PATH.")
@click.option("--agent-args", "agent_args", multiple=True, metavar="SLUG=ARGS", help="As `run --agent-args`.")
@click.option("--probe", "probing", is_flag=True, help="Run a tiny prompt through each agent; say why one fails.")
@click.option("--timeout", type=click.FloatRange(min=1), default=60, show_default=True, metavar="SECONDS",
              help="How long each probe may take.")
@json_option
def doctor(agent_specs: tuple[str, ...], agent_args: tuple[str, ...], probing: bool, timeout: float,
           as_json: bool) -> None:
    """Which agent tools are on PATH (and their versions), where the skill is installed; --probe: does each agent
    answer?

    \b
    Example:
      multidebate doctor
      multidebate doctor --probe --agent opus=claude:opus --agent gpt=codex

    Exit 1 when a probe failed, or --probe found nothing to probe (no tool on
    PATH and no --agent: it says so).
    """
    from ..mcp.clients import mcp_report
    from ..run.doctor import doctor as check
    from ..views.terminal import printable

    agents = _agents(agent_specs, agent_args)
    with library_errors(as_json):
        report = check(agents, probing, timeout)
    mcp = mcp_report()  # the MCP server: its own layer, beside run (multidebate/mcp)
    # a probe that checked nothing fails: a script reading exit 0 would take it for agents that answer
    failed = any(not p.ok for p in report.probes) or (probing and not report.probes)
    if as_json:
        emit_json({**report.as_dict(), "mcp": mcp.as_dict()})
        sys.exit(1 if failed else 0)
    click.echo("Agent tools:")
    for tool in report.tools:
        where = f"{tool.version or '(no version)'}  {tool.path}" if tool.path else f"not on PATH (from {tool.package})"
        click.echo(printable(f"  {tool.preset:<9} {tool.title:<13} {where}"))
    click.echo("Skill (multidebate skill install):")
    for copy in report.skills:
        if copy["state"] in ("missing", "covered") and copy["scope"] == "project":
            continue
        readers = ", ".join(str(a) for a in copy["agents"]) if isinstance(copy["agents"], list) else ""
        click.echo(printable(f"  {copy['state']:<9} {copy['path']}" + (f" ({readers})" if readers else "")))
    click.echo("MCP server (multidebate mcp): " + ("can start" if mcp.can_start else f"cannot start: {mcp.reason}"))
    for place in mcp.configured:
        click.echo(printable(f"  {place.assistant}: {place.how} `{place.name}` in {place.path}"))
    if not mcp.configured:
        click.echo("  no assistant has it configured (docs/mcp.md: e.g. claude mcp add multidebate -- multidebate mcp)")
    if probing and report.probes:
        click.echo("Probes:")
        for result in report.probes:
            said = f"ok in {result.seconds:.1f} s: {result.answer!r}" if result.ok else \
                f"failed in {result.seconds:.1f} s: {result.reason}"
            click.echo(printable(f"  {result.slug} ({result.agent}): {said}"))
    for warning in report.warnings:
        click.echo(printable(f"Warning: {warning}"))
    sys.exit(1 if failed else 0)
