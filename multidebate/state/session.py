"""A session's place in a debate: is its slug usable and its own, which turn is next."""

from __future__ import annotations

import os
import shlex

from ..protocol.errors import (
    FolderError,
    IdentityError,
    RosterError,
    SlugError,
    TurnConflict,
)
from ..protocol.naming import is_slug, slugify, turn_file_name
from .acts import read_acts, record_act
from .folder import Scan, TurnFile
from .keys import KeyMismatch, check_key, free_slug, is_claimed, reissue
from .layout import STATE_DIR, state_lock, state_root_problem
from .shared import lost_claim
from .task import Task

__all__ = ["check_slug", "check_identity", "hand_over", "interrupted_write", "next_turn_number", "other_slug",
           "retire_participant"]


def check_slug(slug: str, task: Task | None) -> None:
    """SlugError for a malformed slug, RosterError for one the roster does not list."""
    if not is_slug(slug):
        suggestion = slugify(slug)
        hint = f"; use `{suggestion}`" if suggestion else ""
        raise SlugError(f"`{slug}` is not a slug (lowercase letters, digits, single hyphens, at most 64){hint}")
    if task is not None and slug in task.retired:
        raise RosterError(f"`{slug}` was retired from this debate by the user: it writes no more turns. If you are a "
                          "session that lost its key, ask the user which slug to use.")
    roster = task.participants if task else None
    if roster and slug not in roster and slug != (task.judge if task else None):
        raise RosterError(
            f"`{slug}` is not on this debate's roster: {', '.join(roster)}. "
            "Use the roster's name for your model (rerun with --slug <that name>)."
        )


def check_identity(folder: str, scan: Scan, task: Task | None, slug: str, key: str | None, command: str) -> bool:
    """True when the slug is unclaimed; IdentityError when it is claimed and `key` does not open it; FolderError
    when `.multidebate` is no real folder (no key can be read or kept there, so no slug is anyone's)."""
    _require_state(folder)
    try:
        return check_key(folder, slug, key)
    except KeyMismatch:
        pass
    handed = [a for a in read_acts(folder) if a.act == "handover" and a.slug == slug]
    if key is not None and handed:
        raise IdentityError(
            f"`{slug}` was handed over to another session by the person's command at turn {handed[-1].turn} "
            f"({handed[-1].at}): the key you hold no longer works, and the session that got the new key writes as "
            f"`{slug}` now. Write nothing more as `{slug}`; tell the user, and ask which slug to use if you are to go "
            "on."
        )
    lost = lost_claim(folder, slug, key)
    if lost is not None:
        raise IdentityError(
            f"`{slug}` was claimed on another machine first (its `multidebate sync` push landed before this "
            f"machine's): the slug is taken, and your key no longer opens it. Nothing of yours is lost: your files "
            f"under `{slug}` are kept in {lost.kept_in}. Write your turns as `{lost.free_slug}` (free): run "
            f"`multidebate next {shlex.quote(folder)} --slug {lost.free_slug}` and write your turn 1 again."
        )
    if key is not None:
        raise IdentityError(
            f"the key given does not match `{slug}`'s key. Use the key `write` printed on your first turn; "
            f"if it is lost, ask the user to run `multidebate handover {shlex.quote(folder)} {slug}` (a new key for "
            f"the slug) or `multidebate retire {shlex.quote(folder)} {slug}` (turns complete without it)."
        )
    if not scan.by_slug.get(slug):
        raise IdentityError(
            f"`{slug}` is claimed but has no turn yet: another session is writing its first turn right now, or "
            f"a write was interrupted. Use another slug, or ask the user; a person gives the slug a new key with "
            f"`multidebate handover {shlex.quote(folder)} {slug}`."
        )
    other = other_slug(folder, scan, task, slug, command)
    raise IdentityError(
        f"`{slug}` is taken by a session that holds its key. If you wrote turns here as `{slug}`, add "
        f"--key <the key `write` gave you>. If not, you are another session: {other}."
    )


def other_slug(folder: str, scan: Scan, task: Task | None, slug: str, command: str) -> str:
    """What a session whose slug another session holds should do: never a name the roster would refuse."""
    roster = task.participants if task else None
    if roster:
        free = [s for s in roster if s != slug and s not in scan.slugs and not is_claimed(folder, s)]
        if not free:
            return "ask the user which slug is yours (every roster name is in use)"
        return f"ask the user which roster name is yours (free on the roster: {', '.join(free)})"
    free_ = free_slug(folder, scan, slug)
    return f"use the free slug `{free_}`: multidebate {command} {shlex.quote(folder)} --slug {free_}"
def _require_state(folder: str) -> None:
    """FolderError when `.multidebate` is a link or a file: no key can be read or kept there."""
    problem = state_root_problem(folder)
    if problem:
        raise FolderError(f"{os.path.join(folder, STATE_DIR)} {problem}: the tool keeps its ledger and keys there "
                          "and never follows a link or opens a file in its place. Ask the user to remove it.")


def _record(folder: str, act: str, slug: str, turn: int) -> None:
    """Record a person's act first (a record of an act that then fails shows nothing; an act without its record
    would show as made by hand); FolderError when it cannot be recorded, and nothing was done."""
    try:
        record_act(folder, act, slug, turn)
    except OSError as exc:
        raise FolderError(f"cannot record the {act} in {os.path.join(folder, STATE_DIR)} "
                          f"({exc.strerror or exc}); nothing was done") from exc


def next_turn_number(scan: Scan, slug: str, sealed_own: int = 0) -> int:
    """A slug's next turn: its own count of turn files (published and sealed) + 1; TurnConflict on a gap."""
    turn = scan.own_count(slug) + sealed_own + 1
    odd = [entry for _n, entry in sorted(scan.by_slug.get(slug, {}).items()) if not entry.is_file]
    if odd:
        # a directory, FIFO or link under a turn name is no turn: writing past it would leave the turn it
        # holds waiting for ever
        what = "a symbolic link" if odd[0].is_symlink else "a directory" if os.path.isdir(odd[0].path) \
            else "not a regular file"
        raise TurnConflict(
            f"{odd[0].filename} is {what}, not a turn file, so `{slug}`'s turn {odd[0].name.turn} cannot be "
            f"written. Ask the user to remove it (then your next turn is {odd[0].name.turn})."
        )
    strays = [entry.filename for entry in scan.strays if entry.name.slug == slug]
    if strays:
        have = ", ".join(str(t) for t in sorted(scan.by_slug.get(slug, {}))) or "none"
        raise TurnConflict(
            f"`{slug}` has turn files that skip turns ({', '.join(strays[:3])}; unbroken turns: {have}), so its "
            f"next turn cannot be told. Ask the user to restore the missing files (the next is "
            f"{turn_file_name(scan.own_count(slug) + 1, slug)}) or to move the stray files out of the folder."
        )
    if sealed_own == 0 and interrupted_write(scan, slug) is not None:
        return turn - 1  # its last file is empty and unrecorded: a write killed mid-way, written again
    if scan.entry(turn, slug) is not None:
        have = ", ".join(str(t) for t in sorted(scan.by_slug[slug]))
        raise TurnConflict(
            f"`{slug}` has turn files {have}: a turn is missing, so its next turn cannot be told. "
            f"Ask the user to restore the missing file (expected {turn_file_name(turn - 1, slug)} or earlier)."
        )
    return turn


def interrupted_write(scan: Scan, slug: str) -> TurnFile | None:
    """The slug's last turn file when it is empty and no ledger entry records it: what a `write` killed
    between claiming the name and filling it leaves (the retry writes that turn again, not the next)."""
    from .ledger import read_ledger

    own = scan.by_slug.get(slug, {})
    last = own.get(len(own)) if own else None
    if last is None or not last.is_file or last.identity is None or last.identity[0] != 0:
        return None
    if any(entry.file == last.filename for entry in read_ledger(scan.folder, slug).entries):
        return None
    return last


def hand_over(folder: str, slug: str) -> str:
    """A new key for `slug` (the old one stops working), for another session to carry the slug on.

    A person's act, for a session that is gone or lost its key: FolderError for
    no debate folder, SlugError or RosterError for a slug that takes no part
    (malformed, retired, unknown to the folder and its roster).
    """
    from .folder import scan_folder
    from .task import load_task

    scan = scan_folder(folder)
    task = load_task(folder) if scan.has_task else None
    check_slug(slug, None)  # its form; the roster is checked below, in words for the user
    if task is not None and slug in task.retired:
        raise RosterError(f"`{slug}` was retired from this debate: it writes no more turns.")
    _require_part(folder, scan, task, slug)
    _require_state(folder)
    _record(folder, "handover", slug, scan.current_turn)
    try:
        return reissue(folder, slug)
    except OSError as exc:
        raise FolderError(f"cannot write the new key of `{slug}` ({exc.strerror or exc}); the old key still "
                          "works") from exc


def _require_part(folder: str, scan: Scan, task: Task | None, slug: str) -> None:
    roster = task.participants if task and task.participants else ()
    if slug not in scan.slugs and slug not in roster and slug != (task.judge if task else None) \
            and not is_claimed(folder, slug):
        raise RosterError(f"`{slug}` takes no part in {folder}: no turn, key or roster entry names it. A new "
                          "session simply joins with its own slug.")


def retire_participant(folder: str, slug: str) -> Task:
    """Retire `slug` (TASK.md's `retired:`), recorded with its time and turn: a person's act, for a session that
    is gone or lost its key.  RosterError for a slug that never took part; TaskError as `task.retire`."""
    from .folder import scan_folder
    from .task import check_retire, retire

    scan = scan_folder(folder)
    check_slug(slug, None)
    _require_state(folder)
    with state_lock(folder, "task"):  # two retires at once: each reads the TASK.md the other wrote
        task = check_retire(folder, slug)  # TaskError: no usable TASK.md, retired already, the review needs it
        _require_part(folder, scan, task, slug)
        _record(folder, "retire", slug, scan.current_turn)
        return retire(folder, slug)
