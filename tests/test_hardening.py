"""Attacks on the README's promises (issue: hardening), each a test that failed before its fix.

Commands that used to hang run in real processes with a generous timeout, so a
regression fails instead of hanging the suite.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from helpers import key_of, make_debate, turn_body
from multidebate.cli import cli
from multidebate.folder import scan_folder

GENEROUS = 120.0


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def run_process(*args: str, input: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "multidebate", *args], input=input, capture_output=True,
                          text=True, timeout=GENEROUS)


# 1. A number in a file name sets no cost -------------------------------------------------------------


def _with_huge_numbers(folder: Path) -> None:
    make_debate(str(folder), [{"a": "Use TOML.", "b": "Use YAML."}], participants=("a", "b"))
    (folder / "turn-999999999-a.md").write_text("# Turn 999999999 - a\n")
    (folder / "turn-20251123-notes.md").write_text("notes\n")


def test_huge_turn_numbers_are_strays_not_turns(tmp_path: Path) -> None:
    _with_huge_numbers(tmp_path)
    scan = scan_folder(str(tmp_path))
    assert scan.current_turn == 1
    assert sorted(e.filename for e in scan.gaps()) == ["turn-20251123-notes.md", "turn-999999999-a.md"]
    assert [e.filename for e in scan.turns] == ["turn-1-a.md", "turn-1-b.md"]


def test_huge_turn_numbers_do_not_hang_any_command(tmp_path: Path) -> None:
    _with_huge_numbers(tmp_path)
    folder = str(tmp_path)
    for args in (["status", folder, "--json"], ["report", folder, "--format", "json"], ["validate", folder],
                 ["next", folder, "--slug", "b", "--key", key_of(folder, "b")]):
        done = run_process(*args)
        assert "Traceback" not in done.stderr, args
    status = json.loads(run_process("status", folder, "--json").stdout)
    assert status["current_turn"] == 1
    validate = run_process("validate", folder)
    assert "E070" in validate.stdout and "turn-999999999-a.md" in validate.stdout
    # the stray belongs to `a`, whose next turn can no longer be told; `b` writes its turn 2 and gets its output
    done = run_process("write", folder, "--slug", "b", "--key", key_of(folder, "b"), input=turn_body(2, "Use YAML."))
    assert done.returncode == 0, done.stderr
    assert os.path.exists(tmp_path / "turn-2-b.md")
    refused = run_process("write", folder, "--slug", "a", "--key", key_of(folder, "a"), input=turn_body(2, "x"))
    assert refused.returncode == 1 and "skip turns (turn-999999999-a.md; unbroken turns: 1)" in refused.stderr
