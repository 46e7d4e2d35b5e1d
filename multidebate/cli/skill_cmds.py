"""`multidebate skill`: the bundled SKILL.md where the assistants look for it."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from ..skill.agents import AGENTS, SCOPES, folder_table
from ..version import __version__
from .common import EXIT_ERROR, emit_json, json_option, library_errors

if TYPE_CHECKING:
    from ..skill.install import Change, Location

__all__ = ["skill_group"]


_FOLDERS_HELP = "\b\n" + "\n".join(
    f"{agent:<9} {user:<26} {project}" for agent, user, project in
    [("--agent", "user folder", "project folder"), *folder_table()])
_TARGET_HELP = "--dest DIR names the folder itself; leave out --agent and --scope."


def _where(agents: tuple[str, ...], scope: str | None, dest: str | None,
           default: tuple[str, ...]) -> tuple[Location, ...]:
    from ..skill.install import custom_location, targets

    if dest is not None:
        if agents or scope:
            raise click.UsageError(_TARGET_HELP)
        return (custom_location(dest),)
    return targets(agents or default, scope or "user")


def _echo_changes(changes: tuple[Change, ...], closing: str, force_hint: str) -> None:
    """One line per location: what was (or would be) done, where, and for whom or why not.

    Exits 1 when a copy was kept or a location failed: what was asked is not fully done.
    """
    from ..views.style import change_word

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


@click.group(name="skill")
def skill_group() -> None:
    """Install, list, show and uninstall the bundled SKILL.md.

    \b
    Example:
      multidebate skill install --scope project
    """


@skill_group.command(name="show")
def skill_show() -> None:
    """Print the bundled SKILL.md.

    \b
    Example:
      multidebate skill show > SKILL.md
    """
    from ..skill.install import bundled_skill

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

    \b
    Example:
      multidebate skill install --agent claude --dry-run
    """
    from ..skill.install import install

    with library_errors():
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

    \b
    Example:
      multidebate skill uninstall --scope project
    """
    from ..skill.install import uninstall

    with library_errors():
        where = _where(agents, scope, dest, ("all",))
        changes = uninstall(where, force=force, dry_run=dry_run)
    if not changes:
        click.echo("No copy of the skill in " + ", ".join(str(loc.skills_dir) for loc in where) + ".")
        return
    _echo_changes(changes, "Dry run: nothing was removed." if dry_run else "", "rerun with --force to remove")


_STATE_LEGEND = ("current: the bundled SKILL.md; covered: no copy, and none needed (its readers read a current "
                 "copy listed above);\nstale: an earlier version multidebate installed "
                 "(`skill install` updates it);\nmodified: changed by a person (kept unless --force); "
                 "linked: a symbolic link (never followed)")


@skill_group.command(name="list")
@click.option("--dest", multiple=True, type=click.Path(file_okay=False), metavar="DIR",
              help="Also check DIR/multidebate/ (repeatable).")
@json_option
def skill_list(dest: tuple[str, ...], as_json: bool) -> None:
    """Where the skill is installed: every known folder, user and project scope.

    Each copy is current (the bundled SKILL.md), stale (an earlier version
    multidebate installed), modified (changed by a person), linked (a
    symbolic link) or not installed (`missing` in --json); a folder without
    a copy whose readers all read a current copy elsewhere in the scope is
    covered.

    \b
    Example:
      multidebate skill list --json
    """
    from ..skill.install import bundled_sha256, custom_location, survey
    from ..views.style import STATE_WORDS, state_word

    with library_errors(as_json):
        copies = survey(extra=[custom_location(d) for d in dest])
    if as_json:
        emit_json({"bundled": {"version": __version__, "sha256": bundled_sha256()},
                    "copies": [c.as_dict() for c in copies]})
        return
    click.echo(f"bundled SKILL.md: multidebate {__version__}, sha256 {bundled_sha256()[:12]}")
    rows = [(c.location.scope, STATE_WORDS.get(c.state, c.state), str(c.location.skill_file), c.location.readers)
            for c in copies]
    widths = [max(len(r[i]) for r in rows + [("scope", "state", "path", "")]) for i in range(3)]
    click.echo(f"{'scope':<{widths[0]}}  {'state':<{widths[1]}}  {'path':<{widths[2]}}  read by")
    for copy, (scope_, _shown, path, readers) in zip(copies, rows):
        click.echo(f"{scope_:<{widths[0]}}  {state_word(copy.state, widths[1])}  {path:<{widths[2]}}  {readers}")
    click.echo(_STATE_LEGEND)
