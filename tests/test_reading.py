"""#36 items 2 and 3: `next` serves less where nothing can change a mind, never what a session needs."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import Cli
from helpers import key_of, make_debate, turn_body, write_keyed

from multidebate.analysis.verdict import judge
from multidebate.state.debate import load_debate


def served(cli: Cli, folder: str, slug: str, *more: str) -> str:
    """What `next` shows `slug` (with its key), checked to succeed."""
    result = cli("next", folder, "--slug", slug, "--key", key_of(folder, slug), *more)
    assert result.code == 0, result
    return result.out


def body(turn: int, line: str, reasoning: str, answer: str = "", **kw: object) -> bytes:
    text = turn_body(turn, line + (f"\n\n{answer}" if answer else ""), **kw)  # type: ignore[arg-type]
    return text.replace(f"Thinking for turn {turn}.", reasoning).encode()


def write_turn(folder: str, turn: int, rows: dict[str, tuple[str, str]], **kw: object) -> None:
    """Each session runs `next`, then `write` (write_keyed runs `next` first)."""
    for slug, (line, reasoning) in rows.items():
        write_keyed(folder, slug, body(turn, line, reasoning, **kw))


PAD = " More of the same argument." * 30  # long enough that serving less saves what its note costs

QUIZ_REASONING = ("Q1: two and two make four, checked by counting on fingers." + PAD + "\n\n"
                  "Q2: the definition in the textbook points at {q2}; the other reading confuses two terms.\n\n"
                  "Q3: the capital is the third option, as every atlas says." + PAD)


def quiz(tmp_path: Path) -> str:
    folder = make_debate(str(tmp_path / "d"), [], task="Answer Q1-Q3.", participants=("a", "b", "c"))
    write_turn(folder, 1, {"a": ("**Q1: 4, Q2: B, Q3: C**", QUIZ_REASONING.format(q2="B")),
                           "b": ("**Q1: 4, Q2: A, Q3: C**", QUIZ_REASONING.format(q2="A")),
                           "c": ("**Q1: 4, Q2: B, Q3: C**", QUIZ_REASONING.format(q2="B"))})
    return folder


def test_settled_items_are_listed_once_and_peers_are_served_on_the_contested_ones(cli: Cli, tmp_path: Path) -> None:
    folder = quiz(tmp_path)
    out = served(cli, folder, "a")
    assert ("SETTLED ITEMS (every turn-1 line gave them, every turn-1 line still does; keep them in your bold line: "
            "changing one there reopens it):\nQ1: 4; Q3: C") in out
    assert "counting on fingers" not in out
    assert "every atlas says" not in out  # the settled items' reasoning
    assert out.count("the textbook points at") == 2  # Q2's, from both peers
    assert out.count("**Q1: 4, Q2: A, Q3: C**") == 2  # b's bold line whole: in its file and among the lines
    assert "settled items left out: its Reasoning and Answer cut to the contested items (Q2)" in out
    assert f"`multidebate next {folder} --slug a --key {key_of(folder, 'a')} --full` serves every peer file whole]" \
        in out
    whole = served(cli, folder, "a", "--full")
    assert whole.count("counting on fingers") == 2
    assert "SETTLED ITEMS" not in whole
    assert "served in part" not in whole
    data = json.loads(served(cli, folder, "a", "--json"))
    assert data["settled_items"] == [{"key": "q1", "value": "4"}, {"key": "q3", "value": "C"}]
    assert all(p["left_out"] and "counting" not in p["text"] for p in data["peers"])


def test_a_session_reopens_a_settled_item_only_by_changing_it_in_its_line(cli: Cli, tmp_path: Path) -> None:
    folder = quiz(tmp_path)
    reopen = "Q1: on second thought, in base 3 two and two make 11." + PAD
    write_turn(folder, 2, {"a": ("**Q1: 4, Q2: B, Q3: C**", "Q2: B, as the textbook says."),
                           "b": ("**Q1: 4, Q2: B, Q3: C**", "Q2: B after all.\n\n" + reopen),  # prose alone
                           "c": ("**Q1: 4, Q2: B, Q3: C**", "Q2: B.")})
    out = served(cli, folder, "a")
    assert "Q1: 4; Q3: C" in out
    assert reopen not in out  # prose alone reopens nothing
    folder2 = quiz(tmp_path / "two")
    write_turn(folder2, 2, {"a": ("**Q1: 4, Q2: B, Q3: C**", "Q2: B, as the textbook says."),
                            "b": ("**Q1: 11, Q2: B, Q3: C**", "Q2: B after all.\n\n" + reopen
                                  + "\n\nQ3: still the capital of the atlas." + PAD),  # in its line
                            "c": ("**Q1: 4, Q2: B, Q3: C**", "Q2: B.")})
    out = served(cli, folder2, "a")
    assert "SETTLED ITEMS" in out
    assert "\nQ3: C\n" in out
    assert reopen in out
    assert "of the atlas" not in out
    assert "cut to the contested items (Q1, Q2)" in out
    # the verdict compares whole lines: the reopened item keeps the debate open
    assert judge(load_debate(folder2)).state == "in_progress"


def test_item_rules_leave_an_open_debate_alone(cli: Cli, tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [], participants=("a", "b"))
    write_turn(folder, 1, {"a": ("**Use TOML.**", "Q1 of the survey liked TOML."),
                           "b": ("**Use YAML.**", "Anchors matter.")})
    out = served(cli, folder, "a")
    assert "SETTLED ITEMS" not in out
    assert "served in part" not in out
    assert "Anchors matter." in out


OPEN = {"a": "**Use TOML.**", "b": "**Use TOML.**", "c": "**Use YAML.**", "d": "**Use JSON.**"}


def open_debate(tmp_path: Path) -> str:
    """Turn 1: a and b hold TOML, c YAML, d JSON.  Turn 2: c moves to TOML; a, b hold; d holds JSON."""
    folder = make_debate(str(tmp_path / "d"), [], participants=("a", "b", "c", "d"))
    write_turn(folder, 1, {s: (line, f"{s} turn-1 reasoning." + PAD) for s, line in OPEN.items()})
    for slug, line, reasoning, disagreements in (
            ("a", OPEN["a"], "a turn-2 reasoning: tomllib is in the stdlib.", "- With d: JSON has no comments"),
            ("b", OPEN["b"], "b turn-2 reasoning: a new benchmark of parsers.",
             "- With a: minor: the file name\n- With d: JSON has no comments"),
            ("c", OPEN["a"], "c turn-2 reasoning: I move to TOML, convinced by a.", "- With d: comments"),
            ("d", OPEN["d"], "d turn-2 reasoning: JSON everywhere.", "- With a: JSON is universal")):
        write_keyed(folder, slug, body(2, line, reasoning + PAD, disagreements=disagreements))
    return folder


def test_after_turn_2_a_peer_holding_the_readers_line_unchanged_is_served_short(cli: Cli, tmp_path: Path) -> None:
    folder = open_debate(tmp_path)
    out = served(cli, folder, "a")
    peer_b = out.split("<<<PEER b", 1)[1].split(">>>END", 1)[0]
    assert "b turn-2 reasoning" not in peer_b
    assert "**Use TOML.**" in peer_b
    assert "- With a: minor: the file name" in peer_b
    assert "With d" not in peer_b  # what it says to the reader
    assert "## Confidence\n70" in peer_b
    assert "## Converged\nno" in peer_b
    assert "b holds your line, as at its turn 1: its line, Confidence, Converged and what it says to you are " \
           "served" in peer_b
    assert "--full` serves every peer file whole]" in peer_b
    # whole: c changed its line (its new argument), d differs from a's line (its argument answers it)
    assert "c turn-2 reasoning: I move to TOML" in out
    assert "d turn-2 reasoning: JSON everywhere." in out
    assert "b turn-2 reasoning" in served(cli, folder, "a", "--full")


def test_the_answer_a_yes_would_accept_is_always_whole(cli: Cli, tmp_path: Path) -> None:
    """c holds TOML since turn 2: a yes keeping it accepts a's turn-2 Answer (a wrote the line first, at turn 1,
    and comes first of a and b), so a is served whole though it holds c's line unchanged; b is served short."""
    folder = open_debate(tmp_path)
    out = served(cli, folder, "c")
    assert "a turn-2 reasoning: tomllib is in the stdlib." in out
    assert "b turn-2 reasoning" not in out
    assert "b holds your line" in out


def test_turn_2_serves_every_peer_whole(cli: Cli, tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [], participants=("a", "b", "c"))
    write_turn(folder, 1, {"a": ("**Use TOML.**", "a reasoning." + PAD), "b": ("**Use TOML.**", "b reasoning." + PAD),
                           "c": ("**Use YAML.**", "c reasoning." + PAD)})
    out = served(cli, folder, "a")
    assert "b reasoning." in out
    assert "served in part" not in out


def test_run_serves_what_next_serves(tmp_path: Path) -> None:
    from multidebate.run.prompt import agent_prompt
    from multidebate.turns.briefing import plan_briefing

    folder = open_debate(tmp_path)
    prompt = agent_prompt(plan_briefing(load_debate(folder), "a", key=key_of(folder, "a")).briefing)
    assert "b turn-2 reasoning" not in prompt
    assert "b holds your line" in prompt
    assert "--full" not in prompt  # an agent `run` starts runs no command


def test_an_argument_on_a_contested_item_is_served_until_a_settled_item_is_named(cli: Cli, tmp_path: Path) -> None:
    """d81: lark-3's Q7 argument ended at "the day test is:"; its code block and the paragraph after it, which did
    not repeat "Q7", were left out as if they were about a settled item."""
    reasoning = ("Q1: two and two make four." + PAD + "\n\n"
                 "Q2: the manual decides it; the day test is:\n\n"
                 "```\nif (dom_restricted && dow_restricted) run_if(dom || dow);\n```\n\n"
                 "So the job runs when either field matches.\n\n"
                 "Q3: the capital is the third option, as every atlas says." + PAD)
    folder = make_debate(str(tmp_path / "d"), [], task="Answer Q1-Q3.", participants=("a", "b", "c"))
    write_turn(folder, 1, {"a": ("**Q1: 4, Q2: B, Q3: C**", reasoning),
                           "b": ("**Q1: 4, Q2: A, Q3: C**", reasoning),
                           "c": ("**Q1: 4, Q2: B, Q3: C**", reasoning)})
    peer_b = served(cli, folder, "a").split("<<<PEER b", 1)[1].split(">>>END", 1)[0]
    assert "settled items left out" in peer_b
    assert "the day test is:" in peer_b
    assert "run_if(dom || dow);" in peer_b
    assert "So the job runs when either field matches." in peer_b
    assert "two and two make four" not in peer_b  # settled, before any contested item
    assert "every atlas says" not in peer_b  # settled, after


def test_no_item_is_settled_while_a_peer_has_not_written(cli: Cli, tmp_path: Path) -> None:
    """d81: with one of four sessions yet to write turn 1, `next --wait` timed out and listed SETTLED ITEMS
    that "every turn-1 line gave", from three lines."""
    folder = make_debate(str(tmp_path / "d"), [], task="Answer Q1-Q3.", participants=("a", "b", "c"))
    write_turn(folder, 1, {"a": ("**Q1: 4, Q2: B, Q3: C**", QUIZ_REASONING.format(q2="B")),
                           "b": ("**Q1: 4, Q2: A, Q3: C**", QUIZ_REASONING.format(q2="A"))})
    out = served(cli, folder, "a")
    assert "Not yet written turn 1: c." in out
    assert "SETTLED ITEMS" not in out
    assert "counting on fingers" in out  # b served whole
    write_keyed(folder, "c", body(1, "**Q1: 4, Q2: B, Q3: C**", QUIZ_REASONING.format(q2="B")))
    assert "SETTLED ITEMS" in served(cli, folder, "a")


def test_what_a_peer_served_short_says_to_the_reader_is_served_whole(cli: Cli, tmp_path: Path) -> None:
    """d81: a peer served short had its Disagreements to the reader cut mid-word ("...and U+0663 is N"): the
    cache keeps an item's first 160 characters, and those were served."""
    long_point = ("- With a: minor: the file name should say which environment it configures, because "
                  "operators grep for it during incidents, and a name without the environment has sent "
                  "them to the wrong file twice this year; END-OF-POINT")
    folder = make_debate(str(tmp_path / "d"), [], participants=("a", "b", "c", "d"))
    write_turn(folder, 1, {s: (line, f"{s} turn-1 reasoning." + PAD) for s, line in OPEN.items()})
    for slug, line, disagreements in (("a", OPEN["a"], "- With d: JSON has no comments"),
                                      ("b", OPEN["b"], long_point + "\n- With d: JSON has no comments"),
                                      ("c", OPEN["a"], "- With d: comments"),
                                      ("d", OPEN["d"], "- With a: JSON is universal")):
        write_keyed(folder, slug, body(2, line, f"{slug} turn-2 reasoning." + PAD, disagreements=disagreements))
    peer_b = served(cli, folder, "a").split("<<<PEER b", 1)[1].split(">>>END", 1)[0]
    assert "b holds your line" in peer_b
    assert long_point in peer_b
    assert "With d" not in peer_b


def test_long_files_served_in_part_already_get_no_note_naming_nobody(cli: Cli, tmp_path: Path) -> None:
    """d81: three peer files served in part (settled items left out) were still long in all, no Reasoning was cut
    for size, and `next` said "the Reasoning of  is cut"."""
    argument = "Q2: " + "".join(f"point {n} on the second question. " for n in range(230))
    reasoning = "Q1: two and two make four." + PAD + "\n\n" + argument
    folder = make_debate(str(tmp_path / "d"), [], task="Answer Q1-Q2.", participants=("a", "b", "c", "d"))
    write_turn(folder, 1, {"a": ("**Q1: 4, Q2: B**", "Short."), "b": ("**Q1: 4, Q2: A**", reasoning),
                           "c": ("**Q1: 4, Q2: B**", reasoning), "d": ("**Q1: 4, Q2: A**", reasoning)})
    data = json.loads(served(cli, folder, "a", "--json"))
    assert all(p["left_out"] for p in data["peers"])
    assert sum(len(p["text"]) for p in data["peers"]) > 20_000
    assert not any(p["cut_from_chars"] for p in data["peers"])
    assert not [n for n in data["notes"] if "peer files are" in n]
