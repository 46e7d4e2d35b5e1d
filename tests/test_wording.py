"""What the report, `status` and the comparison say, word for word, where users found it garbled or wrong (#34)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import Cli
from helpers import make_debate, turn_body

from multidebate.analysis.comparison import compare


def test_identical_lines_that_set_an_item_the_bodies_word_differently_read_as_a_sentence() -> None:
    left = "**gthread with 4 workers, 8 threads each**\n\nthreads: 8 (32 in flight)\nworkers: 4"
    right = "**gthread with 4 workers, 8 threads each**\n\nthreads: 8\nworkers: 4"
    found = compare(left, right)
    assert (found.relation, found.evidence) == (
        "same", "identical recommendation lines; the line sets item threads, which the answers' bodies word "
        "differently")


def test_a_report_of_hand_written_files_does_not_say_flags_none(cli: Cli, tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [], participants=("a", "b"))
    for slug, answer in (("a", "**Use TOML.**"), ("b", "**Use YAML.**")):
        Path(folder, f"turn-1-{slug}.md").write_text(f"# Turn 1 \u2014 {slug}\n\n" + turn_body(1, answer),
                                                     encoding="utf-8")
    report = cli("report", folder).out
    assert "allowed, but their integrity cannot be checked" in report
    flags = report.split("## Flags\n\n", 1)[1]
    assert flags.startswith("None found in what could be checked: the turn files written by hand (see Notes) have "
                            "no ledger entry, so an edit to them after they were written would not show.")
    html = cli("report", folder, "--format", "html").out
    assert "<p class='muted'>None.</p>" not in html
    assert "None found in what could be checked" in html
    plain = make_debate(str(tmp_path / "p"), [{"a": "**Use TOML.**", "b": "**Use YAML.**"}])
    assert cli("report", plain).out.endswith("## Flags\n\nNone.\n\n")


def test_report_output_refusals_say_what_applies(cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = make_debate(str(tmp_path / "d"), [{"a": "**Use TOML.**", "b": "**Use YAML.**"}])
    monkeypatch.chdir(tmp_path)
    pdf = cli("report", folder, "-o", "x.pdf")
    assert pdf.code == 1
    assert pdf.err == ("Error: refusing to write the report to x.pdf: a report's file name ends in .md, "
                          ".markdown, .json, .html, .htm or .txt (the format is --format's); choose such a name\n")
    Path("r.md").write_text("mine", encoding="utf-8")
    existing = cli("report", folder, "-o", "r.md")
    assert existing.err == "Error: refusing to write the report over r.md: the file exists; give --force to replace it\n"
    turn = cli("report", folder, "-o", os.path.join(folder, "turn-1-a.md"))
    assert turn.err.endswith(": it is named as a file of the debate (TASK.md or a turn file); choose a path "
                                "outside the debate's own files\n")
    assert "over" in turn.err
    assert "it is it is" not in turn.err


def test_status_with_a_broken_task_says_to_fix_it_not_to_type_next_turn(cli: Cli, tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [{"a": "**Use TOML.**"}], participants=("a", "b"))
    Path(folder, "TASK.md").write_text("---\nparticipants: [a, b\n---\nPick a format.\n", encoding="utf-8")
    text = cli("status", folder).out
    assert "next turn" not in text
    assert text.rstrip().endswith(f"what to do: Fix TASK.md first (`multidebate validate {folder}` lists its problems): "
                                  "until then `next` and `write` refuse to run, so no session can take its turn.")
    data = cli("status", folder, "--json").json()
    assert data["advice"].startswith("Fix TASK.md first")
