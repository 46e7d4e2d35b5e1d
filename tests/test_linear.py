"""No line shape costs a reader more than linear time (issue 24, item 1).

A hand-written file with one long line of spaces under `## Findings` used to hang every command: the
review item opener backtracked cubically.  Each reader of file text is run on a line made of a prefix,
one unit repeated, and a suffix, at 1x and then 2x, 4x and 8x the repeats, in the same run; its cost may
grow with the length, never with its square.  A ratio, never a wall-clock bound, so a slow machine cannot
flake it; the ladder stops at the first step that is too slow, so a cubic reader fails in seconds.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from multidebate.analysis.comparison import Context
from multidebate.protocol.answer import items_of, signature
from multidebate.protocol.front_matter import split_frontmatter
from multidebate.protocol.judgment import parse_judgment
from multidebate.protocol.parse import parse_turn
from multidebate.protocol.terms import key_terms, recommendation

# Linear cost doubles with each doubling; quadratic quadruples.  3x the proportional share, plus a few
# milliseconds for the fixed cost of a call, separates the two with room for a busy machine.
RATIO = 3.0
SLACK = 0.005
BASE = 600


def _cost(fn: Callable[[str], object], text: str, limit: float = float("inf")) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        fn(text)
        best = min(best, time.perf_counter() - start)
        if best <= limit:
            break
    return best


def assert_linear(fn: Callable[[str], object], line: Callable[[int], str], start: int = BASE) -> None:
    """`fn(line(n))` costs at most about proportionally more as `n` doubles, up to 8x."""
    fn(line(start))  # warm caches and imports
    base = _cost(fn, line(start))
    for factor in (2, 4, 8):
        limit = RATIO * factor * base + SLACK
        cost = _cost(fn, line(start * factor), limit)
        assert cost <= limit, f"{factor}x the line took {cost / base:.0f}x the time ({cost:.3f}s vs {base:.4f}s)"


def _turn(line: str) -> str:
    """A turn that puts the line in every place a reader looks: each section, a finding, a response, a field."""
    return (f"# Turn 2 — a {line}\n\n## Reasoning\n{line}\n\n## Findings\n### F1 — t\n{line}\n- claim: {line}\n{line}\n\n"
            f"## Responses\n{line}\n- F1 — CONCEDE\n{line}\n\n## Answer\n{line}\n\n## Agreements\n- {line}\n{line}\n\n"
            f"## Disagreements\n- with b: {line}\n{line}\n\n## Confidence\n{line}\n\n## Converged\n{line}\n")


def _answer(line: str) -> object:
    text = f"{line}\n{line}\n{line}"
    return signature(text), items_of(text), key_terms(line), recommendation(line)


READERS: dict[str, Callable[[str], object]] = {
    "turn": lambda line: parse_turn(_turn(line), "t.md"),
    "answer": _answer,
    "judgment": lambda line: parse_judgment(f"## Decision\n{line}\n## Reasoning\n{line}\n", "j.md"),
    "frontmatter": lambda line: split_frontmatter(f"---\nslug: {line}\n---\n{line}\n"),
    "task": lambda line: Context(task=f"{line}\n{line}, or {line}"),  # the options the comparison learns from TASK.md
}
PIECES = [" ", "\t", "*", "**", "_", "__", "-", "--", "—", ":", "|", "[", "]", "(", ")", "#", ">", "`", "'", '"',
          ".", ",", ";", "=", "/", "a", "F1", "1.", "1", "x ", "with ", "they ", "Q1", "\\", "<", "~", "<a ", "---"]
pieces = st.lists(st.sampled_from(PIECES), max_size=4).map("".join)
units = st.lists(st.sampled_from(PIECES), min_size=1, max_size=3).map("".join)


@given(st.sampled_from(sorted(READERS)), pieces, units, pieces)
@example("turn", "- F1 — a", " ", "b")  # the reported attack: a long run of spaces inside an item's opener
@example("turn", "### ", " ", "x")
@example("turn", "sev", " ", "x")
@example("answer", "a", " ", "x")
@example("answer", "they ", "\t", "*")
@example("task", "id,", ",  ", "ab or c")
@settings(max_examples=60, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
def test_no_line_shape_costs_more_than_linear_time(reader: str, prefix: str, unit: str, suffix: str) -> None:
    assert_linear(READERS[reader], lambda n: prefix + unit * n + suffix)


def test_a_line_of_spaces_under_findings_reads_in_linear_time() -> None:
    """The attack as written: a hand-written critic's turn with one long line of spaces in an item."""
    assert_linear(lambda line: parse_turn(_turn(line), "turn-1-a.md"), lambda n: "- F1 — a" + " " * n + "b")


def test_a_space_aligned_csv_header_as_the_task_reads_in_linear_time() -> None:
    """Issue 33, item 2: commas followed by runs of spaces (a pasted, aligned CSV header) as the task line.

    The pattern that learns the task's options split each run between `\\s*` and an option in every way:
    a run of 12 spaces after each of 5 commas took 2.6 s, of 24 spaces 300 s.  The run's length grows here.
    """
    assert_linear(lambda line: Context(task=line), lambda n: "id," + ",".join([" " * n + "ab"] * 5), start=4)
