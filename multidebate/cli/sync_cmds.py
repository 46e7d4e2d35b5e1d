"""`multidebate sync`: a debate folder inside a git work tree, shared with other machines through its remote."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from .common import (
    EXIT_CONFLICT,
    EXIT_ERROR,
    EXIT_INTERRUPTED,
    EXIT_REMOTE,
    EXIT_TIMEOUT,
    FolderPath,
    emit_json,
    json_option,
)

if TYPE_CHECKING:
    from ..protocol.errors import SyncError
    from ..sync.engine import SyncResult

__all__ = ["sync"]

_EXITS = {"conflict": EXIT_CONFLICT, "remote": EXIT_REMOTE}


def _say(result: SyncResult, as_json: bool, quiet_when_idle: bool = False) -> None:
    from ..views.terminal import printable

    if as_json:
        import json

        click.echo(json.dumps(result.as_dict(), ensure_ascii=False))
        return
    for claim in result.lost:
        click.echo(printable(
            f"Slug race lost: `{claim.slug}` was claimed on another machine first (its push landed first), so the "
            f"slug is taken. This machine's files under it are kept in {claim.kept_in}; its session must write as "
            f"`{claim.free_slug}` (free) from now on: its next `next` or `write` tells it so."), err=True)
    for path in result.kept_deleted:
        click.echo(printable(f"Note: {path} is deleted here but stays in git: sync never commits a deletion "
                             "(`git checkout -- PATH` brings it back; a person commits a removal)."), err=True)
    for path in result.kept_changed:
        click.echo(printable(f"Note: {path} was changed here after it was written: a turn never changes, so sync "
                             "does not share the change (`multidebate validate` reports it, E080)."), err=True)
    idle = not (result.committed or result.received or result.pushed or result.repaired)
    if idle and quiet_when_idle:
        return
    parts = []
    if result.repaired:
        parts.append("finished what an interrupted sync began")
    if result.committed:
        parts.append(f"committed {len(result.committed)} file{'s' if len(result.committed) != 1 else ''}")
    if result.received:
        parts.append("received " + ", ".join(result.received[:6]) + (
            f" and {len(result.received) - 6} more" if len(result.received) > 6 else ""))
    if result.pushed:
        parts.append("pushed")
    what = "; ".join(parts) if parts else "nothing new either way"
    click.echo(printable(f"Synced {result.folder} with {result.remote}/{result.branch}: {what}."))


def _fail(exc: SyncError, as_json: bool) -> None:
    from .common import fail

    code = _EXITS.get(exc.kind, EXIT_ERROR)
    if code == EXIT_ERROR:
        fail(str(exc), [], as_json)
    if as_json:
        emit_json({"ok": False, "error": str(exc), "problems": [exc.kind]})
    else:
        from ..views.terminal import printable

        click.echo(f"Error: {printable(str(exc))}", err=True)
    sys.exit(code)


@click.command()
@click.argument("folder", type=FolderPath())
@click.option("--remote", metavar="NAME", help="The remote to sync with (default: the branch's upstream, else origin).")
@click.option("--watch", "watch_", is_flag=True, help="Keep syncing until the debate ends (every --interval seconds, "
              "and at once when a session here writes).")
@click.option("--interval", type=click.FloatRange(min=0.1), metavar="SECONDS", default=None,
              help="Seconds between syncs with --watch (default 5); given alone, it implies --watch.")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS",
              help="With --watch: stop after this many seconds (exit 3) if the debate has not ended.")
@json_option
def sync(folder: str, remote: str | None, watch_: bool, interval: float | None, timeout: float | None,
         as_json: bool) -> None:
    """Share FOLDER with other machines through the git repository it is in.

    One sync commits this machine's new turn files and shared state of
    FOLDER (ledgers, keys' hashes, acts, TASK.md; never caches or run
    state) with the message "multidebate sync", fetches, puts this
    machine's unpushed sync commits on top of the remote branch, lays the
    other machines' files into FOLDER and pushes; a push another machine
    beat is retried. It commits nothing outside FOLDER, never force-pushes
    and never rewrites a commit it did not make.

    A slug claimed on two machines belongs to the one whose push landed
    first; the other's files are kept under .multidebate/sync/lost/ and its
    session is told which free slug to use. Exit 1 for a work tree sync
    cannot use (no remote, detached HEAD, changes outside FOLDER), 4 for a
    file with two contents (a person decides), 5 when the remote cannot be
    reached or refuses the credentials.

    \b
    Example:
      multidebate sync my-debate --watch &
    """
    from ..protocol.errors import MultidebateError, SyncError
    from ..sync.engine import sync_once

    if timeout is not None and not (watch_ or interval is not None):
        raise click.UsageError("--timeout is for --watch")
    try:
        if not (watch_ or interval is not None):
            _say(sync_once(folder, remote), as_json)
            return
        from ..sync.loop import sync_until_end
        from ..views.terminal import printable

        def problem(exc: SyncError) -> None:
            click.echo(f"Warning: {printable(str(exc))} (trying again)", err=True)

        ended = sync_until_end(folder, interval or 5.0, remote, lambda r: _say(r, as_json, quiet_when_idle=True),
                               problem, timeout)
        if not ended:
            sys.exit(EXIT_TIMEOUT)
        if not as_json:
            click.echo("The debate has ended; its last files are pushed.")
    except SyncError as exc:
        _fail(exc, as_json)
    except MultidebateError as exc:  # the folder removed under a watching sync
        _fail(SyncError(str(exc)), as_json)
    except KeyboardInterrupt:
        sys.exit(EXIT_INTERRUPTED)
