"""write: what it says beyond writing the file (the format rules are in the golden and CLI tests)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import Cli
from helpers import make_debate, turn_body

from multidebate.protocol.notes import note, render


def test_an_answer_over_the_tasks_word_limit_is_written_with_a_warning(cli: Cli, tmp_path: Path) -> None:
    from multidebate.turns.write import word_limit

    assert word_limit("Recommend one in at most 150 words.") == 150
    assert word_limit("Answer in 200 words or fewer; no more than 120 words for the summary") == 120
    assert word_limit("Explain ≤ 80 words") == 80
    assert word_limit("Pick a format.") is None
    assert word_limit("a 3-word slogan") is None
    folder = make_debate(str(tmp_path / "d"), [], task="Pick a config format, in at most 12 words.")
    long = "**Use TOML.** It has comments, a standard library parser, and clear types for every value."
    result = cli("write", folder, "--slug", "a", "--json", input=turn_body(1, long))
    data = result.json()
    assert result.code == 0
    assert data["ok"] is True
    assert "It has comments" in Path(folder, "turn-1-a.md").read_text()  # written, whole
    assert data["warnings"] == ["your Answer has 15 words (the whole section, bold line included); the task asks "
                                "for at most 12. Keep it within the limit "
                                "in your next turn: a converged debate's final answer is the one shown to the user."]
    short = cli("write", folder, "--slug", "b", input=turn_body(1, "**Use TOML.** Comments."))
    assert short.code == 0
    assert "warning:" not in short.out


def test_sealed_write_says_sealed_then_published_in_one_line(cli: Cli, tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [], participants=("a", "b"), sealed=True)
    first = cli("write", folder, "--slug", "a", input=turn_body(1, "**Use TOML.**"))
    assert first.code == 0, first
    assert "Turn 1 stays sealed (unseen by peers)" in first.out
    assert "Turn 1: 1 of 2 written" in first.out
    last = cli("write", folder, "--slug", "b", input=turn_body(1, "**Use YAML.**"))
    assert last.code == 0, last
    assert "Every participant has written turn 1: it is now published." in last.out
    assert "2 of 2 written" not in last.out  # the same news once, not twice


def test_a_sealed_peer_that_has_written_is_not_called_unwritten(cli: Cli, tmp_path: Path) -> None:
    # a02 (dogfood): `write` said "waiting for a02-quick", then `next --wait` waited for "a02-quick,
    # a02-agreeable": a sealed turn that is written was listed as not written
    folder = make_debate(str(tmp_path / "d"), [], participants=("a", "b", "c"), sealed=True)
    keys = {}
    for slug in ("a", "b"):
        cli("next", folder, "--slug", slug)
        result = cli("write", folder, "--slug", slug, "--json", input=turn_body(1, "**Use TOML.**"))
        keys[slug] = result.json()["key"]
    out = cli("next", folder, "--slug", "a", "--key", keys["a"])
    assert out.code == 0, out
    assert "Not yet written turn 1: c." in out.out
    assert "Written turn 1, sealed until every participant has: b." in out.out
    assert "c has not written turn 1 yet (b has written it, sealed until every participant has)." in out.out
    data = cli("next", folder, "--slug", "a", "--key", keys["a"], "--json").json()
    assert data["waiting"] == ["b", "c"]
    assert data["sealed_written"] == ["b"]
    waited = cli("next", folder, "--slug", "a", "--key", keys["a"], "--wait", "--timeout", "0.1")
    assert "c did not write turn 1" in waited.out
    assert "b did not write" not in waited.out


def test_next_states_the_tasks_word_limit_before_the_turn_is_written(cli: Cli, tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [], task="Pick a config format, in at most 12 words.")
    out = cli("next", folder, "--slug", "a").out
    assert "(Answer: at most 12 words, bold line included; `write` counts them.)" in out
    plain = make_debate(str(tmp_path / "e"), [], task="Pick a config format.")
    assert "Answer: at most" not in cli("next", plain, "--slug", "a").out


SECTIONS = "## Reasoning\nr\n\n## Answer\n**Use TOML.**\n\n## Confidence\n80\n\n## Converged\nno\n"


def test_write_refuses_frontmatter_with_one_fix_whether_it_parses_or_not(cli: Cli, tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [])
    for head in ("---\nx: [1\n---\n", "---\nx: 1\n---\n"):  # E010, and frontmatter that parses
        result = cli("write", folder, "--slug", "a", "--json", input=head + SECTIONS)
        assert result.code == 1
        assert result.json()["problems"] == ["remove the frontmatter (the `---` block): write adds its own"]


def test_write_refuses_an_extra_section_with_its_rules_fix(cli: Cli, tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [])
    body = SECTIONS.replace("## Confidence", "## Notes\nn\n\n## Confidence")
    result = cli("write", folder, "--slug", "a", "--json", input=body)
    assert result.code == 1
    (problem,) = result.json()["problems"]
    assert problem.startswith("line 7: extra section `Notes`")
    assert problem.endswith(
        ": remove the extra section or fold it into `## Reasoning` or `## Answer` as a `###` subsection")


def test_write_treats_a_code_as_its_rule_says(cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """write reads each code's rule (findings.CODES), not a list of its own: change the rule, and write follows."""
    from multidebate.protocol import findings

    folder = make_debate(str(tmp_path / "d"), [])
    body = SECTIONS.replace("## Confidence", "## Notes\nn\n\n## Confidence")
    monkeypatch.setitem(findings.CODES, "W033", findings.CODES["W033"]._replace(on_write="normalise"))
    result = cli("write", folder, "--slug", "a", input=body)
    assert result.code == 0, result
    assert "normalised: extra section `Notes`" in result.out
    monkeypatch.setitem(findings.CODES, "W040", findings.CODES["W040"]._replace(on_write="refuse", fix="no percent"))
    result = cli("write", folder, "--slug", "b", "--json", input=SECTIONS.replace("\n80\n", "\n80%\n"))
    assert result.code == 1
    assert result.json()["problems"] == [
        "line 8: Confidence `80%` is not a bare integer; write `80`: no percent"]


def test_a_write_result_says_what_write_prints_without_the_cli(tmp_path: Path) -> None:
    """WriteResult renders itself (the CLI only prints it): the lines and the JSON come from the library."""
    from multidebate.turns.write import write_turn

    folder = make_debate(str(tmp_path / "d"), [], participants=("a", "b"))
    result = write_turn(folder, "a", turn_body(1, "**Use TOML.**").encode())
    assert result.key is not None
    assert result.key_notice() == render(note("key-claimed", slug="a", key=result.key))
    assert result.notes() == [
        note("wrote-turn", path=f"{folder}/turn-1-a.md", turn=1, confidence=70, converged=False),
        note("turn-progress", turn=1, written=1, participants=2, waiting=("b",), final=False),
        note("next-command", folder=folder, slug="a", key_option=f" --key {result.key}", last=False)]
    assert result.lines() == [render(n) for n in result.notes()]
    data = result.as_dict()
    assert data["progress"] == {"written": 1, "waiting": ["b"]}
    assert data["debate"] == {"state": "in_progress", "turn": 0}
    assert data["key"] == result.key
    second = write_turn(folder, "b", turn_body(1, "**Use YAML.**").encode())
    assert second.notes()[1] == note("turn-progress", turn=1, written=2, participants=2, waiting=(), final=False)
    assert second.standing.written == ("a", "b")
    assert second.standing.waiting == ()
    third = write_turn(folder, "a", turn_body(2, "**Use TOML.**").encode(), result.key)
    assert third.key is None
    assert third.key_notice() is None  # the slug was claimed already
    assert third.notes(f" --key {result.key}")[-1] == note("next-command", folder=folder, slug="a",
                                                           key_option=f" --key {result.key}", last=False)


class _Endless(io.RawIOBase):
    """A pipe that never ends by itself (up to `cap` bytes, so a reader that reads it all still stops)."""

    def __init__(self, cap: int) -> None:
        self.given, self.cap = 0, cap

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        size = min(len(buffer), self.cap - self.given)
        buffer[:size] = b"a" * size
        self.given += size
        return size


OVER_1_MIB = "Error: nothing written: the input is not turn text\n  - is over 1 MiB; a turn file is at most 1 MiB\n"


def test_write_stops_reading_stdin_one_byte_past_the_limit(cli: Cli, tmp_path: Path) -> None:
    from multidebate.protocol.textfile import MAX_BYTES

    folder = make_debate(str(tmp_path / "d"), [])
    cli("next", folder, "--slug", "a")
    pipe = _Endless(cap=64 * MAX_BYTES)
    result = cli("write", folder, "--slug", "a", input=io.BufferedReader(pipe))
    assert (result.code, result.err) == (1, OVER_1_MIB)
    assert pipe.given <= MAX_BYTES + 1 + io.DEFAULT_BUFFER_SIZE


@pytest.mark.skipif(not hasattr(os, "fork"), reason="resource limits need a POSIX process")
def test_write_file_dev_zero_is_refused_without_reading_it_all(cli: Cli, tmp_path: Path) -> None:
    """`--file /dev/zero` never ends: reading it all would fill memory (here: a 512 MiB limit)."""
    import resource

    folder = make_debate(str(tmp_path / "d"), [])
    cli("next", folder, "--slug", "a")

    def limit_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (512 * 1024 * 1024, 512 * 1024 * 1024))

    done = subprocess.run([sys.executable, "-m", "multidebate", "write", folder, "--slug", "a", "--file", "/dev/zero"],
                          capture_output=True, text=True, timeout=60, preexec_fn=limit_memory)
    assert (done.returncode, done.stderr) == (1, OVER_1_MIB)


def test_a_long_task_is_shown_whole_at_turn_1_and_named_after(cli: Cli, tmp_path: Path) -> None:
    # a01-c02: 20 of 24 sessions cut the repeated 20-item task out with sed or grep, and lost NOTE lines with it
    task = "Answer each item.\n\n" + "\n\n".join(f"Q{n}. What is {n} * {n + 7}? " + "x" * 80 for n in range(1, 21))
    folder = make_debate(str(tmp_path / "d"), [], task=task, participants=("a", "b"), min_turns=2)
    keys = {}
    for slug in ("a", "b"):
        first = cli("next", folder, "--slug", slug)
        assert "Q20. What is 20 * 27?" in first.out  # turn 1: whole
        written = cli("write", folder, "--slug", slug, "--json", input=turn_body(1, "**Q1: 8, Q2: 18**"))
        keys[slug] = written.json()["key"]
    later = cli("next", folder, "--slug", "a", "--key", keys["a"])
    assert later.code == 0, later
    assert "Q20. What is 20 * 27?" not in later.out
    assert "Answer each item." in later.out
    assert f"TASK: unchanged since your turn 1, where `next` showed it whole ({len(task):,} characters); " in later.out
    assert f"--slug a --key {keys['a']} --full` prints it again." in later.out
    whole = cli("next", folder, "--slug", "a", "--key", keys["a"], "--full")
    assert "Q20. What is 20 * 27?" in whole.out
    data = cli("next", folder, "--slug", "a", "--key", keys["a"], "--json").json()
    assert "Q20. What is 20 * 27?" in data["task"]  # a program gets it whole
    # TASK.md rewritten since: shown whole again (its change time is later than the session's turn 1)
    path = Path(folder, "TASK.md")
    path.write_text(path.read_text().replace("Answer each item.", "Answer every item."))
    changed = cli("next", folder, "--slug", "a", "--key", keys["a"])
    assert "Q20. What is 20 * 27?" in changed.out
    assert "Answer every item." in changed.out


def test_write_says_when_a_bold_line_is_one_slip_from_a_peers(cli: Cli, tmp_path: Path) -> None:
    # c02, d03: a one-character slip in a 20-item line would keep a debate open, and nothing said so
    line = "**Q1: 12, Q2: C, Q3: 2024-04-08, Q4: valid**"
    folder = make_debate(str(tmp_path / "d"), [{"a": line, "b": line.replace("Q2: C", "Q2: D")}], participants=("a", "b"))
    from helpers import key_of

    cli("next", folder, "--slug", "b", "--key", key_of(folder, "b"))
    slip = cli("write", folder, "--slug", "b", "--key", key_of(folder, "b"), "--json",
               input=turn_body(2, line.replace("Q3: 2024-04-08", "Q3: 2024-04-09"), converged=True))
    warnings = slip.json()["warnings"]
    assert ("your bold line differs from `a`'s turn 1 line only in Q3 (yours 2024-04-09, theirs 2024-04-08). If you "
            "hold its answer there, copy its line word for word next turn (identical lines decide); if the difference "
            "is meant, ignore this.") in warnings
    cli("next", folder, "--slug", "a", "--key", key_of(folder, "a"))
    same = cli("write", folder, "--slug", "a", "--key", key_of(folder, "a"), "--json",
               input=turn_body(2, line, converged=False))
    assert not [w for w in same.json()["warnings"] if "differs from" in w]  # a no holds the difference
    prose = make_debate(str(tmp_path / "p"), [{"a": "**Use TOML for the config.**", "b": "**Use YAML.**"}],
                        participants=("a", "b"))
    cli("next", prose, "--slug", "b", "--key", key_of(prose, "b"))
    near = cli("write", prose, "--slug", "b", "--key", key_of(prose, "b"), "--json",
               input=turn_body(2, "**Use TOML for the confg.**", converged=True))
    assert any("only in \u201cfor the confg\u201d (theirs: \u201cfor the config\u201d)" in w
               for w in near.json()["warnings"]), near.json()["warnings"]


def test_a_line_copied_from_one_peer_is_not_told_to_copy_another(cli: Cli, tmp_path: Path) -> None:
    """d79: rust-2 took plum-3's line word for word, as `next` asked; `write` told it its line was a slip from
    teal-1's (quotes around two values) and to copy teal-1's, which would have split the lines again."""
    from helpers import key_of

    plain = "**Q1: True, Q3: A, Q11: c**"
    quoted = "**Q1: True, Q3: 'A', Q11: 'c'**"
    folder = make_debate(str(tmp_path / "d"), [{"a": plain, "b": "**Q1: False, Q3: B, Q11: c**", "c": quoted}],
                         participants=("a", "b", "c"))
    cli("next", folder, "--slug", "b", "--key", key_of(folder, "b"))
    took = cli("write", folder, "--slug", "b", "--key", key_of(folder, "b"), "--json",
               input=turn_body(2, plain, converged=True))
    assert took.code == 0, took
    assert not [w for w in took.json()["warnings"] if "differs from" in w]
