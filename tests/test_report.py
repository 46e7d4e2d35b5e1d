"""Analysis flags and the report, on debate folders built for each flag and on every shipped example."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import key_of, make_debate, turn_body

from multidebate.analysis.trajectory import analyse
from multidebate.cli import cli
from multidebate.state.debate import load_debate
from multidebate.turns.write import write_turn
from multidebate.views.report import build_report, render_markdown
from multidebate.views.validate import validate_paths

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted(p for p in (ROOT / "examples").iterdir() if p.is_dir())
TOML = "**Use TOML for the config file.**\n\nComments and a stdlib parser."
YAML = "**Use YAML, not TOML.**\n\nAnchors and wide tooling."
JSON = "**Use JSON with a schema.**\n\nEvery language reads it."


def kinds(folder: str) -> set[str]:
    return {f.kind for f in build_report(folder).analysis.flags}


def test_hollow_flag(tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path), [{"a": TOML, "b": YAML}, {"a": (TOML, True), "b": (YAML, True)}])
    assert "hollow" in kinds(folder)


def test_latent_flag(tmp_path: Path) -> None:
    # a switched to b's answer at turn 2; b's no had not seen it
    folder = make_debate(str(tmp_path), [{"a": TOML, "b": YAML}, {"a": (YAML, True), "b": (YAML, False)}])
    assert "latent" in kinds(folder)


def test_stalled_flag_and_polite_stalemate_is_not_converged(tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path), [{"a": TOML, "b": YAML}] * 3)
    report = build_report(folder)
    assert "stalled" in {f.kind for f in report.analysis.flags}
    assert report.analysis.verdict.state == "stalled" and report.final.kind == "split"


def _write(folder: str, slug: str, turn: int, answer: str, **kw: object) -> None:
    write_turn(folder, slug, turn_body(turn, answer, **kw).encode(), key_of(folder, slug))  # type: ignore[arg-type]


def test_unexplained_flip_and_explained_change(tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path), [{"a": TOML, "b": YAML}])
    _write(folder, "a", 2, JSON)  # changes, names nobody
    _write(folder, "b", 2, TOML, agreements="- With a: comments matter, as a said")
    flags = build_report(folder).analysis.flags
    flips = [f for f in flags if f.kind == "unexplained_flip"]
    assert [f.slug for f in flips] == ["a"]


def test_oscillation_flag(tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path), [{"a": TOML, "b": YAML}, {"a": YAML, "b": YAML}, {"a": TOML, "b": YAML}])
    assert any(f.kind == "oscillation" and f.slug == "a" for f in build_report(folder).analysis.flags)


def test_confidence_rising_without_change(tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path), [{"a": TOML, "b": YAML}])
    same = "- With b: they argued for YAML anchors, I hold TOML because comments matter"
    _write(folder, "a", 2, TOML, confidence=60, disagreements=same)
    _write(folder, "b", 2, YAML)
    _write(folder, "a", 3, TOML, confidence=90, disagreements=same)
    assert "confidence_without_change" in kinds(folder)


def test_misquote_is_flagged_and_warned(tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path), [{"a": TOML, "b": YAML}])
    _write(folder, "a", 2, TOML, disagreements="- With b: they argued for MongoDB sharding behind Kafka queues, "
                                             "I hold TOML")
    _write(folder, "b", 2, YAML, disagreements="- With a: they argued for comments and a stdlib parser, I hold YAML")
    report = build_report(folder)
    misquotes = [f for f in report.analysis.flags if f.kind == "misquote"]
    assert [f.slug for f in misquotes] == ["a"]
    warned = [f for f in validate_paths([folder]) if f.code == "W090"]
    assert len(warned) == 1 and warned[0].path.endswith("turn-2-a.md") and "MongoDB" in warned[0].message


def test_an_attribution_ends_with_its_sentence(tmp_path: Path) -> None:
    """Seen in a real debate: the rebuttal after the attributed sentence is the writer's own, not the peer's."""
    folder = make_debate(str(tmp_path), [{"a": TOML, "b": YAML}])
    said = ("- With b: minor: your answer still says YAML anchors keep configs short. Under strict schema "
            "validation Kubernetes operators reject anchors entirely, so TOML avoids that failure.")
    _write(folder, "a", 2, TOML, disagreements=said)
    _write(folder, "b", 2, YAML)
    from multidebate.state.debate import load_debate

    debate = load_debate(folder)
    claims = [c for e in debate.entries.values() for c in debate.details(e).claims]
    assert [c.text for c in claims] == ["YAML anchors keep configs short"]


def test_absent_peer_flag(tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path), [{"a": TOML, "b": YAML, "c": JSON}, {"a": TOML, "b": YAML}])
    _write(folder, "a", 3, TOML, disagreements="- With c: absent")
    assert "absent_peer" in kinds(folder)


def test_final_answer_modal_with_dissent_and_tie_break(tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path), [{"a": TOML, "b": TOML, "c": YAML}], max_turns=1)
    final = build_report(folder).final
    assert final.kind == "modal" and set(final.supporters) == {"a", "b"}
    assert [d.slug for d in final.dissenters] == ["c"]
    tie = make_debate(str(tmp_path / "tie"), [{"a": TOML, "b": YAML}], max_turns=1)
    split = build_report(tie).final  # one against one: no answer is "most held"
    assert split.kind == "split" and split.supporters == () and [d.slug for d in split.dissenters] == ["a", "b"]
    assert "split evenly" in render_markdown(build_report(tie))


@pytest.mark.parametrize("example", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_shipped_examples_are_judged_truthfully(example: Path) -> None:
    report = build_report(str(example))
    state = report.analysis.verdict.state
    review = report.analysis.verdict.review
    if review is not None:  # a review is judged by its findings: it ended, and every finding is terminal
        assert report.analysis.verdict.final and not review.open and report.summary is not None
        assert not [f for f in validate_paths([str(example)]) if f.severity == "error"]
        return
    found = {f.kind for f in report.analysis.flags}
    assert "hollow" not in found and "misquote" not in found
    converged_by_files = all(p.converged for p in report.analysis.turns[-1].positions.values())
    assert (state == "converged") == converged_by_files or state in ("max_turns", "latent", "unconfirmed")
    if state != "converged":
        assert report.final.kind in ("modal", "split")


def test_report_command_formats(tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [{"a": TOML, "b": YAML}, {"a": (TOML, True), "b": (TOML, True)}])
    md = CliRunner().invoke(cli, ["report", folder])
    assert md.exit_code == 0 and "## Verdict" in md.stdout and "**converged** at turn 2" in md.stdout
    data = json.loads(CliRunner().invoke(cli, ["report", folder, "--format", "json"]).stdout)
    assert data["verdict"]["state"] == "converged" and data["final_answer"]["kind"] == "consensus"
    out = tmp_path / "r.html"
    result = CliRunner().invoke(cli, ["report", folder, "--format", "html", "-o", str(out)])
    assert result.exit_code == 0 and result.stderr == f"Wrote {out}\n"
    html = out.read_text()
    assert html.startswith("<!DOCTYPE html>") and "<svg" in html and "@media print" in html
    assert not re.search(r"(src|href)=['\"]?https?:", html)  # nothing fetched
    assert CliRunner().invoke(cli, ["report", str(tmp_path / "nope")]).exit_code == 1


def test_html_escapes_session_text(tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path), [{"a": "**<script>alert(1)</script> Use TOML**"}])
    html = CliRunner().invoke(cli, ["report", folder, "--format", "html"]).stdout
    assert "<script>" not in html and "&lt;script&gt;" in html


def test_analysis_is_shared_by_status(tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path), [{"a": TOML, "b": YAML}, {"a": (TOML, True), "b": (YAML, True)}])
    status = json.loads(CliRunner().invoke(cli, ["status", "--json", folder]).stdout)
    assert status["verdict"]["state"] == analyse(load_debate(folder)).verdict.state == "hollow"
    assert os.path.exists(folder)


def test_clip_cuts_at_a_word_and_says_so() -> None:
    from multidebate.views.report import clip

    assert clip("Use TOML for the config file", 80) == "Use TOML for the config file"
    cut = clip("Evolve in place: add a string id field beside the int, deprecate, then drop the int", 40)
    assert len(cut) <= 40 and cut.endswith("\u2026") and cut == "Evolve in place: add a string id field\u2026"
    assert clip("x" * 100, 10) == "x" * 9 + "\u2026"  # one long word: cut inside it


def test_a_return_that_adopts_a_peer_line_is_no_oscillation(tmp_path: Path) -> None:
    """After a swap, `next` tells one session to adopt the other's line: that return goes toward a peer."""
    folder = make_debate(str(tmp_path / "d"), [{"a": "**Use TOML.**", "b": "**Use YAML.**"},
                                               {"a": "**Use YAML.**", "b": "**Use TOML.**"},
                                               {"a": "**Use TOML.**", "b": "**Use TOML.**"}])
    assert not any(f.kind == "oscillation" for f in build_report(folder).analysis.flags)
