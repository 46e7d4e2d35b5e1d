"""The final answer of a converged debate is a text every participant read and accepted (#32 item 4).

Every debate here is written the way sessions write: `next`, then `write`, with the key (tests/helpers.py);
a session that skipped `next` is written with `write_turn` alone, as such a session would be.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import Cli
from helpers import key_of, make_debate, turn_body

from multidebate.turns.briefing import brief
from multidebate.turns.write import write_turn

KAFKA = "**Use managed Kafka with 7 days of retention.**"
NATS = "**Use NATS JetStream.**"


def report(cli: Cli, folder: str, fmt: str = "md") -> str:
    result = cli("report", folder, "--format", fmt)
    assert result.code == 0, result
    return result.out


def final_json(cli: Cli, folder: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(report(cli, folder, "json"))["final_answer"]
    return data


def test_the_agreed_text_is_the_answer_every_yes_read(cli: Cli, tmp_path: Path) -> None:
    """a wrote the line at turn 1; b copied it at turn 2: the text is a's turn-1 Answer, which b's turn-2 file
    records reading (its sha256); what each added at turn 2 is listed as unread."""
    folder = make_debate(str(tmp_path / "d"), [
        {"a": KAFKA + "\n\nRun it on MSK in eu-west-1.", "b": NATS + "\n\nFile storage."},
        {"a": (KAFKA + "\n\nRun it on MSK in eu-west-1.\nAdd a dead-letter topic.", True),
         "b": (KAFKA + "\n\nRun it on MSK in eu-west-1.\nPut the fallback on a separate Postgres instance.", True)}])
    final = final_json(cli, folder)
    assert (final["kind"], final["turn"], final["representative"], final["answer_turn"]) == ("consensus", 2, "a", 1)
    assert final["answer"] == KAFKA + "\n\nRun it on MSK in eu-west-1."
    assert (final["read_by"], final["unrecorded"], final["not_read_by"], final["line_only"]) == (["b"], [], [], False)
    assert final["added_at_last_turn"] == [
        {"slug": "a", "lines": ["Add a dead-letter topic."]},
        {"slug": "b", "lines": ["Put the fallback on a separate Postgres instance."]}]
    md = report(cli, folder)
    section = md.split("## Final answer", 1)[1].split("## Turns", 1)[0]
    assert "The agreed text is a's Answer of turn 1, the text every yes at turn 2 was shown. Read and accepted by a, b" \
        in section
    agreed, added = section.split("**Added at the last turn, not read by peers** (turn 2): each line that is not word "
                                  "for word in the agreed text or the session's own previous Answer, rewordings included")
    assert "Run it on MSK in eu-west-1." in agreed
    assert "separate Postgres instance" not in agreed
    assert "- b:\n  - Put the fallback on a separate Postgres instance." in added
    html = report(cli, folder, "html")
    assert "Added at the last turn, not read by peers" in html
    assert "Read and accepted by a, b" in html


def test_the_first_writer_of_the_line_wins_over_the_first_slug(cli: Cli, tmp_path: Path) -> None:
    """b held the line since turn 1, a took it at turn 2: at turn 3 both carried it, b's is the text."""
    folder = make_debate(str(tmp_path / "d"), [
        {"a": NATS, "b": KAFKA + "\n\nb's reasons."}, {"a": KAFKA + "\n\na's reasons.", "b": KAFKA + "\n\nb's reasons."},
        {"a": (KAFKA, True), "b": (KAFKA, True)}])
    final = final_json(cli, folder)
    assert (final["representative"], final["answer_turn"], final["answer"]) == ("b", 2, KAFKA + "\n\nb's reasons.")
    assert final["read_by"] == ["a"]
    assert final["line_since"] == 1
    # d76: the older line is named, so "turn 2" does not read as the wrong turn
    assert "b's Answer of turn 2, the text every yes at turn 3 was shown; b first wrote this line at turn 1" in report(cli, 
        folder)


def test_lines_that_first_become_one_at_the_end_leave_the_line_alone(cli: Cli, tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [
        {"a": NATS, "b": KAFKA}, {"a": ("**Use Redis Streams.**\n\nA's text.", True),
                                  "b": ("**Use Redis Streams.**\n\nB's text.", True)}])
    final = final_json(cli, folder)
    assert (final["kind"], final["representative"], final["answer"], final["line_only"]) == (
        "consensus", None, "", True)
    assert final["recommendation"] == "Use Redis Streams."
    md = report(cli, folder)
    assert "No Answer carried this line at turn 1, so no text was read by every participant" in md
    assert "**Each session's turn-2 Answer, not read by peers**" in md
    assert "B's text." in md


def test_a_yes_that_skipped_next_or_was_written_by_hand_is_named(cli: Cli, tmp_path: Path) -> None:
    """c wrote turn 2 without running `next` (its file records no peer read); d's turn 2 is hand-written."""
    folder = make_debate(str(tmp_path / "d"), [{"a": KAFKA, "b": KAFKA, "c": KAFKA}], participants=("a", "b", "c"),
                         min_turns=2)  # one line at turn 1 would end it unanimous (#36)
    for slug in ("a", "b"):
        brief(folder, slug, key=key_of(folder, slug))
        write_turn(folder, slug, turn_body(2, KAFKA, converged=True).encode(), key_of(folder, slug))
    write_turn(folder, "c", turn_body(2, KAFKA, converged=True).encode(), key_of(folder, "c"))  # no `next` first
    final = final_json(cli, folder)
    assert final["kind"] == "consensus"
    assert (final["representative"], final["read_by"], final["not_read_by"]) == ("a", ["b"], ["c"])
    assert "Not read by c: their files record no reading of it" in report(cli, folder)


def test_a_point_against_a_peer_that_moved_in_the_same_turn_says_so(cli: Cli, tmp_path: Path) -> None:
    """#34 item 5: b's minor point answers a's turn-1 Answer, which a changed at turn 2 (both wrote at once)."""
    folder = make_debate(str(tmp_path / "d"), [{"a": KAFKA + "\n\nNo dead-letter topic.", "b": KAFKA}])
    for slug in ("a", "b"):
        brief(folder, slug, key=key_of(folder, slug))
    write_turn(folder, "a", turn_body(2, KAFKA + "\n\nAdd a dead-letter topic.", converged=True).encode(),
               key_of(folder, "a"))
    write_turn(folder, "b", turn_body(2, KAFKA, converged=True,
                                      disagreements="- With a: minor: add a dead-letter topic").encode(),
               key_of(folder, "b"))
    md = report(cli, folder)
    assert ("- b: With a: minor: add a dead-letter topic (written against a's turn-1 Answer: a changed its Answer "
            "at turn 2, at the same time, so this point may be answered there)") in md


def test_the_most_held_answer_shown_is_its_first_writers(cli: Cli, tmp_path: Path) -> None:
    """Not converged (c holds out): the most-held line is shown in the Answer of b, who wrote it first (d75: the
    first slug's text was shown, which sessions did not expect)."""
    folder = make_debate(str(tmp_path / "d"), [{"a": NATS, "b": KAFKA, "c": NATS},
                                               {"a": KAFKA + "\n\na's words.", "b": KAFKA + "\n\nb's words.",
                                                "c": NATS}], participants=("a", "b", "c"), max_turns=2)
    final = final_json(cli, folder)
    assert (final["kind"], final["supporters"], final["representative"]) == ("modal", ["a", "b"], "b")
    assert final["answer"] == KAFKA + "\n\nb's words."


def test_what_a_session_repeats_from_its_own_last_answer_is_not_listed_as_unread(cli: Cli, tmp_path: Path) -> None:
    """d81: three sessions' turn-3 Answers repeated their turn-2 ones, which peers read at turn 3, and were listed
    line by line as "not read by peers", each with a doubled bullet ("- - Q1: 4")."""
    rows = "\n".join(f"- Q{n}: reason number {n}." for n in range(1, 11))
    folder = make_debate(str(tmp_path / "d"), [
        {"a": KAFKA + "\n\nRun it on MSK.", "b": NATS},
        {"a": KAFKA + "\n\nRun it on MSK.", "b": KAFKA + "\n\n" + rows},
        {"a": (KAFKA + "\n\nRun it on MSK.", True), "b": (KAFKA + "\n\n" + rows + "\n- Q11: new at turn 3.", True)}])
    final = final_json(cli, folder)
    assert final["representative"] == "a"
    assert final["added_at_last_turn"] == [{"slug": "b", "lines": ["- Q11: new at turn 3."]}]
    added = report(cli, folder).split("**Added at the last turn, not read by peers** (turn 3)", 1)[1]
    assert "- b:\n  - Q11: new at turn 3." in added


def test_an_added_list_longer_than_shown_says_how_many_more(cli: Cli, tmp_path: Path) -> None:
    from multidebate.views.consensus_text import ADDED_SHOWN

    extra = "\n".join(f"* point {n} added at the end." for n in range(ADDED_SHOWN + 1))
    folder = make_debate(str(tmp_path / "d"), [
        {"a": KAFKA, "b": NATS}, {"a": (KAFKA, True), "b": (KAFKA + "\n\n" + extra, True)}])
    added = report(cli, folder).split("not read by peers** (turn 2)", 1)[1]
    assert f"  - point {ADDED_SHOWN - 1} added at the end." in added
    assert "  - … and 1 more line (`report --format json` has them all)" in added
