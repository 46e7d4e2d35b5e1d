"""`next --wait`: blocks until the peers' turn N-1 files exist, then answers as `next` does."""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import Cli
from helpers import key_of, make_debate, turn_body, write_keyed
from processes import Running

from multidebate.protocol.notes import note, render
from multidebate.turns.waiting import brief_when_ready


@pytest.fixture
def debate(tmp_path: Path) -> str:
    """Turn 1 complete; `a` has written turn 2, `b` not yet: `a` waits for b's turn 2."""
    folder = make_debate(str(tmp_path / "d"), [{"a": "**Use TOML**", "b": "**Use YAML**"}], participants=("a", "b"))
    write_keyed(folder, "a", turn_body(2, "**Use TOML**").encode())
    return folder


@pytest.fixture
def running() -> Iterator[list[Running]]:
    procs: list[Running] = []
    yield procs
    for proc in procs:
        proc.close()


def test_released_when_the_peer_writes(debate: str, running: list[Running]) -> None:
    proc = Running("next", debate, "--slug", "a", "--key", key_of(debate, "a"), "--wait", "--json")  # default timeout: 600 s
    running.append(proc)
    assert "for b to write turn 2" in proc.expect_stderr("Waiting up to 600 s")
    write_keyed(debate, "b", turn_body(2, "**Use TOML after all**").encode())
    assert proc.finish() == 0
    briefing = json.loads("\n".join(proc.seen))
    assert briefing["turn"] == 3
    assert briefing["waiting"] == []
    assert [(p["slug"], p["turn"]) for p in briefing["peers"]] == [("b", 2)]
    assert "TOML after all" in briefing["peers"][0]["text"]
    # said in the briefing (stdout), where a session reads it in order, not only on stderr
    assert len(briefing["notes"]) == 1
    assert briefing["notes"][0].startswith("Waited ")
    assert briefing["notes"][0].endswith(" s: b has now written turn 2.")


def test_timeout_answers_with_what_exists(debate: str, running: list[Running]) -> None:
    proc = Running("next", debate, "--slug", "a", "--key", key_of(debate, "a"), "--wait", "--timeout", "0.5")
    running.append(proc)
    assert proc.finish() == 3  # #27: a wait that timed out exits 3, as `watch --timeout` does
    text = "\n".join(proc.seen)
    assert "NOTE: Waited 0.5 s (`next --wait`, exit status 3): b did not write turn 2." in text
    # d75: a hands-free session wrote ahead of a missing peer on "answer with the files that exist"
    assert "after 10 minutes in all, stop and tell the user who is missing" in text
    assert "write this turn without it only if the user tells you to" in text
    assert ": turn 3;" in text
    assert "Not yet written turn 2: b." in text


def test_timeout_in_process_stops_its_threads(cli: Cli, debate: str) -> None:
    code, out, err = cli("next", debate, "--slug", "a", "--key", key_of(debate, "a"), "--wait", "--timeout", "0.2", "--json")
    assert code == 3
    assert err == ""  # a wait under a second is not announced; the NOTE says what happened
    data = json.loads(out)
    assert data["waiting"] == ["b"]
    assert any("b did not write turn 2" in note for note in data["notes"])


def test_no_wait_when_nothing_is_missing(cli: Cli, tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [{"a": "**TOML**", "b": "**YAML**"}], participants=("a", "b"))
    code, out, err = cli("next", folder, "--slug", "a", "--key", key_of(folder, "a"), "--wait", "--timeout", "30", "--json")
    assert code == 0
    assert err == ""
    assert json.loads(out)["turn"] == 2
    code, out, err = cli("next", str(tmp_path / "new"), "--slug", "a", "--task", "Pick one.", "--wait",
                         "--timeout", "30")
    assert code == 0
    assert err == ""
    assert ": turn 1;" in out  # turn 1 never waits


def test_a_peer_two_turns_behind_is_absent_not_awaited(cli: Cli, tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [{"a": "**TOML**", "b": "**YAML**"}, {"a": "**TOML**", "b": "**TOML**"}],
                         participants=("a", "b", "c"))
    code, out, err = cli("next", folder, "--slug", "a", "--key", key_of(folder, "a"), "--wait", "--timeout", "30", "--json")
    data = json.loads(out)
    assert code == 0
    assert err == ""
    assert data["turn"] == 3
    assert data["absent"] == ["c"]
    assert data["waiting"] == []


def test_an_empty_peer_file_is_not_written_yet(debate: str) -> None:
    Path(debate, "turn-2-b.md").write_bytes(b"  \n")  # a writer has only created it
    briefing = brief_when_ready(debate, "a", key=key_of(debate, "a"), timeout=0.3)
    assert briefing.waited == (note("wait-timed-out", timeout=0.3, turn=2, missing=("b",), awaited=("b",),
                                    folder=debate),)
    assert briefing.notes[-1] == render(briefing.waited[0])


def test_timeout_needs_wait(cli: Cli, debate: str) -> None:
    code, _, err = cli("next", debate, "--slug", "a", "--key", key_of(debate, "a"), "--timeout", "5")
    assert code == 2
    assert "Invalid value for --timeout: only applies with --wait" in err


def test_released_when_an_empty_peer_file_is_filled(debate: str, running: list[Running], tmp_path: Path) -> None:
    scratch = make_debate(str(tmp_path / "scratch"), [{"b": "**Use TOML**"}])
    full = Path(write_keyed(scratch, "b", turn_body(2, "**Use TOML now**").encode()).path).read_bytes()
    target = Path(debate, "turn-2-b.md")
    target.write_bytes(b"")  # a tool that creates the file, then writes it
    proc = Running("next", debate, "--slug", "a", "--key", key_of(debate, "a"), "--wait", "--json", "--timeout", "120")
    running.append(proc)
    proc.expect_stderr("for b to write turn 2")
    target.write_bytes(full)
    assert proc.finish() == 0
    briefing = json.loads("\n".join(proc.seen))
    assert len(briefing["notes"]) == 1
    assert briefing["notes"][0].endswith(" s: b has now written turn 2.")
    assert "TOML now" in briefing["peers"][0]["text"]


def test_sigint_while_waiting_exits_130(debate: str, running: list[Running]) -> None:
    proc = Running("next", debate, "--slug", "a", "--key", key_of(debate, "a"), "--wait")
    running.append(proc)
    proc.expect_stdout("Waiting up to 600 s")  # text output: on stdout, ahead of the answer
    proc.proc.send_signal(signal.SIGINT)
    assert proc.finish() == 130
    assert proc.seen == ["Waiting up to 600 s for b to write turn 2 (Ctrl-C to stop)..."]
    assert proc.errors == []


def test_no_roster_and_no_peer_yet_waits_for_the_first_peer(tmp_path: Path, running: list[Running]) -> None:
    """A session that starts a moment before the others must not debate alone: --wait waits for any peer."""
    folder = make_debate(str(tmp_path / "d"), [{"a": "**Use TOML**"}])  # no roster, a alone so far
    proc = Running("next", folder, "--slug", "a", "--key", key_of(folder, "a"), "--wait", "--json", "--timeout", "120")
    running.append(proc)
    assert "for a peer to write turn 1" in proc.expect_stderr("Waiting up to 120 s")
    write_keyed(folder, "b", turn_body(1, "**Use YAML**").encode())
    assert proc.finish() == 0
    briefing = json.loads("\n".join(proc.seen))
    assert [(p["slug"], p["turn"]) for p in briefing["peers"]] == [("b", 1)]
    assert briefing["notes"][-1].endswith(" s: a peer has now written turn 1.")


def test_no_peer_before_the_timeout_says_so(cli: Cli, tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [{"a": "**Use TOML**"}])
    code, out, _err = cli("next", folder, "--slug", "a", "--key", key_of(folder, "a"), "--wait", "--timeout", "0.3")
    assert code == 3
    assert "NOTE: Waited 0.3 s (`next --wait`, exit status 3): no peer wrote turn 1." in out


def test_giving_up_names_the_command_that_goes_on_without_the_peer(cli: Cli, debate: str) -> None:
    """A session stopped after turn 2 and its peers waited 10 minutes a turn: nothing named `retire`."""
    code, out, _ = cli("next", debate, "--slug", "a", "--key", key_of(debate, "a"), "--wait", "--timeout", "0.2")
    assert code == 3
    note = next(line for line in out.splitlines() if line.startswith("NOTE: Waited 0.2 s"))
    assert note.endswith(f" If b has dropped out, the user (not you) runs `multidebate retire {debate} b` to go on "
                         "without it; tell the user so.")


def test_watchdogs_own_errors_never_reach_a_sessions_output() -> None:
    """d80: stopping the observer while its thread read events logged watchdog's "InotifyEmitter.queue_events()
    called when the thread is inactive", which Python's last-resort handler printed into `next --wait`'s output."""
    import subprocess
    import sys

    code = ("import logging, multidebate.state.observe\n"
            "logging.getLogger('watchdog.observers.inotify').error("
            "'InotifyEmitter.queue_events() called when the thread is inactive')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
