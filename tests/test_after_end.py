"""A debate that ended stays ended (#34): `write` refuses a turn after the end, and a turn file written by hand
after it is listed as extra and counted nowhere (status rows, report turns and flags, score moves, next, watch)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import Cli
from helpers import key_of, make_debate, turn_body

from multidebate.protocol.errors import DebateEnded
from multidebate.turns.write import write_turn

TOML, YAML = "**Use TOML.**", "**Use YAML, not TOML.**"
HOLLOW = [{"a": TOML, "b": YAML}] + [{"a": (TOML, True), "b": (YAML, True)}] * 2  # #32: two all-yes turns
CONVERGED = [{"a": YAML, "b": TOML}, {"a": (TOML, True), "b": (TOML, True)}]
STALLED = [{"a": TOML, "b": YAML}] * 3


def by_hand(folder: str, slug: str, turn: int, answer: str) -> str:
    """A turn file a person or a session without the CLI writes: no `write`, so nothing refuses it."""
    path = os.path.join(folder, f"turn-{turn}-{slug}.md")
    Path(path).write_text(f"# Turn {turn} \u2014 {slug}\n\n" + turn_body(turn, answer), encoding="utf-8")
    return path


@pytest.mark.parametrize(("turns", "how"), [
    (HOLLOW, "the debate ended hollow at turn 3 (all say yes at turn 3 again, but their bold lines are still not"),
    (CONVERGED, "the debate converged at turn 2,"),
    (STALLED, "the debate ended stalled at turn 3 (no recommendation changed from turn 1 to 3"),
])
def test_write_refuses_a_turn_after_the_end(cli: Cli, tmp_path: Path, turns: list[dict[str, object]], how: str) -> None:
    folder = make_debate(str(tmp_path / "d"), turns, participants=("a", "b"))  # type: ignore[arg-type]
    before = sorted(os.listdir(folder))
    body = turn_body(len(turns) + 1, "**Use YAML.**")
    result = cli("write", folder, "--slug", "a", "--key", key_of(folder, "a"), input=body)
    assert result.code == 1, result
    assert result.err.startswith(f"Error: nothing written: {how}"), result.err
    assert "no turn is written after the end. Tell the user; `multidebate report" in result.err
    assert sorted(os.listdir(folder)) == before
    as_json = cli("write", folder, "--slug", "a", "--key", key_of(folder, "a"), "--json", input=body)
    assert as_json.code == 1
    assert as_json.json()["ok"] is False
    # the library refuses it too, so `run` (which calls write_turn) never writes past the end
    with pytest.raises(DebateEnded):
        write_turn(folder, "b", body.encode(), key_of(folder, "b"))
    assert sorted(os.listdir(folder)) == before


def test_a_turn_written_by_hand_after_the_end_is_listed_and_counted_nowhere(cli: Cli, tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), HOLLOW, participants=("a", "b"))
    extra = by_hand(folder, "a", 4, "**Use YAML.**")
    status = cli("status", folder, "--json")
    data = status.json()
    assert data["verdict"]["state"] == "hollow"
    assert data["verdict"]["turn"] == 3
    assert data["verdict"]["extra_files"] == [extra]
    assert data["current_turn"] == 3
    assert data["missing"] == []
    text = cli("status", folder).out
    assert "missing from turn" not in text
    assert "\n4*" not in text
    assert f"written after the debate ended (left out): {extra}" in text
    report = cli("report", folder).out
    assert "Written after the debate ended, and left out of this report: turn-4-a.md." in report
    assert "| 4" not in report
    assert "unexplained_flip" not in report
    assert "fewer than two answers" not in report
    chart = cli("report", folder, "--format", "json").json()
    assert max(t["turn"] for t in chart["turns"]) == 3
    brief = cli("next", folder, "--slug", "b", "--key", key_of(folder, "b"), "--json")
    served = brief.json()
    assert served["debate_over"] is True
    assert served["verdict"]["state"] == "hollow"


@pytest.mark.parametrize(("turns", "state", "end", "max_turns"), [
    ([{"a": TOML, "b": YAML}] + [{"a": (TOML, True), "b": (YAML, True)}] * 2, "hollow", 3, None),
    ([{"a": TOML, "b": YAML}] * 3, "stalled", 3, None),
    ([{"a": TOML, "b": YAML}] * 2, "max_turns", 2, 2),
])
def test_a_debate_written_by_hand_stays_ended(cli: Cli, tmp_path: Path, turns: list[dict[str, object]], state: str,
                                              end: int, max_turns: int | None) -> None:
    """Sessions without the CLI hold no key, so their extra file is not left out as another's (E085): the end
    alone leaves it out."""
    folder = make_debate(str(tmp_path / "d"), [], participants=("a", "b"), max_turns=max_turns)
    for number, row in enumerate(turns, start=1):
        for slug, value in row.items():
            answer, converged = value if isinstance(value, tuple) else (value, False)
            path = os.path.join(folder, f"turn-{number}-{slug}.md")
            Path(path).write_text(f"# Turn {number} \u2014 {slug}\n\n"
                                  + turn_body(number, str(answer), converged=bool(converged)), encoding="utf-8")
    extra = by_hand(folder, "b", end + 1, "**Use JSON.**")
    data = cli("status", folder, "--json").json()
    assert (data["verdict"]["state"], data["verdict"]["turn"], data["verdict"]["notes"]) == (state, end, [])
    assert data["verdict"]["extra_files"] == [extra]
    assert data["current_turn"] == end
    assert data["missing"] == []


def test_a_move_after_the_end_is_not_scored(cli: Cli, tmp_path: Path) -> None:
    agreed = "**Q1: 12, Q2: C**"
    folder = make_debate(str(tmp_path / "d"), [{"a": agreed, "b": agreed}, {"a": (agreed, True), "b": (agreed, True)}])
    by_hand(folder, "a", 3, "**Q1: 13, Q2: C**")
    (tmp_path / "key.txt").write_text("Q1: 12\nQ2: C\n", encoding="utf-8")
    result = cli("score", folder, "--key", str(tmp_path / "key.txt"), "--json")
    assert result.code == 0, result
    data = result.json()
    assert [t["turn"] for t in data["turns"]] == [1, 2]
    text = cli("score", folder, "--key", str(tmp_path / "key.txt")).out
    assert "2->3" not in text
    assert "\n3 " not in text
