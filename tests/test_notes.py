"""What `next` tells a session, as values (turns/notes.py): the plan's notes by code and fields, and the
catalogue's English checked once, against a golden file, instead of sentence by sentence in every test."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers import key_of, make_debate

from multidebate.state.debate import load_debate
from multidebate.turns.briefing import plan_briefing
from multidebate.turns.notes import CATALOGUE, Note, note

GOLDEN = os.path.join(os.path.dirname(__file__), "fixtures", "notes", "catalogue.txt")
TOML, YAML = "**Use TOML.**", "**Use YAML.**"

# one example of every note, with fields as plan_briefing gives them
SAMPLES: dict[str, dict[str, object]] = {
    "task-differs": {},
    "task-recorded": {},
    "task-missing": {},
    "slug-typo": {"slug": "alpah", "close": "alpha"},
    "line-changed": {"turn": 3, "source": "b"},
    "swapped-positions": {"turn": 4, "slug": "b", "peer": "a"},
    "stall-warning": {"turn": 3},
    "next-is-last": {"limit": 4},
    "sealed-turn": {"turn": 2},
    "left-out-names-you": {"finding": "turn-2-a.md is left out (E085: not written by `write`)"},
    "review-ended": {"state": "accepted", "turn": 2, "summary": "1 finding, conceded"},
    "unanimous": {"wrote": False, "folder": "/tmp/a debate"},
    "converged": {"turn": 3, "wrote": True, "folder": "/tmp/d"},
    "debate-ended": {"state": "stalled", "turn": 4, "detail": "no line changed", "folder": "/tmp/d"},
    "defender-waiting": {"waiting": ("c1", "c2"), "turn": 2},
    "waiting-peers": {"turn": 2, "unwritten": ("b",), "sealed_written": ("c", "d")},
    "beyond-turn-limit": {"limit": 3, "turn": 4, "folder": "/tmp/d"},
    "last-turn": {"limit": 3},
    "all-yes-not-one-line": {"turn": 3, "line": "**TOML, read\nwith tomllib.**"},
    "large-briefing": {"peers": 6, "chars": 31_234, "cut": ("b", "e")},
    "proposal-finding": {"proposal": "PROPOSAL.md", "message": "changed since round 1", "finding": "W101"},
    "judgment-written": {"name": "JUDGMENT-j.md"},
    "judgment-not-yours": {"name": "JUDGMENT-j.md", "problem": "not written by `write`"},
    "judge-waiting": {"progress": "turn 2 of at most 4: written by a; waiting for b"},
    "no-judgment-needed": {"state": "converged"},
}


def rendered_catalogue() -> str:
    return "".join(f"[{code}]\n{note(code, **fields).text}\n\n" for code, fields in SAMPLES.items())


def test_every_note_in_the_catalogue_renders_as_the_golden_file_says() -> None:
    assert sorted(SAMPLES) == sorted(CATALOGUE)
    with open(GOLDEN, encoding="utf-8") as handle:
        assert rendered_catalogue() == handle.read()


def test_a_note_with_an_unknown_code_is_refused_when_made() -> None:
    with pytest.raises(KeyError, match="no note 'stall-warnin' in the catalogue"):
        note("stall-warnin", turn=3)


def notes_of(folder: str, slug: str) -> tuple[Note, ...]:
    return plan_briefing(load_debate(folder), slug, key=key_of(folder, slug)).notes


def test_the_stall_warning_is_a_note_with_the_turn_to_write(tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [{"a": TOML, "b": YAML}, {"a": TOML, "b": YAML}], participants=("a", "b"))
    notes = notes_of(folder, "a")
    assert [n.code for n in notes] == ["stall-warning"]
    assert notes[0].fields == (("turn", 3),)
    assert plan_briefing(load_debate(folder), "a", key=key_of(folder, "a")).briefing.notes == (notes[0].text,)


def test_a_changed_line_names_the_peer_it_now_matches(tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [{"a": TOML, "b": YAML}, {"a": YAML, "b": YAML}], participants=("a", "b"))
    notes = notes_of(folder, "a")
    assert [n.code for n in notes] == ["line-changed"]
    assert notes[0].field("source") == "b"
    assert notes[0].field("turn") == 3
    assert notes_of(folder, "b") == ()  # b kept its line: nothing to say


def test_an_all_yes_turn_in_other_words_asks_to_copy_one_line(tmp_path: Path) -> None:
    """#32: the copy-the-line note carries the line the verdict proposes."""
    folder = make_debate(str(tmp_path / "d"), [
        {"a": YAML, "b": "**Pick TOML: it has comments.**"},
        {"a": ("**Use TOML, read with tomllib: comments are allowed.**", True),
         "b": ("**TOML, read with tomllib.**", True)}], participants=("a", "b"))
    notes = notes_of(folder, "a")
    copy = [n for n in notes if n.code == "all-yes-not-one-line"]
    assert len(copy) == 1
    assert dict(copy[0].fields) == {"turn": 3, "line": "**TOML, read with tomllib.**"}


def test_the_ending_note_comes_first_and_advice_is_dropped(tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [{"a": TOML, "b": YAML}, {"a": (TOML, True), "b": (TOML, True)}],
                         participants=("a", "b"))
    notes = notes_of(folder, "b")
    assert [n.code for n in notes] == ["converged"]  # no line-changed advice once the debate has ended
    assert dict(notes[0].fields) == {"turn": 2, "wrote": True, "folder": folder}
