"""write: what it says beyond writing the file (the format rules are in the golden and CLI tests)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from helpers import make_debate, turn_body

from multidebate.cli import cli


def test_an_answer_over_the_tasks_word_limit_is_written_with_a_warning(tmp_path: Path) -> None:
    from multidebate.turns.write import word_limit

    assert word_limit("Recommend one in at most 150 words.") == 150
    assert word_limit("Answer in 200 words or fewer; no more than 120 words for the summary") == 120
    assert word_limit("Explain ≤ 80 words") == 80 and word_limit("Pick a format.") is None
    assert word_limit("a 3-word slogan") is None
    folder = make_debate(str(tmp_path / "d"), [], task="Pick a config format, in at most 12 words.")
    long = "**Use TOML.** It has comments, a standard library parser, and clear types for every value."
    result = CliRunner().invoke(cli, ["write", folder, "--slug", "a", "--json"], input=turn_body(1, long))
    data = json.loads(result.stdout)
    assert result.exit_code == 0 and data["ok"] is True
    assert "It has comments" in Path(folder, "turn-1-a.md").read_text()  # written, whole
    assert data["warnings"] == ["your Answer has 15 words (the whole section, bold line included); the task asks "
                                "for at most 12. Keep it within the limit "
                                "in your next turn: a converged debate's final answer is the one shown to the user."]
    short = CliRunner().invoke(cli, ["write", folder, "--slug", "b"], input=turn_body(1, "**Use TOML.** Comments."))
    assert short.exit_code == 0 and "warning:" not in short.stdout


def test_sealed_write_says_sealed_then_published_in_one_line(tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [], participants=("a", "b"), sealed=True)
    first = CliRunner().invoke(cli, ["write", folder, "--slug", "a"], input=turn_body(1, "**Use TOML.**"))
    assert first.exit_code == 0, first.output
    assert "Turn 1 stays sealed (unseen by peers)" in first.stdout and "Turn 1: 1 of 2 written" in first.stdout
    last = CliRunner().invoke(cli, ["write", folder, "--slug", "b"], input=turn_body(1, "**Use YAML.**"))
    assert last.exit_code == 0, last.output
    assert "Every participant has written turn 1: it is now published." in last.stdout
    assert "2 of 2 written" not in last.stdout  # the same news once, not twice


def test_next_states_the_tasks_word_limit_before_the_turn_is_written(tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [], task="Pick a config format, in at most 12 words.")
    out = CliRunner().invoke(cli, ["next", folder, "--slug", "a"]).stdout
    assert "(Answer: at most 12 words, bold line included; `write` counts them.)" in out
    plain = make_debate(str(tmp_path / "e"), [], task="Pick a config format.")
    assert "Answer: at most" not in CliRunner().invoke(cli, ["next", plain, "--slug", "a"]).stdout
