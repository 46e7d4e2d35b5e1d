"""`run` against a careless or hostile party and real faults (#33 items 1, 4, 5; #34 items 2, 4).

TASK.md is shared: an edit of its `agents:` must not start a program unseen.  The keys `run` holds are kept out
of the folder's reach, and a turn written with one by anyone else is found.  An agent's child that leaves the
process group and holds stdin, SIGHUP, two runs on one folder, `nan` timeouts.  A failed agent is shown by
`status` and `report`; a missing tool is named before anything starts; a repeated turn is a held position.

Processes are synchronised on files and output lines with generous deadlines, never on sleeps.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import stat
from pathlib import Path

import pytest
from conftest import Cli
from test_run import (
    AGENTS,
    BOUNDS,
    DEADLINE,
    PY,
    _lines_of,
    _multidebate,
    alive,
    fake,
    init,
    prompt_log,
    turn_files,
    wait_until,
)

from multidebate.protocol.errors import TurnConflict
from multidebate.state.private import folder_store
from multidebate.state.runs import (
    held_key,
    held_key_path,
    legacy_key_path,
    read_run_records,
)


def _kill(proc: object) -> None:
    import subprocess

    assert isinstance(proc, subprocess.Popen)
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


# -- #33 item 1: what TASK.md says starts nothing unseen ---------------------------------------------


def test_an_edited_task_md_starts_no_program_without_the_persons_yes(cli: Cli, tmp_path: Path) -> None:
    folder, mark = tmp_path / "d", tmp_path / "ran"
    init(folder, "--agent", f"alpha={fake('agree', 'Use TOML.')}", "--agent", f"beta={fake('agree', 'Use YAML.')}")
    # a session in the folder edits the shared TASK.md: alpha's agent becomes any program
    hostile = fake("payload", str(mark), "Use TOML.")
    task = folder / "TASK.md"
    text = task.read_text()
    recorded = next(line for line in text.splitlines() if line.strip().startswith("alpha:"))
    task.write_text(text.replace(recorded, f"  alpha: {json.dumps(hostile[:])}"))
    refused = cli("run", str(folder), *BOUNDS)
    assert refused.code == 1
    command = shlex.join([PY, str(AGENTS / "payload.py"), str(mark), "Use TOML."])
    assert "TASK.md names agents that your own `multidebate init` did not record for this folder" in refused.err
    assert f"  alpha: {command}" in refused.err  # the whole command line, not `cmd:python3 payload.py`
    assert "run again with --yes" in refused.err
    assert "beta:" not in refused.err  # beta is the person's own
    assert not mark.exists()
    assert turn_files(folder) == []
    # --yes starts it, showing the command line; the person's yes is recorded, so the next run does not ask
    started = cli("run", str(folder), *BOUNDS, "--yes")
    assert started.code == 0, started
    assert f"  alpha: {command}" in started.err
    assert mark.exists()
    assert cli("run", str(folder), *BOUNDS).code == 0


def test_agents_in_a_task_md_no_init_of_yours_recorded_are_refused_in_json_too(cli: Cli, tmp_path: Path) -> None:
    folder, mark = tmp_path / "d", tmp_path / "ran"
    folder.mkdir()
    (folder / "TASK.md").write_text("---\nprotocol: 1\nparticipants: [alpha, beta]\nagents:\n"
                                    f"  alpha: {json.dumps(fake('payload', str(mark), 'x'))}\n"
                                    f"  beta: {json.dumps(fake('payload', str(mark), 'y'))}\n---\nPick a format.\n")
    result = cli("run", str(folder), *BOUNDS, "--json")
    assert result.code == 1
    assert not mark.exists()
    error = json.loads(result.out.splitlines()[-1])
    assert error["ok"] is False
    assert "--yes" in error["error"]
    assert "payload.py" in error["error"]


# -- #33 item 5: the keys run holds are out of the folder's reach; a turn written with one is found --------------


def test_run_keeps_its_keys_in_the_users_private_folder_never_under_the_debate(cli: Cli, tmp_path: Path) -> None:
    folder = tmp_path / "d"
    init(folder, "--max-turns", "2")
    result = cli("run", str(folder), *BOUNDS, "--agent", f"alpha={fake('hold', 'Use TOML.')}", "--agent",
                 f"beta={fake('hold', 'x')}", mixed=True)
    assert result.code == 0, result.out
    keys = [Path(held_key_path(str(folder), slug)) for slug in ("alpha", "beta")]
    assert all(not str(path).startswith(str(folder)) for path in keys)
    assert all(stat.S_IMODE(path.stat().st_mode) == 0o600 for path in keys)
    assert stat.S_IMODE(Path(folder_store(str(folder))).stat().st_mode) == 0o700
    assert not Path(legacy_key_path(str(folder), "alpha")).exists()
    held = [held_key(str(folder), slug) for slug in ("alpha", "beta")]
    everything = b"".join(p.read_bytes() for p in folder.rglob("*") if p.is_file())
    assert all(key and key.encode() not in everything for key in held)


def test_a_turn_written_with_a_run_agents_key_by_someone_else_is_found(cli: Cli, tmp_path: Path) -> None:
    from helpers import turn_body

    folder = tmp_path / "d"
    init(folder, "--max-turns", "3")
    first = cli("run", str(folder), *BOUNDS, "--agent", f"alpha={fake('agree', 'Use TOML.')}", "--agent",
                f"beta={fake('crash')}")
    assert first.code == 1
    assert turn_files(folder) == ["turn-1-alpha.md"]
    # a session that got hold of alpha's key writes alpha's turn 2 (a pre-approved `write`)
    key = held_key(str(folder), "alpha")
    assert key is not None
    forged = cli("write", str(folder), "--slug", "alpha", "--key", key,
                 input=turn_body(2, "**Use TOML.**", converged=True), mixed=True)
    assert forged.code == 0, forged.out
    again = cli("run", str(folder), *BOUNDS, "--agent", f"alpha={fake('agree', 'Use TOML.')}", "--agent",
                f"beta={fake('agree', 'x')}")
    assert again.code == 1
    assert ("Error: turn-2-alpha.md was written as `alpha` but not by `run`, which drives `alpha` and holds its key"
            in again.err)
    assert turn_files(folder) == ["turn-1-alpha.md", "turn-2-alpha.md"]  # nothing more was started


def test_a_key_an_older_run_kept_under_the_folder_is_moved_out(cli: Cli, tmp_path: Path) -> None:
    from helpers import turn_body

    folder = tmp_path / "d"
    init(folder, "--max-turns", "2")
    written = cli("write", str(folder), "--slug", "alpha", input=turn_body(1, "**Use TOML.**"), mixed=True)
    key = written.out.split("Your key for `alpha` is ", 1)[1].split(":", 1)[0]
    legacy = Path(legacy_key_path(str(folder), "alpha"))
    legacy.parent.mkdir(parents=True)
    legacy.write_text(key + "\n")
    result = cli("run", str(folder), *BOUNDS, "--agent", f"alpha={fake('hold', 'Use TOML.')}", "--agent",
                 f"beta={fake('hold', 'x')}", mixed=True)
    assert result.code == 0, result.out
    assert not legacy.exists()
    assert held_key(str(folder), "alpha") == key


# -- #33 item 4: real faults -----------------------------------------------------------------------------


def _escaped(where: Path) -> list[int]:
    return [int(p.read_text()) for p in where.glob("escaped.*")]


def _reap_escaped(where: Path) -> None:
    """After a failed test: kill the escape fakes and their children, leaving no orphan behind the suite."""
    leaders = [int(p.name.split(".")[1]) for p in where.glob("escaped.*")]
    for pid in _escaped(where) + leaders:
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
            if b"SIG_IGN" in command or b"escape.py" in command:
                os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def test_a_child_that_left_the_group_and_holds_a_big_prompts_stdin_neither_hangs_run_nor_outlives_it(
        cli: Cli, tmp_path: Path) -> None:
    folder, where = tmp_path / "d", tmp_path / "pids"
    where.mkdir()
    # a task over the pipe's 64 KiB: the prompt's write blocks while nobody reads it
    cli("init", str(folder), "--task", "Pick a config format. " + "Context. " * 10_000, "--participants", "alpha,beta")
    proc = _multidebate("run", str(folder), "--turn-timeout", "3", "--agent", f"alpha={fake('agree', 'Use TOML.')}",
                        "--agent", f"beta={fake('escape', str(where))}", cwd=tmp_path)
    try:
        out, _ = proc.communicate(timeout=DEADLINE)  # a hang fails here instead of stopping the suite
        assert proc.returncode == 1, out
        assert "beta failed turn 1: escape.py: stopped: turn timeout (3 s)" in out
        assert "exit status" not in out  # #34: never our own SIGTERM's status as what the agent said
        escaped = _escaped(where)
        assert len(escaped) == 1
        wait_until(lambda: not alive(escaped[0]), "the child that left the group to die")
    finally:
        _kill(proc)
        _reap_escaped(where)


def test_sighup_stops_run_and_every_agent_as_ctrl_c_does(tmp_path: Path) -> None:
    folder, where = tmp_path / "d", tmp_path / "pids"
    where.mkdir()
    init(folder)
    proc = _multidebate("run", str(folder), "--json", "--agent", f"alpha={fake('escape', str(where))}",
                        "--agent", f"beta={fake('escape', str(where))}", cwd=tmp_path)
    try:
        wait_until(lambda: len(_escaped(where)) == 2, "both agents to start a child outside their group")
        pids = _escaped(where) + [int(p.name.split(".")[1]) for p in where.glob("escaped.*")]
        assert all(alive(pid) for pid in pids)
        proc.send_signal(signal.SIGHUP)
        out, _ = proc.communicate(timeout=DEADLINE)
        assert proc.returncode == 130, out
        # #34: --json says how it ended, in a line of its own
        last = json.loads([line for line in out.splitlines() if line.startswith("{")][-1])
        assert last["event"] == "interrupted"
        assert "every agent was stopped" in last["message"]
        wait_until(lambda: not any(alive(pid) for pid in pids),
                   f"every agent and escaped child to die: {[(p, _state(p)) for p in pids]}")
    finally:
        _kill(proc)
        _reap_escaped(where)
    assert turn_files(folder) == []


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text()[:80]
    except OSError:
        return "gone"


def test_one_run_per_folder(cli: Cli, tmp_path: Path) -> None:
    folder, where = tmp_path / "d", tmp_path / "pids"
    where.mkdir()
    init(folder)
    proc = _multidebate("run", str(folder), "--agent", f"alpha={fake('escape', str(where))}",
                        "--agent", f"beta={fake('escape', str(where))}", cwd=tmp_path)
    try:
        lines = _lines_of(proc)
        wait_until(lambda: len(_escaped(where)) == 2, "both agents of the first run to start")
        second = cli("run", str(folder), *BOUNDS, "--agent", f"alpha={fake('agree', 'Use TOML.')}", "--agent",
                     f"beta={fake('agree', 'x')}")
        assert second.code == 1
        assert f"Error: another `multidebate run` is driving {folder} (pid {proc.pid}): one run per folder" \
            in second.err
        assert turn_files(folder) == []
        proc.send_signal(signal.SIGINT)  # the first run stops its agents itself
        assert proc.wait(DEADLINE) == 130
        while lines.get(timeout=DEADLINE) != "":
            pass  # its output read to the end: the reader thread is done
    finally:
        _kill(proc)
        _reap_escaped(where)


def test_write_refuses_a_turn_that_is_no_longer_the_one_briefed(tmp_path: Path) -> None:
    from helpers import turn_body

    from multidebate.turns.write import write_turn

    folder = tmp_path / "d"
    init(folder)
    first = write_turn(str(folder), "alpha", turn_body(1, "**Use TOML.**").encode(), expect_turn=1)
    with pytest.raises(TurnConflict, match="`alpha` was briefed for turn 1, but its next turn is now 2"):
        write_turn(str(folder), "alpha", turn_body(1, "**Use YAML.**").encode(), first.key, expect_turn=1)
    assert turn_files(folder) == ["turn-1-alpha.md"]


@pytest.mark.parametrize("option", ["--turn-timeout", "--idle-timeout", "--wait-timeout"])
@pytest.mark.parametrize("value", ["nan", "inf"])
def test_a_timeout_that_is_no_finite_number_is_refused(cli: Cli, tmp_path: Path, option: str, value: str) -> None:
    result = cli("run", str(tmp_path), option, value, "--agent", "a=claude", mixed=True)
    assert result.code == 2
    assert f"Invalid value for '{option}': {float(value)} is no number of seconds: give a finite number" \
        in result.out


# -- #34 item 2: a failed agent in status and report ---------------------------------------------------


def test_a_failed_agent_is_shown_by_status_and_report_with_what_to_do(cli: Cli, tmp_path: Path) -> None:
    folder = tmp_path / "d"
    init(folder)
    failed = cli("run", str(folder), *BOUNDS, "--agent", f"alpha={fake('agree', 'Use TOML.')}", "--agent",
                 f"beta={fake('garbage')}")
    assert failed.code == 1
    text = cli("status", str(folder)).out
    assert ("run failed: beta's agent (cmd:python3 garbage.py) failed turn 1 under `multidebate run`: `write` "
            "refused its reply 3 times; last: nothing written") in text.replace(f"cmd:{os.path.basename(PY)} ",
                                                                                "cmd:python3 ")
    assert "what to do: Fix beta's agent (the reason is above" in text
    assert f"then run `multidebate run {folder}` again: it resumes at the failed turn." in text
    assert "dropped out" not in text
    assert "next turn" not in text
    from test_schemas import check

    data = cli("status", str(folder), "--json").json()
    check("status", data)
    assert [(f["slug"], f["turn"]) for f in data["run_failures"]] == [("beta", 1)]
    assert data["run_failures"][0]["reason"].startswith("`write` refused its reply 3 times")
    assert data["advice"].startswith("Fix beta's agent")
    report = cli("report", str(folder)).out
    assert "**Run failed:** beta's agent" in report
    assert "multidebate run" in report
    as_json = cli("report", str(folder), "--format", "json").json()
    check("report", as_json)
    assert as_json["run_failures"][0]["slug"] == "beta"
    # fixed and run again: the failure no longer stands
    again = cli("run", str(folder), *BOUNDS, "--agent", f"alpha={fake('agree', 'Use TOML.')}", "--agent",
                f"beta={fake('agree', 'x')}", mixed=True)
    assert again.code == 0, again.out
    assert cli("status", str(folder), "--json").json()["run_failures"] == []


# -- #34 item 4: missing and repeating agents -------------------------------------------------------------


def test_a_preset_whose_tool_is_not_on_path_is_named_before_anything_starts(
        cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "d"
    init(folder)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    result = cli("run", str(folder), *BOUNDS, "--agent", "alpha=claude:opus", "--agent", f"beta={fake('agree', 'x')}")
    assert result.code == 1
    assert ("Error: Claude Code (`claude`, for alpha) is not on PATH: install it (npm install -g "
            "@anthropic-ai/claude-code) and check with `multidebate doctor`, or give alpha a custom agent: "
            "--agent alpha='cmd:COMMAND LINE'") in result.err
    assert turn_files(folder) == []  # beta was not started either


def test_an_agent_that_repeats_its_turn_word_for_word_holds_its_position(cli: Cli, tmp_path: Path) -> None:
    folder = tmp_path / "d"
    init(folder, "--max-turns", "4")
    result = cli("run", str(folder), *BOUNDS, "--agent", f"alpha={fake('same', 'Use TOML.')}", "--agent",
                 f"beta={fake('hold', 'Use YAML.')}", mixed=True)
    assert result.code == 0, result.out
    assert "retrying" not in result.out
    assert re_body(folder / "turn-3-alpha.md") == re_body(folder / "turn-2-alpha.md")
    assert "Verdict: stalled" in result.out or "Verdict: max_turns" in result.out


def re_body(path: Path) -> str:
    return path.read_text().split("\n## ", 1)[1]


def test_a_refusal_fed_back_to_an_agent_tells_it_to_run_no_command() -> None:
    from multidebate.run.prompt import retry_prompt

    refusal = ("the critics have not all written round 2 yet (waiting for c); the defender answers a round once it "
               "is complete: run `multidebate next d --slug x --wait`, then write")
    asked = retry_prompt("PROMPT", "reply", refusal, ["line 3: run `multidebate next` for turn 2"])
    fed = asked.split("PROMPT", 1)[1]
    assert "multidebate next" not in fed
    assert "run `" not in fed
    assert "the defender answers a round once it is complete" in fed


def test_a_custom_agent_is_recorded_by_its_commands_name(cli: Cli, tmp_path: Path) -> None:
    folder = tmp_path / "d"
    init(folder)
    with prompt_log(tmp_path / "log"):
        result = cli("run", str(folder), *BOUNDS, "--agent", f"alpha={fake('agree', 'Use TOML.')}", "--agent",
                     f"beta={fake('agree', 'x')}", mixed=True)
    assert result.code == 0, result.out
    assert {r["tool"] for r in read_run_records(str(folder))} == {"agree.py"}


def test_doctor_probe_with_nothing_to_probe_says_so_and_fails(cli: Cli, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setenv("HOME", str(tmp_path))
    result = cli("doctor", "--probe", mixed=True)
    assert result.code == 1
    assert "Probes:" not in result.out
    assert "Warning: nothing to probe: no agent tool is on PATH and no --agent was given" in result.out
    data = cli("doctor", "--probe", "--json").json()
    assert data["probes"] == []
    assert any(w.startswith("nothing to probe") for w in data["warnings"])


def test_the_prompts_write_stops_when_told_though_nobody_reads_it() -> None:
    """The write of a prompt over the pipe's 64 KiB to a process that never reads it is bounded: `run` tells it
    to stop at the turn's end (before, a process holding stdin outside the group hung `run` for ever)."""
    import subprocess
    import threading

    from multidebate.run.supervise import _feed

    proc = subprocess.Popen([PY, "-c", "import time\nwhile True: time.sleep(1)"], stdin=subprocess.PIPE)
    stop = threading.Event()
    writer = threading.Thread(target=_feed, args=(proc, b"x" * 1024 * 1024, stop))
    try:
        writer.start()
        stop.set()
        writer.join(DEADLINE)
        assert not writer.is_alive()
        assert proc.stdin is not None
        assert proc.stdin.closed
    finally:
        proc.kill()
        proc.wait()
        writer.join(DEADLINE)
