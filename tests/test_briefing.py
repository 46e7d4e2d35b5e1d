"""`next` as a pure plan (plan_briefing) and its side effects (brief): the plan decides, brief records."""

from __future__ import annotations

import json
import os
from pathlib import Path

from helpers import key_of, make_debate

from multidebate.state.debate import load_debate
from multidebate.state.layout import served_path
from multidebate.turns.briefing import Served, brief, plan_briefing


def listing(folder: str) -> dict[str, bytes | None]:
    """Every entry under `folder`, .multidebate/ included: a file's bytes, None for a folder."""
    found: dict[str, bytes | None] = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs:
            found[os.path.relpath(os.path.join(root, name), folder)] = None
        for name in files:
            path = os.path.join(root, name)
            with open(path, "rb") as handle:
                found[os.path.relpath(path, folder)] = handle.read()
    return found


def test_the_plan_writes_nothing_and_brief_records_what_it_says(tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [{"a": "**Use TOML.**", "b": "**Use YAML.**"}], participants=("a", "b"))
    key = key_of(folder, "a")
    debate = load_debate(folder)  # reading fills the parse cache: before the listing, not part of the plan
    before = listing(folder)
    plan = plan_briefing(debate, "a", key=key)
    assert listing(folder) == before
    assert plan.briefing.turn == 2 and [p.slug for p in plan.briefing.peers] == ["b"]
    assert plan.served == Served(2, (("turn-1-b.md", plan.briefing.peers[0].sha256),)) and plan.task is None
    assert brief(folder, "a", key=key)._replace(today=plan.briefing.today) == plan.briefing
    assert listing(folder) != before  # brief records what the plan says was served
    with open(served_path(folder, "a", 2), encoding="utf-8") as handle:
        assert json.load(handle) == dict(plan.served.files)


def test_the_plan_of_a_first_next_creates_no_folder_state_and_no_task_file(tmp_path: Path) -> None:
    folder = str(tmp_path / "new")
    os.mkdir(folder)
    debate = load_debate(folder)
    before = listing(folder)
    plan = plan_briefing(debate, "a", "Pick a config format.")
    assert listing(folder) == before
    assert plan.task == "Pick a config format." and plan.briefing.task == "Pick a config format."
    assert not any("Recorded your task" in note for note in plan.briefing.notes)
    briefing = brief(folder, "a", "Pick a config format.")  # records the task, and says so
    assert os.path.exists(os.path.join(folder, "TASK.md"))
    assert "Recorded your task in TASK.md so that every session debates the same text." in briefing.notes
    assert briefing.task == "Pick a config format." and briefing.turn == 1


def test_peer_files_too_long_for_a_shell_come_with_a_note_naming_the_smaller_view(tmp_path: Path) -> None:
    from multidebate.turns.briefing import LARGE_BRIEFING, section_names

    long_answer = "**Use TOML.**\n\n" + "A reason that takes room. " * (LARGE_BRIEFING // 50)
    folder = make_debate(str(tmp_path / "d"), [{"a": "**Use YAML.**", "b": long_answer, "c": long_answer}],
                         participants=("a", "b", "c"))
    debate = load_debate(folder)
    notes = plan_briefing(debate, "a", key=key_of(folder, "a")).briefing.notes
    assert [n for n in notes if "--sections answer,disagreements" in n and "2 peer files" in n]
    smaller = plan_briefing(debate, "a", key=key_of(folder, "a"), sections=section_names("answer,disagreements"))
    assert not [n for n in smaller.briefing.notes if "--sections" in n]
    # one long peer file stays under the limit: no note for an ordinary turn
    assert not [n for n in plan_briefing(debate, "b", key=key_of(folder, "b")).briefing.notes if "--sections" in n]
