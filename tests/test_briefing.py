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
    assert plan.briefing.turn == 2
    assert [p.slug for p in plan.briefing.peers] == ["b"]
    assert plan.served == Served(2, (("turn-1-b.md", plan.briefing.peers[0].sha256),))
    assert plan.task is None
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
    assert plan.task == "Pick a config format."
    assert plan.briefing.task == "Pick a config format."
    assert not any("Recorded your task" in note for note in plan.briefing.notes)
    briefing = brief(folder, "a", "Pick a config format.")  # records the task, and says so
    assert os.path.exists(os.path.join(folder, "TASK.md"))
    assert "Recorded your task in TASK.md so that every session debates the same text." in briefing.notes
    assert briefing.task == "Pick a config format."
    assert briefing.turn == 1


def test_peer_files_too_long_for_a_shell_have_their_reasoning_cut_and_the_note_says_so(tmp_path: Path) -> None:
    """d59/d60: peer files of 26,000-31,000 characters; most sessions' shells cut a hole in them, silently."""
    from helpers import turn_body, write_keyed

    from multidebate.turns.briefing import section_names
    from multidebate.turns.peer_files import LARGE_BRIEFING

    reasoning = "".join(f"Reason {n} takes room. " for n in range(LARGE_BRIEFING // 40))  # each place unique
    folder = make_debate(str(tmp_path / "d"), [], participants=("a", "b", "c"))
    for slug, line in (("a", "**Use YAML.**"), ("b", "**Use TOML.**"), ("c", "**Use TOML.**")):
        body = turn_body(1, line).replace("Thinking for turn 1.", reasoning if slug != "a" else "Short.")
        write_keyed(folder, slug, body.encode())
    debate = load_debate(folder)
    served = plan_briefing(debate, "a", key=key_of(folder, "a")).briefing
    assert [n for n in served.notes if "2 peer files are" in n and "`--sections reasoning`" in n]
    assert sum(len(p.text) for p in served.peers) <= LARGE_BRIEFING
    for peer in served.peers:  # the Reasoning's start, the cut said, every other section whole
        assert peer.text.startswith("## Reasoning\nReason 0 takes room.")
        assert "[Reasoning cut by multidebate" in peer.text
        assert "## Answer\n**Use TOML.**" in peer.text
        assert "## Converged\nno" in peer.text
        assert peer.cut_from
    # asked for: the sections asked for, whole, and no note
    asked = plan_briefing(debate, "a", key=key_of(folder, "a"), sections=section_names("reasoning")).briefing
    assert all(reasoning.strip() in p.text for p in asked.peers)
    assert not [n for n in asked.notes if "--sections" in n]
    # one long peer file stays under the limit: served whole, no note
    whole = plan_briefing(debate, "b", key=key_of(folder, "b")).briefing
    assert reasoning.strip() in whole.peers[1].text
    assert not [n for n in whole.notes if "--sections" in n]


def _long_reasonings(tmp_path: Path, sizes: dict[str, int]) -> tuple[str, list[object]]:
    """A debate whose peers' turn-1 Reasonings are `sizes` characters long (every place unique), and what `a`
    is served at turn 2."""
    from helpers import turn_body, write_keyed

    folder = make_debate(str(tmp_path / "d"), [], participants=("a", *sizes))
    write_keyed(folder, "a", turn_body(1, "**Use YAML.**").encode())
    for slug, size in sizes.items():
        reasoning = "".join(f"{slug} reason {n:05d}. " for n in range(size // 18 + 1))[:size]
        write_keyed(folder, slug, turn_body(1, "**Use TOML.**").replace("Thinking for turn 1.", reasoning).encode())
    plan = plan_briefing(load_debate(folder), "a", key=key_of(folder, "a"))
    return folder, [plan.briefing, plan.notes]


def _reasoning_shown(text: str) -> int:
    reasoning = text.split("## Reasoning\n", 1)[1].split("\n\n## Answer", 1)[0]
    return len(reasoning.split("\n[Reasoning cut by multidebate")[0])


def test_the_room_a_short_reasoning_leaves_goes_to_the_long_one(tmp_path: Path) -> None:
    """One long Reasoning beside two short: it gets the room they leave (an even third would cut it to about
    6,600 characters), the others are whole, and the note names the one that is cut."""
    from multidebate.turns.peer_files import LARGE_BRIEFING

    _folder, (briefing, notes) = _long_reasonings(tmp_path, {"b": 30_000, "c": 900, "d": 900})
    served = {p.slug: p for p in briefing.peers}
    assert sum(len(p.text) for p in briefing.peers) <= LARGE_BRIEFING
    assert _reasoning_shown(served["b"].text) > LARGE_BRIEFING // 2
    assert served["b"].cut_from
    assert not served["c"].cut_from
    assert not served["d"].cut_from
    (large,) = [n for n in notes if n.code == "large-briefing"]
    assert large.field("cut") == ("b",)
    assert large.field("peers") == 3


def test_long_reasonings_share_the_room_evenly_and_one_that_fits_is_whole(tmp_path: Path) -> None:
    """Two equally long Reasonings are cut to the same length (within one chunk); a middling one that needs
    less than its share is served whole."""
    from multidebate.turns.peer_files import LARGE_BRIEFING, REASONING_CHUNK

    _folder, (briefing, notes) = _long_reasonings(tmp_path, {"b": 15_000, "c": 15_000, "d": 3_000})
    served = {p.slug: p for p in briefing.peers}
    assert sum(len(p.text) for p in briefing.peers) <= LARGE_BRIEFING
    assert abs(_reasoning_shown(served["b"].text) - _reasoning_shown(served["c"].text)) <= REASONING_CHUNK
    assert _reasoning_shown(served["b"].text) > LARGE_BRIEFING // 3  # d's unused share went to b and c
    assert not served["d"].cut_from
    (large,) = [n for n in notes if n.code == "large-briefing"]
    assert large.field("cut") == ("b", "c")


def test_after_the_end_no_note_speaks_of_peer_files_it_does_not_show(tmp_path: Path) -> None:
    """d82: the last `next` said "The 3 peer files are 25,293 characters ... the Reasoning of ... is cut" after the
    debate had converged, and showed no peer file."""
    from helpers import turn_body, write_keyed

    folder = make_debate(str(tmp_path / "d"), [], participants=("a", "b", "c"))
    long = "".join(f"Reason {n} takes room. " for n in range(500))
    for slug, line in (("a", "**Use TOML.**"), ("b", "**Use YAML.**"), ("c", "**Use JSON.**")):
        write_keyed(folder, slug, turn_body(1, line).replace("Thinking for turn 1.", long).encode())
    for slug in ("a", "b", "c"):
        body = turn_body(2, "**Use TOML.**", converged=True).replace("Thinking for turn 2.", long)
        write_keyed(folder, slug, body.encode())
    plan = plan_briefing(load_debate(folder), "a", key=key_of(folder, "a"))
    assert plan.briefing.debate_over
    assert [n.code for n in plan.notes] == ["converged"]


def test_a_reasoning_cut_for_size_ends_at_a_whole_word(tmp_path: Path) -> None:
    """d81: text cut mid-word ("...and U+0663 is N") left sessions guessing the word; a cut falls after the last
    whole word before the bound, and the marker counts what is shown."""
    import re

    _folder, (briefing, _notes) = _long_reasonings(tmp_path, {"b": 30_000, "c": 900, "d": 900})
    served = {p.slug: p for p in briefing.peers}["b"].text
    shown, marker = served.split("## Reasoning\n", 1)[1].split("\n[Reasoning cut by multidebate: ", 1)
    assert re.search(r"b reason \d{5}\.$", shown), shown[-40:]
    assert marker.startswith(f"{len(shown):,} of ")
