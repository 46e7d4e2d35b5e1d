"""The shared test fixtures (conftest.py) and helpers do what sessions do, and keep each debate's keys apart."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import Cli, DebateFactory
from helpers import Debate, key_of, make_debate, turn_body, write_keyed

from multidebate.protocol.errors import IdentityError
from multidebate.turns.write import write_turn


def test_a_debate_keeps_each_slugs_key_and_writes_the_next_turn_with_it(debate: DebateFactory) -> None:
    made = debate([{"a": "Use TOML.", "b": "Use YAML."}], participants=("a", "b"))
    assert set(made.keys) == {"a", "b"}
    assert made.key("a") != made.key("b")
    result = made.write("a", turn_body(2, "Use TOML."))
    assert result.key is None
    assert result.path == os.path.join(made.folder, "turn-2-a.md")
    assert os.path.exists(result.path)


def test_two_debates_of_one_test_have_their_own_keys(debate: DebateFactory) -> None:
    first = debate([{"a": "Use TOML."}])
    second = debate([{"a": "Use TOML."}])
    assert first.folder != second.folder
    assert first.key("a") != second.key("a")


def test_the_helpers_and_the_fixture_share_one_store(debate: DebateFactory, tmp_path: Path) -> None:
    made = debate([{"a": "Use TOML."}], name="shared")
    assert key_of(made.folder, "a") == made.key("a")
    assert Debate(os.path.abspath(made.folder)).key("a") == made.key("a")  # one store per folder, however named
    folder = make_debate(str(tmp_path / "old"), [{"a": "Use TOML."}])
    write_keyed(folder, "a", turn_body(2, "Use TOML.").encode())
    assert "a" in Debate(os.path.abspath(folder)).keys


def test_a_write_without_the_key_is_refused(debate: DebateFactory) -> None:
    """The keys are real: the turn-2 write of a slug whose key is lost is refused, so the store is what lets
    `write` through."""
    made = debate([{"a": "Use TOML."}])
    with pytest.raises(IdentityError):
        write_turn(made.folder, "a", turn_body(2, "Use TOML.").encode(), None)


def test_cli_returns_code_stdout_stderr_and_reads_json(cli: Cli, debate: DebateFactory) -> None:
    made = debate([{"a": "Use TOML.", "b": "Use YAML."}])
    code, out, err = cli("status", made.folder)
    assert code == 0, err
    assert out
    data = cli.json("status", made.folder)
    assert isinstance(data, dict)
    assert cli("status", made.folder, "--json").json() == data
    code, _, err = cli("status", str(Path(made.folder) / "missing"))
    assert code != 0
    assert err
