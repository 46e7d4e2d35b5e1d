"""The README documents every command and every finding code."""

from __future__ import annotations

from pathlib import Path

from multidebate.cli import cli
from multidebate.findings import CODES

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def test_every_command_is_documented() -> None:
    for name in cli.commands:
        assert f"multidebate {name}" in README, name


def test_every_finding_code_is_in_the_table() -> None:
    for code, (severity, _) in CODES.items():
        assert f"| {code} | {severity} |" in README, code


def test_ci_blocks_exist() -> None:
    assert "<!-- ci: install -->" in README and "<!-- ci: test -->" in README
