"""`watch` through click's CliRunner: help, option errors, exit codes, JSON Lines; and the lazy import."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import Cli
from helpers import make_debate


def test_help_lists_options_and_exit_codes(cli: Cli) -> None:
    code, out, _ = cli("watch", "--help")
    assert code == 0
    for text in ("--json", "--until [converged|end]", "--timeout SECONDS", "--poll [SECONDS]", "130"):
        assert text in out, text


def test_option_errors(cli: Cli, tmp_path: Path) -> None:
    folder = str(tmp_path)
    code, _, err = cli("watch", folder, "--until", "forever")
    assert code == 2
    assert "'forever' is not one of 'converged', 'end'" in err
    code, _, err = cli("watch", folder, "--timeout", "0")
    assert code == 2
    assert "--timeout" in err
    code, _, err = cli("watch", "--poll", folder)  # --poll takes the next word as its value
    assert code == 2
    assert "is not a valid float" in err
    code, _, err = cli("watch", folder, "--poll", "0")
    assert code == 2
    assert "--poll" in err


def test_missing_folder_exits_1(cli: Cli, tmp_path: Path) -> None:
    code, out, err = cli("watch", str(tmp_path / "nope"))
    assert (code, out) == (1, "")
    assert err == f"Error: no such folder: {tmp_path / 'nope'}\n"
    code, out, err = cli("watch", str(tmp_path / "nope"), "--json")
    assert code == 1
    assert json.loads(out)["type"] == "error"
    assert err.startswith("Error: no such folder")
    (tmp_path / "file").write_text("x")
    code, out, err = cli("watch", str(tmp_path / "file"))
    assert code == 1
    assert err == f"Error: not a folder: {tmp_path / 'file'}\n"


def test_timeout_prints_state_and_exits_3(cli: Cli, tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [{"a": "**Use TOML**", "b": "**Use YAML**"}])
    code, out, _ = cli("watch", folder, "--json", "--timeout", "0.2")
    assert code == 3
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == 1
    state = lines[0]
    assert state["type"] == "state"
    assert state["current_turn"] == 1
    assert state["written"] == ["a", "b"]
    assert state["verdict"]["state"] == "in_progress"
    assert state["time"].endswith("Z")


def test_poll_without_value_polls_every_second(cli: Cli, tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [])
    code, out, _ = cli("watch", folder, "--timeout", "0.2", "--poll")
    assert code == 3
    assert "(polling every 1 s)" in out
    assert "no turn files yet" in out


def test_until_end_on_a_finished_debate(cli: Cli, tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [{"a": "**TOML**", "b": "**YAML**"}], max_turns=1)
    code, out, _ = cli("watch", folder, "--until", "end")
    assert code == 0
    assert "verdict max_turns at turn 1" in out
    code, _, err = cli("watch", folder, "--until", "converged", "--timeout", "60")
    assert code == 3  # at once: a final verdict never becomes converged (#34)
    assert err == "Stopped: the debate ended max_turns at turn 1, so it will never reach --until converged (exit 3).\n"


def test_timeout_says_why_it_stopped(cli: Cli, tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [{"a": "**Use TOML**", "b": "**Use YAML**"}])
    for extra in ([], ["--json"]):
        code, _, err = cli("watch", folder, "--timeout", "0.2", *extra)
        assert (code, err) == (3, "Stopped: --timeout 0.2 s passed; the verdict is in_progress (exit 3).\n")


def test_other_commands_do_not_import_watchdog(tmp_path: Path) -> None:
    """Each command that is not `watch` runs (on a real debate, not only --help) without importing watchdog."""
    from helpers import key_of

    folder = make_debate(str(tmp_path / "d"), [{"a": "**Use TOML**", "b": "**Use YAML**"}])
    commands = [["status", folder], ["status", folder, "--json"], ["validate", folder], ["report", folder],
                ["next", folder, "--slug", "a", "--key", key_of(folder, "a")], ["write", "--help"], ["slug", "X Y"],
                ["skill", "show"]]
    # CliRunner itself, not the cli fixture: the commands run in a fresh process, so that only what they import is
    # counted (the fixture lives in this one, where pytest and the other tests have imported everything)
    script = ("import sys; from multidebate.cli import cli; from click.testing import CliRunner\n"
              f"for args in {commands!r}:\n"
              "    result = CliRunner().invoke(cli, args)\n"
              "    assert result.exit_code == 0, (args, result.output)\n"
              "print(sorted(m for m in sys.modules if m.split('.')[0] == 'watchdog'))")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
