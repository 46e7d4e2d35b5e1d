"""Never overwrite, never forge: the ledger, slug keys and sealed turns, in real folders."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import Cli
from helpers import key_of, make_debate, turn_body

from multidebate.protocol.errors import IdentityError
from multidebate.state.debate import load_debate
from multidebate.turns.write import write_turn
from multidebate.views.validate import validate_paths


def codes(folder: Path) -> list[tuple[str, str]]:
    return [(os.path.basename(f.path), f.code) for f in validate_paths([str(folder)])]


def test_clean_debate_has_no_findings(tmp_path: Path) -> None:
    make_debate(str(tmp_path), [{"a": "x", "b": "y"}, {"a": "x", "b": "y"}])
    assert codes(tmp_path) == []


def test_edited_turn_is_reported(tmp_path: Path) -> None:
    make_debate(str(tmp_path), [{"a": "x", "b": "y"}])
    with open(tmp_path / "turn-1-a.md", "a", encoding="utf-8") as handle:
        handle.write("\nsneaky edit\n")
    assert ("turn-1-a.md", "E080") in codes(tmp_path)


def test_replaced_turn_is_reported(tmp_path: Path) -> None:
    make_debate(str(tmp_path), [{"a": "x", "b": "y"}])
    text = (tmp_path / "turn-1-b.md").read_text().replace("y", "z")
    os.unlink(tmp_path / "turn-1-b.md")
    (tmp_path / "turn-1-b.md").write_text(text)
    assert ("turn-1-b.md", "E080") in codes(tmp_path)


def test_deleted_turn_is_reported(tmp_path: Path) -> None:
    make_debate(str(tmp_path), [{"a": "x", "b": "y"}])
    os.unlink(tmp_path / "turn-1-b.md")
    assert ("turn-1-b.md", "E081") in codes(tmp_path)


def test_hand_written_turn_is_named(tmp_path: Path) -> None:
    make_debate(str(tmp_path), [{"a": "x"}])
    (tmp_path / "turn-1-h.md").write_text("# Turn 1 — h\n\n" + turn_body(1, "y"))
    assert codes(tmp_path) == [("turn-1-h.md", "W080")]


def test_broken_chain_is_reported(tmp_path: Path) -> None:
    make_debate(str(tmp_path), [{"a": "x"}, {"a": "y"}, {"a": "z"}])
    ledger = tmp_path / ".multidebate" / "ledger" / "a.jsonl"
    lines = ledger.read_text().splitlines()
    del lines[1]  # someone removes the record of turn 2
    ledger.write_text("\n".join(lines) + "\n")
    found = codes(tmp_path)
    assert ("a.jsonl", "E082") in found
    assert ("turn-2-a.md", "E085") in found


def test_reading_rule_and_changed_peer_are_reported(tmp_path: Path) -> None:
    make_debate(str(tmp_path), [{"a": "x", "b": "y"}, {"a": "x", "b": "y"}])
    path = tmp_path / "turn-2-a.md"
    text = path.read_text().replace("  - file: turn-1-b.md", "  - file: turn-2-b.md", 1)
    os.unlink(path)
    path.write_text(text)
    found = codes(tmp_path)
    assert ("turn-2-a.md", "E083") in found
    # and a peer file that changed after turn-2-b read it
    peer = tmp_path / "turn-1-a.md"
    peer.write_text(peer.read_text() + "\nlater\n")
    assert ("turn-2-b.md", "E084") in codes(tmp_path)


def test_frontmatter_records_what_next_served(cli: Cli, tmp_path: Path) -> None:
    make_debate(str(tmp_path), [{"a": "x", "b": "y"}])
    cli("next", str(tmp_path), "--slug", "a", "--key", key_of(str(tmp_path), "a"))
    write_turn(str(tmp_path), "a", turn_body(2, "x").encode(), key_of(str(tmp_path), "a"))
    debate = load_debate(str(tmp_path))
    entry = debate.entry(2, "a")
    parsed = debate.parsed(entry) if entry is not None else None
    assert parsed is not None
    peer = load_debate(str(tmp_path)).entry(1, "b")
    assert peer is not None
    assert parsed.metadata["peers_read"] == [{"file": "turn-1-b.md", "sha256": peer.sha256}]


def test_losing_a_race_for_a_roster_slug_names_only_free_roster_slugs(cli: Cli, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Two first writes as `aa`: the loser must not be sent to `aa-b`, which the roster refuses."""
    from multidebate.state.task import create_task, render_task

    create_task(str(tmp_path), render_task("Pick one.", ("aa", "bb", "cc"), None))
    cli("next", str(tmp_path), "--slug", "aa")
    monkeypatch.setattr("multidebate.turns.write.claim", lambda folder, slug: None)  # the other session won
    result = cli("write", str(tmp_path), "--slug", "aa", input=turn_body(1, "x"))
    assert result.code == 1
    assert result.out == ""
    assert result.err == ("Error: `aa` was claimed by another session a moment ago; nothing was written. You are "
                             "another session: ask the user which roster name is yours (free on the roster: bb, "
                             "cc).\n")


def test_taken_roster_slug_names_only_free_roster_slugs(cli: Cli, tmp_path: Path) -> None:
    make_debate(str(tmp_path), [{"aa": "x", "bb": "y"}], participants=("aa", "bb", "cc"))
    result = cli("write", str(tmp_path), "--slug", "aa", input=turn_body(2, "y"))
    assert result.code == 1
    assert "aa-b" not in result.err
    assert result.err.endswith("you are another session: ask the user which roster name is yours (free on the "
                                  "roster: cc).\n")


def test_second_session_on_a_slug_is_refused_with_a_free_slug(cli: Cli, tmp_path: Path) -> None:
    make_debate(str(tmp_path), [{"gpt-5-5": "x"}])
    result = cli("write", str(tmp_path), "--slug", "gpt-5-5", input=turn_body(2, "y"))
    assert result.code == 1
    assert "`gpt-5-5` is taken by a session that holds its key" in result.err
    assert "use the free slug `gpt-5-5-b`" in result.err
    result = cli("next", str(tmp_path), "--slug", "gpt-5-5")
    assert result.code == 1
    assert "--key" in result.err
    result = cli("write", str(tmp_path), "--slug", "gpt-5-5", "--key", "wrong", input=turn_body(2, "y"))
    assert result.code == 1
    assert "does not match" in result.err
    assert not (tmp_path / "turn-2-gpt-5-5.md").exists()


def test_key_is_printed_once_and_opens_later_turns(cli: Cli, tmp_path: Path) -> None:
    make_debate(str(tmp_path), [])
    result = cli("write", str(tmp_path), "--slug", "a", "--json", input=turn_body(1, "x"))
    key = result.json()["key"]
    assert isinstance(key, str)
    assert len(key) == 16
    result = cli("write", str(tmp_path), "--slug", "a", "--key", key, "--json", input=turn_body(2, "x"))
    assert result.code == 0
    assert result.json()["key"] is None
    assert key not in (tmp_path / ".multidebate" / "keys" / "a.json").read_text()  # only its hash is kept


def test_lost_key_recovery(tmp_path: Path) -> None:
    make_debate(str(tmp_path), [{"a": "x"}])
    os.unlink(tmp_path / ".multidebate" / "keys" / "a.json")  # what a person does, as docs/integrity.md says
    result = write_turn(str(tmp_path), "a", turn_body(2, "x").encode())
    assert result.turn == 2
    assert result.key


def test_failed_first_write_does_not_keep_the_claim(tmp_path: Path) -> None:
    make_debate(str(tmp_path), [])
    (tmp_path / "turn-1-a.md").mkdir()  # the name is taken, so creation fails
    with pytest.raises(Exception):
        write_turn(str(tmp_path), "a", turn_body(1, "x").encode())
    assert not (tmp_path / ".multidebate" / "keys" / "a.json").exists()


def test_roster_duplicate_is_told_to_ask_the_user(tmp_path: Path) -> None:
    make_debate(str(tmp_path), [{"a": "x"}], participants=("a", "b"))
    with pytest.raises(IdentityError, match="ask the user which roster name is yours"):
        write_turn(str(tmp_path), "a", turn_body(2, "x").encode())


def test_sealed_turn_is_published_when_complete(cli: Cli, tmp_path: Path) -> None:
    folder = str(tmp_path)
    make_debate(folder, [{"a": "x", "b": "y"}], participants=("a", "b", "c"), sealed=True)
    assert sorted(n for n in os.listdir(folder) if n.startswith("turn-")) == []
    status = cli("status", "--json", folder).json()
    assert status["sealed"] == {"1": ["a", "b"]}
    assert status["current_turn"] == 0
    text = cli("status", folder).out
    assert "turn 1: 2/3 sealed" in text
    # a's next never serves b's sealed file, and knows a is at turn 2 waiting for publication
    out = cli("next", folder, "--slug", "a", "--key", key_of(folder, "a"), "--json").out
    data = json.loads(out)
    assert data["turn"] == 2
    assert data["peers"] == []
    assert "y" not in json.dumps(data["peers"])
    assert data["own_previous_answer"] == "x"
    assert any("sealed" in n for n in data["notes"])
    result = write_turn(folder, "c", turn_body(1, "z").encode())
    assert result.sealed
    assert result.published
    assert sorted(n for n in os.listdir(folder) if n.startswith("turn-")) == [
        "turn-1-a.md", "turn-1-b.md", "turn-1-c.md"]
    assert codes(tmp_path) == []
    data = cli("next", folder, "--slug", "a", "--key", key_of(folder, "a"), "--json").json()
    assert [p["slug"] for p in data["peers"]] == ["b", "c"]


def test_unpublished_sealed_files_are_invisible_even_if_linked_early(tmp_path: Path) -> None:
    folder = str(tmp_path)
    make_debate(folder, [{"a": "x"}], participants=("a", "b"), sealed=True)
    # a publisher that died after linking one file but before the marker: readers still see nothing
    os.link(os.path.join(folder, ".multidebate", "sealed", "turn-1-a.md"), os.path.join(folder, "turn-1-a.md"))
    assert load_debate(folder).entries == {}


def test_init_sealed_needs_roster(cli: Cli, tmp_path: Path) -> None:
    result = cli("init", str(tmp_path / "d"), "--task", "t", "--sealed")
    assert result.code == 2
    assert "--sealed needs --participants" in result.err
    result = cli("init", str(tmp_path / "d"), "--task", "t", "--sealed", "--participants", "a,b")
    assert result.code == 0
    assert "sealed: true" in (tmp_path / "d" / "TASK.md").read_text()


def test_claim_without_turn_says_how_to_recover(tmp_path: Path) -> None:
    from multidebate.state.keys import claim

    make_debate(str(tmp_path), [])
    assert claim(str(tmp_path), "a") is not None  # a write that died after claiming
    with pytest.raises(IdentityError, match=r"claimed but has no turn yet.*multidebate handover .* a`"):
        write_turn(str(tmp_path), "a", turn_body(1, "x").encode())
