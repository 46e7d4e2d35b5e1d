"""Verdicts computed from real folders written through `write`."""

from __future__ import annotations

from pathlib import Path

from helpers import make_debate
from multidebate.debate import load_debate
from multidebate.verdict import judge

TOML = "**Use TOML.**\n\nComments and a stdlib parser."
TOML2 = "**TOML is the right choice** for a small config file."
YAML = "**Use YAML, not TOML.**\n\nAnchors."


def verdict_of(tmp_path: Path, turns: list[dict[str, str | tuple[str, bool]]], **kw: object):  # type: ignore[no-untyped-def]
    return judge(load_debate(make_debate(str(tmp_path / "d"), turns, **kw)))  # type: ignore[arg-type]


def test_empty(tmp_path: Path) -> None:
    assert verdict_of(tmp_path, []).state == "empty"


def test_converged_when_all_yes_and_answers_agree(tmp_path: Path) -> None:
    v = verdict_of(tmp_path, [{"a": TOML, "b": YAML}, {"a": (TOML, True), "b": (TOML2, True)}])
    assert (v.state, v.turn) == ("converged", 2)
    assert "recommendation overlap" in v.detail


def test_files_after_convergence_are_extra(tmp_path: Path) -> None:
    v = verdict_of(tmp_path, [{"a": TOML, "b": TOML}, {"a": (TOML, True), "b": (TOML, True)}, {"a": TOML}])
    assert v.state == "converged" and v.turn == 2 and v.extra_files[0].endswith("turn-3-a.md")


def test_in_progress_when_a_later_turn_is_started(tmp_path: Path) -> None:
    v = verdict_of(tmp_path, [{"a": TOML, "b": YAML}, {"a": TOML}])
    assert v.state == "in_progress" and v.missing == ("b",)


def test_hollow_when_all_yes_but_answers_differ(tmp_path: Path) -> None:
    v = verdict_of(tmp_path, [{"a": TOML, "b": YAML}, {"a": (TOML, True), "b": (YAML, True)}])
    assert v.state == "hollow" and "opposite stances" in v.detail


def test_max_turns(tmp_path: Path) -> None:
    v = verdict_of(tmp_path, [{"a": TOML, "b": YAML}, {"a": TOML, "b": YAML}], max_turns=2)
    assert v.state == "max_turns"


def test_latent_when_answers_agree_but_someone_says_no(tmp_path: Path) -> None:
    v = verdict_of(tmp_path, [{"a": TOML, "b": YAML}, {"a": (TOML, True), "b": (TOML2, False)}])
    assert v.state == "latent" and "b still says no" in v.detail


def test_stalled_when_nobody_moves_for_two_turns(tmp_path: Path) -> None:
    v = verdict_of(tmp_path, [{"a": TOML, "b": YAML}] * 3)
    assert v.state == "stalled" and v.turn == 3


def test_still_moving_is_in_progress(tmp_path: Path) -> None:
    v = verdict_of(tmp_path, [{"a": TOML, "b": YAML}, {"a": TOML, "b": YAML}, {"a": YAML, "b": TOML}])
    assert v.state == "in_progress"


def test_roster_member_who_never_wrote_keeps_turn_incomplete(tmp_path: Path) -> None:
    v = verdict_of(tmp_path, [{"a": TOML, "b": TOML}, {"a": (TOML, True), "b": (TOML, True)}],
                   participants=("a", "b", "c"))
    assert v.state == "in_progress" and v.missing == ("c",)
