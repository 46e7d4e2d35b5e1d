"""report: the turn-1 vote beside an item-by-item final answer (#28: the items a debate overturned)."""

from __future__ import annotations

from pathlib import Path

from conftest import Cli
from helpers import make_debate

FIRST = {"a": "**Q1: 12, Q2: C, Q3: 7**", "b": "**Q1: 12, Q2: C, Q3: 8**", "c": "**Q1: 13, Q2: D, Q3: 9**"}
AGREED = "**Q1: 13, Q2: C, Q3: 9**"


def _debate(folder: Path, first: dict[str, str], participants: tuple[str, ...] = ("a", "b", "c")) -> str:
    # two agreeing turns: the debate converges at turn 2 (a third would be refused as written after the end)
    later = {slug: (AGREED, True) for slug in participants}
    return make_debate(str(folder), [first, later], participants=participants, sealed=True)


def test_the_report_names_the_items_the_debate_overturned(cli: Cli, tmp_path: Path) -> None:
    folder = _debate(tmp_path / "d", FIRST)
    result = cli("report", folder)
    assert result.code == 0, result
    assert ("Turn-1 vote (the majority of 3 first answers, sealed, so independent): it agrees with the final answer "
            "on 1 of the 2 items it decides. The debate overturned it on Q1 (vote 12, final 13): check these by hand. "
            "No majority at turn 1 on Q3.") in result.out
    data = cli("report", folder, "--format", "json").json()
    assert data["first_vote"] == {"voters": ["a", "b", "c"], "sealed": True, "items": 3, "agreeing": 1,
                                  "overturned": [{"item": "Q1", "vote": "12", "final": "13"}],
                                  "no_majority": [{"item": "Q3", "final": "9"}]}
    html = cli("report", folder, "--format", "html")
    assert html.code == 0
    assert "The debate overturned it on Q1 (vote 12, final 13)" in html.out


def test_a_vote_that_decides_no_item_is_not_counted_against_the_answer(cli: Cli, tmp_path: Path) -> None:
    """d82: "it agrees with the final answer on 0 of 6 items" read as six items the first answers got wrong, when
    no item had a majority at all."""
    folder = _debate(tmp_path / "d", {"a": "**Q1: 12, Q2: C, Q3: 7**", "b": "**Q1: 13, Q2: D, Q3: 8**",
                                      "c": "**Q1: 14, Q2: E, Q3: 9**"})
    out = cli("report", folder).out
    assert ("Turn-1 vote (the majority of 3 first answers, sealed, so independent): no item had a majority at turn 1, "
            "so it decides none.") in out
    assert "0 of 3" not in out


def test_a_vote_that_the_final_answer_kept_is_said_so_plainly(cli: Cli, tmp_path: Path) -> None:
    folder = _debate(tmp_path / "d", {slug: AGREED.replace("13", "13.0") if slug == "a" else AGREED
                                      for slug in ("a", "b", "c")})
    out = cli("report", folder).out
    assert "it agrees with the final answer on 3 of 3 items." in out  # 13.0 is 13: the scorer's normalisation
    assert "overturned" not in out
    assert "No majority" not in out


def test_no_vote_with_two_sessions_or_an_answer_that_is_no_list(cli: Cli, tmp_path: Path) -> None:
    two = _debate(tmp_path / "two", {"a": FIRST["a"], "b": FIRST["c"]}, ("a", "b"))
    assert cli("report", two, "--format", "json").json()["first_vote"] is None
    prose = make_debate(str(tmp_path / "prose"), [{s: "**Use TOML.**" for s in "abc"},
                                                  {s: ("**Use TOML.**", True) for s in "abc"}], min_turns=2,
                        participants=("a", "b", "c"))
    assert cli("report", prose, "--format", "json").json()["first_vote"] is None
    assert "Turn-1 vote" not in cli("report", prose).out


def test_a_turn_limit_with_identical_last_lines_is_not_called_without_agreement(cli: Cli, tmp_path: Path) -> None:
    # d01: every last line was identical, one session had said no, and the report was headed "without agreement"
    folder = make_debate(str(tmp_path / "d"), [{"a": "**Use TOML.**", "b": "**Use YAML.**"},
                                               {"a": ("**Use YAML.**", False), "b": ("**Use YAML.**", True)}],
                         participants=("a", "b"), max_turns=2)
    out = cli("report", folder).out
    assert "**turn limit reached, not converged**" in out
    assert "without agreement" not in out
    assert "the last bold lines are one line" in out
