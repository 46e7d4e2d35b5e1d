"""#36 item 1: one bold line at turn 1, written independently, ends the debate there (`unanimous`)."""

from __future__ import annotations

from pathlib import Path

from conftest import Cli, Outcome
from helpers import key_of, make_debate, turn_body

from multidebate.analysis.verdict import judge
from multidebate.state.debate import load_debate

LINE = "**Use TOML for the config file.**"


def session_turn_1(cli: Cli, folder: str, slug: str, answer: str) -> Outcome:
    """What a session does at turn 1: `next`, then `write` (no key yet)."""
    served = cli("next", folder, "--slug", slug)
    assert served.code == 0, served
    # what the session's shell shows, both streams (the key and the notes)
    return cli("write", folder, "--slug", slug, input=turn_body(1, answer), mixed=True)


def test_one_line_at_turn_1_ends_the_debate_for_every_command(cli: Cli, tmp_path: Path) -> None:
    folder = str(tmp_path / "d")
    assert cli("init", folder, "--task", "Pick a config format.", "--participants", "a,b").code == 0
    first = session_turn_1(cli, folder, "a", LINE)
    assert first.code == 0
    assert "unanimous" not in first.out
    last = session_turn_1(cli, folder, "b", "**use TOML for the config file**")  # one line under the normalisation
    assert last.code == 0, last.out
    assert ("Every session wrote one bold line at turn 1, independently: the debate ended there (unanimous), and "
            "no turn follows. Tell the user.") in last.out
    status = cli("status", folder, "--check", mixed=True)
    assert status.code == 0
    assert "verdict: unanimous at turn 1" in status.out
    data = cli("status", folder, "--json").json()["verdict"]
    assert (data["state"], data["turn"]) == ("unanimous", 1)
    assert data["detail"] == ("both answered turn 1 independently (none having read a peer) with one bold line, word "
                              "for word: **Use TOML for the config file.**")
    served = cli("next", folder, "--slug", "a", "--key", key_of_output(first))
    assert served.code == 0
    assert "NOTE: The debate ended at turn 1: every session answered alike, independently (unanimous): do not " \
           "write another turn." in served.out
    assert "multidebate write" not in served.out
    assert "<<<PEER" not in served.out
    as_json = cli("next", folder, "--slug", "a", "--key", key_of_output(first), "--json").json()
    assert as_json["debate_over"] is True
    assert as_json["write_command"] is None
    assert as_json["verdict"]["state"] == "unanimous"
    shown = cli("status", folder).out
    assert "all answered alike, independently" not in shown  # status prints the state name; the report the words
    assert "**all answered alike, independently** at turn 1" in cli("report", folder).out


def key_of_output(result: Outcome) -> str:
    return result.out.split("Your key for `", 1)[1].split("` is ", 1)[1].split(":", 1)[0].split()[0]


def test_the_report_shows_the_first_slugs_turn_1_answer_and_each_others_own(cli: Cli, tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [{"b": f"{LINE}\n\nB: comments and a stdlib parser.",
                                                "a": f"{LINE}\n\nA: tomllib reads it."}], participants=("a", "b"))
    data = cli("report", folder, "--format", "json").json()["final_answer"]
    assert (data["kind"], data["turn"], data["representative"], data["answer_turn"], data["independent"]) == (
        "consensus", 1, "a", 1, True)
    assert data["recommendation"] == "Use TOML for the config file."
    assert "A: tomllib reads it." in data["answer"]
    assert data["read_by"] == []
    assert data["added_at_last_turn"] == [
        {"slug": "b", "lines": ["B: comments and a stdlib parser."]}]
    text = cli("report", folder).out
    final = text.split("## Final answer", 1)[1].split("## Turns", 1)[0]
    assert "Unanimous at turn 1: a, b wrote one bold line, word for word, each without reading a peer" in final
    assert "The text shown is a's turn-1 Answer (the first slug's)" in final
    assert "**The other sessions' turn-1 Answers, each its own**" in final
    assert "- b:\n  - B: comments and a stdlib parser." in final


def test_min_turns_2_keeps_the_exchange(cli: Cli, tmp_path: Path) -> None:
    helped = cli("init", "--help").out
    assert "2 keeps the exchange regardless" in " ".join(helped.split())
    assert "(unanimous)" in helped
    folder = str(tmp_path / "d")
    assert cli("init", folder, "--task", "Pick.", "--participants", "a,b", "--min-turns", "2").code == 0
    keys = {}
    for slug in ("a", "b"):
        written = session_turn_1(cli, folder, slug, LINE)
        assert written.code == 0
        assert "unanimous" not in written.out
        keys[slug] = key_of_output(written)
    assert judge(load_debate(folder)).state == "in_progress"
    assert cli("status", folder, "--check").code == 3
    for slug in ("a", "b"):
        served = cli("next", folder, "--slug", slug, "--key", keys[slug])
        assert "WRITE YOUR TURN" in served.out
        written = cli("write", folder, "--slug", slug, "--key", keys[slug], input=turn_body(2, LINE, converged=True))
        assert written.code == 0, written
    assert (judge(load_debate(folder)).state, judge(load_debate(folder)).turn) == ("converged", 2)


def test_a_hand_written_turn_1_is_no_independent_answer_unless_sealed(tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [{"a": LINE}], participants=("a", "b"))
    Path(folder, "turn-1-b.md").write_text("# Turn 1 — b\n\n" + turn_body(1, LINE))  # no record of what b read
    v = judge(load_debate(folder))
    assert v.state == "in_progress"
    assert "the bold lines are one line, but a, b say no" in v.detail


def test_a_turn_1_that_records_reading_a_peers_turn_1_is_not_independent(tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [{"a": LINE}], participants=("a", "b"))
    Path(folder, "turn-1-b.md").write_text(
        "---\nprotocol: 1\nturn: 1\nslug: b\npeers_read:\n- file: turn-1-a.md\n  sha256: '00'\n---\n"
        "# Turn 1 — b\n\n" + turn_body(1, LINE))
    assert judge(load_debate(folder)).state == "in_progress"
    # the same file recording nothing read: independent
    Path(folder, "turn-1-b.md").write_text(
        "---\nprotocol: 1\nturn: 1\nslug: b\npeers_read: []\n---\n# Turn 1 — b\n\n" + turn_body(1, LINE))
    assert judge(load_debate(folder)).state == "unanimous"


def test_a_sealed_debate_is_independent_by_construction(tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [{s: LINE for s in "abc"}], participants=("a", "b", "c"), sealed=True)
    v = judge(load_debate(folder))
    assert (v.state, v.turn) == ("unanimous", 1)
    assert "(sealed until all had written it)" in v.detail


def test_different_lines_at_turn_1_go_on(cli: Cli, tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [{"a": LINE, "b": "**Use YAML.**"}], participants=("a", "b"))
    assert judge(load_debate(folder)).state == "in_progress"
    assert "WRITE YOUR TURN" in cli("next", folder, "--slug", "a", "--key", key_of(folder, "a")).out


def test_no_judgment_is_due_when_the_debate_is_unanimous(cli: Cli, tmp_path: Path) -> None:
    from helpers import write_keyed

    folder = str(tmp_path / "d")
    cli("init", folder, "--task", "Pick a format.", "--participants", "a,b", "--role", "j=judge")
    for slug in ("a", "b"):
        write_keyed(folder, slug, turn_body(1, LINE).encode())
    served = cli("next", folder, "--slug", "j").out
    assert "The debate ended unanimous: the participants agree, so no judgment is needed." in served


def test_without_a_roster_the_first_two_alike_do_not_end_it(tmp_path: Path) -> None:
    """With no roster, every participant is whoever has written: two sessions alike at turn 1 must not end a
    debate a third is still answering (it joins, and writes turn 1)."""
    from helpers import write_keyed

    folder = make_debate(str(tmp_path / "d"), [{"a": "**Use TOML.**", "b": "**Use TOML.**"}])
    assert judge(load_debate(folder)).state == "in_progress"
    write_keyed(folder, "c", turn_body(1, "**Use YAML.**").encode())  # `next`, then `write`
    assert judge(load_debate(folder)).state == "in_progress"


def test_retiring_the_turn_1_dissent_does_not_make_turn_1_unanimous(cli: Cli, tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [{"a": "**Use TOML.**", "b": "**Use TOML.**", "c": "**Use YAML.**"}],
                         participants=("a", "b", "c"))
    assert cli("retire", folder, "c", "--yes").code == 0
    assert judge(load_debate(folder)).state != "unanimous"
