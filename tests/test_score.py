"""`multidebate score`: an item-by-item debate against an answer key (#28).

Debates are built as sessions build them (`next`, then `write` with the key),
sealed at turn 1 as the accuracy debates are.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from conftest import Cli
from helpers import make_debate
from hypothesis import given, settings
from hypothesis import strategies as st

from multidebate.analysis.answer_key import AnswerKey, normalise, parse_key
from multidebate.analysis.score import Sheet, numbered_items, score
from multidebate.protocol.errors import KeyFileError

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "score"
ROSTER = ("alpha", "beta", "gamma")
KEY = "# five items\nQ1: 12\nQ2: C\nQ3: 1234\n\nQ4: A\nQ5: 7\n"
# turn 1, sealed: three ways of writing items; beta leaves Q5 out; Q4 and Q5 have no majority
TURN_1 = {"alpha": "**Q1: 12, Q2: C, Q3: 1,234, Q4: B, Q5: 7 days**",
          "beta": "**Answers:**\n\n- Q1: 13\n- Q2: (C)\n- Q3: 1234.0\n- Q4: A",
          "gamma": "1. 12\n2. D\n3. $1,234\n4. D\n5. 8"}
AGREED = "**Q1: 12, Q2: C, Q3: 1234, Q4: A, Q5: 8**"  # alpha gives up its right Q5 under pressure


def debate_with(folder: Path, turns: list[dict[str, Any]], max_turns: int | None = None) -> str:
    return make_debate(str(folder), turns, task="Answer Q1-Q5.", participants=ROSTER, sealed=True,
                       max_turns=max_turns)


@pytest.fixture
def scored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A converged three-turn debate and its key, in the current folder (relative paths: the golden output)."""
    debate_with(tmp_path / "debate", [
        TURN_1,
        {"alpha": "**Q1: 12, Q2: C, Q3: 1234, Q4: A, Q5: 7**", "beta": "**Q1: 12, Q2: C, Q3: 1234, Q4: A, Q5: 7**",
         "gamma": "**Q1: 12, Q2: C, Q3: 1234, Q4: D, Q5: 8**"},
        {slug: (AGREED, True) for slug in ROSTER},
    ])
    (tmp_path / "key.txt").write_text(KEY, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


# -- the command ------------------------------------------------------------------


def test_human_output_is_the_golden_file(cli: Cli, scored: Path) -> None:
    code, out, err = cli("score", "debate", "--key", "key.txt", color="never")
    assert (code, err) == (0, "")
    assert out == (FIXTURES / "expected.txt").read_text(encoding="utf-8")


def test_json_has_every_figure(cli: Cli, scored: Path) -> None:
    code, out, _err = cli("score", "debate", "--key", "key.txt", "--json", color="never")
    data = json.loads(out)
    assert code == 0
    assert data["items"] == 5
    assert data["participants"] == list(ROSTER)
    first = data["turns"][0]
    assert {s: (c["right"], c["missing"]) for s, c in first["participants"].items()} == \
        {"alpha": (4, 0), "beta": (3, 1), "gamma": (2, 0)}
    assert data["single_session"]["mean"] == round(9 / 15, 4)
    assert data["vote"] == {"turn": 1, "voters": 3, "right": 3, "total": 5, "share": 0.6, "ties": 2}
    assert [t["vote"]["right"] for t in data["turns"]] == [3, 5, 4]  # turn 2: 2 of 3 say Q4 A and Q5 7
    # the lines first became one at turn 3: the agreed line alone is the final answer (#32)
    assert data["final"] == {"kind": "consensus", "turn": 3, "representative": None, "right": 4, "total": 5,
                             "missing": 0, "share": 0.8}
    moved = {c["who"]: (c["right_to_wrong"], c["wrong_to_right"]) for c in data["changes"]}
    assert moved == {"alpha": (1, 1), "beta": (0, 1), "gamma": (0, 2)}
    assert (data["vote_to_final"]["right_to_wrong"], data["vote_to_final"]["wrong_to_right"]) == (0, 1)
    q5 = data["item_rows"][4]
    assert q5["key"] == "7"
    assert q5["final"] == {"answer": "8", "right": False}
    assert [v["tie"] for v in q5["votes"]] == [True, False, False]
    assert {(a["slug"], a["answer"]) for a in q5["answers"] if a["turn"] == 1} == \
        {("alpha", "7 days"), ("beta", None), ("gamma", "8")}


def test_a_split_final_answer_scores_every_item_wrong(cli: Cli, tmp_path: Path) -> None:
    """Not converged and no answer most held: the report names no final answer, so none is scored."""
    debate_with(tmp_path / "d", [{"alpha": "**Q1: 1, Q2: 2**", "beta": "**Q1: 1, Q2: 3**", "gamma": "**Q1: 4, Q2: 2**"},
                                 {"alpha": "**Q1: 1, Q2: 2**", "beta": "**Q1: 1, Q2: 3**", "gamma": "**Q1: 4, Q2: 2**"}],
                max_turns=2)
    (tmp_path / "key.txt").write_text("1\n2\n", encoding="utf-8")
    code, out, _err = cli("score", str(tmp_path / "d"), "--key", str(tmp_path / "key.txt"), color="never")
    assert code == 0
    assert "final answer: none (turn 2 is split: no answer is most held); every item counts as wrong: 0/2   0%" in out
    assert "turn-1 vote (majority of 3 answers): 2/2 100%" in out
    data = json.loads(cli("score", str(tmp_path / "d"), "--key", str(tmp_path / "key.txt"), "--json", color="never")[1])
    assert data["final"]["kind"] == "split"
    assert data["final"]["missing"] == 2


def test_a_folder_with_no_turn_yet(cli: Cli, tmp_path: Path) -> None:
    make_debate(str(tmp_path / "d"), [], participants=ROSTER)
    (tmp_path / "key.txt").write_text("A\n", encoding="utf-8")
    code, out, _err = cli("score", str(tmp_path / "d"), "--key", str(tmp_path / "key.txt"), color="never")
    assert code == 0
    assert out.endswith("1 items, 3 participants\nno turn files yet\n")


@pytest.mark.parametrize(("text", "message"), [
    ("Q1: A\nQ1: B\n", "key.txt:2: Q1 is given twice (first on line 1)"),
    ("# items\nQ1: A\nQ3: B\n", "key.txt: Q2 is missing (items are numbered from Q1 without a gap)"),
    ("Q1: A\nB\n", "key.txt:2: mixes `Qn: value` lines (line 1) with bare values (line 2); write every line one way"),
    ("Q0: A\n", "key.txt:1: items are numbered from Q1, not Q0"),
    ("Q1: A\nQ2:   \n", "key.txt:2: Q2 has no value"),
    ("A\n\n...\n", "key.txt:3: `...` is no value once quotes and punctuation are taken off"),
    ("# nothing\n\n", "key.txt: no items (one line per item: `Q1: A`, or the value alone)"),
])
def test_a_malformed_key_names_its_file_and_line(cli: Cli, scored: Path, text: str, message: str) -> None:
    (scored / "key.txt").write_text(text, encoding="utf-8")
    assert cli("score", "debate", "--key", "key.txt", color="never") == (1, "", f"Error: {message}\n")
    code, out, _err = cli("score", "debate", "--key", "key.txt", "--json", color="never")
    assert code == 1
    assert json.loads(out) == {"ok": False, "error": message, "problems": []}


def test_unreadable_keys_and_folders_are_errors(cli: Cli, scored: Path) -> None:
    assert cli("score", "debate", "--key", "nope.txt", color="never") == (
        1, "", "Error: cannot read the answer key nope.txt: No such file or directory\n")
    (scored / "latin1.txt").write_bytes("Q1: caf\xe9\n".encode("latin-1"))
    assert cli("score", "debate", "--key", "latin1.txt", color="never") == (1, "", "Error: latin1.txt: not UTF-8 text\n")
    code, _out, err = cli("score", "nowhere", "--key", "key.txt", color="never")
    assert code == 1
    assert err.startswith("Error: ")
    assert "nowhere" in err
    code, _out, err = cli("score", "debate", color="never")
    assert code == 2
    assert "Missing option '--key'" in err


def test_help_says_who_it_is_for(cli: Cli) -> None:
    result = cli("score", "--help")
    assert result.code == 0
    assert "multidebate run" in result.out
    assert "Example:" in result.out


# -- comparing an answer with the key -------------------------------------------------


@pytest.mark.parametrize(("one", "other"), [
    ("1,234", "1234"), ("1234", "1234.0"), ("$1,234", "1234"), ("14 days", "14"), ("0.50", "0.5"),
    ("C", "(C)"), ("C", "C)"), ("c", "C"), ("`foo`", "FOO"), ('"Paris".', "paris"), ("**B**", "b"),
    ("  New   York ", "new york"), ("-3", "\u22123"), ("007", "7"), ("12%", "12"), ("-0", "0.0"),
])
def test_one_value_in_two_spellings(one: str, other: str) -> None:
    assert normalise(one) == normalise(other)


@pytest.mark.parametrize(("one", "other"), [
    ("1234", "1235"), ("C", "D"), ("1,2345", "12345"), ("12 square feet", "12"), ("3.1", "3.2"),
    ("(C) because", "C"), ("yes", "no"), ("1/2", "0.5"),
])
def test_values_that_differ(one: str, other: str) -> None:
    assert normalise(one) != normalise(other)


def test_a_key_of_bare_values_numbers_its_lines_without_blanks_and_comments() -> None:
    assert parse_key("# answers\n12\n\n  C \n", "k").values == ("12", "C")
    assert parse_key("q2: B\nQ1: A\n", "k").values == ("A", "B")


def test_items_are_read_by_number() -> None:
    assert numbered_items("**Q1: 12, Q2: C**") == {1: "12", 2: "C"}
    assert numbered_items("1. A\n2. B") == {1: "A", 2: "B"}
    assert numbered_items("pool: 1\nsize: 2") == {}


def test_the_bold_line_decides_over_a_body_that_annotates_an_item() -> None:
    """#32 item 5: a long line (20 items, over the 400 characters the comparison reads) that says Q20: C and a body
    that adds `- Q20: C (429)` answer C, not "C (429)"."""
    line = ", ".join(f"Q{n}: option {n} with a longer value" for n in range(1, 20)) + ", Q20: C"
    answer = f"**{line}**\n\n- Q19: x\n- Q20: C (429)\n"
    assert len(line) > 400
    assert numbered_items(answer)[20] == "C"
    assert numbered_items(answer)[19] == "option 19 with a longer value"
    key = AnswerKey("k", tuple(f"option {n} with a longer value" for n in range(1, 20)) + ("C",))
    assert score(sheet([{"a": answer}], answer), key).final.tally.right == 20
    # a line with no items leaves the body to say them
    assert numbered_items("**Answers below.**\n\nQ1: A\nQ2: B") == {1: "A", 2: "B"}


def sheet(turns: list[dict[str, str | None]], final: str = "", kind: str = "modal") -> Sheet:
    slugs = tuple(sorted({s for row in turns for s in row}))
    return Sheet("d", slugs, tuple(turns), kind, len(turns), slugs[0] if slugs else None, final)


def test_a_vote_needs_a_strict_majority_of_those_who_wrote() -> None:
    key = AnswerKey("k", ("A", "B"))
    two = score(sheet([{"a": "Q1: A\nQ2: B", "b": "Q1: A\nQ2: C"}]), key)
    assert (two.turns[0].vote.tally.right, two.turns[0].vote.ties) == (1, 1)  # 1 of 2 for B is no majority
    # b and c leave Q2 out (their Q3 is no item of this key): one B among three voters is no majority
    silent = score(sheet([{"a": "Q1: A\nQ2: B", "b": "Q1: A\nQ3: Z", "c": "Q1: A\nQ3: Z"}]), key)
    assert (silent.turns[0].vote.tally.right, silent.turns[0].vote.ties) == (1, 1)
    assert silent.turns[0].participants["b"] == (1, 2, 1)
    unreadable = score(sheet([{"a": "Q1: A\nQ2: B", "b": None, "c": "Q1: A\nQ2: B"}]), key)
    assert unreadable.turns[0].participants["b"] == (0, 2, 2)
    assert unreadable.turns[0].vote.tally.right == 2


# -- properties ---------------------------------------------------------------------

# the shapes of answers the accuracy items have: numbers however written, letter choices, words
VALUES = st.one_of(
    st.integers(-10**7, 10**7).flatmap(lambda n: st.sampled_from([str(n), f"{n:,}", f"{n}.0", f"{n} days"])),
    st.integers(0, 10**6).flatmap(lambda n: st.sampled_from([f"{n / 100:.2f}", f"${n:,}"])),
    st.sampled_from("ABCDEFGH").flatmap(lambda c: st.sampled_from([c, f"({c})", f"{c})", c.lower()])),
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=12),
    st.lists(st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=8), min_size=2, max_size=4)
    .map(" ".join),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=300), min_size=1, max_size=6), st.lists(st.text(min_size=1, max_size=20).filter(
    lambda v: bool(normalise(v))), min_size=1, max_size=5))
def test_scoring_never_raises_on_any_answer_text(texts: list[str], values: list[str]) -> None:
    turns: list[dict[str, str | None]] = [{f"s{i}": t for i, t in enumerate(texts[:3])}, {"s0": texts[-1]}]
    result = score(sheet(turns, final=texts[0]), AnswerKey("k", tuple(values)))
    shares = [c.share for t in result.turns for c in t.participants.values()] + [result.final.tally.share]
    assert all(s is not None and 0 <= s <= 1 for s in shares)
    json.dumps(result.as_dict())


@settings(max_examples=200, deadline=None)
@given(st.lists(VALUES, min_size=2, max_size=20))  # items_of reads a list of two items or more
def test_a_key_scored_against_itself_is_all_right(values: list[str]) -> None:
    key = AnswerKey("k", tuple(values))
    assert all(key.is_right(n, v) for n, v in enumerate(values, start=1))
    written = "\n".join(f"Q{n}: {v.strip()}" for n, v in enumerate(values, start=1))
    result = score(sheet([{"a": written, "b": written, "c": written}], final=written), key)
    assert result.turns[0].vote.tally.right == len(values)
    assert result.final.tally.right == len(values)
    assert all(c.right == len(values) for c in result.single.values())


def test_the_key_file_form_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "k.txt"
    path.write_text("\n".join(f"Q{n}: {v}" for n, v in enumerate(["12", "(C)", "1,234"], start=1)), encoding="utf-8")
    from multidebate.analysis.answer_key import read_key

    key = read_key(str(path))
    assert key.values == ("12", "(C)", "1,234")
    assert key.path == str(path)
    with pytest.raises(KeyFileError):
        read_key(os.fspath(tmp_path / "missing.txt"))
