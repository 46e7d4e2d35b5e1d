"""`multidebate sync`: one debate folder in a git work tree, kept in step with its remote branch.

One sync: commit this machine's new shared files of the folder (turns, ledgers, keys' hashes, acts, TASK.md)
with a fixed message, fetch, put this machine's unpushed sync commits on top of the remote branch as one
commit, lay the other machines' files into the folder, push; a push another machine beat is retried from the
fetch, a bounded number of times.  Never a force-push, never a commit it did not make rewritten, nothing
outside the folder committed.

Why not `git rebase` in the work tree: a rebase first checks out the remote tip, so for a moment this
machine's own turn files vanish from the folder and come back, and a session's `write` or `next --wait`
running then would count turns wrong.  Here the merge is computed without the work tree (`git merge-tree`),
and the folder only ever gains files (each laid in atomically: a temporary file linked or renamed into place,
so a watcher sees whole files), under the lock `write` takes shared.

A kill at any point leaves a clone the next sync repairs: before the folder is touched, the move from the
old commit to the new is written to a journal in the git directory; the next sync finishes it (each step
accepts a file already laid in).

Two machines that claimed one slug: the claim whose push landed first wins.  The loser's files under that
slug are kept in `.multidebate/sync/lost/` (never committed), its sync takes the winner's, and its session is
told by its next `next` or `write` which free slug to write under.  Two contents for one file that no race
explains (a turn written under one key on two machines, a forged file, TASK.md changed on both sides) is a
real conflict: sync stops, changes nothing, and names the file.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone

from ..protocol.errors import SyncError
from ..state.atomic import create_exclusive, replace_file
from ..state.folder import scan_folder
from ..state.jsonstate import loads_state
from ..state.keys import free_slug
from ..state.layout import STATE_DIR
from ..state.shared import (
    LostClaim,
    files_lock,
    is_shared,
    record_lost_claim,
    slug_of,
    sync_dir,
    write_gitignore,
)
from ..state.task import load_task
from .git import Git, remote_problem

__all__ = ["MESSAGE", "SyncResult", "sync_once"]

MESSAGE = "multidebate sync"
TRAILER = "Multidebate-Sync:"
JOURNAL = "multidebate-sync.json"
FAIL_AFTER_ENV = "MULTIDEBATE_SYNC_FAIL_AFTER"  # tests: exit at that step, as a kill would


@dataclass
class SyncResult:
    """What one sync did: commits made and pushed, files received from other machines, slug races lost."""

    folder: str
    remote: str
    branch: str
    committed: list[str] = field(default_factory=list)
    received: list[str] = field(default_factory=list)
    pushed: bool = False
    attempts: int = 0
    repaired: bool = False
    lost: list[LostClaim] = field(default_factory=list)
    kept_deleted: list[str] = field(default_factory=list)
    kept_changed: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, object]:
        return {"ok": True, "folder": self.folder, "remote": self.remote, "branch": self.branch,
                "committed": self.committed, "received": self.received, "pushed": self.pushed,
                "attempts": self.attempts, "repaired": self.repaired,
                "lost": [claim._asdict() for claim in self.lost], "kept_deleted": self.kept_deleted,
                "kept_changed": self.kept_changed}


def _step(number: int) -> None:
    """Exit here when the fault test asks (a kill between two steps)."""
    if os.environ.get(FAIL_AFTER_ENV) == str(number):
        os._exit(99)


class _Moved(Exception):
    """Internal: a file changed in the folder while the sync computed; start again from the commit."""


@dataclass
class _Where:
    git: Git
    top: str
    rel: str  # the folder relative to the work tree's top, '/'-separated ('' when it is the top)
    gitdir: str
    branch: str
    remote: str
    remote_branch: str

    def in_folder(self, path: str) -> str | None:
        """`path` (relative to the top) relative to the folder, or None when outside it."""
        if not self.rel:
            return path
        return path[len(self.rel) + 1:] if path.startswith(self.rel + "/") else None

    def top_path(self, folder_path: str) -> str:
        return f"{self.rel}/{folder_path}" if self.rel else folder_path

    @property
    def tracking(self) -> str:
        return f"refs/remotes/{self.remote}/{self.remote_branch}"


def _locate(folder: str, remote: str | None) -> _Where:
    if not os.path.isdir(folder):
        if os.path.lexists(folder) or not os.path.isdir(os.path.dirname(os.path.abspath(folder))):
            raise SyncError(f"no such folder: {folder}")
        os.mkdir(folder)  # a clone where the debate has not arrived yet: the first sync brings it
    probe = Git(folder)
    inside = probe.run("rev-parse", "--show-toplevel", check=False)
    if inside.code != 0:
        raise SyncError(f"{folder} is not inside a git work tree: clone the debate's repository and run sync in "
                        "the clone (see docs/running.md, Sessions on different machines)")
    top = os.path.realpath(inside.out.strip())
    git = Git(top)
    rel = os.path.relpath(os.path.realpath(folder), top).replace(os.sep, "/")
    rel = "" if rel == "." else rel
    if rel.split("/")[0] == ".git" or STATE_DIR in rel.split("/"):
        raise SyncError(f"{folder} is no debate folder (it is inside .git or a debate's {STATE_DIR}/)")
    gitdir = os.path.realpath(git.out("rev-parse", "--absolute-git-dir"))
    branch_ref = git.run("symbolic-ref", "-q", "HEAD", check=False)
    if branch_ref.code != 0:
        raise SyncError("HEAD is detached (no branch is checked out): sync commits onto a branch. Check out the "
                        "debate's branch (`git switch BRANCH`) and sync again")
    branch = branch_ref.out.strip().removeprefix("refs/heads/")
    if git.run("rev-parse", "-q", "--verify", "HEAD", check=False).code != 0:
        raise SyncError(f"the branch {branch} has no commit yet: make a first commit and push it (or clone the "
                        "repository after one was pushed), then sync")
    remotes = git.out("remote").split()
    configured = git.run("config", f"branch.{branch}.remote", check=False).out.strip()
    name = remote or configured or ("origin" if "origin" in remotes else (remotes[0] if len(remotes) == 1 else ""))
    if not name or name not in remotes:
        raise SyncError(("the repository has no remote" if not remotes else f"no remote named {name or 'origin'} "
                         f"(remotes: {', '.join(remotes)})") + ": sync pushes the debate to a remote every machine "
                        "reaches. Add one (`git remote add origin URL`) and sync again")
    merge = git.run("config", f"branch.{branch}.merge", check=False).out.strip()
    remote_branch = merge.removeprefix("refs/heads/") if merge and name == configured else branch
    return _Where(git, top, rel, gitdir, branch, name, remote_branch)


def _check_clean(where: _Where) -> None:
    """SyncError when git is in the middle of something, or a tracked file outside the folder is changed."""
    for marker, what in (("MERGE_HEAD", "a merge"), ("rebase-merge", "a rebase"), ("rebase-apply", "a rebase"),
                         ("CHERRY_PICK_HEAD", "a cherry-pick"), ("REVERT_HEAD", "a revert")):
        if os.path.exists(os.path.join(where.gitdir, marker)):
            raise SyncError(f"{what} is in progress in this work tree: finish or abort it, then sync again")
    if os.path.exists(os.path.join(where.gitdir, "index.lock")):
        raise SyncError(f"{os.path.join(where.gitdir, 'index.lock')} exists: another git command is running here, "
                        "or one was killed (then remove that file), and sync again")
    spec = ["--", ".", f":(exclude){where.rel}"] if where.rel else None
    if spec is None:
        return
    listing = where.git.run("status", "--porcelain=v1", "-z", "--untracked-files=no", *spec,
                            env={"GIT_LITERAL_PATHSPECS": "0"}).out
    dirty = [record[3:] for record in listing.split("\0") if len(record) > 3]
    if dirty:
        shown = ", ".join(dirty[:5]) + (f" and {len(dirty) - 5} more" if len(dirty) > 5 else "")
        raise SyncError(f"the work tree has changes outside the debate folder ({shown}): sync commits only the "
                        "folder and moves the branch, so commit or stash those first (nothing was done)")


def _commit_local(where: _Where, folder: str, result: SyncResult) -> None:
    """Commit the folder's new and changed shared files (never a deletion), with the fixed message."""
    git = where.git
    if os.path.isdir(os.path.join(folder, STATE_DIR, "ledger")):  # an older folder with state to keep out
        try:
            write_gitignore(folder)
        except OSError:
            pass
    task = load_task(folder)
    proposal = task.proposal if task is not None else None
    pathspec = where.rel or "."
    listing = git.run("status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames", "--",
                      pathspec).out
    adds: list[str] = []
    deleted: list[str] = []
    for record in listing.split("\0"):
        if len(record) < 4:
            continue
        state, path = record[:2], record[3:]
        inner = where.in_folder(path)
        if inner is None or not is_shared(inner, proposal):
            continue
        if "D" in state:
            deleted.append(path)
        elif "M" in state and _written_once(inner):
            result.kept_changed.append(path)  # a turn never changes: an edit here is not shared (validate: E080)
        else:
            adds.append(path)
    result.kept_deleted = [p for p in deleted if p not in adds]
    if not adds:
        return
    git.run("add", "--", *adds)
    _step(1)
    git.run("-c", "user.name=" + _identity(git, "name"), "-c", "user.email=" + _identity(git, "email"),
            "commit", "--no-verify", "-q", "-m", MESSAGE, "-m", f"{TRAILER} {where.rel or '.'}", "--", *adds)
    result.committed += adds


def _written_once(inner: str) -> bool:
    """A turn file, judgment or sealed turn: created once by `write`, never changed afterwards."""
    return slug_of(inner) is not None and not inner.startswith((f"{STATE_DIR}/ledger/", f"{STATE_DIR}/keys/"))


def _identity(git: Git, what: str) -> str:
    """The user's configured name or email, else one that says who made the commit."""
    mine = git.run("config", f"user.{what}", check=False).out.strip()
    return mine or ("multidebate sync" if what == "name" else "multidebate-sync@localhost")


def _fetch(where: _Where) -> str | None:
    """Fetch the remote branch; its commit, or None when the remote has no such branch yet."""
    done = where.git.run("fetch", "-q", "--no-tags", where.remote,
                         f"+refs/heads/{where.remote_branch}:{where.tracking}", check=False)
    if done.code != 0:
        if "couldn't find remote ref" in done.err.lower():
            return None
        raise SyncError(f"cannot fetch from {where.remote}: {remote_problem(done.err)}; nothing was pushed "
                        "(this machine's turns are committed here and go with the next sync)", "remote")
    return where.git.out("rev-parse", where.tracking)


def _ours(where: _Where, remote_tip: str, head: str) -> list[str]:
    """This machine's unpushed commits; SyncError when any of them is not a sync commit."""
    listing = where.git.out("log", "--format=%H%x00%B%x01", f"{remote_tip}..{head}")
    commits = []
    for record in listing.split("\x01"):
        record = record.strip()
        if not record:
            continue
        oid, body = record.split("\0", 1)
        if not (body.startswith(MESSAGE) and TRAILER in body):
            first = body.splitlines()[0] if body else ""
            raise SyncError(f"the branch {where.branch} has a commit that is not on {where.remote} and was not made "
                            f"by sync ({oid[:10]} \"{first}\"): sync pushes only its own commits and never rewrites "
                            f"another. Push or move that commit first (e.g. `git push`), then sync again")
        commits.append(oid)
    return commits


def _merge_tree(git: Git, ours: str, theirs: str) -> tuple[str, list[str]]:
    """(tree, conflicted paths) of merging the two commits, computed without touching the work tree."""
    done = git.run("merge-tree", "--write-tree", "--name-only", "-z", theirs, ours, check=False)
    if done.code not in (0, 1):
        raise SyncError(f"`git merge-tree` failed: {done.err.strip()}")
    parts = done.out.split("\0")
    tree = parts[0].strip()
    conflicted = []
    for part in parts[1:]:
        if not part:
            break  # the empty record ends the list of conflicted files; messages follow
        conflicted.append(part)
    return tree, sorted(set(conflicted))


def _tree_with(git: Git, tree: str, changes: dict[str, bytes | None], gitdir: str) -> str:
    """`tree` with some paths given new contents (None removes): a tree built in a private index."""
    index = os.path.join(gitdir, f"multidebate-index-{os.getpid()}")
    env = {"GIT_INDEX_FILE": index}
    try:
        git.run("read-tree", tree, env=env)
        for path, data in changes.items():
            if data is None:
                git.run("update-index", "--force-remove", "--", path, env=env)
            else:
                oid = git.run("hash-object", "-w", "--stdin", data=data).out.strip()
                git.run("update-index", "--add", "--cacheinfo", f"100644,{oid},{path}", env=env)
        return git.run("write-tree", env=env).out.strip()
    finally:
        try:
            os.unlink(index)
        except OSError:
            pass


def _union_lines(base: bytes, ours: bytes, theirs: bytes) -> bytes:
    """An append-only record both sides appended to: theirs, then the lines only ours added."""
    have = set(theirs.splitlines())
    extra = [line for line in ours.splitlines() if line not in have and line.strip()]
    out = theirs if theirs.endswith(b"\n") or not theirs else theirs + b"\n"
    return out + b"".join(line + b"\n" for line in extra)


def _same_task(base: bytes | None, ours: bytes | None, theirs: bytes | None) -> bool:
    """Two machines each recorded the task (`next --task`) before either synced: the same task, told apart only
    by when and by whom it was recorded, is one task (the remote's record stands)."""
    if base is not None or ours is None or theirs is None:
        return False

    def core(data: bytes) -> list[bytes]:
        return [line for line in data.splitlines() if not line.startswith((b"created_at:", b"recorded_by:"))]

    return core(ours) == core(theirs)


def _blob_or_none(git: Git, commit: str, path: str) -> bytes | None:
    done = git.run("cat-file", "-e", f"{commit}:{path}", check=False)
    return git.blob(f"{commit}:{path}") if done.code == 0 else None


def _key_digest(data: bytes | None) -> str:
    try:
        value = loads_state(data or b"").get("key_sha256")
    except (ValueError, AttributeError):
        return ""
    return value if isinstance(value, str) else ""


def _lose_race(where: _Where, folder: str, slug: str, ours: str, base: str, result: SyncResult) -> dict[str, bytes |
                                                                                                        None]:
    """Keep this machine's files under `slug` in `.multidebate/sync/lost/` and record the lost claim; the
    changes that take them out of this machine's side of the merge (back to what the common base had)."""
    git = where.git
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    kept_in = os.path.join(sync_dir(folder), "lost", f"{slug}-{stamp}")
    os.makedirs(kept_in, exist_ok=True)
    changed = git.out("diff", "--name-only", "-z", "--no-renames", base, ours).split("\0")
    undo: dict[str, bytes | None] = {}
    for path in filter(None, changed):
        inner = where.in_folder(path)
        if inner is None or slug_of(inner) != slug:
            continue
        mine = _blob_or_none(git, ours, path)
        if mine is not None:
            target = os.path.join(kept_in, inner.removeprefix(f"{STATE_DIR}/").replace("/", "__"))
            replace_file(target, mine)
        undo[path] = _blob_or_none(git, base, path)
    digest = _key_digest(_blob_or_none(git, ours, where.top_path(f"{STATE_DIR}/keys/{slug}.json")))
    claim = LostClaim(slug, digest, os.path.relpath(kept_in, folder), free_slug(folder, scan_folder(folder), slug))
    record_lost_claim(folder, claim)
    result.lost.append(claim)
    return undo


def _integrate(where: _Where, folder: str, head: str, remote_tip: str, result: SyncResult) -> str:
    """The commit the branch moves to: the remote tip with this machine's sync commits on top, as one."""
    git = where.git
    _ours(where, remote_tip, head)
    base = git.out("merge-base", head, remote_tip)
    ours = head
    raced: set[str] = set()
    for _round in range(3):
        tree, conflicted = _merge_tree(git, ours, remote_tip)
        if not conflicted:
            break
        fixes: dict[str, bytes | None] = {}
        real: list[str] = []
        new_races: set[str] = set()
        for path in conflicted:
            inner = where.in_folder(path)
            slug = slug_of(inner) if inner is not None else None
            if inner == f"{STATE_DIR}/acts.jsonl":
                fixes[path] = _union_lines(_blob_or_none(git, base, path) or b"", _blob_or_none(git, ours, path) or b"",
                                           _blob_or_none(git, remote_tip, path) or b"")
            elif inner == "TASK.md" and _same_task(_blob_or_none(git, base, path), _blob_or_none(git, ours, path),
                                                   _blob_or_none(git, remote_tip, path)):
                fixes[path] = _blob_or_none(git, remote_tip, path)
            elif slug is not None and inner == f"{STATE_DIR}/keys/{slug}.json" and _blob_or_none(git, base, path) is None:
                new_races.add(slug)
            elif slug is None or slug not in raced:
                real.append(path)
        real = [p for p in real if slug_of(where.in_folder(p) or "") not in new_races]
        if real:
            raise SyncError(_conflict_message(where, real), "conflict")
        if new_races:
            undo: dict[str, bytes | None] = {}
            for slug in sorted(new_races):
                undo.update(_lose_race(where, folder, slug, ours, base, result))
            raced |= new_races
            tree_ours = _tree_with(git, ours + "^{tree}", undo, where.gitdir)
            ours = git.run("commit-tree", tree_ours, "-p", ours, "-m", MESSAGE, "-m",
                           f"{TRAILER} {where.rel or '.'}", env=_commit_env(git)).out.strip()
            continue
        tree = _tree_with(git, tree, fixes, where.gitdir)
        break
    else:
        raise SyncError("the merge did not settle in three rounds; nothing was changed", "conflict")
    if git.out("rev-parse", f"{remote_tip}^{{tree}}") == tree:
        return remote_tip  # nothing of ours is left that the remote lacks
    return git.run("commit-tree", tree, "-p", remote_tip, "-m", MESSAGE, "-m", f"{TRAILER} {where.rel or '.'}",
                   env=_commit_env(git)).out.strip()


def _commit_env(git: Git) -> dict[str, str]:
    name, email = _identity(git, "name"), _identity(git, "email")
    return {"GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email, "GIT_COMMITTER_NAME": name,
            "GIT_COMMITTER_EMAIL": email}


def _conflict_message(where: _Where, paths: list[str]) -> str:
    shown = ", ".join(paths[:5]) + (f" and {len(paths) - 5} more" if len(paths) > 5 else "")
    return (f"{shown} ha{'s' if len(paths) == 1 else 've'} two contents: this machine's and {where.remote}/"
            f"{where.remote_branch}'s (a turn written under one slug on two machines, a copied key, a forged file, "
            "or TASK.md changed on both sides). Nothing was changed and nothing is lost: this machine's version is "
            f"in its unpushed sync commit. A person decides which to keep (`git diff {where.tracking} HEAD -- PATH`), "
            "removes the other on its machine and commits, then syncs again")


def _journal_path(where: _Where) -> str:
    return os.path.join(where.gitdir, JOURNAL)


def _read_work(path: str) -> bytes | None | bool:
    """A work-tree file's bytes; None when absent; False when it is no regular file."""
    try:
        if os.path.islink(path) or not os.path.isfile(path):
            return False if os.path.lexists(path) else None
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return False


def _move(where: _Where, old: str, new: str, result: SyncResult) -> None:
    """Move the branch, the index and the work tree from `old` to `new`: lay in the files that differ (only
    when the work tree still holds `old`'s version, or already `new`'s), update the index, then the branch.
    Journaled, so a kill at any point is finished by the next sync."""
    git = where.git
    changed = [p for p in git.out("diff", "--name-only", "-z", "--no-renames", old, new).split("\0") if p]
    plan: list[tuple[str, bytes | None, str]] = []
    for path in changed:
        before, after = _blob_or_none(git, old, path), _blob_or_none(git, new, path)
        mode = git.entries(new, [path]).get(path, ("100644", ""))[0]
        work = _read_work(os.path.join(where.top, path))
        if work == after or (work is None and after is None):
            continue
        if work != before:
            raise _Moved(path)  # changed here since the commit: never replaced; the next attempt commits it
        plan.append((path, after, mode))
    with open(_journal_path(where), "w", encoding="utf-8") as handle:
        json.dump({"from": old, "to": new, "branch": where.branch}, handle)
    _step(4)
    for number, (path, data, mode) in enumerate(plan):
        full = os.path.join(where.top, path)
        if data is None:
            try:
                os.unlink(full)
            except FileNotFoundError:
                pass
        else:
            os.makedirs(os.path.dirname(full), exist_ok=True)
            if mode == "120000":
                if os.path.lexists(full):
                    os.unlink(full)
                os.symlink(data.decode("utf-8", "surrogateescape"), full)
            elif not os.path.lexists(full):
                if not create_exclusive(full, data):
                    raise _Moved(path)  # a session created it this instant: merge it in the next attempt
            else:
                replace_file(full, data, ".md-tmp-")
            if mode == "100755":
                os.chmod(full, 0o755)
        inner = where.in_folder(path)
        if inner is not None and data is not None:
            result.received.append(inner)
        if number == 0:
            _step(5)
    _finish_move(where, old, new, changed)


def _finish_move(where: _Where, old: str, new: str, changed: list[str]) -> None:
    # the index entries of the files laid in, from `new` (never from the work tree, which sessions may be adding
    # to); the rest of the index, this machine's own, is left as it is
    for chunk in range(0, len(changed), 500):
        where.git.run("reset", "-q", new, "--", *changed[chunk:chunk + 500])
    _step(6)
    where.git.run("update-ref", "-m", MESSAGE, f"refs/heads/{where.branch}", new, old)
    _step(7)
    os.unlink(_journal_path(where))


def _repair(where: _Where, folder: str, result: SyncResult) -> None:
    """Finish a move a killed sync began (its journal), so the branch, the index and the folder agree."""
    try:
        with open(_journal_path(where), "rb") as handle:
            journal = loads_state(handle.read(1024 * 1024))
        old, new = str(journal["from"]), str(journal["to"])
    except FileNotFoundError:
        return
    except (OSError, ValueError, KeyError, TypeError):
        os.unlink(_journal_path(where))
        return
    head = where.git.out("rev-parse", "HEAD")
    if head == old:
        with files_lock(folder, exclusive=True, required=True):
            try:
                _move(where, old, new, result)
            except _Moved as moved:
                raise SyncError(f"a sync was interrupted while laying in files from the remote, and {moved} has "
                                "changed since: nothing was replaced. Commit or remove that change, then sync again",
                                "conflict") from None
        result.repaired = True
    else:
        os.unlink(_journal_path(where))


def _push(where: _Where, commit: str) -> bool:
    """Push `commit` to the remote branch; False when another machine pushed first (fetch and try again)."""
    done = where.git.run("push", "--porcelain", where.remote, f"{commit}:refs/heads/{where.remote_branch}",
                         check=False)
    if done.code == 0:
        return True
    low = (done.err + done.out).lower()
    if any(word in low for word in ("rejected", "non-fast-forward", "fetch first", "failed to update ref",
                                    "cannot lock ref", "stale info")):
        return False
    raise SyncError(f"cannot push to {where.remote}: {remote_problem(done.err or done.out)}; this machine's turns "
                    "stay committed here and go with the next sync", "remote")


def sync_once(folder: str, remote: str | None = None, attempts: int = 5) -> SyncResult:
    """One sync of `folder` (see the module's docstring); SyncError when it cannot."""
    where = _locate(folder, remote)
    task = load_task(folder)
    if task is not None and task.sealed:
        # every clone holds every commit: a sealed turn pushed to the remote is readable before it is published
        raise SyncError(f"{folder} is a sealed debate: its turns stay unseen until every participant has written "
                        "them, and a git remote would show them to every clone at once. Run a sealed debate on one "
                        "machine, or start it unsealed (`multidebate init` without --sealed) to sync it")
    result = SyncResult(folder, where.remote, where.branch)
    lock_path = os.path.join(where.gitdir, "multidebate-sync.lock")
    import fcntl

    lock = os.open(lock_path, os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one sync of a clone at a time; two would move the branch apart
        _repair(where, folder, result)
        _check_clean(where)
        for attempt in range(1, attempts + 1):
            result.attempts = attempt
            changed_here = ""
            try:
                if _one_attempt(where, folder, result):
                    return result
            except _Moved as moved:
                changed_here = str(moved)
            # other machines push at the same moment: back off a little, by a random share, before trying again
            time.sleep(min(0.05 * attempt * attempt, 1.0) * (1 + os.urandom(1)[0] / 255))
        if changed_here:
            raise SyncError(f"{changed_here} changed in this work tree while the same file came from {where.remote} "
                            f"({attempts} attempts): nothing of it was replaced. Commit or remove the local change "
                            "of that file, then sync again", "conflict")
        raise SyncError(f"{where.remote} kept moving: {attempts} pushes were beaten by other machines' pushes. "
                        "This machine's turns are committed here; sync again in a moment", "remote")
    finally:
        os.close(lock)


def _one_attempt(where: _Where, folder: str, result: SyncResult) -> bool:
    git = where.git
    with files_lock(folder, exclusive=True, required=True):
        _commit_local(where, folder, result)
    _step(2)
    remote_tip = _fetch(where)
    head = git.out("rev-parse", "HEAD")
    if remote_tip is None or git.is_ancestor(remote_tip, head):
        target = head
    elif git.is_ancestor(head, remote_tip):
        target = remote_tip
    else:
        target = _integrate(where, folder, head, remote_tip, result)
    _step(3)
    if target != head:
        with files_lock(folder, exclusive=True, required=True):
            _move(where, head, target, result)
    if remote_tip == target:
        return True
    if not _push(where, target):
        return False
    _step(8)
    result.pushed = True
    return True

