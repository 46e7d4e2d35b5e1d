"""`multidebate sync` with real git: a bare repository and clones of it in a temporary folder.

Sessions write through the CLI (`next`, then `write`, with keys) in their own clone while the clones sync;
races are made on purpose and synchronised on events (a hook that runs the other push, a barrier), never
on sleeps.
"""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from conftest import Cli
from helpers import key_of, turn_body, write_keyed

pytestmark = pytest.mark.skipif(subprocess.run(["git", "--version"], capture_output=True).returncode != 0,
                                reason="git is not installed")

LINE = "**Use TOML for the config.**"


def git(where: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=where, capture_output=True, text=True, check=True).stdout.strip()


def md(where: Path, *args: str, data: str | None = None, env: dict[str, str] | None = None,
       timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """The CLI as a session runs it: a process of its own, in its clone."""
    return subprocess.run([sys.executable, "-m", "multidebate", *args], cwd=where, input=data, capture_output=True,
                          text=True, timeout=timeout, env={**os.environ, "NO_COLOR": "1", **(env or {})})


def clones(tmp_path: Path, count: int = 3) -> list[Path]:
    """A bare remote with one commit, and `count` clones of it (each with its own committer)."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(remote))
    made = []
    for number in range(count):
        clone = tmp_path / f"m{number}"
        git(tmp_path, "clone", "-q", str(remote), str(clone))
        git(clone, "config", "user.name", f"machine {number}")
        git(clone, "config", "user.email", f"m{number}@example.invalid")
        git(clone, "checkout", "-q", "-B", "main")
        if number == 0:
            (clone / "README").write_text("a repository holding debates\n")
            git(clone, "add", "README")
            git(clone, "commit", "-q", "-m", "first")
            git(clone, "push", "-q", "-u", "origin", "main")
        else:
            git(clone, "pull", "-q", "origin", "main")
            git(clone, "branch", "-q", "--set-upstream-to=origin/main")
        made.append(clone)
    return made


def session_turn(clone: Path, slug: str, key: str | None, turn: int, answer: str, converged: bool = False,
                 wait: bool = False) -> str:
    """One session's turn: `next` (with --wait from turn 2), then `write` with the key; the key it holds."""
    args = ["next", "d", "--slug", slug] + (["--key", key] if key else []) + (["--wait", "--timeout", "30"] if wait
                                                                             else [])
    served = md(clone, *args)
    assert served.returncode == 0, served.stderr
    written = md(clone, "write", "d", "--slug", slug, "--json", *(["--key", key] if key else []),
                 data=turn_body(turn, answer, converged=converged))
    assert written.returncode == 0, written.stdout + written.stderr
    return key or json.loads(written.stdout)["key"]


def sync(clone: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`sync` in a process of its own (a kill, a race between processes)."""
    return md(clone, "sync", "d", *args, env=env)


def synced(cli: Cli, clone: Path, *args: str) -> str:
    """`sync` through click in this process (quick), which must succeed; its stderr."""
    result = cli("sync", str(clone / "d"), *args)
    assert result.code == 0, result
    return result.err


def turn(clone: Path, slug: str, answer: str = LINE, converged: bool = False) -> None:
    """A session's turn in this process: `next`, then `write` with the key (tests/helpers.py)."""
    number = len(list((clone / "d").glob(f"turn-*-{slug}.md"))) + 1
    write_keyed(str(clone / "d"), slug, turn_body(number, answer, converged=converged).encode())


def validated(cli: Cli, clone: Path) -> int:
    return cli("validate", str(clone / "d")).code


def test_three_machines_debate_through_one_remote_to_one_verdict(cli: Cli, tmp_path: Path) -> None:
    machines = clones(tmp_path)
    first = machines[0]
    # --min-turns 2: the three sessions write one line at turn 1, which would end the debate there (unanimous)
    assert md(first, "init", "d", "--task", "Pick a config format.", "--participants", "a,b,c",
              "--min-turns", "2").returncode == 0
    assert sync(first).returncode == 0
    # every machine syncs until the debate ends, while its session runs `next --wait` and `write`
    watchers = [subprocess.Popen([sys.executable, "-m", "multidebate", "sync", "d", "--watch", "--interval", "0.3",
                                  "--timeout", "60"], cwd=m, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                for m in machines]
    failures: list[BaseException] = []

    def session(clone: Path, slug: str) -> None:
        try:
            # turn 1 waits for TASK.md to arrive through its machine's sync (the clone started without it)
            done = threading.Event()
            while not (clone / "d" / "TASK.md").exists() and not done.wait(0.05):
                pass
            key = session_turn(clone, slug, None, 1, LINE)
            session_turn(clone, slug, key, 2, LINE, converged=True, wait=True)
        except BaseException as exc:  # handed to the test's thread
            failures.append(exc)

    threads = [threading.Thread(target=session, args=(m, s)) for m, s in zip(machines, "abc")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=90)
    outputs = [w.communicate(timeout=90) for w in watchers]
    assert not failures, failures
    assert [w.returncode for w in watchers] == [0, 0, 0], outputs
    turns = {f"turn-{n}-{s}.md" for n in (1, 2) for s in "abc"}
    verdicts = set()
    for clone in machines:
        synced(cli, clone)  # a watcher that ended first may not have the others' last push yet
        assert turns <= set(os.listdir(clone / "d"))
        status = cli("status", str(clone / "d"), "--json").json()
        verdicts.add((status["verdict"]["state"], status["verdict"]["turn"]))
        assert validated(cli, clone) == 0
        assert git(clone, "status", "--porcelain", "--", "d") == ""
        tracked = git(clone, "ls-files", "d").splitlines()
        assert not [p for p in tracked if p.startswith(("d/.multidebate/cache/", "d/.multidebate/served/"))]
        assert "d/.multidebate/.gitignore" in tracked
        assert "d/.multidebate/keys/a.json" in tracked
    assert verdicts == {("converged", 2)}
    heads = {git(m, "rev-parse", "HEAD") for m in machines}
    assert len(heads) == 1
    log = git(first, "log", "--format=%an %s", "origin/main")
    assert all(line.endswith(("multidebate sync", "first")) for line in log.splitlines())


def _debate_in(cli: Cli, first: Path, roster: str = "a,b,c") -> None:
    init = cli("init", str(first / "d"), "--task", "Pick a config format.", "--participants", roster)
    assert init.code == 0
    synced(cli, first)


def test_a_slug_claimed_on_two_machines_belongs_to_the_first_push_and_the_loser_keeps_its_files(cli: Cli,
                                                                                                tmp_path: Path) -> None:
    one, two, three = clones(tmp_path)
    assert cli("init", str(one / "d"), "--task", "Pick a config format.").code == 0
    synced(cli, one)  # no roster: slugs are free
    synced(cli, two)
    turn(one, "s", "**Use TOML.**")
    turn(two, "s", "**Use YAML.**")
    # both push at once (two processes, let go together): whichever lands first owns `s`
    barrier = threading.Barrier(2)
    results: dict[str, subprocess.CompletedProcess[str]] = {}

    def run(name: str, clone: Path) -> None:
        barrier.wait(timeout=30)
        results[name] = sync(clone)

    threads = [threading.Thread(target=run, args=(n, c)) for n, c in (("one", one), ("two", two))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert {r.returncode for r in results.values()} == {0}, results
    lost = [name for name, r in results.items() if "Slug race lost" in r.stderr]
    assert len(lost) == 1, {n: r.stderr for n, r in results.items()}
    loser, winner = (two, one) if lost == ["two"] else (one, two)
    lost_answer, won_answer = ("Use YAML", "Use TOML") if loser == two else ("Use TOML", "Use YAML")
    assert "the slug is taken" in results[lost[0]].stderr
    assert "`s-b` (free)" in results[lost[0]].stderr
    # the loser's session is told plainly by its next command, and its turn is kept
    told = cli("next", str(loser / "d"), "--slug", "s", "--key", key_of(str(loser / "d"), "s"))
    assert told.code == 1
    assert "`s` was claimed on another machine first" in told.err
    assert "Write your turns as `s-b`" in told.err
    kept = list((loser / "d" / ".multidebate" / "sync" / "lost").glob("s-*/turn-1-s.md"))
    assert len(kept) == 1
    assert lost_answer in kept[0].read_text()
    assert won_answer in (loser / "d" / "turn-1-s.md").read_text()
    turn(loser, "s-b", f"**{lost_answer}.**")
    for clone in (loser, winner, three):
        synced(cli, clone)
    for clone in (winner, three, loser):
        assert {"turn-1-s.md", "turn-1-s-b.md"} <= set(os.listdir(clone / "d"))
        assert validated(cli, clone) == 0
        assert not git(clone, "ls-files", "d/.multidebate/sync")
    assert len({git(c, "rev-parse", "HEAD") for c in (one, two, three)}) == 1


def test_a_push_beaten_by_another_machine_is_fetched_merged_and_pushed_again(cli: Cli, tmp_path: Path) -> None:
    one, two, _three = clones(tmp_path)
    _debate_in(cli, one)
    synced(cli, two)
    turn(one, "a")
    turn(two, "b")
    # machine two's push waits in its pre-push hook until machine one has synced: two's push is then rejected
    hook = two / ".git" / "hooks" / "pre-push"
    hook.write_text(f"#!/bin/sh\nif [ ! -e '{tmp_path}/once' ]; then touch '{tmp_path}/once'; cd '{one}' && "
                    f"'{sys.executable}' -m multidebate sync d >/dev/null 2>&1; fi\nexit 0\n")
    hook.chmod(0o755)
    done = cli("sync", str(two / "d"), "--json")
    assert done.code == 0, done
    result = done.json()
    assert result["pushed"] is True
    assert result["attempts"] == 2
    assert "turn-1-a.md" in result["received"]
    synced(cli, one)
    for clone in (one, two):
        assert {"turn-1-a.md", "turn-1-b.md"} <= set(os.listdir(clone / "d"))
    assert git(one, "rev-parse", "HEAD") == git(two, "rev-parse", "HEAD")


def test_a_sync_killed_at_any_step_leaves_a_clone_the_next_sync_repairs(cli: Cli, tmp_path: Path) -> None:
    one, two = clones(tmp_path, 2)
    _debate_in(cli, one, "a,b")
    synced(cli, two)
    for step in range(1, 9):  # after: add, commit, fetch, merge, journal, first file laid in, index, branch, push
        # the lines move every turn: the debate must not end (stalled) before the last step
        turn(one, "a", f"**Use option {step}.**")
        synced(cli, one)  # the remote moves on: two's sync must merge and lay files in
        turn(two, "b", f"**Use option {step + 100}.**")
        killed = sync(two, env={"MULTIDEBATE_SYNC_FAIL_AFTER": str(step)})
        assert killed.returncode == 99, (step, killed.stderr)
        synced(cli, two)
        synced(cli, one)
        for clone in (one, two):
            assert {f"turn-{step}-a.md", f"turn-{step}-b.md"} <= set(os.listdir(clone / "d")), step
            assert git(clone, "status", "--porcelain") == "", step
        assert git(one, "rev-parse", "HEAD") == git(two, "rev-parse", "HEAD") == git(two, "rev-parse", "origin/main")
        assert not (two / ".git" / "multidebate-sync.json").exists()
    assert validated(cli, one) == validated(cli, two) == 0


def test_two_contents_for_one_turn_file_stop_the_sync_and_change_nothing(cli: Cli, tmp_path: Path) -> None:
    one, two = clones(tmp_path, 2)
    _debate_in(cli, one, "a,b")
    assert sync(two).returncode == 0
    key = session_turn(one, "a", None, 1, "**Use TOML.**")
    assert sync(one).returncode == 0
    # the same key on a second machine (copied), which wrote its own turn 1 before syncing: a real conflict
    (two / "d" / ".multidebate" / "keys").mkdir(parents=True, exist_ok=True)
    (two / "d" / ".multidebate" / "keys" / "a.json").write_bytes((one / "d" / ".multidebate" / "keys" / "a.json")
                                                                 .read_bytes())
    git(two, "add", "d/.multidebate/keys/a.json")
    git(two, "commit", "-q", "-m", "multidebate sync", "-m", "Multidebate-Sync: d")
    session_turn(two, "a", key, 1, "**Use YAML.**")
    head = git(two, "rev-parse", "HEAD")
    result = cli("sync", str(two / "d"))
    assert result.code == 4
    assert "d/turn-1-a.md" in result.err
    assert "have two contents" in result.err
    assert "Nothing was changed and nothing is lost" in result.err
    assert "Use YAML" in (two / "d" / "turn-1-a.md").read_text()
    assert git(two, "rev-parse", "HEAD") != git(two, "rev-parse", "origin/main")
    assert git(two, "merge-base", "--is-ancestor", head, "HEAD") == ""  # only its own commit was added
    assert git(one, "rev-parse", "HEAD") == git(one, "rev-parse", "origin/main")


def test_what_sync_cannot_use_is_refused_with_a_clear_message(cli: Cli, tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    result = cli("sync", str(plain))
    assert result.code == 1
    assert "is not inside a git work tree" in result.err

    alone = tmp_path / "alone"
    git(tmp_path, "init", "-q", "-b", "main", str(alone))
    git(alone, "-c", "user.name=t", "-c", "user.email=t@x", "commit", "-q", "--allow-empty", "-m", "first")
    result = cli("sync", str(alone / "d"))
    assert result.code == 1
    assert "the repository has no remote" in result.err

    one, = clones(tmp_path / "c", 1)
    _debate_in(cli, one, "a,b")
    git(one, "checkout", "-q", "--detach")
    result = cli("sync", str(one / "d"), "--json")
    assert result.code == 1
    assert "HEAD is detached" in result.json()["error"]
    git(one, "checkout", "-q", "main")

    session_turn(one, "a", None, 1, LINE)
    (one / "README").write_text("changed by hand\n")
    head = git(one, "rev-parse", "HEAD")
    result = cli("sync", str(one / "d"))
    assert result.code == 1
    assert "the work tree has changes outside the debate folder (README)" in result.err
    assert git(one, "rev-parse", "HEAD") == head
    assert "turn-1-a.md" in os.listdir(one / "d")
    git(one, "checkout", "--", "README")


class _Refuse(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
        self.send_response(401)
        self.send_header("WWW-Authenticate", 'Basic realm="debates"')
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


def test_a_remote_that_refuses_the_credentials_is_exit_5_and_keeps_the_turns(cli: Cli, tmp_path: Path) -> None:
    one, = clones(tmp_path, 1)
    _debate_in(cli, one, "a,b")
    session_turn(one, "a", None, 1, LINE)
    server = http.server.HTTPServer(("127.0.0.1", 0), _Refuse)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        git(one, "remote", "set-url", "origin", f"http://127.0.0.1:{server.server_port}/debates.git")
        result = cli("sync", str(one / "d"))
    finally:
        server.shutdown()
    assert result.code == 5, result
    assert "the remote refused this machine's credentials" in result.err
    assert "turn-1-a.md" in git(one, "show", "--name-only", "--format=", "HEAD")  # committed here, kept


def test_validate_still_finds_a_forged_and_an_edited_turn_after_merges(cli: Cli, tmp_path: Path) -> None:
    one, two = clones(tmp_path, 2)
    _debate_in(cli, one, "a,b")
    synced(cli, two)
    turn(one, "a")
    turn(two, "b")
    for clone in (one, two, one):
        synced(cli, clone)
    assert validated(cli, two) == 0
    # machine one hand-writes b's turn 2 (b holds a key): sync shares the new file, validate names it
    (one / "d" / "turn-2-b.md").write_text((one / "d" / "turn-1-b.md").read_text().replace("Turn 1", "Turn 2"))
    # and edits a's turn 1: sync never shares that, a person's git commit does
    (one / "d" / "turn-1-a.md").write_text((one / "d" / "turn-1-a.md").read_text().replace("TOML", "JSON"))
    assert "turn-1-a.md was changed here after it was written" in synced(cli, one)
    git(one, "commit", "-q", "-am", "edit a turn")
    git(one, "push", "-q", "origin", "main")
    synced(cli, two)
    checked = cli("validate", str(two / "d"))
    assert checked.code == 1
    assert "E085" in checked.out
    assert "E080" in checked.out


def test_init_writes_the_gitignore_that_keeps_this_machines_state_out(cli: Cli, tmp_path: Path) -> None:
    folder = tmp_path / "d"
    assert cli("init", str(folder), "--task", "x").code == 0
    ignore = (folder / ".multidebate" / ".gitignore").read_text()
    for entry in ("cache/", "served/", "run/", "sync/", "*.lock"):
        assert entry in ignore.splitlines()


def test_next_wait_sees_peer_files_that_a_plain_git_pull_checks_out(cli: Cli, tmp_path: Path) -> None:
    one, two = clones(tmp_path, 2)
    _debate_in(cli, one, "a,b")
    synced(cli, two)
    turn(one, "a")
    synced(cli, one)  # a's turn 1 is on the remote; two's b, at turn 2, waits for it with `next --wait`
    turn(two, "b")
    waiting = subprocess.Popen([sys.executable, "-m", "multidebate", "next", "d", "--slug", "b", "--key",
                                key_of(str(two / "d"), "b"), "--wait", "--timeout", "60"], cwd=two,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # `next --wait` says whom it waits for once it has waited a second: then git writes the file in place
        assert waiting.stdout is not None
        line = waiting.stdout.readline()
        assert line.startswith("Waiting up to 60 s for a to write turn 1"), line
        git(two, "pull", "-q", "--ff-only", "origin", "main")
        out, err = waiting.communicate(timeout=60)
    finally:
        waiting.kill()
        waiting.wait()
    assert waiting.returncode == 0, err
    assert "a has now written turn 1" in out
    assert "Use TOML for the config" in out


def test_a_sealed_debate_is_refused_before_anything_is_committed(cli: Cli, tmp_path: Path) -> None:
    """Every clone holds every commit: a sealed turn pushed to a remote could be read before it is published."""
    one, = clones(tmp_path, 1)
    md(one, "init", "d", "--task", "Pick one.", "--participants", "a,b", "--sealed")
    head = git(one, "rev-parse", "HEAD")
    result = cli("sync", str(one / "d"))
    assert result.code == 1, result
    assert "is a sealed debate" in result.err
    assert "Run a sealed debate on one machine" in result.err
    assert git(one, "rev-parse", "HEAD") == head  # nothing committed
