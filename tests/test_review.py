"""Review debates: roles, the Findings / Responses formats, the mechanical case verdict, the judge, the summary."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import Cli
from helpers import key_of, write_keyed

from multidebate.analysis.review_case import review_case
from multidebate.protocol.errors import InvalidTurn
from multidebate.protocol.review_items import read_findings, read_responses
from multidebate.state.debate import load_debate
from multidebate.state.task import load_task
from multidebate.turns.briefing import brief
from multidebate.turns.briefing_text import render_briefing
from multidebate.views.status import debate_status
from multidebate.views.validate import validate_debate

PROPOSAL = """# Cache design

We key the parse cache on each file's size and mtime.
Shards are written atomically with a rename.
"""
EVIDENCE = '"We key the parse cache on each file\'s size and mtime"'


def review(tmp_path: Path, critics: tuple[str, ...] = ("ca",), *extra: str) -> str:
    proposal = tmp_path / "design.md"
    proposal.write_text(PROPOSAL)
    folder = str(tmp_path / "review")
    roles = [f"--role={c}=critic" for c in critics] + ["--role=de=defender"]
    # a plain function, not a fixture: test_hardening2 and test_review_fit build reviews with it too
    code, out, err = Cli()("init", folder, "--mode", "review", "--proposal", str(proposal), "--task", "Review it.",
                           *roles, *extra)
    assert code == 0, out + err
    return folder


def new_finding(fid: str, severity: int, klass: str, claim: str = "it breaks", evidence: str = EVIDENCE) -> str:
    return (f"### {fid} \u2014 title of {fid}\n- severity: {severity}\n- class: {klass}\n- claim: {claim}\n"
            f"- evidence: {evidence}\n- failure mode: stale data\n")


def critic(*items: str) -> bytes:
    return ("## Reasoning\nLooked.\n\n## Findings\n" + ("\n".join(items) or "None.") + "\n").encode()


def response(fid: str, move: str, severity: int, what: str = "") -> str:
    field = {"CONCEDE": "fix", "DEFER": "test"}.get(move, "reason")
    return f"### {fid} \u2014 {move}\n- severity: {severity}\n- {field}: {what or 'because'}\n"


def defender(*items: str) -> bytes:
    return ("## Reasoning\nAnswering.\n\n## Responses\n" + ("\n".join(items) or "None.") + "\n").encode()


def case_of(folder: str):  # type: ignore[no-untyped-def]
    task = load_task(folder)
    assert task is not None
    return review_case(load_debate(folder), task.role_map, task.rounds, PROPOSAL)


# --- reading the sections ---------------------------------------------------------------------------------------


def test_findings_are_read_from_headings_bold_lines_and_list_items() -> None:
    body = (new_finding("F1", 9, "FATAL") + "\n**F2: bold opener**\n- severity: 3\n- class: MINOR\n- claim: c\n"
            "- evidence: e\n- failure mode: f\n\n- F3 \u2014 list opener\n  - answer: withdraw\n")
    items, found = read_findings(body, 1, "t.md")
    assert [(i.id, i.severity, i.klass, i.answer) for i in items] == [
        ("F1", 9, "FATAL", None), ("F2", 3, "MINOR", None), ("F3", None, None, "withdraw")]
    assert found == []


@pytest.mark.parametrize("body, code", [
    ("### F1 \u2014 t\n- severity: 11\n- class: FATAL\n- claim: c\n- evidence: e\n- failure mode: f\n", "E102"),
    ("### F1 \u2014 t\n- severity: 9\n- class: MINOR\n- claim: c\n- evidence: e\n- failure mode: f\n", "E103"),
    ("### F1 \u2014 t\n- severity: 9\n- class: FATAL\n- claim: c\n", "E101"),
    ("### F1 \u2014 t\n- answer: re-raise\n", "E107"),
    ("### F1 \u2014 t\n- answer: sulk\n", "E108"),
    (new_finding("F1", 2, "MINOR") + new_finding("F1", 2, "MINOR"), "E109"),
])
def test_a_malformed_finding_has_its_code(body: str, code: str) -> None:
    assert code in {f.code for f in read_findings(body, 1, "t.md")[1]}


def test_responses_take_qualified_ids_and_need_what_their_move_promises() -> None:
    body = ("### ca/F1 \u2014 CONCEDE\n- severity: 9\n- fix: clamp\n\n### F2 (cb) \u2014 Rebut design\n- severity: 2\n"
            "- reason: no\n\n### F3 \u2014 DEFER\n- severity: 5\n\n### F4 \u2014 REBUT\n- severity: 1\n- reason: r\n")
    items, found = read_responses(body, 1, "t.md")
    assert [(i.critic, i.id, i.move) for i in items] == [
        ("ca", "F1", "CONCEDE"), ("cb", "F2", "REBUT-DESIGN"), (None, "F3", "DEFER"), (None, "F4", None)]
    assert sorted(f.code for f in found) == ["E106", "E108"]


# --- the case ------------------------------------------------------------------------------------------------------


def test_a_conceded_severity_9_finding_decides_the_case(tmp_path: Path) -> None:
    folder = review(tmp_path)
    write_keyed(folder, "ca", critic(new_finding("F1", 9, "FATAL"), new_finding("F2", 5, "MATERIAL")))
    write_keyed(folder, "de", defender(response("F1", "CONCEDE", 9, "clamp"), response("F2", "DEFER", 5, "run it")))
    case = case_of(folder)
    assert (case.verdict, case.deciding, case.rounds, case.stop) == ("critique_wins", "ca/F1", 1, "")
    write_keyed(folder, "ca", critic())
    case = case_of(folder)
    # round 2: the critic accepts everything, so the review ends without a defender turn 2
    assert (case.verdict, case.rounds, case.stop) == ("critique_wins", 2, "fully_resolved")
    verdict = debate_status(folder).verdict
    assert verdict.final
    assert (verdict.state, verdict.turn) == ("fully_resolved", 2)
    assert verdict.detail.startswith("ended in round 2: the critics raised and reopened nothing, so the defender had "
                                     "nothing left to answer; critique_wins")


def test_a_running_review_says_which_round_who_is_awaited_and_what_is_open(tmp_path: Path) -> None:
    folder = review(tmp_path)
    write_keyed(folder, "ca", critic(new_finding("F1", 9, "FATAL")))
    v = debate_status(folder).verdict
    assert (v.state, v.turn, v.missing) == ("in_progress", 0, ("de",))
    assert v.detail == "round 1 of 2-4 running; case so far: critique_wins (ca/F1 open at severity 9); open: ca/F1"
    assert v.review is not None
    assert v.review.findings[0].key == "ca/F1"
    write_keyed(folder, "de", defender(response("F1", "REBUT-DESIGN", 3, "by design")))
    v = debate_status(folder).verdict
    assert (v.state, v.turn, v.missing) == ("in_progress", 1, ())
    assert v.detail == ("round 1 of 2-4 done; case so far: defense_wins (no finding is left at severity 9 or more "
                        "after its fix, none deferred to a test)")


def test_a_defender_that_lowers_the_severity_of_a_concession_wins_unless_the_critic_rescores(tmp_path: Path) -> None:
    folder = review(tmp_path)
    write_keyed(folder, "ca", critic(new_finding("F1", 9, "FATAL")))
    write_keyed(folder, "de", defender(response("F1", "CONCEDE", 6, "clamp")))
    # r72, r73: the proposal stands only with the fix, and `defense_wins` was read as "it was sound"
    assert case_of(folder).verdict == "fixes_agreed"
    assert "the proposal stands only with the fixes of the 1 finding conceded: ca/F1" in case_of(folder).summary()
    write_keyed(folder, "ca", critic("### F1 \u2014 t\n- answer: rescore\n- severity: 9\n- claim: it is fatal\n"))
    case = case_of(folder)
    assert case.findings[0].state == "open"
    assert case.findings[0].severity == 9
    assert case.stop == ""
    # an open finding at severity 9 stands until answered: the provisional case says so
    assert case.verdict == "critique_wins"
    write_keyed(folder, "de", defender(response("F1", "CONCEDE", 9, "clamp")))
    assert case_of(folder).verdict == "critique_wins"


def test_deferred_and_rebutted_findings(tmp_path: Path) -> None:
    folder = review(tmp_path)
    write_keyed(folder, "ca", critic(new_finding("F1", 6, "MATERIAL"), new_finding("F2", 8, "FATAL")))
    write_keyed(folder, "de", defender(response("F1", "DEFER", 6, "rerun the bench"),
                                       response("F2", "REBUT-SCOPE", 2, "not ours")))
    case = case_of(folder)
    assert case.verdict == "empirical_test_agreed"
    assert case.deciding == "ca/F1"
    assert {f.key: f.state for f in case.findings} == {"ca/F1": "deferred", "ca/F2": "rebutted"}
    assert {f.key: f.klass for f in case.findings}["ca/F2"] == "MINOR"  # the class follows the adjusted severity


def test_a_re_raise_reopens_and_max_rounds_stops(cli: Cli, tmp_path: Path) -> None:
    folder = review(tmp_path, ("ca",), "--max-rounds", "2")
    write_keyed(folder, "ca", critic(new_finding("F1", 7, "MATERIAL")))
    write_keyed(folder, "de", defender(response("F1", "REBUT-DESIGN", 3, "by design")))
    write_keyed(folder, "ca", critic("### F1 \u2014 t\n- answer: re-raise\n- new evidence: FAT has 2 s mtime\n"))
    assert case_of(folder).findings[0].state == "open"
    with pytest.raises(InvalidTurn) as refused:  # the open finding must be answered
        write_keyed(folder, "de", defender())
    # the re-raise gave no severity: the defender's adjusted one stands
    assert "ca/F1 (severity 3) is open" in " ".join(refused.value.problems)
    write_keyed(folder, "de", defender(response("F1", "REBUT-DESIGN", 3, "still by design")))
    case = case_of(folder)
    assert (case.stop, case.rounds, case.verdict) == ("max_rounds", 2, "defense_wins")
    status = debate_status(folder)
    assert status.verdict.state == "max_rounds"
    code, out, _ = cli("report", folder)
    assert code == 0
    assert "the critic re-raised it and the defender still rebuts it" in out


def test_two_critics_need_qualified_ids(tmp_path: Path) -> None:
    folder = review(tmp_path, ("ca", "cb"))
    write_keyed(folder, "ca", critic(new_finding("F1", 4, "MATERIAL")))
    write_keyed(folder, "cb", critic(new_finding("F1", 3, "MINOR")))
    with pytest.raises(InvalidTurn) as refused:
        write_keyed(folder, "de", defender(response("F1", "CONCEDE", 4, "x"), response("cb/F1", "CONCEDE", 3, "y")))
    assert any("ambiguous" in p for p in refused.value.problems)
    write_keyed(folder, "de", defender(response("ca/F1", "CONCEDE", 4, "x"), response("cb/F1", "CONCEDE", 3, "y")))
    assert {f.key for f in case_of(folder).findings} == {"ca/F1", "cb/F1"}


def test_a_critic_cannot_reuse_an_id_or_answer_a_finding_it_never_raised(tmp_path: Path) -> None:
    folder = review(tmp_path)
    write_keyed(folder, "ca", critic(new_finding("F1", 4, "MATERIAL")))
    write_keyed(folder, "de", defender(response("F1", "CONCEDE", 4, "x")))
    with pytest.raises(InvalidTurn) as reused:
        write_keyed(folder, "ca", critic(new_finding("F1", 5, "MATERIAL", claim="something else")))
    assert any("a new finding takes a new id" in p for p in reused.value.problems)
    with pytest.raises(InvalidTurn) as unknown:
        write_keyed(folder, "ca", critic("### F7 \u2014 t\n- answer: withdraw\n"))
    assert any("`ca` raised no F7" in p for p in unknown.value.problems)


def test_a_wrong_role_turn_is_refused_and_found(tmp_path: Path) -> None:
    folder = review(tmp_path)
    with pytest.raises(InvalidTurn):
        write_keyed(folder, "ca", defender(response("F1", "CONCEDE", 4, "x")))
    # a hand-written file is read leniently, and validate names the mismatch
    Path(folder, "turn-1-ca.md").write_text("# Turn 1 \u2014 ca\n\n## Reasoning\nr\n\n## Responses\nNone.\n")
    codes = {(os.path.basename(f.path), f.code) for f in validate_debate(load_debate(folder))}
    assert ("turn-1-ca.md", "E100") in codes


def test_evidence_the_proposal_lacks_and_a_changed_proposal_are_found(tmp_path: Path) -> None:
    folder = review(tmp_path)
    write_keyed(folder, "ca", critic(new_finding("F1", 4, "MATERIAL", evidence='"the cache is encrypted at rest"')))
    codes = {f.code for f in validate_debate(load_debate(folder))}
    assert "W100" in codes
    assert "W101" not in codes
    with open(os.path.join(folder, "PROPOSAL.md"), "a") as handle:
        handle.write("Edited later.\n")
    assert "W101" in {f.code for f in validate_debate(load_debate(folder))}
    assert any("W101" in line for line in debate_status(folder).problems)


# --- next -------------------------------------------------------------------------------------------------------


def test_the_defender_reads_the_critics_turn_n_and_that_is_no_reading_rule_break(tmp_path: Path) -> None:
    folder = review(tmp_path)
    first = brief(folder, "ca")
    text = render_briefing(first)
    assert "ROLE: critic" in text
    assert "PROPOSAL (PROPOSAL.md" in text
    assert "We key the parse cache" in text
    assert first.sections == ("Reasoning", "Findings")
    waiting = brief(folder, "de")
    assert waiting.waiting == ("ca",)
    assert waiting.reads == 1
    write_keyed(folder, "ca", critic(new_finding("F1", 9, "FATAL")))
    served = brief(folder, "de")
    assert [p.file for p in served.peers] == ["turn-1-ca.md"]
    assert "- ca/F1 [9 FATAL] open" in render_briefing(served)
    write_keyed(folder, "de", defender(response("F1", "CONCEDE", 9, "clamp")))
    assert not [f for f in validate_debate(load_debate(folder)) if f.code == "E083"]
    later = render_briefing(brief(folder, "ca", key=key_of(folder, "ca")))
    # #27: a short proposal is served whole every round (sessions quoted it from memory when it was not)
    assert "YOUR FINDINGS, most severe first" in later
    assert "next id (F2" in later
    assert "We key the parse cache" in later


def test_next_json_of_a_review_has_the_role(cli: Cli, tmp_path: Path) -> None:
    folder = review(tmp_path)
    code, out, _ = cli("next", folder, "--slug", "ca", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["role"] == "critic"
    assert data["sections"] == ["Reasoning", "Findings"]
    assert data["proposal_file"] == "PROPOSAL.md"
    assert "Cache design" in data["proposal"]


# --- init -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("args, message", [
    (["--mode", "review", "--role", "a=critic", "--proposal", "P"], "one defender and at least one critic"),
    (["--mode", "review", "--role", "a=critic", "--role", "b=defender"], "needs --proposal"),
    (["--role", "a=critic"], "need --mode review"),
    (["--role", "a=critik"], "unknown role `critik`"),
    (["--role", "a=defender:security"], "only a critic has a lens"),
    (["--role", "a=judge", "--role", "b=judge"], "one judge at most"),
    (["--judge-when", "always"], "needs a judge"),
    (["--mode", "review", "--role", "a=critic", "--role", "b=defender", "--proposal", "P", "--sealed",
      "--participants", "a,b"], "cannot be --sealed"),
])
def test_init_refuses_a_broken_setup(cli: Cli, tmp_path: Path, args: list[str], message: str) -> None:
    (tmp_path / "P").write_text("text")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        code, _, err = cli("init", "d", "--task", "t", *args)
    finally:
        os.chdir(cwd)
    assert code == 2
    assert message in err
    assert not (tmp_path / "d" / "TASK.md").exists()


def test_init_records_roles_lens_and_proposal(cli: Cli, tmp_path: Path) -> None:
    folder = review(tmp_path, ("ca",), "--max-rounds", "3")
    code, _, _ = cli("init", str(tmp_path / "x"), "--task", "t", "--role", "ca=critic:cost and latency")
    assert code == 2  # a critic needs --mode review
    task = load_task(folder)
    assert task is not None
    assert task.review
    assert task.participants == ("ca", "de")
    assert task.rounds == (2, 3)
    assert str(task.role_map["ca"]) == "critic:consistency"
    assert task.proposal == "PROPOSAL.md"
    assert Path(folder, "PROPOSAL.md").read_text() == PROPOSAL


# --- the judge ----------------------------------------------------------------------------------------------------


def test_a_judge_writes_only_once_an_open_debate_ended_unresolved(cli: Cli, tmp_path: Path) -> None:
    folder = str(tmp_path / "open")
    code, _, err = cli("init", folder, "--task", "Pick a format.", "--participants", "a,b", "--max-turns", "2",
                       "--role", "j=judge")
    assert code == 0, err
    from helpers import turn_body

    early = render_briefing(brief(folder, "j"))
    assert "You write nothing while the debate runs" in early
    assert "turn 0" not in early
    judgment = (b"## Decision\n**Use TOML.**\n\n## Reasoning\nr\n\n## What each side got right\n- a: x\n\n"
                b"## Contested points\n- None\n")
    with pytest.raises(InvalidTurn, match="has not ended"):
        write_keyed(folder, "j", judgment)
    for turn, (left, right) in enumerate([("**Use TOML.**", "**Use YAML.**")] * 2, start=1):
        write_keyed(folder, "a", turn_body(turn, left).encode())
        write_keyed(folder, "b", turn_body(turn, right).encode())
    assert debate_status(folder).verdict.state == "max_turns"
    assert debate_status(folder).judgment_due
    due = brief(folder, "j")
    assert [p.file for p in due.peers] == ["turn-2-a.md", "turn-2-b.md"]
    assert not due.debate_over
    with pytest.raises(InvalidTurn):
        write_keyed(folder, "j", b"## Decision\n**x**\n")
    result = write_keyed(folder, "j", judgment)
    assert result.judgment
    assert os.path.basename(result.path) == "judgment-j.md"
    status = debate_status(folder)
    assert status.judgment is not None
    assert status.judgment.decision == "Use TOML."
    code, out, _ = cli("status", folder)
    assert "judgment by j: Use TOML." in out
    code, out, _ = cli("report", folder)
    assert "## Judgment by j" in out
    assert "**Use TOML.**" in out
    assert "wrote your judgment" in render_briefing(brief(folder, "j", key=key_of(folder, "j")))


def test_no_judgment_is_due_when_the_debate_converged(cli: Cli, tmp_path: Path) -> None:
    folder = str(tmp_path / "open")
    cli("init", folder, "--task", "Pick a format.", "--participants", "a,b", "--role", "j=judge", "--min-turns", "2")
    from helpers import turn_body

    for turn in (1, 2):
        for slug in ("a", "b"):
            write_keyed(folder, slug, turn_body(turn, "**Use TOML.**", converged=turn == 2).encode())
    assert debate_status(folder).verdict.state == "converged"
    assert "no judgment is needed" in render_briefing(brief(folder, "j"))
    with pytest.raises(InvalidTurn, match="no judgment is needed"):
        write_keyed(folder, "j", b"## Decision\n**x**\n\n## Reasoning\nr\n\n## What each side got right\n- a\n\n"
                                 b"## Contested points\n- None\n")


# --- status and report ------------------------------------------------------------------------------------------


def test_status_and_report_of_a_review(cli: Cli, tmp_path: Path) -> None:
    folder = review(tmp_path)
    write_keyed(folder, "ca", critic(new_finding("F1", 9, "FATAL"), new_finding("F2", 7, "MATERIAL")))
    write_keyed(folder, "de", defender(response("F1", "CONCEDE", 9, "hash the bytes"),
                                       response("F2", "REBUT-DESIGN", 6, "ctime covers it")))
    write_keyed(folder, "ca", critic())
    code, out, _ = cli("status", folder)
    assert code == 0
    assert "2 findings" in out
    assert "2 responses" in out
    assert "verdict: fully_resolved" in out
    assert "critique_wins (ca/F1 conceded at severity 9)" in out
    code, out, _ = cli("status", folder, "--json")
    review_ = json.loads(out)["verdict"]["review"]
    assert review_["verdict"] == "critique_wins"
    assert review_["stop_reason"] == "fully_resolved"
    code, out, _ = cli("report", folder)
    assert out.startswith("# Review report")
    assert out.index("## Decision summary") < out.index("## Task") < out.index("## Details")
    assert "**Blocked: do not ship the proposal as written" in out
    assert "Do not ship as written" in out
    assert "| BLOCKER | Fix: hash the bytes | ca/F1 |" in out
    assert "ca/F2 (title of F2), raised at severity 7" in out  # dissent worth reconsidering
    assert "## Final answer" not in out
    code, out, _ = cli("report", folder, "--format", "json")
    assert json.loads(out)["summary"]["actions"][0] == {"priority": "BLOCKER", "action": "Fix: hash the bytes",
                                                         "finding": "ca/F1"}


@pytest.mark.parametrize("state, severity, verdict", [
    ("conceded", 9, "critique_wins"), ("conceded", 8, "defense_wins"), ("open", 9, "critique_wins"),
    ("open", 8, "defense_wins"), ("deferred", 2, "empirical_test_agreed"), ("rebutted", 10, "defense_wins"),
    ("withdrawn", 10, "defense_wins"), ("partial", 9, "critique_wins"), ("partial", 8, "defense_wins"),
])
def test_the_verdict_of_one_finding(state: str, severity: int, verdict: str) -> None:
    from multidebate.analysis.review_case import FindingState

    assert FindingState("c", "F1", "t", severity, "", "", "", "", state).verdict == verdict


def test_review_outputs_match_the_schemas(cli: Cli, tmp_path: Path) -> None:
    from test_schemas import check

    folder = review(tmp_path, ("ca",), "--role", "j=judge", "--max-rounds", "2")
    write_keyed(folder, "ca", critic(new_finding("F1", 9, "FATAL")))
    check("next", cli.json("next", folder, "--slug", "de"))
    write_keyed(folder, "de", defender(response("F1", "REBUT-DESIGN", 3, "no")))
    write_keyed(folder, "ca", critic("### F1 \u2014 t\n- answer: re-raise\n- new evidence: more\n- severity: 9\n"))
    write_keyed(folder, "de", defender(response("F1", "DEFER", 9, "measure it")))
    check("next", cli.json("next", folder, "--slug", "j"))
    write_keyed(folder, "j", b"## Decision\n**Run the test.**\n\n## Reasoning\nr\n\n## What each side got right\n"
                             b"- ca: x\n\n## Contested points\n- whether 2 s matters\n")
    for name, args in (("status", ("status", folder, "--json")), ("report", ("report", folder, "--format", "json"))):
        data = cli(*args).json()
        check(name, data)
    assert data["judgment"]["decision"] == "Run the test."
    assert data["verdict"]["state"] == "max_rounds"
    assert {"point": "whether 2 s matters (the judge)", "options": []} in data["summary"]["decisions"]


# --- rated disagreements and cruxes --------------------------------------------------------------------------------


def test_rated_disagreements_become_the_cruxes_of_an_unconverged_debate(cli: Cli, tmp_path: Path) -> None:
    from helpers import turn_body

    from multidebate.protocol.parse import parse_turn
    from multidebate.views.report import build_report

    folder = str(tmp_path / "open")
    # three turns: the refused turn-3 write below is refused for its tag, not for coming after the end
    cli("init", folder, "--task", "Pick a format.", "--participants", "a,b", "--max-turns", "3")
    write_keyed(folder, "a", turn_body(1, "**Use TOML.**").encode())
    write_keyed(folder, "b", turn_body(1, "**Use YAML.**").encode())
    write_keyed(folder, "a", turn_body(2, "**Use TOML.**", disagreements=(
        "- With b [minor]: they prefer anchors\n- With b [critical]: they argued YAML, I hold TOML because of the "
        "Norway problem; resolves if: a test parses `no` as a string")).encode())
    write_keyed(folder, "b", turn_body(2, "**Use YAML.**", disagreements="- With a: they argued TOML").encode())
    cruxes = build_report(folder).cruxes
    assert [(c.severity, c.slug) for c in cruxes] == [("critical", "a"), ("unrated", "b"), ("minor", "a")]
    assert cruxes[0].resolves_if == "a test parses no as a string"
    code, out, _ = cli("report", folder)
    assert "## Cruxes" in out
    assert "- **critical** a vs b:" in out
    # a label a reader cannot look up is explained, and as no fault of the writer: the skill never asks for it
    assert "an item without a `[critical]`, `[major]` or `[minor]` tag is listed as not rated" in out
    assert "- **not rated** b vs a: With a: they argued TOML" in out
    assert "gave no severity" not in out
    bad = turn_body(2, "**x**", disagreements="- With b [huge]: they argued y")
    assert "W036" in {f.code for f in parse_turn(bad).findings}
    with pytest.raises(InvalidTurn):
        write_keyed(str(tmp_path / "open"), "a", turn_body(3, "**x**", disagreements="- With b [huge]: y").encode())


def test_cruxes_keep_a_disagreements_sub_bullets_and_say_resolves_if_once(cli: Cli, tmp_path: Path) -> None:
    """A real report showed "I hold 3.10, for three reasons:" and nothing after it, and `resolves if:` twice."""
    from helpers import turn_body

    folder = str(tmp_path / "open")
    cli("init", folder, "--task", "Pick a Python.", "--participants", "a,b", "--max-turns", "2")
    write_keyed(folder, "a", turn_body(1, "**Use 3.10.**").encode())
    write_keyed(folder, "b", turn_body(1, "**Use 3.12.**").encode())
    reasons = ("- With b [major]: I hold 3.10, for three reasons:\n  - Debian 12 ships it\n  - our CI image has it\n"
               "  - nothing we need is newer; resolves if: a dependency needs 3.11\n- With b [minor]: naming")
    write_keyed(folder, "a", turn_body(2, "**Use 3.10.**", disagreements=reasons).encode())
    write_keyed(folder, "b", turn_body(2, "**Use 3.12.**", disagreements="- With a: they argued 3.10").encode())
    code, out, _ = cli("report", folder)
    whole = ("I hold 3.10, for three reasons:\n  - Debian 12 ships it\n  - our CI image has it\n  - nothing we need "
             "is newer; resolves if: a dependency needs 3.11")
    assert code == 0
    assert f"- **major** a vs b: With b [major]: {whole}\n" in out
    assert f"- a: With b [major]: {whole}\n" in out.split("## Remaining disagreements")[1]
    assert out.count("resolves if") == 2  # once in Cruxes, once in Remaining disagreements


def test_an_edited_judgment_is_found(tmp_path: Path) -> None:
    folder = review(tmp_path, ("ca",), "--role", "j=judge", "--judge-when", "always")
    write_keyed(folder, "ca", critic(new_finding("F1", 3, "MINOR")))
    write_keyed(folder, "de", defender(response("F1", "CONCEDE", 3, "fix it")))
    write_keyed(folder, "ca", critic())
    assert debate_status(folder).judgment_due  # always: even a resolved review gets a judgment
    # the critic's final turn says `None.`: the judge is shown every finding with its fix all the same
    shown = render_briefing(brief(folder, "j"))
    assert "claim: it breaks" in shown
    assert "CONCEDE: fix it" in shown
    write_keyed(folder, "j", b"## Decision\n**Ship with the fix.**\n\n## Reasoning\nr\n\n## What each side got "
                             b"right\n- ca: x\n\n## Contested points\n- None\n")
    assert not [f for f in validate_debate(load_debate(folder)) if f.severity == "error"]
    with open(os.path.join(folder, "judgment-j.md"), "a") as handle:
        handle.write("\nA later edit.\n")
    assert ("judgment-j.md", "E080") in {(os.path.basename(f.path), f.code)
                                         for f in validate_debate(load_debate(folder))}


def test_the_html_summary_fetches_nothing_a_session_wrote(cli: Cli, tmp_path: Path) -> None:
    folder = review(tmp_path)
    write_keyed(folder, "ca", critic(new_finding("F1", 9, "FATAL", claim='<img src="http://evil.example/a.png">')))
    write_keyed(folder, "de", defender(response("F1", "CONCEDE", 9, "![x](http://evil.example/b.png) <script>x</script>")))
    out = tmp_path / "r.html"
    code, _, _ = cli("report", folder, "--format", "html", "-o", str(out))
    page = out.read_text()
    assert code == 0
    assert "Decision summary" in page
    assert "<img" not in page
    assert "<script" not in page
    assert "evil.example/b.png" in page


def test_critics_and_the_defender_get_no_open_debate_stall_warning(tmp_path: Path) -> None:
    """#27: "No bold line or Converged changed ... ends as stalled" was served to critics and the defender, who
    write neither; all four sessions of a real review puzzled over it."""
    from helpers import key_of

    from multidebate.turns.briefing import brief
    from multidebate.turns.briefing_text import render_briefing

    folder = review(tmp_path, ("ca",), "--max-rounds", "4")
    write_keyed(folder, "ca", critic(new_finding("F1", 7, "MATERIAL")))
    write_keyed(folder, "de", defender(response("F1", "REBUT-DESIGN", 3, "by design")))
    for round_ in (2, 3):
        write_keyed(folder, "ca", critic(f"### F1 \u2014 t\n- answer: re-raise\n- new evidence: FAT has 2 s mtime "
                                         f"(round {round_})\n"))
        write_keyed(folder, "de", defender(response("F1", "REBUT-DESIGN", 3, f"still by design (round {round_})")))
    for slug in ("ca", "de"):
        text = render_briefing(brief(folder, slug, key=key_of(folder, slug)))
        assert "stalled" not in text, text


def test_the_defender_cannot_answer_a_round_its_critics_have_not_all_written(tmp_path: Path) -> None:
    """#27: a defender's round-1 turn written before any critic's was accepted, then carried E105 for ever."""
    folder = review(tmp_path, ("ca", "cb"))
    with pytest.raises(InvalidTurn) as early:
        write_keyed(folder, "de", defender())
    assert "the critics have not all written round 1 yet (waiting for ca, cb)" in " ".join(early.value.problems)
    write_keyed(folder, "ca", critic(new_finding("F1", 7, "MATERIAL")))
    with pytest.raises(InvalidTurn) as half:
        write_keyed(folder, "de", defender(response("ca/F1", "REBUT-DESIGN", 3, "by design")))
    assert "(waiting for cb)" in " ".join(half.value.problems)
    assert "--wait" in " ".join(half.value.problems)
    write_keyed(folder, "cb", critic())
    write_keyed(folder, "de", defender(response("ca/F1", "REBUT-DESIGN", 3, "by design")))
    assert not [p for p in case_of(folder).problems if p.code == "E105"]


def test_the_role_block_says_who_holds_each_role(tmp_path: Path) -> None:
    """#27: the ROLE block never said who held which role; a critic worked it out from the defender's turn."""
    from helpers import key_of

    from multidebate.turns.briefing import brief
    from multidebate.turns.briefing_text import render_briefing

    folder = review(tmp_path, ("ca", "cb"))
    write_keyed(folder, "ca", critic())
    text = render_briefing(brief(folder, "ca", key=key_of(folder, "ca")))
    assert "Who holds each role: critic ca (you), cb; defender de." in text


def test_a_critic_may_quote_any_section_of_the_defenders_turns(tmp_path: Path) -> None:
    # r72: a quote of the defender's Reasoning was reported as "neither in the proposal nor in the defender's"
    folder = review(tmp_path)
    write_keyed(folder, "ca", critic(new_finding("F1", 4, "MATERIAL")))
    turn = defender(response("F1", "CONCEDE", 4, "x")).decode().replace(
        "Answering.", "Answering. The primary database peaked at 85 percent CPU last month.")
    write_keyed(folder, "de", turn.encode())
    write_keyed(folder, "ca", critic(new_finding("F2", 5, "MATERIAL",
                                                 evidence='"peaked at 85 percent CPU last month"')))
    write_keyed(folder, "de", defender(response("F2", "CONCEDE", 5, "y")))
    assert "W100" not in {f.code for f in validate_debate(load_debate(folder))}
    write_keyed(folder, "ca", critic(new_finding("F3", 5, "MATERIAL", evidence='"a sentence nobody wrote"')))
    assert "W100" in {f.code for f in validate_debate(load_debate(folder))}


def test_an_action_is_as_urgent_as_the_flaw_it_fixes_and_a_fix_keeps_no_line_break(tmp_path: Path) -> None:
    # r73: the fix of a severity-10 finding, lowered to 4 by that fix, was listed MEDIUM below a severity-5 one,
    # and fixes written on two lines showed a literal "\n"
    from multidebate.analysis.review_summary import summarise

    folder = review(tmp_path)
    write_keyed(folder, "ca", critic(new_finding("F1", 10, "FATAL"), new_finding("F2", 5, "MATERIAL")))
    write_keyed(folder, "de", defender(response("F1", "CONCEDE", 4, "queue the deliveries;\n  sign them with HMAC"),
                                       response("F2", "CONCEDE", 5, "add a dashboard")))
    summary = summarise(case_of(folder))
    assert [(a.finding, a.priority) for a in summary.actions] == [("ca/F1", "BLOCKER"), ("ca/F2", "HIGH")]
    assert "\\n" not in summary.actions[0].what
    assert "queue the deliveries; sign them with HMAC" in summary.actions[0].what


# --- issue 33, item 3: a last-round rebuttal is not an accepted one -------------------------------------------------

@pytest.mark.parametrize("move, what", [("REBUT-DESIGN", "by design"), ("DEFER", "measure it on FAT"),
                                        ("REBUT-DESIGN", "As ca/F1, answered there.")])
def test_a_fatal_finding_answered_in_the_last_round_is_not_reviewed_and_needs_a_decision(cli: Cli, 
        tmp_path: Path, move: str, what: str) -> None:
    """A FATAL finding the defender rebuts, defers or calls a duplicate in the last round, which its critic never
    answers, came out `fixes_agreed`, listed under "What was resolved", with "Nothing needs your decision"."""
    folder = review(tmp_path, ("ca",), "--max-rounds", "2")
    write_keyed(folder, "ca", critic(new_finding("F1", 6, "MATERIAL")))
    write_keyed(folder, "de", defender(response("F1", "CONCEDE", 2, "hash the bytes")))
    write_keyed(folder, "ca", critic(new_finding("F2", 10, "FATAL", claim="a rename is not atomic on SMB")))
    write_keyed(folder, "de", defender(response("F2", move, 10, what)))
    case = case_of(folder)
    f2 = next(f for f in case.findings if f.key == "ca/F2")
    assert case.stop == "max_rounds"
    assert f2.duplicate_of == ""  # the defender's word alone makes no duplicate
    assert (case.verdict, case.deciding) == ("undecided", "ca/F2")
    code, out, _ = cli("report", folder, "--format", "json")
    data = json.loads(out)
    assert code == 0
    assert data["decision_summary"]["verdict"] == "your decision"
    assert data["decision_summary"]["instead"] is None
    assert [d["point"].split()[0] for d in data["decision_summary"]["decisions"]] == ["ca/F2"]
    assert not any("ca/F2" in line for line in data["summary"]["resolved"])
    assert any(line.startswith("ca/F2") for line in data["summary"]["unreviewed"])
    found = {f["finding"]: f for f in data["verdict"]["review"]["findings"]}
    assert found["ca/F2"]["needs_decision"] is True
    assert found["ca/F2"]["reviewed"] is False
    code, out, _ = cli("report", folder)
    screen = out.split("## Details")[0]
    assert "Nothing needs your decision" not in screen
    assert "**What needs your decision** (1)" in screen
    assert "- ca/F2 (title of F2) was" in screen
    assert "not reviewed" in screen
    resolved = out.split("### What was resolved")[1].split("###")[0]
    assert "ca/F2" not in resolved
    assert "ca/F1" in resolved


def test_a_severe_out_of_scope_rebuttal_needs_a_decision_even_once_its_critic_accepts_it(cli: Cli, tmp_path: Path) -> None:
    """REBUT-SCOPE "not our problem" at severity 10 came out `defense_wins`, resolved, nothing to decide."""
    folder = review(tmp_path, ("ca",), "--max-rounds", "3")
    write_keyed(folder, "ca", critic(new_finding("F1", 10, "FATAL")))
    write_keyed(folder, "de", defender(response("F1", "REBUT-SCOPE", 10, "not our problem: the NAS team's")))
    write_keyed(folder, "ca", critic())  # the critic lists nothing: it accepts; the review ends fully_resolved
    case = case_of(folder)
    assert (case.stop, case.verdict, case.deciding) == ("fully_resolved", "undecided", "ca/F1")
    data = cli("report", folder, "--format", "json").json()
    assert data["summary"]["resolved"] == []
    assert data["decision_summary"]["verdict"] == "your decision"
    assert data["decision_summary"]["decisions"][0]["point"].startswith("ca/F1 (title of F1) was rebutted as out of")
    assert data["summary"]["unreviewed"] == []  # its critic did answer: reviewed, and still the person's
    # rebutted as out of scope below FATAL is the defender's to make
    (tmp_path / "low").mkdir()
    folder = review(tmp_path / "low", ("ca",), "--max-rounds", "3")
    write_keyed(folder, "ca", critic(new_finding("F1", 7, "MATERIAL")))
    write_keyed(folder, "de", defender(response("F1", "REBUT-SCOPE", 7, "not ours")))
    write_keyed(folder, "ca", critic())
    assert case_of(folder).verdict == "defense_wins"


def test_a_duplicate_needs_its_critics_word(tmp_path: Path) -> None:
    """The defender's "As ca/F1" marks a duplicate once its critic had a turn after it and did not dispute it."""
    folder = review(tmp_path, ("ca",), "--max-rounds", "3")
    write_keyed(folder, "ca", critic(new_finding("F1", 9, "FATAL"), new_finding("F2", 9, "FATAL")))
    write_keyed(folder, "de", defender(response("F1", "CONCEDE", 2, "hash the bytes"),
                                       response("F2", "REBUT-DESIGN", 9, "As ca/F1, answered there.")))
    assert {f.key: f.duplicate_of for f in case_of(folder).findings}["ca/F2"] == ""
    write_keyed(folder, "ca", critic())
    assert {f.key: f.duplicate_of for f in case_of(folder).findings}["ca/F2"] == "ca/F1"
