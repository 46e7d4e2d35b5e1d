"""The commands a session runs each turn: `slug`, `init`, `next`, `write`."""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from ..protocol.oneline import one_line
from .common import (
    EXIT_INTERRUPTED,
    EXIT_TIMEOUT,
    FolderPath,
    agent_options,
    emit_json,
    json_option,
    key_argument,
    key_options,
    library_errors,
    resolve_key,
)

__all__ = ["handover", "init", "next_", "retire", "slug", "write"]


@click.command()
@click.argument("name")
def slug(name: str) -> None:
    """Print the slug for a model NAME (`Claude Opus 4.7` -> `claude-opus-4-7`).

    \b
    Example:
      multidebate slug "Claude Opus 4.7"    # prints claude-opus-4-7
    """
    from ..protocol.naming import slugify

    result = slugify(name)
    if not result:
        raise click.ClickException(f"no slug can be made from {name!r}: use letters or digits")
    click.echo(result)


@click.command()
@click.argument("folder", type=click.Path(file_okay=False))
@click.option("--task", "task_text", required=True, help="The task every session debates.")
@click.option("--participants", help="Comma-separated roster of slugs, e.g. opus-4-7,gpt-5-5.")
@click.option("--max-turns", type=int, metavar="N",
              help="Stop the debate after N turns: 2 or more (1 only with a judge, as agreement counts from turn 2).")
@click.option("--min-turns", type=click.IntRange(min=1),
              help="Turns to take before convergence counts. Without it (or with 1), a debate whose sessions all "
                   "write one bold line at turn 1, independently, ends there (unanimous); --min-turns 2 keeps the "
                   "exchange regardless.")
@click.option("--sealed", is_flag=True, help="Blind turns: publish a turn only when every participant wrote it.")
@click.option("--mode", type=click.Choice(["open", "review"]), default="open", show_default=True,
              help="open: equal peers converge; review: critics and a defender argue a proposal's findings.")
@click.option("--proposal", "proposal_path", type=click.Path(dir_okay=False),
              help="review: the proposal file; copied into FOLDER as PROPOSAL.md.")
@click.option("--role", "role_specs", multiple=True, metavar="SLUG=ROLE",
              help="A participant's role: critic[:consistency|security|<your lens>], defender or judge. Repeat.")
@click.option("--min-rounds", type=click.IntRange(min=1), help="review: rounds before it may stop (default 2).")
@click.option("--max-rounds", type=click.IntRange(min=1), help="review: rounds at most (default 4).")
@click.option("--judge-when", type=click.Choice(["unresolved", "always"]), default="unresolved", show_default=True,
              help="When the judge writes its judgment: once a debate ends without agreement, or always.")
@click.option("--agent", "agent_specs", multiple=True, metavar="SLUG=AGENT",
              help="Record the agent `multidebate run` starts for SLUG: PRESET[:MODEL] (e.g. opus=claude:opus) "
                   "or 'cmd:COMMAND LINE'. Repeat.")
def init(folder: str, task_text: str, participants: str | None, max_turns: int | None,
         min_turns: int | None, sealed: bool, mode: str, proposal_path: str | None, role_specs: tuple[str, ...],
         min_rounds: int | None, max_rounds: int | None, judge_when: str, agent_specs: tuple[str, ...]) -> None:
    """Create FOLDER and its TASK.md (task text, optional roster, roles, limits and agents).

    \b
    Example:
      multidebate init my-debate --task "Which database for ...?" --participants opus,gpt --max-turns 4
      multidebate init my-debate --task "..." --participants opus,gpt --agent opus=claude:opus --agent gpt=codex

    A review debate: `init FOLDER --mode review --proposal design.md --task "Review the design"
    --role gpt-5-5=critic:security --role opus-4-7=defender [--role gemini-3=judge]`.
    """
    from ..state.new_debate import (
        DebateSetup,
        TaskSpec,
        create_debate,
        parse_roles,
        roster_of,
    )

    with setup_errors():
        roster = roster_of(participants)
        roles = parse_roles(role_specs)
    agents = _agent_specs(agent_specs, roster, tuple(slug for slug, _role in roles))
    judges = [slug for slug, role in roles if role.startswith("judge")]
    with library_errors(), setup_errors():  # setup_errors inside: a SetupError is a usage error (exit 2)
        path, recorded = create_debate(folder, DebateSetup(TaskSpec(
            task_text, mode=mode, roles=roles, judge_when=judge_when, min_rounds=min_rounds, max_rounds=max_rounds,
            participants=roster, agents=agents, max_turns=max_turns, min_turns=min_turns, sealed=sealed),
            proposal_path))
    _record_agents(folder, agents)
    driven = {slug for slug, _spec in agents}
    starters = tuple(s for s in tuple(recorded.spec.participants or ()) + tuple(judges) if s not in driven)
    if driven:
        click.echo(f"Created {one_line(path)}. `multidebate run {one_line(shlex.quote(folder))}` starts the agents of "
                   f"{', '.join(sorted(driven))} each turn.")
    if not starters and not driven:
        click.echo(f"Created {one_line(path)}. Each session now runs: multidebate next "
                   f"{one_line(shlex.quote(folder))} --slug <its slug>")
    elif starters:
        where = one_line(shlex.quote(os.path.abspath(folder)))
        width = max(len(s) for s in starters)
        click.echo(("" if driven else f"Created {one_line(path)}. ") + "Start a session in each assistant and paste "
                   "its line (in Claude Code, begin it with `/multidebate `):")
        for name in starters:
            verb = "Judge the debate" if name in judges else "Debate the task"
            click.echo(f"  {(name + ':').ljust(width + 1)} {verb} in {where} with the multidebate skill; "
                       f"your slug is `{name}`.")
        click.echo('Then type "next turn" in each, as often as you like, or ask each to "debate until converged".')
    if roles:
        click.echo("Roles: " + ", ".join(f"{slug} = {role}" for slug, role in roles) + ". `next` tells each "
                   "session what its role's turn must contain.")


def _record_agents(folder: str, agents: tuple[tuple[str, str], ...]) -> None:
    """Record the agents in the user's private state folder too: `run` starts TASK.md's agents unasked only
    when they are these (TASK.md is shared; state/private.py)."""
    from ..state.private import forget_agents, record_agents

    try:
        if agents:
            record_agents(folder, dict(agents), replace=True)
        else:
            forget_agents(folder)  # an earlier debate at this path recorded its own
    except OSError as exc:
        if agents:
            click.echo(f"Warning: cannot record the agents in your private state folder ({exc.strerror or exc}): "
                       "`multidebate run` will show their command lines and ask before it starts them.", err=True)


def _agent_specs(specs: tuple[str, ...], roster: tuple[str, ...] | None,
                 roled: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """`--agent opus=claude:opus` options -> ((slug, spec), ...), each checked as `run` reads it."""
    if not specs:
        return ()
    agents = agent_options(specs)
    for slug in agents:
        if roster and slug not in roster and slug not in roled:
            raise click.BadParameter(f"`{slug}` is not in --participants", param_hint="--agent")
    return tuple((slug, agent.spec) for slug, agent in agents.items())


@contextmanager
def setup_errors() -> Iterator[None]:
    """A setup that cannot work, as click's usage errors (exit 2): naming the option when one is to blame."""
    from ..protocol.errors import SetupError

    try:
        yield
    except SetupError as exc:
        if exc.option is None:
            raise click.UsageError(str(exc)) from exc
        raise click.BadParameter(str(exc), param_hint=exc.option) from exc


@click.command(name="next")
@click.argument("folder", type=FolderPath())
@click.option("--slug", "slug_", required=True, help="This session's slug (see `multidebate slug`).")
@click.option("--task", "task_text", help="The user's task; needed on the first turn of a folder without TASK.md.")
@key_options
@click.option("--sections", "sections_spec", metavar="LIST",
              help="Serve only these sections of each peer file, e.g. reasoning,agreements.  Without it, when "
                   "the peer files exceed 20,000 characters in all, the Reasonings share the room evenly and the "
                   "longest are cut to fit.")
@click.option("--wait", is_flag=True, help="Block until every peer has written the previous turn, then answer.")
@click.option("--timeout", type=click.FloatRange(min=0), metavar="SECONDS",
              help="With --wait: stop waiting after SECONDS (default 600), answer with what exists and exit 3. If "
                   "your shell stops commands at 600 s or sooner, give one below its limit.")
@click.option("--full", is_flag=True, help="Show everything. Without it a review's answer stays within 320 lines "
                                           "and says what it left out; an open debate's long task is shown whole "
                                           "only at the session's turn 1 (and again if TASK.md changes); settled "
                                           "items of an item-by-item debate are listed once and peers' text is cut "
                                           "to the contested items; and from turn 3 a peer that holds your line, "
                                           "unchanged, is served as its line, Confidence, Converged and what it "
                                           "says to you.")
@click.option("--proposal", "proposal_only", is_flag=True,
              help="A review: print only the proposal, whole, with its sha256.")
@json_option
def next_(folder: str, slug_: str, task_text: str | None, key: str | None, key_file: str | None,
          sections_spec: str | None, wait: bool, timeout: float | None, full: bool, proposal_only: bool,
          as_json: bool) -> None:
    """Everything a session needs for its next turn: number, task, peers' previous turn.

    Serves only the peers' turn N-1 files, and prints the exact `write`
    command to use.  Creates FOLDER when --task is given and it is missing.
    With --wait, first blocks until every peer has written turn N-1; on
    timeout it answers with what exists and a note naming who did not write
    (exit 3).  Ctrl-C exits 130.  Running it again is safe: it changes
    nothing.  A review's answer stays within 320 lines (`--full` shows all;
    `--proposal` prints the proposal alone).

    \b
    Example:
      multidebate next my-debate --slug gpt-5-5 --key <key> --wait --timeout 90
    """
    from ..views.terminal import printable

    shown_key = key_argument(key, key_file)
    key = resolve_key(key, key_file)
    if timeout is not None and not wait:
        raise click.BadParameter("only applies with --wait", param_hint="--timeout")
    if not wait and not proposal_only:
        # #34: a warm run prints what the last full run printed while nothing it read has changed (kept_next.py)
        from ..turns.kept_next import UnknownSections, next_output

        try:
            with library_errors(as_json):
                out, _timed_out = next_output(folder, slug_, key, shown_key, task_text, sections_spec, full, as_json)
        except UnknownSections as exc:
            raise click.BadParameter(str(exc), param_hint="--sections") from exc
        click.echo(out if as_json else printable(out))
        return
    from ..api import DebateFolder
    from ..turns.briefing import section_names
    from ..turns.briefing_text import render_briefing

    if sections_spec is not None:
        try:
            section_names(sections_spec)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--sections") from exc
    try:
        with library_errors(as_json):
            # text: on stdout, ahead of the answer, where a session reads it in order; --json keeps stdout one
            # JSON document
            briefing = DebateFolder(folder).next(slug_, key=key, task=task_text, wait=wait, timeout=timeout,
                                                 sections=sections_spec, full=full,
                                                 on_wait=lambda message: click.echo(message, err=as_json))
    except KeyboardInterrupt:
        sys.exit(EXIT_INTERRUPTED)
    briefing = briefing._replace(key_option=shown_key)
    if proposal_only:
        if briefing.proposal is None:
            raise click.ClickException("this debate has no proposal to print (only a review has one)"
                                       if not briefing.proposal_file else
                                       f"{briefing.proposal_file} cannot be read")
        from ..turns.review_briefing import render_proposal

        if as_json:
            emit_json({"proposal_file": briefing.proposal_file, "proposal_sha256": briefing.proposal_sha256,
                       "proposal": briefing.proposal})
        else:
            click.echo(printable(render_proposal(briefing)))
        return
    if as_json:
        emit_json(briefing.as_dict())
    else:
        click.echo(printable(render_briefing(briefing, full=full)))
    if briefing.timed_out:
        sys.exit(EXIT_TIMEOUT)


@click.command()
@click.argument("folder", type=FolderPath())
@click.option("--slug", "slug_", required=True, help="This session's slug.")
@click.option("--file", "source", type=click.File("rb"), default="-", show_default="stdin",
              help="Read the sections from this file instead of stdin.")
@key_options
@json_option
def write(folder: str, slug_: str, source: Any, key: str | None, key_file: str | None, as_json: bool) -> None:
    """Validate a turn's sections and create turn-N-SLUG.md atomically.

    Give the sections (## Reasoning, ## Answer, [## Agreements, ## Disagreements,]
    ## Confidence, ## Converged) on stdin or with --file; the title and
    metadata are added.  Never overwrites; on invalid input nothing is
    written and every problem is listed.  The first write under a slug
    claims it and prints a key; later writes need `--key`.

    \b
    Example:
      multidebate write my-debate --slug gpt-5-5 --key <key> --file turn.md
    """
    from ..api import DebateFolder
    from ..views.terminal import printable

    shown_key = key_argument(key, key_file)
    key = resolve_key(key, key_file)
    if source is sys.stdin.buffer and sys.stdin.isatty():
        raise click.UsageError("give the sections on stdin (a heredoc) or with --file")
    from ..protocol.textfile import MAX_BYTES

    content = source.read(MAX_BYTES + 1)  # a byte past the limit says it all: never all of `--file /dev/zero`
    shown: list[str] = []

    def show_key(claimed: Any) -> None:
        # at once, before the file is created: a write killed or timed out after this point has not lost the key
        notice = claimed.key_notice()
        if notice is not None:
            click.echo(notice, err=as_json)
            sys.stdout.flush()
            sys.stderr.flush()
            shown.append(notice)

    with library_errors(as_json):
        result = DebateFolder(folder).write(slug_, content, key=key, on_key=show_key)
    if not shown:
        show_key(result)  # a judge's first write claims its slug with the judgment
    # what follows reads where the debate stands (WriteResult.standing): the slow part on a big debate
    if as_json:
        with library_errors(as_json):
            data = result.as_dict()
        emit_json(data)
        return
    with library_errors():
        text = result.render(shown_key)
    click.echo(printable(text))


@click.command()
@click.argument("folder", type=click.Path(file_okay=False))
@click.argument("slug_", metavar="SLUG")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation (the user has decided).")
def retire(folder: str, slug_: str, yes: bool) -> None:
    """Retire a participant: off the roster, its turns kept as history.

    For the user, when a session is gone or lost its key: later turns complete
    without SLUG, which can write no more.  Recorded in TASK.md (`retired:`)
    and, with the time and turn, in .multidebate/acts.jsonl; status and report
    keep SLUG's turns and say it was retired.  A person's command: the skill
    does not pre-approve it for sessions.

    \b
    Example:
      multidebate retire my-debate gemini-3-flash
    """
    from ..state.session import retire_participant

    if not yes:
        click.confirm(f"Retire `{slug_}` from {one_line(folder)}? Its turns stay as history; it can no longer "
                      "write, and "
                      "turns complete without it.", abort=True)
    with library_errors():
        task = retire_participant(folder, slug_)
    left = ", ".join(task.participants) if task.participants else "whoever writes"
    click.echo(f"Retired `{slug_}` from {one_line(folder)}. Participants now: {left}.")


@click.command()
@click.argument("folder", type=click.Path(file_okay=False))
@click.argument("slug_", metavar="SLUG")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation (the user has decided).")
def handover(folder: str, slug_: str, yes: bool) -> None:
    """Hand SLUG over to another session: a new key, and the old key stops working.

    For the user, when the session writing as SLUG is gone or lost its key and
    another session is to carry SLUG on (retire ends SLUG instead).  Give the
    printed key to the new session; its turns continue SLUG's.  Recorded with
    the time and turn in .multidebate/acts.jsonl and shown by status and
    report; the old key's next `next` or `write` is told.  A person's command:
    the skill does not pre-approve it for sessions.

    \b
    Example:
      multidebate handover my-debate gpt-5-5
    """
    from ..state.session import hand_over

    if not yes:
        click.confirm(f"Hand `{slug_}` in {one_line(folder)} over to another session? The key it has now stops "
                      "working.",
                      abort=True)
    with library_errors():
        key = hand_over(folder, slug_)
    click.echo(f"Handed `{slug_}` over. Give the new session its key: {key}")
    click.echo(f"It runs: multidebate next {one_line(shlex.quote(os.path.abspath(folder)))} --slug {slug_} --key {key}")
