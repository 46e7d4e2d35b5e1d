"""Help and docs that say what the code does (#34, item 6): exit codes, examples, ranges, `-V`, `report --json`,
completion of FOLDER arguments, the README's skip count, and `status` of a debate no one has written in yet."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import click
from conftest import Cli
from helpers import make_debate
from test_cli import _every_command

from multidebate import __version__
from multidebate.cli import cli as cli_group

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = _every_command(cli_group, click.Context(cli_group, info_name="multidebate"))


def help_of(cli: Cli, *path: str) -> str:
    return cli(*path, "--help", width=200).out


def test_the_docs_give_next_wait_s_timeout_exit_status_as_the_help_does(cli: Cli) -> None:
    assert "a note naming who did not write (exit 3)" in " ".join(help_of(cli, "next").split())
    running = (ROOT / "docs" / "running.md").read_text(encoding="utf-8")
    said = re.search(r"`NOTE:` naming the peers that did not write, exit (\d)", running)
    assert said is not None
    assert said.group(1) == "3"


def test_top_level_help_names_every_command_that_ctrl_c_ends_with_130(cli: Cli) -> None:
    text = " ".join(help_of(cli).split())
    assert "130 interrupted (Ctrl-C) in `watch`, `next --wait` and `run`." in text
    assert "`watch --until converged` on a debate that ended otherwise" in text


def test_no_command_shows_two_example_blocks(cli: Cli) -> None:
    for path, _command in COMMANDS:
        assert help_of(cli, *path).count("Example") <= 1, path


def test_max_turns_help_says_what_it_accepts(cli: Cli) -> None:
    shown = " ".join(help_of(cli, "init").split())
    assert "--max-turns N Stop the debate after N turns: 2 or more (1 only with a judge" in shown
    assert "[x>=1]" not in shown.split("--max-turns", 1)[1].split("--min-turns", 1)[0]


def test_dash_capital_v_prints_the_version(cli: Cli) -> None:
    result = cli("-V")
    assert result.code == 0
    assert result.out == f"multidebate, version {__version__}\n"


def test_report_takes_json_as_the_other_commands_spell_it_and_fails_in_json(cli: Cli, tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [{"a": "**Use TOML.**", "b": "**Use YAML.**"}])
    by_flag = cli("report", folder, "--json")
    by_format = cli("report", folder, "--format", "json")
    assert by_flag.code == 0
    assert by_flag.json()["verdict"] == by_format.json()["verdict"]
    for args in (["report", str(tmp_path / "nope"), "--json"], ["report", folder, "--format", "json", "-o", "x.pdf"]):
        failed = cli(*args)
        assert failed.code == 1, args
        data = failed.json()
        assert data["ok"] is False, args
        assert data["problems"] == [], args
        assert data["error"], args
    both = cli("report", folder, "--json", "--format", "html")
    assert both.code == 2
    assert "--json is --format json: give one of --json and --format html" in both.err


def test_folder_arguments_complete_as_directories() -> None:
    checked = []
    for path, command in COMMANDS:
        for param in command.params:
            if isinstance(param, click.Argument) and param.name == "folder":
                ctx = click.Context(command, info_name=path[-1])
                items = param.type.shell_complete(ctx, param, "d")
                assert [item.type for item in items] == ["dir"], path
                checked.append(path[-1])
    assert {"status", "watch", "report", "score", "next", "write", "init"} <= set(checked)


def _chromium_tests() -> int:
    """The tests that skip without Chromium: each function under the skipif, times its parametrized cases."""
    count = 0
    for module in sorted((ROOT / "tests").glob("test_*.py")):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        for node in tree.body:
            if not isinstance(node, ast.FunctionDef):
                continue
            marks = [ast.unparse(d) for d in node.decorator_list]
            if not any("skipif" in m and "chromium()" in m for m in marks):
                continue
            cases = 1
            for mark in marks:
                if "parametrize" in mark:
                    cases = len(ast.literal_eval(mark.split(",", 1)[1].rsplit(")", 1)[0].strip()))
            count += cases
    return count


def test_the_readme_counts_the_chromium_skips() -> None:
    words = {2: "two", 3: "three", 4: "four", 5: "five"}
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert f"Without Chromium (`apt-get install chromium`) {words[_chromium_tests()]} tests skip" in readme


def test_status_of_a_debate_no_one_has_written_in_names_who_takes_part(cli: Cli, tmp_path: Path) -> None:
    roster = make_debate(str(tmp_path / "r"), [], participants=("opus", "gpt"))
    text = cli("status", roster).out
    assert "participants: opus, gpt (the roster); none has written turn 1 yet" in text
    assert "what to do: Start a session in each assistant" in text
    open_ = make_debate(str(tmp_path / "o"), [])
    text = cli("status", open_).out
    assert "participants: none yet (TASK.md has no roster: every session that writes a turn takes part)" in text
