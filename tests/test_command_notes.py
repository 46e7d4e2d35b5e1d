"""What `write`, `next --wait`, `status` and the verdict tell a reader, as values (protocol/notes.py): each
command's notes by code and fields, and each catalogue's English checked once, against a golden file."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import pytest
from conftest import Cli
from helpers import key_of, make_debate, turn_body, write_keyed

from multidebate.analysis.dropouts import Dropout
from multidebate.analysis.run_failures import RunFailure
from multidebate.analysis.verdict import Verdict, judge
from multidebate.analysis.verdict_notes import CATALOGUE as VERDICT_NOTES
from multidebate.analysis.verdict_notes import said
from multidebate.protocol.notes import Note, Template, catalogue, note, render
from multidebate.state.debate import load_debate
from multidebate.turns.notes import CATALOGUE as NEXT_NOTES
from multidebate.turns.wait_notes import CATALOGUE as WAIT_NOTES
from multidebate.turns.waiting import ANY_PEER, brief_when_ready
from multidebate.turns.write_notes import CATALOGUE as WRITE_NOTES
from multidebate.views.advice import CATALOGUE as ADVICE_NOTES
from multidebate.views.advice import advice, advice_text
from multidebate.views.status import debate_status

GOLDEN = os.path.join(os.path.dirname(__file__), "fixtures", "notes")
TOML, YAML = "**Use TOML.**", "**Use YAML.**"

# one example of every note, with fields as the commands give them
WRITE_SAMPLES: dict[str, dict[str, object]] = {
    "key-claimed": {"slug": "a", "key": "0123456789abcdef"},
    "judge-key-claimed": {"slug": "j", "key": "0123456789abcdef"},
    "wrote-judgment": {"path": "/tmp/d/judgment-j.md", "state": "stalled", "folder": "/tmp/a debate"},
    "wrote-round": {"path": "/tmp/d/turn-2-c.md", "turn": 2},
    "wrote-turn": {"path": "/tmp/d/turn-2-a.md", "turn": 2, "confidence": 80, "converged": True},
    "normalised": {"what": "`## answer` is written `## Answer`"},
    "warning": {"warning": "your Answer has 130 words; the task asks for at most 100."},
    "turn-published": {"turn": 2},
    "turn-sealed": {"turn": 2},
    "turn-progress": {"turn": 2, "written": 1, "participants": 3, "waiting": ("b", "c"), "final": False},
    "turn-progress-open": {"turn": 1, "written": ("a", "b"), "waiting": ("c",)},
    "write-converged": {"turn": 3},
    "write-unanimous": {},
    "write-all-yes-not-one-line": {"turn": 2, "line": "**TOML, read\nwith tomllib.**"},
    "write-review-ended": {"state": "fully_resolved", "turn": 2, "summary": "1 finding, conceded"},
    "write-debate-ended": {"state": "stalled", "turn": 4, "detail": "no recommendation changed"},
    "next-command": {"folder": "/tmp/a debate", "slug": "a", "key_option": " --key-file k.txt", "last": False},
    "next-tool": {"step": "Call the `next` tool with your slug", "last": True},
}
WAIT_SAMPLES: dict[str, dict[str, object]] = {
    "waiting-up-to": {"timeout": 90.0, "turn": 2, "unwritten": ("b",), "sealed": ("c", "d")},
    "judge-waiting-up-to": {"timeout": 600.0},
    "waited": {"seconds": 31.6, "peers": ("b", "c"), "turn": 2},
    "wait-timed-out": {"timeout": 0.5, "turn": 2, "missing": ("b",), "awaited": ("b", "c"), "folder": "/tmp/a d"},
    "judge-wait-timed-out": {"timeout": 90.0},
}
ADVICE_SAMPLES: dict[str, dict[str, object]] = {
    "fix-agents": {"names": ("a", "b"), "folder": "/tmp/a debate"},
    "fix-task": {"folder": "/tmp/a debate"},
    "start-sessions": {"folder": "/tmp/d"},
    "dropped-out": {"names": ("b",), "folder": "/tmp/d"},
    "wait-for": {"missing": ("b", "c"), "folder": "/tmp/d"},
    "confirm-agreement": {},
    "next-turn": {},
}
VERDICT_SAMPLES: dict[str, dict[str, object]] = {
    "left-out": {"file": "turn-2-a.md", "finding": "E085", "message": "not written by `write`"},
    "did-not-converge": {"turn": 2, "why": "all said yes, but their bold lines are not one line"},
    "yes-with-disagreements": {"slug": "b", "count": 2},
    "copy-one-line": {"line": "**TOML, read with tomllib.**"},
    "restore-or-write": {},
    "read-new-answers": {},
}


def rendered(samples: dict[str, dict[str, object]]) -> str:
    return "".join(f"[{code}]\n{note(code, **fields).text}\n\n" for code, fields in samples.items())


@pytest.mark.parametrize("name, samples, templates", [
    ("write", WRITE_SAMPLES, WRITE_NOTES), ("wait", WAIT_SAMPLES, WAIT_NOTES),
    ("advice", ADVICE_SAMPLES, ADVICE_NOTES), ("verdict", VERDICT_SAMPLES, VERDICT_NOTES)])
def test_every_note_of_a_catalogue_renders_as_its_golden_file_says(
        name: str, samples: dict[str, dict[str, object]], templates: Mapping[str, Template]) -> None:
    assert sorted(samples) == sorted(templates)
    with open(os.path.join(GOLDEN, f"{name}.txt"), encoding="utf-8") as handle:
        assert rendered(samples) == handle.read()


def test_a_code_is_in_one_catalogue_only() -> None:
    every = [*NEXT_NOTES, *WRITE_NOTES, *WAIT_NOTES, *ADVICE_NOTES, *VERDICT_NOTES]
    assert len(every) == len(set(every))
    with pytest.raises(ValueError, match="note 'waited' is in two catalogues: multidebate.turns.wait_notes and "
                                         "tests.elsewhere"):
        catalogue("tests.elsewhere", {"waited": lambda: ""})


def test_next_and_write_share_the_copy_the_line_sentence() -> None:
    """#38: write's all-yes note was a copy of next's; now both end in one template's words."""
    line = "**TOML, read with tomllib.**"
    from_next = render(note("all-yes-not-one-line", turn=3, line=line))
    from_write = render(note("write-all-yes-not-one-line", turn=2, line=line))
    shared = (f"open your Answer with this line, word for word: {line} . If every session says yes again to lines "
              "that are not one line, the debate ends hollow.")
    assert from_next.endswith(shared)
    assert from_write.endswith(shared)


# --- write


def codes(notes: list[Note]) -> list[str]:
    return [n.code for n in notes]


def test_a_first_turn_says_what_was_written_who_is_left_and_what_next(tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [], participants=("a", "b"))
    result = write_keyed(folder, "a", turn_body(1, TOML, confidence=60).encode())
    notes = result.notes()
    assert codes(notes) == ["wrote-turn", "turn-progress", "next-command"]
    assert dict(notes[0].fields) == {"path": result.path, "turn": 1, "confidence": 60, "converged": False}
    assert dict(notes[1].fields) == {"turn": 1, "written": 1, "participants": 2, "waiting": ("b",), "final": False}
    # the key claimed now goes into the next command
    assert dict(notes[2].fields) == {"folder": folder, "slug": "a", "key_option": f" --key {key_of(folder, 'a')}",
                                     "last": False}
    assert result.lines() == [render(n) for n in notes]
    assert result.key_notice() == render(note("key-claimed", slug="a", key=key_of(folder, "a")))


def test_the_mcp_server_names_its_tool_and_the_last_turn_says_so(tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [{"a": TOML, "b": YAML}], participants=("a", "b"), max_turns=2)
    result = write_keyed(folder, "a", turn_body(2, TOML).encode())
    assert result.notes(next_step="Call `next`")[-1] == note("next-tool", step="Call `next`", last=True)
    assert result.notes(" --key-file k")[-1].field("key_option") == " --key-file k"


def test_a_debate_without_a_roster_names_who_has_written(tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [{"a": TOML}])
    result = write_keyed(folder, "b", turn_body(1, YAML).encode())
    progress = [n for n in result.notes() if n.code == "turn-progress-open"]
    assert progress == [note("turn-progress-open", turn=1, written=("a", "b"), waiting=())]


def test_the_write_that_converges_says_it_is_over_and_no_next_command(tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [{"a": TOML, "b": YAML}, {"a": (TOML, True)}], participants=("a", "b"))
    result = write_keyed(folder, "b", turn_body(2, TOML, converged=True).encode())
    assert codes(result.notes()) == ["wrote-turn", "turn-progress", "write-converged"]
    assert result.notes()[-1].fields == (("turn", 2),)
    assert result.notes()[1].field("final") is True


def test_an_all_yes_turn_in_other_words_gives_the_line_to_copy(tmp_path: Path) -> None:
    line = "**TOML, read with tomllib.**"
    folder = make_debate(str(tmp_path / "d"), [{"a": TOML, "b": YAML}, {"a": (line, True)}], participants=("a", "b"))
    result = write_keyed(folder, "b", turn_body(2, "**Use TOML, read with tomllib.**", converged=True).encode())
    copy = [n for n in result.notes() if n.code == "write-all-yes-not-one-line"]
    assert len(copy) == 1
    assert copy[0].field("turn") == 2
    assert copy[0].field("line") == result.standing.verdict.proposed_line
    assert result.notes()[-1].code == "next-command"


def test_a_sealed_turn_says_it_stays_sealed_then_published(tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [], participants=("a", "b"), sealed=True)
    first = write_keyed(folder, "a", turn_body(1, TOML).encode())
    assert codes(first.notes())[1:3] == ["turn-sealed", "turn-progress"]
    second = write_keyed(folder, "b", turn_body(1, YAML).encode())
    assert codes(second.notes())[1:] == ["turn-published", "next-command"]
    assert second.notes()[1].fields == (("turn", 1),)


# --- next --wait


@pytest.fixture
def waiting(tmp_path: Path) -> str:
    """Turn 1 complete; `a` has written turn 2, `b` not yet: `a` waits for b's turn 2."""
    folder = make_debate(str(tmp_path / "d"), [{"a": TOML, "b": YAML}], participants=("a", "b"))
    write_keyed(folder, "a", turn_body(2, TOML).encode())
    return folder


def test_a_wait_that_times_out_names_who_did_not_write(waiting: str) -> None:
    briefing = brief_when_ready(waiting, "a", key=key_of(waiting, "a"), timeout=0.2)
    assert briefing.timed_out
    assert briefing.waited == (note("wait-timed-out", timeout=0.2, turn=2, missing=("b",), awaited=("b",),
                                    folder=waiting),)
    assert briefing.notes[-1] == render(briefing.waited[0])


def test_a_wait_for_any_peer_that_times_out_names_none(tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [{"a": TOML}])
    briefing = brief_when_ready(folder, "a", key=key_of(folder, "a"), timeout=0.2)
    assert briefing.waited == (note("wait-timed-out", timeout=0.2, turn=1, missing=(), awaited=(ANY_PEER,),
                                    folder=folder),)


def test_a_wait_says_whom_it_waits_for_then_whom_it_waited_for(waiting: str) -> None:
    said: list[str] = []

    def on_wait(message: str) -> None:
        said.append(message)
        write_keyed(waiting, "b", turn_body(2, YAML).encode())  # b writes once a is told it waits

    briefing = brief_when_ready(waiting, "a", key=key_of(waiting, "a"), timeout=120, on_wait=on_wait)
    assert said == [render(note("waiting-up-to", timeout=120, turn=2, unwritten=("b",), sealed=()))]
    assert not briefing.timed_out
    assert [n.code for n in briefing.waited] == ["waited"]
    assert dict(briefing.waited[0].fields)["peers"] == ("b",)
    assert dict(briefing.waited[0].fields)["turn"] == 2
    assert briefing.notes[0] == render(briefing.waited[0])  # first: it came first


def test_a_judges_wait_that_times_out_says_the_debate_has_not_ended(cli: Cli, tmp_path: Path) -> None:
    folder = str(tmp_path / "d")
    assert cli("init", folder, "--task", "Pick a format.", "--participants", "a,b", "--role", "j=judge")[0] == 0
    said: list[str] = []
    briefing = brief_when_ready(folder, "j", timeout=0.2, on_wait=said.append)
    assert said == [render(note("judge-waiting-up-to", timeout=0.2))]
    assert briefing.waited == (note("judge-wait-timed-out", timeout=0.2),)
    assert briefing.timed_out


# --- status


def test_status_advice_is_a_note_by_what_the_debate_needs() -> None:
    folder = "/tmp/d"
    empty = Verdict("empty", 0, "no turn files yet")
    going = Verdict("in_progress", 1, "turn 2 in progress")
    assert advice(folder, empty, (), ()) == note("start-sessions", folder=folder)
    assert advice(folder, going, ("b", "c"), ()) == note("wait-for", missing=("b", "c"), folder=folder)
    dropped = (Dropout("b", 1, True, 900.0),)
    assert advice(folder, going, ("b",), dropped) == note("dropped-out", names=("b",), folder=folder)
    assert advice(folder, going, (), ()) == note("next-turn")
    assert advice(folder, Verdict("latent", 2, "x"), (), ()) == note("confirm-agreement")
    assert advice(folder, Verdict("stalled", 3, "x"), (), ()) is None  # the verdict says it all
    failed = (RunFailure("a", 2, "claude", "timed out", "2026-01-01T00:00:00Z"),)
    # an agent that failed under `run` comes first, even once the debate has ended
    assert advice(folder, Verdict("stalled", 3, "x"), (), (), None, failed) == note("fix-agents", names=("a",),
                                                                                  folder=folder)
    assert advice_text(None) == ""


def test_status_keeps_the_advice_text_and_the_verdicts_next_step(tmp_path: Path) -> None:
    line = "**TOML, read with tomllib.**"
    folder = make_debate(str(tmp_path / "d"), [{"a": TOML, "b": YAML}, {"a": (line, True)}], participants=("a", "b"))
    write_keyed(folder, "b", turn_body(2, "**Use TOML, read with tomllib.**", converged=True).encode())
    status = debate_status(folder)
    assert status.verdict.state == "unconfirmed"
    assert status.advice == advice_text(note("confirm-agreement"))
    assert status.verdict.next_step == said("copy-one-line", line=status.verdict.proposed_line)
    assert judge(load_debate(folder)).next_step == status.verdict.next_step
