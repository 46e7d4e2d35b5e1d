"""Analysis flags and the report, on debate folders built for each flag and on every shipped example."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import Cli
from helpers import key_of, make_debate, turn_body

from multidebate.analysis.trajectory import analyse
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
    folder = make_debate(str(tmp_path), [{"a": TOML, "b": YAML}] + [{"a": (TOML, True), "b": (YAML, True)}] * 2)
    assert "hollow" in kinds(folder)


def test_latent_flag(tmp_path: Path) -> None:
    # a switched to b's answer at turn 2; b's no had not seen it
    folder = make_debate(str(tmp_path), [{"a": TOML, "b": YAML}, {"a": (YAML, True), "b": (YAML, False)}])
    assert "latent" in kinds(folder)


def test_stalled_flag_and_polite_stalemate_is_not_converged(tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path), [{"a": TOML, "b": YAML}] * 3)
    report = build_report(folder)
    assert "stalled" in {f.kind for f in report.analysis.flags}
    assert report.analysis.verdict.state == "stalled"
    assert report.final.kind == "split"


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
    assert len(warned) == 1
    assert warned[0].path.endswith("turn-2-a.md")
    assert "MongoDB" in warned[0].message


def test_a_paraphrase_in_ordinary_words_is_no_misquote(tmp_path: Path) -> None:
    """d64: "keeping stdlib with tuning plus caching" for a peer's "keep the standard-library json module ...
    caching serialised responses" shares 40 % of its terms, and a person calls it fair: a flag needs a name or a
    number the peer never wrote."""
    peer = ("**Keep the standard-library json module with a custom default=, and cut the 18 % by caching serialised "
            "responses rather than adding a compiled dependency.**")
    folder = make_debate(str(tmp_path), [{"a": "**Switch to orjson.**", "b": peer}])
    _write(folder, "a", 2, "**Switch to orjson.**", disagreements="- With b: they recommend keeping stdlib with "
           "tuning plus caching; I hold orjson because it is faster")
    _write(folder, "b", 2, peer)
    assert not [f for f in build_report(folder).analysis.flags if f.kind == "misquote"]
    assert not [f for f in validate_paths([folder]) if f.code == "W090"]


def test_an_option_letter_is_no_foreign_name(tmp_path: Path) -> None:
    """d01: "chose K for Q1 because the extra option hints at the answer key" was flagged for the letter K, which
    the peer wrote as "(K) ellipse" and the vocabulary never keeps (one-letter words): a letter is no evidence."""
    peer = ("**Q1: K, Q2: valid, Q3: C**\n\nQ1: a circle is an ellipse with equal radii; the option list adds (K) "
            "ellipse beyond the usual ten, for this item only, which in this task family appears when the drawn "
            "shape is the ellipse.")
    folder = make_debate(str(tmp_path), [{"a": "**Q1: A, Q2: valid, Q3: C**", "b": peer}])
    _write(folder, "a", 2, "**Q1: A, Q2: valid, Q3: C**",
           disagreements="- With b: they chose K for Q1 because the extra option hints at the answer key; I hold A")
    _write(folder, "b", 2, peer)
    assert not [f for f in build_report(folder).analysis.flags if f.kind == "misquote"]


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


def test_final_answer_modal_with_dissent_and_a_tie_is_split(tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path), [{"a": TOML, "b": TOML, "c": YAML}], max_turns=1, participants=("a", "b", "c"))
    final = build_report(folder).final
    assert final.kind == "modal"
    assert set(final.supporters) == {"a", "b"}
    assert [d.slug for d in final.dissenters] == ["c"]
    tie = make_debate(str(tmp_path / "tie"), [{"a": TOML, "b": YAML}], max_turns=1)
    split = build_report(tie).final  # one against one: no answer is "most held"
    assert split.kind == "split"
    assert split.supporters == ()
    assert [d.slug for d in split.dissenters] == ["a", "b"]
    assert (split.representative, split.recommendation, split.answer) == (None, "", "")
    assert "split evenly" in render_markdown(build_report(tie))


@pytest.mark.parametrize("example", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_shipped_examples_are_judged_truthfully(example: Path) -> None:
    report = build_report(str(example))
    state = report.analysis.verdict.state
    review = report.analysis.verdict.review
    if review is not None:  # a review is judged by its findings: it ended, and every finding is terminal
        assert report.analysis.verdict.final
        assert not review.open
        assert report.summary is not None
        assert not [f for f in validate_paths([str(example)]) if f.severity == "error"]
        return
    found = {f.kind for f in report.analysis.flags}
    assert "hollow" not in found
    assert "misquote" not in found
    converged_by_files = all(p.converged for p in report.analysis.turns[-1].positions.values())
    assert (state == "converged") == converged_by_files or state in ("max_turns", "latent", "unconfirmed")
    if state != "converged":
        assert report.final.kind in ("modal", "split")


def test_report_command_formats(cli: Cli, tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [{"a": TOML, "b": YAML}, {"a": (TOML, True), "b": (TOML, True)}])
    md = cli("report", folder)
    assert md.code == 0
    assert "## Verdict" in md.out
    assert "**converged** at turn 2" in md.out
    data = cli("report", folder, "--format", "json").json()
    assert data["verdict"]["state"] == "converged"
    assert data["final_answer"]["kind"] == "consensus"
    out = tmp_path / "r.html"
    result = cli("report", folder, "--format", "html", "-o", str(out))
    assert result.code == 0
    assert result.err == f"Wrote {out}\n"
    html = out.read_text()
    assert html.startswith("<!DOCTYPE html>")
    assert "<svg" in html
    assert "@media print" in html
    assert not re.search(r"(src|href)=['\"]?https?:", html)  # nothing fetched
    assert cli("report", str(tmp_path / "nope")).code == 1


def test_html_escapes_session_text(cli: Cli, tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path), [{"a": "**<script>alert(1)</script> Use TOML**"}])
    html = cli("report", folder, "--format", "html").out
    assert "<script>" not in html
    assert "&lt;script&gt;" in html


def test_status_and_the_analysis_give_the_same_verdict(cli: Cli, tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path), [{"a": TOML, "b": YAML}] + [{"a": (TOML, True), "b": (YAML, True)}] * 2)
    status = cli("status", "--json", folder).json()
    assert status["verdict"] == analyse(load_debate(folder)).verdict.as_dict()
    assert status["verdict"]["state"] == "hollow"


def test_clip_cuts_at_a_word_and_says_so() -> None:
    from multidebate.views.report import clip

    assert clip("Use TOML for the config file", 80) == "Use TOML for the config file"
    cut = clip("Evolve in place: add a string id field beside the int, deprecate, then drop the int", 40)
    assert len(cut) <= 40
    assert cut.endswith("\u2026")
    assert cut == "Evolve in place: add a string id field\u2026"
    assert clip("x" * 100, 10) == "x" * 9 + "\u2026"  # one long word: cut inside it


def test_a_return_that_adopts_a_peer_line_is_no_oscillation(tmp_path: Path) -> None:
    """After a swap, `next` tells one session to adopt the other's line: that return goes toward a peer."""
    folder = make_debate(str(tmp_path / "d"), [{"a": "**Use TOML.**", "b": "**Use YAML.**"},
                                               {"a": "**Use YAML.**", "b": "**Use TOML.**"},
                                               {"a": "**Use TOML.**", "b": "**Use TOML.**"}])
    assert not any(f.kind == "oscillation" for f in build_report(folder).analysis.flags)


def _report_json(cli: Cli, folder: str, *options: str) -> dict[str, Any]:
    result = cli("report", folder, "--format", "json", *options)
    assert result.code == 0, result
    data: dict[str, Any] = result.json()
    return data


def test_toward_names_the_peers_a_change_moved_to_and_no_one_agreed_with_before(cli: Cli, tmp_path: Path) -> None:
    """a leaves TOML for the YAML that b and c held: toward both; b kept its line (no change, toward no one);
    c changed to JSON, which no peer held."""
    folder = make_debate(str(tmp_path / "d"), [{"a": TOML, "b": YAML, "c": YAML}, {"a": YAML, "b": YAML, "c": JSON}])
    turn2 = _report_json(cli, folder)["turns"][1]["positions"]
    assert {s: (p["changed"], p["toward"]) for s, p in turn2.items()} == {
        "a": (True, ["b", "c"]), "b": (False, []), "c": (True, [])}
    assert turn2["a"]["change_evidence"] == "one line recommends toml, the other rejects it"  # why it is a change
    assert _report_json(cli, folder)["turns"][0]["positions"]["a"]["change_evidence"] == ""  # nothing to compare with
    # a's new answer is c's, not b's: the peers it did not join are passed over, not the end of the search
    later = make_debate(str(tmp_path / "f"), [{"a": TOML, "b": YAML, "c": JSON}, {"a": JSON, "b": YAML, "c": JSON}])
    assert _report_json(cli, later)["turns"][1]["positions"]["a"]["toward"] == ["c"]
    # a moves from 16 to 15: toward c (15), not toward b, whose bare "Postgres" a agreed with before as now
    other = make_debate(str(tmp_path / "e"), [
        {"a": "**Use Postgres 16.**", "b": "**Use Postgres.**", "c": "**Use Postgres 15.**"},
        {"a": "**Use Postgres 15.**", "b": "**Use Postgres.**", "c": "**Use Postgres 15.**"}])
    assert _report_json(cli, other)["turns"][1]["positions"]["a"]["toward"] == ["c"]


def test_weighted_final_answer_counts_confidence_instead_of_heads(cli: Cli, tmp_path: Path) -> None:
    """One confident TOML against two unsure YAMLs: YAML by head count, TOML by confidence (90 > 30 + 40)."""
    from helpers import write_keyed

    folder = str(tmp_path / "d")
    make_debate(folder, [], max_turns=1, participants=("a", "b", "c"))  # without a roster a and b end turn 1
    for slug, answer, confidence in (("a", TOML, 90), ("b", YAML, 30), ("c", YAML, 40)):
        write_keyed(folder, slug, turn_body(1, answer, confidence=confidence).encode())
    by_heads = _report_json(cli, folder)["final_answer"]
    assert (by_heads["kind"], by_heads["supporters"], by_heads["confidence_weighted"]) == ("modal", ["b", "c"], False)
    weighted = _report_json(cli, folder, "--weighted")["final_answer"]
    assert (weighted["kind"], weighted["representative"], weighted["supporters"]) == ("modal", "a", ["a"])
    assert weighted["confidence_weighted"] is True
    assert [d["slug"] for d in weighted["dissenters"]] == ["b", "c"]
    md = cli("report", folder, "--weighted").out
    assert "held by a (one bold line, word for word): **Use TOML" in md
    assert "Shown: a's Answer." in md


def test_weighted_final_answer_with_equal_confidence_sums_is_split(cli: Cli, tmp_path: Path) -> None:
    from helpers import write_keyed

    folder = str(tmp_path / "d")
    make_debate(folder, [], max_turns=1, participants=("a", "b", "c"))  # without a roster a and b end turn 1
    for slug, answer, confidence in (("a", TOML, 60), ("b", YAML, 30), ("c", YAML, 30)):
        write_keyed(folder, slug, turn_body(1, answer, confidence=confidence).encode())
    assert _report_json(cli, folder)["final_answer"]["supporters"] == ["b", "c"]  # by heads: two against one
    split = _report_json(cli, folder, "--weighted")["final_answer"]  # 60 against 30 + 30
    assert (split["kind"], split["confidence_weighted"]) == ("split", True)


def test_yes_with_disagreements_flags_a_yes_that_still_disputes_a_peer(cli: Cli, tmp_path: Path) -> None:
    """a says yes but keeps a real point against b; b says yes with only a minor item (and an Agreements
    item naming a); c disputes a too, but says no: only a is flagged."""
    from helpers import write_keyed

    folder = make_debate(str(tmp_path / "d"), [{"a": TOML, "b": TOML, "c": YAML}])
    write_keyed(folder, "a", turn_body(2, TOML, converged=True,
                                       disagreements="- With b: the loader must reject duplicate keys").encode())
    write_keyed(folder, "b", turn_body(2, TOML, converged=True, agreements="- With a: comments matter",
                                       disagreements="- With a: minor: the file name\n- With c: None").encode())
    write_keyed(folder, "c", turn_body(2, YAML, disagreements="- With a: anchors keep the file short").encode())
    report = _report_json(cli, folder)
    positions = report["turns"][1]["positions"]  # Disagreements items only (minor ones too), never Agreements
    assert {s: p["disagreements"] for s, p in positions.items()} == {
        "a": ["With b: the loader must reject duplicate keys"], "b": ["With a: minor: the file name"],
        "c": ["With a: anchors keep the file short"]}
    flags = [f for f in report["flags"] if f["kind"] == "yes_with_disagreements"]
    assert flags == [{"kind": "yes_with_disagreements", "turn": 2, "slug": "a",
                      "detail": "a says yes but still lists 1 disagreement(s)"}]


def test_final_answer_names_the_most_held_line_the_dissent_and_its_reasons(tmp_path: Path) -> None:
    """#32: positions are grouped by one bold line, word for word, never by the comparison: `Pool: 10 / 10` in
    other case and spacing is one line, `Pool.` and `Pool: 5 / 2` are others.  Each dissenter's reason is its
    Converged reason, else its first Disagreements item; the supporters' Disagreements items (minor ones too,
    `None` not) are the minority points."""
    from helpers import write_keyed

    folder = make_debate(str(tmp_path / "d"), [{s: "**Use TOML.**" for s in ("a", "b", "c", "e", "f")}],
                         max_turns=2, min_turns=2)
    for slug, answer, kw in (
            ("a", "**Pool: 10 / 10**", {"disagreements": "- With e: YAML anchors are not needed"}),
            ("b", "**Pool.**", {"disagreements": "- With a: None"}),
            ("c", "**pool:  10 / 10**", {"disagreements": "- With e: minor: the name"}),
            ("e", "**Use YAML.**", {"reason": "YAML keeps the file short"}),
            ("f", "**Use JSON.**", {"disagreements": "- With a: the pool is too small"})):
        write_keyed(folder, slug, turn_body(2, answer, **kw).encode())  # type: ignore[arg-type]
    final = build_report(folder).final
    assert (final.kind, final.turn, final.representative, final.recommendation, final.answer) == (
        "modal", 2, "a", "Pool: 10 / 10", "**Pool: 10 / 10**")
    assert final.supporters == ("a", "c")
    assert [(d.slug, d.recommendation, d.reason) for d in final.dissenters] == [
        ("b", "Pool.", "With a: None"), ("e", "Use YAML.", "YAML keeps the file short"),
        ("f", "Use JSON.", "With a: the pool is too small")]
    assert final.minority_points == ("a: With e: YAML anchors are not needed", "c: With e: minor: the name")


def test_final_answer_of_a_converged_debate_is_the_converged_turns_even_after_more_turns(tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [{"a": TOML, "b": YAML}, {"a": (TOML, True), "b": (TOML, True)}])
    for slug in ("a", "b"):  # by hand: `write` refuses a turn after the end
        Path(folder, f"turn-3-{slug}.md").write_text(f"# Turn 3 \u2014 {slug}\n\n" + turn_body(3, JSON),
                                                     encoding="utf-8")
    report = build_report(folder)
    assert (report.analysis.verdict.state, report.analysis.verdict.turn) == ("converged", 2)
    assert (report.final.kind, report.final.turn, report.final.recommendation) == (
        "consensus", 2, "Use TOML for the config file.")
    none = build_report(str(tmp_path)).final.as_dict()  # no turn file: no answer
    assert none == {"kind": "none", "turn": 0, "representative": None, "recommendation": "", "answer": "",
                    "supporters": [], "dissenters": [], "minority_points": [], "confidence_weighted": False,
                    "answer_turn": 0, "read_by": [], "unrecorded": [], "not_read_by": [], "line_only": False,
                    "added_at_last_turn": [], "independent": False, "line_since": 0}


def _flags(folder: str) -> list[tuple[str, int, str | None, str]]:
    return [(f.kind, f.turn, f.slug, f.detail) for f in build_report(folder).analysis.flags]


def test_flags_carry_their_turn_slug_and_detail(tmp_path: Path) -> None:
    swing = make_debate(str(tmp_path / "swing"), [{"a": TOML, "b": YAML}, {"a": YAML, "b": YAML},
                                                  {"a": TOML, "b": YAML}])
    assert _flags(swing) == [
        ("unexplained_flip", 2, "a", "a changed its answer at turn 2 without naming any peer's argument"),
        ("unexplained_flip", 3, "a", "a changed its answer at turn 3 without naming any peer's argument"),
        ("oscillation", 3, "a", "a returned at turn 3 to its answer of turn 1")]
    stalled = make_debate(str(tmp_path / "stalled"), [{"a": TOML, "b": YAML}] * 3)
    (flag,) = _flags(stalled)
    assert flag[:3] == ("stalled", 3, None)
    assert flag[3].startswith("no recommendation changed from turn 1 to 3 (")
    # c stops after turn 1: a and b both miss its turn 2, and the flag is said once
    absent = make_debate(str(tmp_path / "absent"), [{"a": TOML, "b": YAML, "c": JSON}, {"a": TOML, "b": YAML},
                                                    {"a": TOML, "b": YAML}])
    assert _flags(absent) == [("absent_peer", 3, "a", "c wrote no turn 2 for a to read")]
    rising = make_debate(str(tmp_path / "rising"), [{"a": TOML, "b": YAML}])
    same = "- With b: they argued for YAML anchors, I hold TOML because comments matter"
    _write(rising, "a", 2, TOML, confidence=60, disagreements=same)
    _write(rising, "b", 2, YAML)
    _write(rising, "a", 3, TOML, confidence=61, disagreements=same)  # up by one is up
    assert ("confidence_without_change", 3, "a",
            "a's confidence rose from 60 to 61 while its Disagreements stayed the same") in _flags(rising)
    # no flag: the same confidence; other Disagreements; one more item
    for name, confidence, items in (("level", 60, same), ("other", 90, "- With b: their anchors break the schema "
                                                                       "validator we run in CI"),
                                    ("more", 90, same + "\n- With b: minor: the file name")):
        folder = make_debate(str(tmp_path / name), [{"a": TOML, "b": YAML}])
        _write(folder, "a", 2, TOML, confidence=60, disagreements=same)
        _write(folder, "b", 2, YAML)
        _write(folder, "a", 3, TOML, confidence=confidence, disagreements=items)
        assert "confidence_without_change" not in {k for k, _t, _s, _d in _flags(folder)}, name
    # moving on twice is no return: no oscillation
    onward = make_debate(str(tmp_path / "onward"), [{"a": TOML, "b": YAML}, {"a": YAML, "b": YAML},
                                                    {"a": JSON, "b": YAML}])
    assert "oscillation" not in {k for k, _t, _s, _d in _flags(onward)}


def test_a_change_explained_in_the_reasoning_is_no_unexplained_flip(tmp_path: Path) -> None:
    """Naming a peer in the Reasoning explains a change as well as a Disagreements item does."""
    from helpers import write_keyed

    folder = make_debate(str(tmp_path / "d"), [{"alpha": TOML, "bravo": YAML, "carol": JSON}])
    write_keyed(folder, "alpha", turn_body(2, YAML).replace("Thinking for turn 2.", "Bravo's point on anchors won me.")
                .encode())
    write_keyed(folder, "bravo", turn_body(2, TOML).encode())  # changes too, names nobody
    write_keyed(folder, "carol", turn_body(2, JSON).encode())
    assert [(k, t, s) for k, t, s, _d in _flags(folder)] == [("unexplained_flip", 2, "bravo")]


def test_the_agreement_matrix_is_the_last_turns_only(cli: Cli, tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [{"a": TOML, "b": YAML, "c": TOML}, {"a": TOML, "b": TOML, "c": TOML}])
    turns = _report_json(cli, folder)["turns"]
    assert turns[0]["matrix"] == []
    assert [(m["pair"], m["relation"]) for m in turns[1]["matrix"]] == [
        (["a", "b"], "same"), (["a", "c"], "same"), (["b", "c"], "same")]
    assert [t["complete"] for t in turns] == [True, True]


def test_final_answer_order_and_ties_follow_the_slugs_never_the_file_times(tmp_path: Path) -> None:
    """Supporters are listed, and a tie for representative goes, in the order of the slugs, never by the file
    times a file's owner sets (issue 24, item 14); a chain of refinements is as many positions as lines (#32:
    the comparison groups nothing)."""
    from helpers import write_keyed

    alike = str(tmp_path / "alike")
    make_debate(alike, [], max_turns=1)
    for slug in ("b", "a"):
        write_keyed(alike, slug, turn_body(1, "**Use TOML.**").encode())
    os.utime(Path(alike, "turn-1-b.md"), (1_700_000_000, 1_700_000_000))  # b's owner dates its file first
    os.utime(Path(alike, "turn-1-a.md"), (1_700_000_010, 1_700_000_010))
    final = build_report(alike).final
    assert (final.representative, final.supporters) == ("a", ("a", "b"))
    chain = str(tmp_path / "chain")  # 16 and 15 differ; the bare Postgres, written last, is the same as both
    make_debate(chain, [], max_turns=1, participants=("a", "b", "c"))
    for slug, answer in (("a", "**Use Postgres 16.**"), ("b", "**Use Postgres 15.**"), ("c", "**Use Postgres.**")):
        write_keyed(chain, slug, turn_body(1, answer).encode())
    final = build_report(chain).final
    assert (final.kind, final.representative, final.supporters) == ("split", None, ())


def test_final_answer_while_a_turn_runs_is_the_last_complete_turns(tmp_path: Path) -> None:
    from multidebate.analysis.final import final_answer
    from multidebate.analysis.verdict import judge

    folder = make_debate(str(tmp_path / "d"), [{"a": TOML, "b": TOML, "c": YAML}, {"a": JSON}])
    final = build_report(folder).final
    assert (final.turn, final.recommendation, final.supporters) == (1, "Use TOML for the config file.", ("a", "b"))
    assert [(d.slug, d.reason) for d in final.dissenters] == [("c", "")]  # no reason given: an empty one
    debate = load_debate(folder)
    assert final_answer(debate, judge(debate)).weighted is False  # by heads unless asked
    first = make_debate(str(tmp_path / "first"), [{"a": TOML}], participants=("a", "b"))  # b has not written yet
    final = build_report(first).final
    assert (final.kind, final.turn, final.supporters) == ("modal", 1, ("a",))


def test_turn_table_marks_every_new_line_and_says_whether_the_position_moved(tmp_path: Path) -> None:
    """d49: a reader saw one session's reused line marked "(changed)" and another's not marked at all."""
    folder = str(tmp_path)
    make_debate(folder, [{"a": "**Use TOML.**", "b": "**Use PostgreSQL.**", "c": "**Use YAML.**"},
                         {"a": "**Use TOML.**", "b": "**Use Postgres.**", "c": "**Use TOML.**"}])
    from multidebate.views.report import turn_rows

    report = build_report(folder)
    _turn, _complete, cells = turn_rows(report)[1]
    assert [c.change if c else None for c in cells] == ["", "reworded", "changed"]
    text = render_markdown(report)
    assert "Use Postgres. — 70, no (reworded)" in text
    assert "Use TOML. — 70, no (changed)" in text


def test_hand_written_turns_are_a_note_that_names_their_writer_not_a_problem(tmp_path: Path) -> None:
    """d65: a report said 'Act on these before trusting this report' for files a session without the CLI wrote,
    without naming whose they were."""
    from helpers import turn_body

    from multidebate.views.report_html import render_html

    folder = make_debate(str(tmp_path), [{"a": TOML}])
    Path(folder, "turn-1-hand.md").write_text("# Turn 1 — hand\n\n" + turn_body(1, TOML), encoding="utf-8")
    report = build_report(folder)
    assert report.problems == ("1 turn file was not written by `multidebate write` (by hand; no ledger entry, W080): "
                               "allowed, but their integrity cannot be checked",)
    markdown = render_markdown(report)
    assert "## Notes" in markdown
    assert "Act on these" not in markdown
    assert "<h2>Notes</h2>" in render_html(report)
