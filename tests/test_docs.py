"""The README documents every command and every finding code; docs/cli.md is the commands' own help."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import click

from multidebate.cli import cli
from multidebate.protocol.findings import CODES

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def reference_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("cli_reference", ROOT / "scripts" / "cli_reference.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_command_is_documented() -> None:
    for ctx, _ in reference_script().walk(cli):
        assert ctx.command_path in README, ctx.command_path


def test_every_finding_code_is_in_the_table() -> None:
    for code, rule in CODES.items():
        assert f"| {code} | {rule.severity} |" in README, code


def test_ci_blocks_exist() -> None:
    assert "<!-- ci: install -->" in README and "<!-- ci: test -->" in README


def test_cli_reference_is_up_to_date() -> None:
    script = reference_script()
    assert script.TARGET.read_text(encoding="utf-8") == script.render(), \
        "docs/cli.md is out of date: run python scripts/cli_reference.py"
    assert "docs/cli.md" in README


def test_every_command_and_option_has_help() -> None:
    assert reference_script().missing_help() == []


def test_missing_help_is_reported() -> None:
    @click.group()
    def root() -> None:
        """A group."""

    @root.command()
    @click.option("--quiet", is_flag=True)
    def bare() -> None:
        pass

    assert reference_script().missing_help(root) == ["multidebate bare: no help text",
                                                     "multidebate bare: option --quiet has no help"]
