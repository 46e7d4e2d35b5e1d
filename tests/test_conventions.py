"""Command-line conventions: --color and NO_COLOR, shell completion, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from conftest import Cli
from helpers import make_debate

from multidebate.cli import EXIT_CODES_HELP

ANSI = "\x1b["
# NO_COLOR unset, as in a shell that never set it; `terminal=True` stands for a terminal, where what `auto`
# does is what a person sees
NO_COLOR_UNSET: dict[str, str | None] = {"NO_COLOR": None}


@pytest.fixture
def converged(tmp_path: Path) -> str:
    return make_debate(str(tmp_path), [{"a": "**Use YAML.**", "b": "**Use TOML.**"},
                                       {"a": ("**Use TOML.**", True), "b": ("**Use TOML.**", True)}])


def test_auto_colors_a_terminal_and_the_plain_text_is_unchanged(cli: Cli, converged: str) -> None:
    _, colored, _ = cli("status", converged, terminal=True, env=NO_COLOR_UNSET)
    _, plain, _ = cli("status", converged, env=NO_COLOR_UNSET)
    verdict = next(line for line in colored.splitlines() if "verdict:" in line)
    assert verdict.startswith(ANSI)
    assert click.style("", fg="green", reset=False) in verdict
    assert click.unstyle(colored) == plain
    assert ANSI not in plain


def test_never_and_no_color_turn_color_off(cli: Cli, converged: str) -> None:
    assert ANSI not in cli("status", converged, color="never", terminal=True, env=NO_COLOR_UNSET).out
    assert ANSI not in cli("status", converged, terminal=True, env={"NO_COLOR": "1"}).out
    # an explicit --color always is the person's choice and wins over NO_COLOR
    assert ANSI in cli("status", converged, color="always", env={"NO_COLOR": "1"}).out


def test_json_is_never_colored(cli: Cli, converged: str) -> None:
    code, out, _ = cli("status", converged, "--json", color="always", terminal=True, env=NO_COLOR_UNSET)
    assert code == 0
    assert ANSI not in out
    assert json.loads(out)["verdict"]["state"] == "converged"


def test_validate_colors_codes_by_severity(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "turn-1-a.md"
    path.write_text("# Turn 1 - a\n\n## Reasoning\nr\n\n## Answer\na\n\n## Confidence\n500\n\n## Converged\nno\n")
    code, out, _ = cli("validate", str(path), color="always", terminal=True, env=NO_COLOR_UNSET)
    assert code == 1
    assert f": {click.style('E041', fg='red', bold=True)} " in out
    assert f": {click.style('W020', fg='yellow', bold=True)} " in out
    assert click.unstyle(out) == cli("validate", str(path), env=NO_COLOR_UNSET).out


def test_skill_list_colors_states(cli: Cli, tmp_path: Path) -> None:
    env: dict[str, str | None] = {"HOME": str(tmp_path), "NO_COLOR": None}
    out = cli("skill", "list", color="always", terminal=True, env=env).out
    assert click.style("not installed", dim=True) in out


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_scripts(cli: Cli, shell: str) -> None:
    code, out, _ = cli(prog_name="multidebate", env={"_MULTIDEBATE_COMPLETE": f"{shell}_source"})
    assert code == 0
    assert "_MULTIDEBATE_COMPLETE" in out


def test_completion_completes_commands_and_choices(cli: Cli) -> None:
    def complete(words: str) -> list[str]:
        env = {"_MULTIDEBATE_COMPLETE": "bash_complete", "COMP_WORDS": words,
               "COMP_CWORD": str(len(words.split()) - (0 if words.endswith(" ") else 1))}
        return [line.split(",", 1)[1] for line in cli(prog_name="multidebate", env=env).out.splitlines()]

    assert complete("multidebate sk") == ["skill"]
    assert complete("multidebate skill install --agent c") == ["claude", "codex", "cursor", "copilot"]
    assert complete("multidebate --color ") == ["auto", "always", "never"]


def test_exit_codes_are_documented_in_help_and_docs(cli: Cli) -> None:
    docs = (Path(__file__).resolve().parent.parent / "docs" / "commands.md").read_text(encoding="utf-8")
    table = docs.split("## Exit codes", 1)[1].split("\n## ", 1)[0]
    shown = " ".join(cli("--help", terminal=True, env=NO_COLOR_UNSET).out.split())  # the epilog as printed, wrapped lines joined
    for said in ("Exit codes: 0 success;", "1 error (nothing written)", "2 usage error;"):
        assert said in shown, said
        assert said in " ".join(EXIT_CODES_HELP.split()), said
    for code in ("0", "1", "2", "3", "130"):
        assert f"| `{code}` |" in table, code
        assert f" {code} " in shown, code


def test_usage_errors_exit_2_on_stderr(cli: Cli, tmp_path: Path) -> None:
    code, out, err = cli("status", terminal=True, env=NO_COLOR_UNSET)
    assert (code, out) == (2, "")
    assert "Missing argument 'FOLDER'" in err
    code, out, err = cli("status", str(tmp_path), color="sometimes", terminal=True, env=NO_COLOR_UNSET)
    assert (code, out) == (2, "")
    assert "'sometimes' is not one of 'auto', 'always', 'never'" in err
