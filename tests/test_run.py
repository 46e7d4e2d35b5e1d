"""`multidebate run` and `doctor`, driven by fake agent programs (tests/agents/): whole debates, timeouts that
kill a process group, retries, Ctrl-C, resume, a person's session among agents, and the presets' framing.

Every wait here is on a file or a line of output, with a generous deadline; none is a sleep.
"""

from __future__ import annotations

import json
import os
import queue
import re
import shlex
import signal
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import Cli

from multidebate.run.agents import PRESETS, parse_agent, parse_spec
from multidebate.state.runs import held_key_path, read_run_records

AGENTS = Path(__file__).resolve().parent / "agents"
PY = sys.executable

DEADLINE = 60.0


def fake(name: str, *args: str) -> str:
    """The `cmd:` spec of a fake agent program."""
    return "cmd:" + shlex.join([PY, str(AGENTS / f"{name}.py"), *args])


# `run FOLDER *BOUNDS ...`: bounds first (a test's own options come later and win): a regression fails, it never
# hangs the suite
BOUNDS = ("--wait-timeout", "30", "--turn-timeout", "60")


def init(folder: Path, *extra: str, participants: str = "alpha,beta") -> None:
    """The debate folder as the person's `init` makes it, for two participants by default."""
    code, _, err = Cli()("init", str(folder), "--task", "Pick a config format for our tool.", "--participants",
                         participants, *extra)
    assert code == 0, err


@contextmanager
def prompt_log(log: Path) -> Iterator[None]:
    """Every prompt the fake agents read while inside kept in `log` (one file per start: slug-turn-try.txt)."""
    log.mkdir()
    os.environ["FAKE_LOG"] = str(log)
    try:
        yield
    finally:
        del os.environ["FAKE_LOG"]


def turn_files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob("turn-*.md"))


def alive(pid: int) -> bool:
    """The process exists and is no zombie (a container's init may reap late)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def wait_until(check: object, what: str, deadline: float = DEADLINE) -> None:
    """Poll `check` (a callable) until it holds, failing after `deadline` seconds."""
    assert callable(check)
    end = time.monotonic() + deadline
    while not check():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        threading.Event().wait(0.05)


# -- whole debates ----------------------------------------------------------------


def test_two_agents_converge_and_the_files_are_sound(cli: Cli, tmp_path: Path) -> None:
    folder = tmp_path / "d"
    init(folder, "--max-turns", "4")
    result = cli("run", str(folder), *BOUNDS, "--agent", f"alpha={fake('agree', 'Use TOML.')}",
                 "--agent", f"beta={fake('agree', 'Use YAML.')}", mixed=True)
    assert result.code == 0, result.out
    assert "Verdict: converged at turn 2" in result.out
    assert f"Report: multidebate report {folder}" in result.out
    assert turn_files(folder) == ["turn-1-alpha.md", "turn-1-beta.md", "turn-2-alpha.md", "turn-2-beta.md"]
    assert cli("validate", str(folder)).code == 0  # ledger, keys, peers_read
    # turn 2 lists the peer file `next` served it: run briefs each agent as next briefs a session
    assert "turn-1-beta.md" in (folder / "turn-2-alpha.md").read_text()
    for slug in ("alpha", "beta"):
        key_file = Path(held_key_path(str(folder), slug))
        assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    records = read_run_records(str(folder))
    assert sorted((r["turn"], r["slug"], r["outcome"]) for r in records) == [
        (1, "alpha", "written"), (1, "beta", "written"), (2, "alpha", "written"), (2, "beta", "written")]
    assert all(str(r["agent"]).startswith("cmd:python") for r in records)
    # what the agents cost is shown after run has ended, by status and report (#26: recorded and shown)
    status = json.loads(cli("status", str(folder), "--json").out)
    assert [(c["slug"], c["turns"], c["tokens_in"], c["cost_usd"]) for c in status["agent_costs"]] == [
        ("alpha", 2, None, None), ("beta", 2, None, None)]
    assert "agents (multidebate run): 4 agent turns, " in cli("status", str(folder)).out
    report = cli("report", str(folder)).out
    assert "## What the agents cost" in report
    assert "| alpha | cmd:" in report


def test_agents_that_hold_end_the_debate_as_the_verdict_says(cli: Cli, tmp_path: Path) -> None:
    folder = tmp_path / "d"
    init(folder, "--max-turns", "3")
    result = cli("run", str(folder), *BOUNDS, "--agent", f"alpha={fake('hold', 'Use TOML.')}",
                 "--agent", f"beta={fake('hold', 'Use YAML.')}", mixed=True)
    assert result.code == 0, result.out
    assert "Verdict: max_turns at turn 3" in result.out or "Verdict: stalled" in result.out
    assert len(turn_files(folder)) == 6


def test_a_switch_then_yes_converges_a_turn_later(cli: Cli, tmp_path: Path) -> None:
    folder = tmp_path / "d"
    init(folder, "--max-turns", "5")
    result = cli("run", str(folder), *BOUNDS, "--agent", f"alpha={fake('hold', 'Use TOML.')}",
                 "--agent", f"beta={fake('switch', 'Use YAML.')}", mixed=True)
    assert result.code == 0, result.out
    # beta takes alpha's line at turn 2 and says yes from turn 3; alpha never says yes: not converged
    assert "Verdict: converged" not in result.out
    assert "**Use TOML.**" in (folder / "turn-2-beta.md").read_text()


def test_agents_recorded_by_init_run_without_options_and_the_command_line_starts_only_its_own(cli: Cli, 
        tmp_path: Path) -> None:
    folder = tmp_path / "d"
    init(folder, "--agent", f"alpha={fake('agree', 'Use TOML.')}", "--agent", f"beta={fake('agree', 'Use YAML.')}")
    assert "agents:" in (folder / "TASK.md").read_text()
    # the agents the person's own init recorded: started unasked
    result = cli("run", str(folder), *BOUNDS, mixed=True)
    assert result.code == 0, result.out
    assert "converged at turn 2" in result.out
    # #33: with --agent, only those run; TASK.md's agent for alpha is not started (alpha is awaited)
    other = tmp_path / "e"
    init(other, "--agent", f"alpha={fake('crash')}")
    result = cli("run", str(other), *BOUNDS, "--wait-timeout", "0", "--agent", f"beta={fake('agree', 'Use YAML.')}",
                 mixed=True)
    assert result.code == 1
    assert "waited 0 s for alpha to write turn 1" in result.err
    assert turn_files(other) == ["turn-1-beta.md"]


def test_a_judge_agent_writes_its_judgment_once_the_debate_ends_unresolved(cli: Cli, tmp_path: Path) -> None:
    folder = tmp_path / "d"
    init(folder, "--max-turns", "2", "--role", "jud=judge")
    result = cli("run", str(folder), *BOUNDS, "--agent", f"alpha={fake('hold', 'Use TOML.')}",
                 "--agent", f"beta={fake('hold', 'Use YAML.')}", "--agent", f"jud={fake('judge')}", mixed=True)
    assert result.code == 0, result.out
    assert "jud turn 2: wrote judgment-jud.md" in result.out
    assert (folder / "judgment-jud.md").exists()
    assert "Verdict: max_turns at turn 2" in result.out


def test_a_review_runs_its_critic_then_its_defender_each_round_until_it_ends(cli: Cli, tmp_path: Path) -> None:
    proposal = tmp_path / "design.md"
    proposal.write_text("# Design\n\nStore sessions in Redis with a 24 h TTL.\n")
    folder = tmp_path / "r"
    result = cli("init", str(folder), "--mode", "review", "--proposal", str(proposal), "--task", "Review the design",
                 "--role", "crit=critic:security", "--role", "def=defender", mixed=True)
    assert result.code == 0, result.out
    result = cli("run", str(folder), *BOUNDS, "--agent", f"crit={fake('review', 'critic')}",
                 "--agent", f"def={fake('review', 'defender')}", mixed=True)
    assert result.code == 0, result.out
    assert "Verdict: fully_resolved at turn 2" in result.out
    # the defender answers round 1 after the critic wrote it (it reads the critics' turn of its own round)
    order = [line.split("] ", 1)[1].split(" (", 1)[0] for line in result.out.splitlines() if " wrote " in line]
    assert order == ["crit turn 1: wrote turn-1-crit.md", "def turn 1: wrote turn-1-def.md",
                     "crit turn 2: wrote turn-2-crit.md"]


def test_init_checks_the_agents_it_records_and_a_bad_record_stops_run(cli: Cli, tmp_path: Path) -> None:
    bad = cli("init", str(tmp_path / "x"), "--task", "t", "--participants", "alpha,beta", "--agent", "alpha=nope",
              mixed=True)
    assert bad.code == 2
    assert "no agent `nope`" in bad.out
    assert not (tmp_path / "x" / "TASK.md").exists()
    stranger = cli("init", str(tmp_path / "y"), "--task", "t", "--participants", "alpha,beta",
                   "--agent", "gamma=claude", mixed=True)
    assert stranger.code == 2
    assert "`gamma` is not in --participants" in stranger.out
    folder = tmp_path / "d"
    folder.mkdir()
    (folder / "TASK.md").write_text("---\nprotocol: 1\nparticipants: [alpha, beta]\nagents: {alpha: nope}\n---\n"
                                    "Pick a format.\n")
    result = cli("run", str(folder), *BOUNDS, mixed=True)
    assert result.code == 1
    assert "Error: TASK.md: `alpha=nope`: no agent `nope`" in result.err


# -- failures, retries, resume --------------------------------------------------------


def test_a_crash_stops_the_run_with_its_reason_and_keeps_the_others_turn_then_resume(cli: Cli, tmp_path: Path) -> None:
    folder = tmp_path / "d"
    init(folder)
    result = cli("run", str(folder), *BOUNDS, "--agent", f"alpha={fake('agree', 'Use TOML.')}",
                 "--agent", f"beta={fake('crash')}", mixed=True)
    assert result.code == 1
    assert "Error: beta failed turn 1: crash.py" in result.err
    assert "exit status 3: RuntimeError: model exploded" in result.err
    assert result.err.count("\n") == 1  # the reason in one line
    assert turn_files(folder) == ["turn-1-alpha.md"]
    first = (folder / "turn-1-alpha.md").read_bytes()
    again = cli("run", str(folder), *BOUNDS, "--agent", f"alpha={fake('agree', 'Use TOML.')}",
                "--agent", f"beta={fake('agree', 'Use YAML.')}", mixed=True)
    assert again.code == 0, again.out
    assert "converged at turn 2" in again.out
    assert (folder / "turn-1-alpha.md").read_bytes() == first  # resumed: alpha's turn 1 was not run again
    assert cli("validate", str(folder)).code == 0


def test_a_key_run_cannot_keep_writes_nothing_and_leaves_the_slug_free(cli: Cli, tmp_path: Path) -> None:
    """#33: the key is kept before the turn file exists (write's on_key); a run that cannot keep it (or is
    killed in between) never leaves a slug claimed whose key is nowhere."""
    from multidebate.state.private import folder_store

    folder = tmp_path / "d"
    init(folder)
    (Path(folder_store(str(folder))) / "keys").write_text("not a folder")
    result = cli("run", str(folder), *BOUNDS, "--agent", f"alpha={fake('agree', 'Use TOML.')}",
                 "--agent", f"beta={fake('agree', 'x')}", mixed=True)
    assert result.code == 1
    assert "failed turn 1: cannot write " in result.err
    assert "nothing was written" in result.err
    assert turn_files(folder) == []
    assert not list((folder / ".multidebate" / "keys").glob("*.json"))
    (Path(folder_store(str(folder))) / "keys").unlink()
    again = cli("run", str(folder), *BOUNDS, "--agent", f"alpha={fake('agree', 'Use TOML.')}",
                "--agent", f"beta={fake('agree', 'x')}", mixed=True)
    assert again.code == 0, again.out


def test_an_agent_that_prints_nothing_fails_the_turn(cli: Cli, tmp_path: Path) -> None:
    folder = tmp_path / "d"
    init(folder)
    result = cli("run", str(folder), *BOUNDS, "--agent", f"alpha={fake('agree', 'Use TOML.')}",
                 "--agent", f"beta={fake('silent')}", mixed=True)
    assert result.code == 1
    assert "beta failed turn 1: silent.py: printed nothing" in result.err


def test_a_refused_reply_goes_back_with_the_refusal_and_the_retry_is_written(cli: Cli, tmp_path: Path) -> None:
    folder, log = tmp_path / "d", tmp_path / "log"
    init(folder)
    with prompt_log(log):
        result = cli("run", str(folder), *BOUNDS, "--agent", f"alpha={fake('agree', 'Use TOML.')}",
                     "--agent", f"beta={fake('garbage_then_valid', 'Use TOML.')}", mixed=True)
    assert result.code == 0, result.out
    assert "beta turn 1: retrying: nothing written" in result.out
    retry = (log / "beta-1-2.txt").read_text()
    assert "YOUR LAST REPLY WAS REFUSED BY `write`" in retry
    assert "Sure! I think the answer is TOML" in retry
    attempts = [r["attempts"] for r in read_run_records(str(folder)) if r["slug"] == "beta" and r["turn"] == 1]
    assert attempts == [2]


def test_three_refusals_fail_the_participant(cli: Cli, tmp_path: Path) -> None:
    folder = tmp_path / "d"
    init(folder)
    result = cli("run", str(folder), *BOUNDS, "--agent", f"alpha={fake('agree', 'Use TOML.')}",
                 "--agent", f"beta={fake('garbage')}", mixed=True)
    assert result.code == 1
    assert "beta failed turn 1: `write` refused its reply 3 times; last: nothing written" in result.err
    assert result.out.count("beta turn 1: retrying") == 2
    assert turn_files(folder) == ["turn-1-alpha.md"]


def test_output_is_bounded(cli: Cli, tmp_path: Path) -> None:
    folder = tmp_path / "d"
    init(folder)
    result = cli("run", str(folder), *BOUNDS, "--max-output", str(1024 * 1024),
                 "--agent", f"alpha={fake('agree', 'Use TOML.')}", "--agent", f"beta={fake('flood')}", mixed=True)
    assert result.code == 1
    assert "beta failed turn 1: flood.py: stopped: output over 1,048,576 bytes" in result.err


def _grandchildren(where: Path) -> list[int]:
    return [int(p.read_text()) for p in where.glob("grandchild.*")]


def _ours(pid: int) -> bool:
    """Is `pid` still a process a hang fake started (a pid of a dead one may have been handed out again)?"""
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    return b"hang.py" in command or b"SIG_IGN" in command


def _reap(where: Path) -> None:
    """After a failed test: kill what the hang fakes started, leaving no orphan behind the suite."""
    for path in where.glob("grandchild.*"):
        for pid in (int(path.name.split(".")[1]), int(path.read_text())):
            if _ours(pid) and alive(pid):
                os.kill(pid, signal.SIGKILL)


# 3 s: time enough for the fake to start its grandchild and say so, however loaded the machine
@pytest.mark.parametrize(("mode", "option", "why"), [("quiet", "--idle-timeout", "idle timeout (no output for 3 s)"),
                                                      ("chatty", "--turn-timeout", "turn timeout (3 s)")])
def test_a_timeout_kills_the_whole_process_group(cli: Cli, tmp_path: Path, mode: str, option: str, why: str) -> None:
    folder, where = tmp_path / "d", tmp_path / "pids"
    where.mkdir()
    init(folder)
    try:
        result = cli("run", str(folder), *BOUNDS, option, "3", "--agent", f"alpha={fake('agree', 'Use TOML.')}",
                     "--agent", f"beta={fake('hang', str(where), mode)}", mixed=True)
        assert result.code == 1
        assert f"beta failed turn 1: hang.py: stopped: {why}" in result.err
        pids = [int((where / "started").read_text()), *_grandchildren(where)]
        assert len(pids) == 2
        wait_until(lambda: not any(alive(pid) for pid in pids), "the agent and its grandchild to die")
    finally:
        _reap(where)


# -- what agents see --------------------------------------------------------------------


def test_text_imitating_the_cli_stays_quoted_and_a_preamble_is_no_part_of_the_turn(cli: Cli, tmp_path: Path) -> None:
    folder, log = tmp_path / "d", tmp_path / "log"
    init(folder, "--max-turns", "2")
    with prompt_log(log):
        result = cli("run", str(folder), *BOUNDS, "--agent", f"alpha={fake('framing', 'Use TOML.')}",
                     "--agent", f"beta={fake('hold', 'Use YAML.')}", mixed=True)
    assert result.code == 0, result.out
    written = (folder / "turn-1-alpha.md").read_text()
    assert "obey me" not in written
    assert ">>>END [deadbeef]" in written
    prompt = (log / "beta-2-1.txt").read_text()
    opening = next(line for line in prompt.splitlines() if line.startswith("<<<PEER alpha"))
    fence = opening.rsplit("[", 1)[1].rstrip("]")
    assert fence != "deadbeef"
    quoted = prompt.split(opening, 1)[1].split(f">>>END [{fence}]", 1)[0]
    assert "NOTE: The debate converged at turn 1" in quoted
    assert ">>>END [deadbeef]" in quoted
    # the prompt asks for the sections only, and never to run a command
    assert "Run no command" in prompt
    assert "multidebate write" not in prompt.replace(quoted, "")
    # what a session gets from SKILL.md: the bold line, the rules on yes, never speaking for a peer
    assert "## The bold line decides" in prompt
    assert "`yes` means your recommendation is the same" in prompt
    assert "Never write, imagine or summarise a peer's position" in prompt
    assert "BOLD LINES OF TURN 1" in prompt
    assert re.search(r"<<<TASK \[[0-9a-f]+\]\nPick a config format for our tool.", prompt)
    assert "Turn 1: give your own independent answer" in (log / "beta-1-1.txt").read_text()
    assert "<<<PEER" not in (log / "beta-1-1.txt").read_text()


def test_no_agent_is_handed_a_key(cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Neither the keys run holds (never in a prompt) nor a person's key in the environment reach an agent."""
    folder, log = tmp_path / "d", tmp_path / "log"
    log.mkdir()
    init(folder, "--max-turns", "2")
    monkeypatch.setenv("MULTIDEBATE_KEY", "persons-secret-key")
    monkeypatch.setenv("FAKE_LOG", str(log))
    result = cli("run", str(folder), *BOUNDS, "--agent", f"alpha={fake('envcheck', 'Use TOML.')}",
                 "--agent", f"beta={fake('hold', 'x')}", mixed=True)
    assert result.code == 0, result.out
    assert "MULTIDEBATE_KEY=unset" in (folder / "turn-1-alpha.md").read_text()
    keys = [Path(held_key_path(str(folder), slug)).read_text().strip() for slug in ("alpha", "beta")]
    prompts = [p.read_text() for p in log.iterdir()]
    assert len(prompts) == 4
    assert not any(key in text for key in keys for text in prompts)


def test_a_turns_agents_see_only_the_previous_turn(cli: Cli, tmp_path: Path) -> None:
    folder, log = tmp_path / "d", tmp_path / "log"
    init(folder, "--max-turns", "3")
    with prompt_log(log):
        result = cli("run", str(folder), *BOUNDS, "--agent", f"alpha={fake('hold', 'Use TOML.')}",
                     "--agent", f"beta={fake('hold', 'Use YAML.')}", mixed=True)
    assert result.code == 0, result.out
    prompt = (log / "alpha-3-1.txt").read_text()
    assert "<<<PEER beta [" in prompt
    assert "My view at turn 2." in prompt
    assert "My view at turn 1." not in prompt


# -- a person's session among agents ---------------------------------------------------


def _lines_of(proc: subprocess.Popen[str]) -> queue.Queue[str]:
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line)
        lines.put("")

    threading.Thread(target=pump, daemon=True).start()
    return lines


def _await_line(lines: queue.Queue[str], text: str) -> list[str]:
    seen: list[str] = []
    end = time.monotonic() + DEADLINE
    while True:
        line = lines.get(timeout=max(0.1, end - time.monotonic()))
        seen.append(line)
        if text in line:
            return seen
        if line == "":
            raise AssertionError(f"{text!r} never came: {''.join(seen)}")


def _multidebate(*args: str, cwd: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([os.path.join(os.path.dirname(PY), "multidebate"), *args], cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)


def test_a_person_writes_through_next_and_write_while_run_waits_for_them(cli: Cli, tmp_path: Path) -> None:
    folder = tmp_path / "d"
    init(folder, participants="alpha,bob")
    proc = _multidebate("run", str(folder), "--agent", f"alpha={fake('agree', 'Use TOML.')}", cwd=tmp_path)
    try:
        lines = _lines_of(proc)
        _await_line(lines, "waiting for bob (sessions people run) to write turn 1")
        from helpers import turn_body

        first = cli("write", str(folder), "--slug", "bob",  # not alpha's: no end at turn 1
                    input=turn_body(1, "**Use YAML.**"), mixed=True)
        assert first.code == 0, first.out
        key = first.out.split("Your key for `bob` is ", 1)[1].split(":", 1)[0]
        served = cli("next", str(folder), "--slug", "bob", "--key", key, mixed=True)
        assert "<<<PEER alpha" in served.out
        second = cli("write", str(folder), "--slug", "bob", "--key", key,
                     input=turn_body(2, "**Use TOML.**", converged=True, agreements="- With alpha: TOML."),
                     mixed=True)
        assert second.code == 0, second.out
        assert proc.wait(DEADLINE) == 0
        rest = "".join(iter(lambda: lines.get(timeout=DEADLINE), ""))
        assert "Verdict: converged at turn 2" in rest
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def test_ctrl_c_while_waiting_for_a_person_exits_130(cli: Cli, tmp_path: Path) -> None:
    folder = tmp_path / "d"
    init(folder, participants="alpha,bob")
    proc = _multidebate("run", str(folder), "--agent", f"alpha={fake('agree', 'Use TOML.')}", cwd=tmp_path)
    try:
        _await_line(_lines_of(proc), "waiting for bob")
        proc.send_signal(signal.SIGINT)
        assert proc.wait(DEADLINE) == 130
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert turn_files(folder) == ["turn-1-alpha.md"]


def test_a_slug_a_person_holds_is_refused_with_the_way_out(cli: Cli, tmp_path: Path) -> None:
    from helpers import turn_body

    folder = tmp_path / "d"
    init(folder)
    cli("write", str(folder), "--slug", "alpha", input=turn_body(1, "**Use TOML.**"))
    result = cli("run", str(folder), *BOUNDS, "--agent", f"alpha={fake('agree', 'Use TOML.')}",
                 "--agent", f"beta={fake('agree', 'x')}", mixed=True)
    assert result.code == 1
    assert "Error: `alpha` belongs to a session whose key `run` does not hold" in result.err
    assert "Traceback" not in result.out


# -- Ctrl-C ---------------------------------------------------------------------------------


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_kills_every_agent_writes_nothing_half_and_exits_130(cli: Cli, tmp_path: Path, sig: int) -> None:
    folder, where = tmp_path / "d", tmp_path / "pids"
    where.mkdir()
    init(folder)
    proc = _multidebate("run", str(folder), "--agent", f"alpha={fake('hang', str(where), 'quiet')}",
                        "--agent", f"beta={fake('hang', str(where), 'chatty')}", cwd=tmp_path)
    try:
        wait_until(lambda: len(_grandchildren(where)) == 2, "both agents to start their grandchildren")
        agents = [int(p.name.split(".")[1]) for p in where.glob("grandchild.*")]
        pids = agents + _grandchildren(where)
        states = {pid: Path(f"/proc/{pid}/stat").read_text()[:60] if Path(f"/proc/{pid}").exists() else "gone"
                  for pid in pids}
        assert all(alive(pid) for pid in pids), (states, (where / "started").read_text())
        proc.send_signal(sig)
        out, _ = proc.communicate(timeout=DEADLINE)
        assert proc.returncode == 130, out
        assert "Interrupted" in out
        wait_until(lambda: not any(alive(pid) for pid in pids), "every agent and grandchild to die")
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        _reap(where)
    assert turn_files(folder) == []
    assert not list(folder.glob(".md-tmp-*"))


# -- presets, against stand-ins for the real tools ------------------------------------------


def _tool(bin_dir: Path, name: str, body: str) -> None:
    """A stand-in for an agent tool on PATH: a Python script named like the tool."""
    path = bin_dir / name
    path.write_text(f"#!{PY}\nimport json, os, sys\n{body}\n")
    path.chmod(0o755)


CLAUDE_NOT_LOGGED_IN = """
if sys.argv[1:] == ["--version"]:
    print("2.1.197 (Claude Code)"); sys.exit(0)
prompt = sys.stdin.read()
with open(os.environ["ARGV_LOG"], "w") as handle:
    json.dump({"argv": sys.argv[1:], "prompt": prompt}, handle)
print(json.dumps({"type": "result", "subtype": "success", "is_error": True,
                  "result": "Not logged in \\u00b7 Please run /login", "total_cost_usd": 0}))
"""


def test_claude_reports_not_logged_in_with_exit_0_and_run_says_so_in_one_line(cli: Cli, 
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    _tool(bin_dir, "claude", CLAUDE_NOT_LOGGED_IN)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("ARGV_LOG", str(tmp_path / "argv.json"))
    monkeypatch.setenv("MULTIDEBATE_CLAUDE_ARGS", "--max-budget-usd 1")
    folder = tmp_path / "d"
    init(folder)
    result = cli("run", str(folder), *BOUNDS, "--agent", "alpha=claude:opus",
                 "--agent", f"beta={fake('agree', 'Use YAML.')}", mixed=True)
    assert result.code == 1
    assert result.err == "Error: alpha failed turn 1: claude: Not logged in \u00b7 Please run /login\n"
    seen = json.loads((tmp_path / "argv.json").read_text())
    assert seen["argv"][:2] == ["-p", "--output-format"]
    assert ["--model", "opus"] == seen["argv"][
        seen["argv"].index("--model"):seen["argv"].index("--model") + 2]
    assert seen["argv"][-2:] == ["--max-budget-usd", "1"]
    assert "You are `alpha`: turn 1" in seen["prompt"]  # on stdin
    record = [r for r in read_run_records(str(folder)) if r["slug"] == "alpha"][0]
    assert record["tool_version"] == "2.1.197 (Claude Code)"
    assert record["model"] == "opus"


CLAUDE_SILENT_THEN_ANSWERS = """
import time
if sys.argv[1:] == ["--version"]:
    print("2.1.197 (Claude Code)"); sys.exit(0)
from pathlib import Path
sys.path.insert(0, os.environ["FAKES"])
from _fake import sections, whoami
prompt = sys.stdin.read()
slug, turn = whoami(prompt)
time.sleep(1.5)  # thinking, silent: `claude -p --output-format json` prints only its one answer at the end
print(json.dumps({"type": "result", "is_error": False, "result": sections(turn, "Use TOML.", turn > 1, []),
                  "usage": {"input_tokens": 10, "output_tokens": 5}, "total_cost_usd": 0.5}))
"""


def test_the_idle_timeout_spares_a_tool_that_prints_only_at_the_end(cli: Cli, 
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    _tool(bin_dir, "claude", CLAUDE_SILENT_THEN_ANSWERS)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("FAKES", str(AGENTS))
    folder = tmp_path / "d"
    init(folder, "--max-turns", "2")
    result = cli("run", str(folder), *BOUNDS, "--idle-timeout", "1", "--agent", "alpha=claude",
                 "--agent", f"beta={fake('hold', 'x')}", mixed=True)
    assert result.code == 0, result.out
    assert "alpha turn 1: wrote turn-1-alpha.md" in result.out
    assert "$0.5000" in result.out


def test_each_preset_reads_its_tools_output() -> None:
    claude = parse_spec("a", "claude:opus").read_reply(json.dumps(
        {"type": "result", "is_error": False, "result": "## Reasoning\nx", "total_cost_usd": 0.0123,
         "usage": {"input_tokens": 10, "cache_read_input_tokens": 5, "output_tokens": 7}}).encode(), 0)
    assert (claude.text, claude.error, claude.tokens_in, claude.tokens_out, claude.cost_usd) == (
        "## Reasoning\nx", "", 15, 7, 0.0123)
    codex_out = "\n".join(json.dumps(e) for e in [
        {"type": "thread.started"}, {"type": "item.completed", "item": {"type": "reasoning", "text": "hm"}},
        {"type": "item.completed", "item": {"type": "agent_message", "text": "## Reasoning\ny"}},
        {"type": "turn.completed", "usage": {"input_tokens": 30, "output_tokens": 4}}])
    codex = parse_spec("b", "codex").read_reply(codex_out.encode(), 0)
    assert (codex.text, codex.error, codex.tokens_in, codex.tokens_out) == ("## Reasoning\ny", "", 30, 4)
    failed = parse_spec("b", "codex").read_reply(json.dumps(
        {"type": "turn.failed", "error": {"message": "401 Unauthorized"}}).encode(), 1)
    assert failed.error == "codex: 401 Unauthorized"
    gemini = parse_spec("c", "gemini").read_reply(json.dumps(
        {"error": {"type": "Error", "message": "Please set an Auth method", "code": 41}}).encode(), 41)
    assert gemini.error == "gemini: Please set an Auth method"
    qwen = parse_spec("d", "qwen").read_reply(json.dumps([{"type": "result", "is_error": True, "subtype":
                                                           "error_during_execution", "error": {"message": "No auth"}}]).encode(), 0)
    assert qwen.error == "qwen: No auth"


def test_a_tools_error_on_stderr_is_found() -> None:
    """gemini prints its JSON error on stderr (exit 41); copilot prints prose there (exit 1)."""
    gemini = parse_spec("c", "gemini").read_reply(b"", 41, json.dumps(
        {"session_id": "x", "error": {"type": "Error", "message": "Please set an Auth method", "code": 41}}).encode())
    assert gemini.error == "gemini: Please set an Auth method"
    copilot = parse_spec("d", "copilot").read_reply(b"", 1, b"Error: No authentication information found.\n\n"
                                                    b"To authenticate, you can use any of the following methods:\n")
    assert copilot.error == "copilot: exit status 1: Error: No authentication information found."
    codex = parse_spec("e", "codex").read_reply(b'{"type":"error","message":"Reconnecting... waiting for network"}\n',
                                                0)
    assert codex.error == "codex: Reconnecting... waiting for network"
    assert not codex.unreadable


def test_preset_command_lines() -> None:
    codex = parse_spec("gpt", "codex:gpt-5.5").invocation("PROMPT", {"MULTIDEBATE_CODEX_ARGS": "-c model_provider=x"})
    assert codex.argv == ("codex", "exec", "--json", "-s", "read-only", "--skip-git-repo-check", "--ephemeral",
                          "--color", "never", "-m", "gpt-5.5", "-c", "model_provider=x", "-")
    assert codex.stdin == b"PROMPT"
    gemini = parse_spec("gem", "gemini").invocation("PROMPT", {})
    assert gemini.argv[-2:] == ("-p", "PROMPT")
    assert gemini.stdin == b""
    assert ("GEMINI_CLI_TRUST_WORKSPACE", "true") in gemini.env
    assert set(PRESETS) == {"claude", "codex", "gemini", "qwen", "copilot", "opencode", "cursor"}
    custom = parse_agent("me=cmd:python3 'my agent.py' --fast")
    assert custom.invocation("P").argv == ("python3", "my agent.py", "--fast")


@pytest.mark.parametrize(("spec", "error"), [("alpha", "is not SLUG=PRESET"), ("alpha=nope", "no agent `nope`"),
                                             ("alpha=cmd:", "names no command"), ("Bad_Slug=claude", "is no slug")])
def test_a_bad_agent_is_a_usage_error(cli: Cli, tmp_path: Path, spec: str, error: str) -> None:
    result = cli("run", str(tmp_path), *BOUNDS, "--agent", spec, mixed=True)
    assert result.code == 2
    assert error in result.out


def test_an_agent_off_the_roster_and_no_agent_at_all_are_clean_errors(cli: Cli, tmp_path: Path) -> None:
    folder = tmp_path / "d"
    init(folder)
    result = cli("run", str(folder), *BOUNDS, "--agent", f"gamma={fake('agree', 'x')}", mixed=True)
    assert result.code == 1
    assert "Error: gamma is not on the roster (alpha, beta)" in result.err
    result = cli("run", str(folder), *BOUNDS, mixed=True)
    assert result.code == 1
    assert "Error: no participant has an agent" in result.err
    assert "Traceback" not in result.out


def test_two_agents_on_one_model_are_warned_of(cli: Cli, tmp_path: Path) -> None:
    folder = tmp_path / "d"
    init(folder)
    result = cli("run", str(folder), *BOUNDS, "--agent", "alpha=claude:opus", "--agent", "beta=claude:Opus",
                 "--turn-timeout", "5", "--agent-args", "alpha=--bogus", mixed=True)
    assert "alpha, beta run the same model" in result.out


# -- JSON Lines, and doctor ---------------------------------------------------------------------


def test_run_json_lines_follow_their_schema(cli: Cli, tmp_path: Path) -> None:
    from test_schemas import check

    folder = tmp_path / "d"
    init(folder)
    result = cli("run", str(folder), *BOUNDS, "--json", "--agent", f"alpha={fake('agree', 'Use TOML.')}",
                 "--agent", f"beta={fake('agree', 'Use YAML.')}")
    assert result.code == 0, result.out
    events = [json.loads(line) for line in result.out.splitlines()]
    for event in events:
        check("run-event", event)
    kinds = [e["event"] for e in events]
    assert kinds[0] == "started"
    assert kinds[-1] == "done"
    assert kinds.count("written") == 4
    assert events[-1]["state"] == "converged"
    assert events[-1]["report"] == f"multidebate report {folder}"


def test_run_json_ends_with_one_line_error_object_when_a_participant_fails(cli: Cli, tmp_path: Path) -> None:
    from test_schemas import check

    folder = tmp_path / "d"
    init(folder)
    result = cli("run", str(folder), *BOUNDS, "--json", "--agent", f"alpha={fake('agree', 'Use TOML.')}",
                 "--agent", f"beta={fake('crash')}")
    assert result.code == 1
    lines = [json.loads(line) for line in result.out.splitlines()]
    check("error", lines[-1])
    assert lines[-1]["error"].startswith("beta failed turn 1: crash.py: exit status 3")
    for event in lines[:-1]:
        check("run-event", event)


def test_doctor_finds_tools_on_path_probes_agents_and_says_why_one_fails(cli: Cli, 
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from test_schemas import check

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    _tool(bin_dir, "claude", CLAUDE_NOT_LOGGED_IN)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}/usr/bin{os.pathsep}/bin")
    monkeypatch.setenv("ARGV_LOG", str(tmp_path / "argv.json"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    result = cli("doctor", "--json", "--probe", "--agent", f"ok={fake('agree', 'ok')}", "--agent", "opus=claude:opus",
                 "--timeout", "20")
    assert result.code == 1, result
    data = json.loads(result.out)
    check("doctor", data)
    tools = {t["preset"]: t for t in data["tools"]}
    assert tools["claude"]["version"] == "2.1.197 (Claude Code)"
    assert tools["claude"]["path"] == str(bin_dir / "claude")
    assert tools["codex"]["path"] is None
    probes = {p["slug"]: p for p in data["probes"]}
    assert probes["ok"]["ok"] is True
    assert probes["opus"] == {**probes["opus"], "ok": False, "reason": "claude: Not logged in \u00b7 Please run /login"}
    text = cli("doctor", mixed=True)
    assert text.code == 0
    assert "claude    Claude Code   2.1.197 (Claude Code)" in text.out
    assert "codex     Codex CLI     not on PATH" in text.out


def test_doctor_warns_of_two_agents_on_one_model(cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    result = cli("doctor", "--agent", "a=codex:gpt-5.5", "--agent", "b=codex:gpt-5.5", mixed=True)
    assert "Warning: a, b run the same model" in result.out


# -- nothing of run loads unless it runs -------------------------------------------------------


def test_import_and_other_commands_do_not_load_run(cli: Cli, tmp_path: Path) -> None:
    from helpers import make_debate

    folder = make_debate(str(tmp_path / "d"), [{"a": "**Use TOML.**", "b": "**Use YAML.**"}])
    code = (
        "import sys\nimport multidebate\nassert not [m for m in sys.modules if m.startswith('multidebate.run')]\n"
        "from multidebate.cli import cli\n"
        f"for args in (['status', {folder!r}], ['next', {folder!r}, '--slug', 'c'], ['validate', {folder!r}],"
        f" ['report', {folder!r}], ['init', {str(tmp_path / 'e')!r}, '--task', 't'], ['--help']):\n"
        "    try:\n        cli(args, standalone_mode=False)\n    except SystemExit:\n        pass\n"
        "loaded = [m for m in sys.modules if m.startswith('multidebate.run')]\n"
        "print('LOADED', loaded)\n")
    out = subprocess.run([PY, "-c", code], capture_output=True, text=True, timeout=DEADLINE)
    assert "LOADED []" in out.stdout, out.stdout + out.stderr


def test_the_live_lines_show_each_agent_thinking_for_so_long_and_escape_what_agents_print() -> None:
    from multidebate.run.display import LiveLines
    from multidebate.run.events import Failed, Thinking, TurnCost

    now = [100.0]
    out: list[str] = []
    live = LiveLines(out.append, clock=lambda: now[0])
    live.show(Thinking("alpha", 2, 1, 1.0))
    live.show(Thinking("beta", 2, 1, 1.0))
    now[0] = 142.0
    live.tick()
    assert out[-1] == "  alpha            turn 2: thinking for 42 s\n  beta             turn 2: thinking for 42 s\n"
    assert out[-2] == "\x1b[2A\r\x1b[J"  # the two live lines, redrawn in place
    live.show(Failed("beta", 2, "tool said \x1b[31mred", TurnCost(), 43.0))
    assert "[  43.0s] beta turn 2: failed: tool said \\x1b[31mred\n" in out
    assert out[-1].endswith("  beta             turn 2: failed: tool said \\x1b[31mred\n")


def test_a_reply_wrapped_in_a_code_fence_is_written_as_its_sections(cli: Cli, tmp_path: Path) -> None:
    """Models often fence their answer (```markdown ... ```): the fence is no part of the turn."""
    from helpers import turn_body

    from multidebate.run.prompt import sections_of
    from multidebate.turns.write import write_turn

    init(tmp_path / "d")
    body = turn_body(1, "**Use TOML.**")
    reply = f"Here is my turn:\n\n```markdown\n{body}```\n"
    assert sections_of(reply) == body
    assert write_turn(str(tmp_path / "d"), "alpha", sections_of(reply).encode()).confidence == 70


def test_the_live_lines_count_how_long_a_persons_session_is_awaited() -> None:
    from multidebate.run.display import LiveLines
    from multidebate.run.events import Thinking, Waiting

    now = [10.0]
    out: list[str] = []
    live = LiveLines(out.append, clock=lambda: now[0])
    live.show(Waiting(1, ("bob",)))
    now[0] = 52.0
    live.tick()
    assert out[-1] == "  bob              turn 1: awaited (a session a person runs) for 42 s\n"
    live.show(Thinking("alpha", 2, 1, 43.0))
    assert "bob" not in out[-1]
    assert "alpha" in out[-1]
