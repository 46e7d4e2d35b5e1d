"""The one rule of a consensus (#32): one bold line, word for word, under a normalisation that cannot change meaning.

Unit cases for the line and its normalisation, then properties: every pair of different lines the tables, the
traps and the issue name stays two lines under any meaning-preserving rewriting of either side, and every
rewriting of a line stays one line with it.  The same through the sessions' path: two sessions that each keep
such a variant and say yes, after `next`, never converge.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from helpers import make_debate
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from multidebate.analysis.verdict import judge
from multidebate.protocol.bold_line import (
    LINE_CAP,
    bold_line,
    group_lines,
    line_items,
    line_key,
    same_line,
)
from multidebate.state.debate import load_debate

# the issue's table: what a new user tried, with what each pair is
ISSUE_DIFFERENT = [
    ("**Cron: `0 3 * * *`**", "**Cron: `0 3 * * 0`**"),
    ("**Mount the volume at `/var/lib/postgresql/data`.**", "**Mount the volume at `/var/lib/postgresql`.**"),
    ("**Use `Foo` as the class name.**", "**Use `foo` as the class name.**"),
    ("**Set `\"a\"` as the default.**", "**Set `\"A\"` as the default.**"),
    ("**Q1: A, Q2: 17**", "**Q2: 17, Q1: A**"),  # no reordering
    ("**Q1: A, Q2: 17**", "**Q1: A, Q2: 18**"),
    ("**Avoid:**\n\n- Redis", "**Use:**\n\n- Redis"),  # a label is part of the line
    ("```\nx = 1\n```", "```\nx = 2\n```"),  # a fenced block as the first paragraph
    ("### Pick\nUse A", "### Pick\nUse B"),
]
ISSUE_SAME_MEANING = [  # one meaning, other words: one turn to copy a line, never the debate
    ("**Do not add the index.**", "**Skip the index.**"),
    ("**Final answer: 42**", "**The answer is forty-two.**"),
    ("**Set the JVM max heap to 4 GiB.**", "**Use `-Xmx4g`.**"),
]


@pytest.mark.parametrize(("answer", "line"), [
    ("**Use TOML.**\n\nComments.", "**Use TOML.**"),
    ("\n\n**Use TOML.**\nwith a schema", "**Use TOML.**"),  # a wholly bold first line is the line
    ("Use TOML.\nWith a schema.\n\nMore.", "Use TOML. With a schema."),  # else the first paragraph
    ("**Answers:**\n\n- Q1: A\n- Q2: B", "**Answers:** Q1: A; Q2: B"),  # a label takes its list along
    ("**Answers:**\n1. A\n2. B", "**Answers:** 1. A; 2. B"),
    ("", ""),
])
def test_the_line_of_an_answer(answer: str, line: str) -> None:
    assert bold_line(answer) == line


@pytest.mark.parametrize(("a", "b"), [
    ("**Use TOML.**", "use toml"),  # bold markers, case outside code, a final period
    ("**Use   TOML  for\tconfig**", "**Use TOML for config.**"),  # runs of whitespace
    ("**Run `make Test`.**", "**RUN `make Test`**"),  # code keeps its case; the rest folds
    ("**Q1: A, Q2: 17**", "**q1:a; Q2: 17.**"),  # items: separators and the spacing around a key
    ("**Answers:**\n\n- Q1: A\n- Q2: B", "**Answers: Q1: A; Q2: B**"),
])
def test_one_line_under_the_normalisation(a: str, b: str) -> None:
    assert same_line(bold_line(a), bold_line(b))


@pytest.mark.parametrize(("a", "b"), ISSUE_DIFFERENT + ISSUE_SAME_MEANING)
def test_two_lines_whatever_they_mean(a: str, b: str) -> None:
    assert not same_line(bold_line(a), bold_line(b))


def test_a_line_longer_than_the_cap_is_compared_byte_for_byte() -> None:
    long = "**" + "x " * LINE_CAP + "**"
    assert line_key(long) == long
    assert line_items(long) is None
    assert same_line(long, long)
    assert not same_line(long, long.replace("x", "X", 1))


def test_item_lists_with_a_gap_or_a_repeat_are_no_item_list() -> None:
    assert line_items("**Q1: A, Q2: B, Q4: C**") is None
    assert line_items("**Q1: A, Q1: B**") is None
    assert line_items("**Q1: meet at 3: 30, Q2: B**") == (("", (("q1", "meet at 3: 30"), ("q2", "b"))))


def test_grouping_is_by_one_line_in_first_seen_order() -> None:
    groups = group_lines([("a", "**Use X.**"), ("b", "**Use Y.**"), ("c", "use x"), ("d", "")])
    assert [[name for name, _line in g] for g in groups] == [["a", "c"], ["b"], ["d"]]


# -- properties ---------------------------------------------------------------------------------------------------

def _table(name: str) -> list[tuple[str, str]]:
    import test_comparison

    return [(row[0], row[1]) for row in getattr(test_comparison, name)]


def _traps(expect: str) -> list[tuple[str, str]]:
    path = Path(__file__).parent.parent / "bench" / "corpus" / "traps.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [(f"**{r['left']}**", f"**{r['right']}**") for r in rows if r["expect"] == expect]


DIFFERENT_PAIRS = _table("DIFFERENT") + _table("NOT_SAME") + _traps("different") + ISSUE_DIFFERENT
SAME_MEANING_PAIRS = _table("SAME") + _table("NEVER_DIFFERENT") + _traps("same") + ISSUE_SAME_MEANING


def variant(answer: str, seed: int) -> str:
    """The Answer rewritten only in ways the normalisation says cannot change meaning: ASCII letters' case outside
    code spans and quotes, a run of spaces for a space, the bold line's final period, its bold markers."""
    rng = random.Random(seed)
    lines = answer.split("\n")
    first = next(i for i, text in enumerate(lines) if text.strip()) if answer.strip() else 0
    text = lines[first] if lines else ""
    if text.strip().startswith("```"):
        return answer  # a fenced block keeps every character
    protected = [False] * len(text)
    from multidebate.protocol.bold_line import _PROTECTED_RE

    for match in _PROTECTED_RE.finditer(text):
        for i in range(match.start(), match.end()):
            protected[i] = True
    out = []
    for i, char in enumerate(text):
        if not protected[i] and char.isascii() and char.isalpha() and rng.random() < 0.3:
            char = char.swapcase()
        elif not protected[i] and char == " " and rng.random() < 0.2:
            char = " " * rng.randint(2, 3)
        out.append(char)
    text = "".join(out)
    wholly = text.startswith("**") and text.endswith("**") and len(text) > 4
    if wholly:  # the line is this line alone: its final period may go or come
        inner = text[2:-2]
        if inner.endswith(".") and not inner.endswith("..") and rng.random() < 0.5:
            inner = inner[:-1]
        elif not inner.endswith((".", "`", '"', "'", ":")) and rng.random() < 0.3:
            inner += "."
        text = f"**{inner}**" if rng.random() < 0.8 else inner  # its bold markers may go too
    lines[first] = text
    return "\n".join(lines)


@given(st.integers(min_value=0, max_value=2**32 - 1))
@settings(max_examples=60, deadline=None)
def test_different_lines_stay_two_lines_under_any_rewriting(seed: int) -> None:
    for index, (a, b) in enumerate(DIFFERENT_PAIRS):
        va, vb = variant(a, seed + index), variant(b, seed + 7 * index + 1)
        assert not same_line(bold_line(va), bold_line(vb)), (va, vb)
        assert same_line(bold_line(va), bold_line(a)), (va, a)


@given(st.integers(min_value=0, max_value=2**32 - 1))
@settings(max_examples=30, deadline=None)
def test_every_rewriting_of_a_line_is_one_line_with_it(seed: int) -> None:
    for index, (a, b) in enumerate(SAME_MEANING_PAIRS):
        for line in (a, b):
            assert same_line(bold_line(variant(line, seed + index)), bold_line(line)), line


def _kept(folder: str, a: str, b: str, turns: int, min_turns: int | None = None) -> str:
    rows: list[dict[str, str | tuple[str, bool]]] = [{"a": a, "b": b}]
    rows += [{"a": (a, True), "b": (b, True)}] * (turns - 1)
    make_debate(folder, rows, participants=("a", "b"), max_turns=5, min_turns=min_turns)
    return judge(load_debate(folder)).state


@given(st.integers(min_value=0, max_value=len(DIFFERENT_PAIRS) - 1), st.integers(min_value=0, max_value=10**6))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_two_sessions_keeping_rewritten_different_lines_never_converge(tmp_path_factory: pytest.TempPathFactory,
                                                                        index: int, seed: int) -> None:
    """Through `next` then `write`, as sessions work: yes at turns 2 and 3 to a rewriting of two different lines."""
    a, b = DIFFERENT_PAIRS[index]
    folder = str(tmp_path_factory.mktemp("d") / "d")
    assert _kept(folder, variant(a, seed), variant(b, seed + 1), 3) == "hollow"


@pytest.mark.parametrize(("a", "b"), ISSUE_SAME_MEANING + [
    (a, b) for a, b in _table("SAME") if not same_line(bold_line(a), bold_line(b))][:6])
def test_one_meaning_in_two_wordings_is_a_step_then_hollow(tmp_path: Path, a: str, b: str) -> None:
    """#32 item 2: the first all-yes turn is never hollow (it asks for one line); a second one in a row is."""
    assert _kept(str(tmp_path / "two"), a, b, 2) == "unconfirmed"
    assert _kept(str(tmp_path / "three"), a, b, 3) == "hollow"


@given(st.integers(min_value=0, max_value=len(SAME_MEANING_PAIRS) - 1), st.integers(min_value=0, max_value=10**6))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_a_rewriting_of_one_line_converges(tmp_path_factory: pytest.TempPathFactory, index: int, seed: int) -> None:
    line = SAME_MEANING_PAIRS[index][0]
    folder = str(tmp_path_factory.mktemp("d") / "d")
    # min_turns 2: one line at turn 1 would end the debate `unanimous` before the yes turn this is about
    assert _kept(folder, line, variant(line, seed), 2, min_turns=2) == "converged"
