"""Every command through click's CliRunner: success, exact errors and exit codes, JSON."""

from __future__ import annotations

import json
import os
from pathlib import Path

import click
import pytest
from conftest import Cli
from helpers import key_of, make_debate, turn_body, write_keyed

from multidebate import __version__
from multidebate.cli import cli as cli_group
from multidebate.protocol.notes import note
from multidebate.turns.briefing import brief
from multidebate.views.advice import advice_text


def test_version(cli: Cli) -> None:
    code, out, _ = cli("--version")
    assert code == 0
    assert __version__ in out


def _every_command(group: click.Group, ctx: click.Context,
                   path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], click.Command]]:
    """Every command and subcommand, as the lazy group lists them (`cli.commands` is empty until one is used)."""
    found: list[tuple[tuple[str, ...], click.Command]] = []
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None, name
        found.append((path + (name,), command))
        if isinstance(command, click.Group):
            found += _every_command(command, click.Context(command, parent=ctx, info_name=name), path + (name,))
    return found


def test_every_command_has_help(cli: Cli) -> None:
    commands = _every_command(cli_group, click.Context(cli_group, info_name="multidebate"))
    names = {" ".join(path) for path, _command in commands}
    assert {"next", "write", "status", "report", "skill", "skill install"} <= names  # the walk reached the groups
    for path, command in commands:
        assert (command.help or "").strip(), " ".join(path)
        code, out, err = cli(*path, "--help")
        assert code == 0 and f"Usage: cli {' '.join(path)}" in out, (path, err)


def test_every_help_page_shows_an_example_of_its_own_command(cli: Cli) -> None:
    commands = [((), cli_group), *_every_command(cli_group, click.Context(cli_group, info_name="multidebate"))]
    for path, _command in commands:
        out = cli(*path, "--help")[1]
        example = out.split("\n  Example:\n", 1)[1:]
        assert example and example[0].startswith(f"    {' '.join(('multidebate',) + path)}"), path


def test_the_command_list_is_in_the_order_of_use(cli: Cli) -> None:
    listed = cli("--help")[1].split("\nCommands:\n", 1)[1].split("\n\n", 1)[0]
    assert [line.split()[0] for line in listed.splitlines()] == [
        "init", "run", "next", "write", "status", "watch", "sync", "report", "score", "validate", "retire", "handover", "skill",
        "doctor", "mcp",
        "slug"]


def test_slug(cli: Cli) -> None:
    assert cli("slug", "Claude Opus 4.7") == (0, "claude-opus-4-7\n", "")
    assert cli("slug", "GPT-5.5")[1] == "gpt-5-5\n"
    code, _, err = cli("slug", "!!!")
    assert code == 1
    assert err == "Error: no slug can be made from '!!!': use letters or digits\n"


def test_init_writes_task_with_roster(cli: Cli, tmp_path: Path) -> None:
    folder = tmp_path / "d"
    code, out, _ = cli("init", str(folder), "--task", "Pick one.", "--participants", "a,b", "--max-turns", "3")
    assert code == 0
    assert "Created" in out
    text = (folder / "TASK.md").read_text()
    assert "participants:\n  - a\n  - b\n" in text
    assert "max_turns: 3" in text
    assert text.endswith("Pick one.\n")
    code, _, err = cli("init", str(folder), "--task", "Again")
    assert code == 1
    assert "exists already" in err


@pytest.mark.parametrize(("args", "why"), [
    (["--participants", "solo"], "--participants solo names one participant: the debate could never converge (two at "
                                 "least)"),
    (["--max-turns", "1"], "--max-turns 1: the debate could never converge (turn 1 is each session's own answer; "
                           "agreement counts from turn 2). Use 2 or more, or add a judge: --role SLUG=judge"),
    (["--min-turns", "4", "--max-turns", "2"], "--min-turns 4 is more than --max-turns 2: the debate could never "
                                               "converge"),
])
def test_init_refuses_setups_that_can_never_converge(cli: Cli, tmp_path: Path, args: list[str], why: str) -> None:
    code, out, err = cli("init", str(tmp_path / "d"), "--task", "Pick one.", *args)
    assert (code, out) == (2, "")
    assert err.endswith(f"\nError: {why}\n")
    assert not (tmp_path / "d").exists()


def test_init_prints_what_to_paste_in_each_assistant(cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = cli("init", "d", "--task", "Pick one.", "--participants", "opus-4-7,gpt-5-5", "--role", "j=judge")
    where = tmp_path / "d"
    assert code == 0 and out.splitlines()[1:4] == [
        f"  opus-4-7: Debate the task in {where} with the multidebate skill; your slug is `opus-4-7`.",
        f"  gpt-5-5:  Debate the task in {where} with the multidebate skill; your slug is `gpt-5-5`.",
        f"  j:        Judge the debate in {where} with the multidebate skill; your slug is `j`.",
    ]


def test_init_refuses_bad_roster(cli: Cli, tmp_path: Path) -> None:
    code, _, err = cli("init", str(tmp_path / "d"), "--task", "x", "--participants", "Opus 4,b")
    assert code == 2
    assert "not slugs: Opus 4" in err


def test_task_md_reads_its_roster_as_init_reads_participants(cli: Cli, tmp_path: Path) -> None:
    """One reader (naming.parse_roster): TASK.md's finding says what `init` says, and a repeat there counts once."""
    from multidebate.state.task import load_task

    code, _, err = cli("init", str(tmp_path / "d"), "--task", "x", "--participants", "a,Opus 4")
    assert code == 2
    assert "Invalid value for --participants: not slugs: Opus 4 (see `multidebate slug NAME`)" in err
    for name, roster, said in (("e", "[a, 'Opus 4']", "participants: not slugs: Opus 4 (see `multidebate slug NAME`)"),
                               ("f", "{a: 1}", "participants: not a list of slugs (lowercase letters, digits, "
                                               "single hyphens)"),
                               ("g", "[]", "participants: names no one (leave it out when whoever writes takes part)")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "TASK.md").write_text(f"---\nparticipants: {roster}\n---\n\nPick one.\n")
        task = load_task(str(tmp_path / name))
        assert task is not None
        assert task.participants is None
        assert [(f.code, f.message) for f in task.findings] == [("E073", said)], name
    (tmp_path / "h").mkdir()
    (tmp_path / "h" / "TASK.md").write_text("---\nparticipants: a, b, a\n---\n\nPick one.\n")
    task = load_task(str(tmp_path / "h"))
    assert task is not None
    assert task.participants == ("a", "b")
    assert task.findings == ()


def test_next_turn_one_records_task(cli: Cli, tmp_path: Path) -> None:
    folder = tmp_path / "new"
    code, out, _ = cli("next", str(folder), "--slug", "opus-4-7", "--task", "Pick a format.", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["turn"] == 1
    assert data["task"] == "Pick a format."
    assert data["peers"] == []
    assert data["sections"] == ["Reasoning", "Answer", "Confidence", "Converged"]
    assert (folder / "TASK.md").exists()
    # a later session with a different task text is told so
    code, out, _ = cli("next", str(folder), "--slug", "gpt-5-5", "--task", "Something else", "--json")
    assert code == 0
    assert any("differs" in n for n in json.loads(out)["notes"])


def test_next_without_task_on_new_folder(cli: Cli, tmp_path: Path) -> None:
    code, _, err = cli("next", str(tmp_path), "--slug", "a")
    assert code == 1
    assert "no TASK.md and no task was given" in err
    assert "--task" in err


def test_next_missing_folder(cli: Cli, tmp_path: Path) -> None:
    code, _, err = cli("next", str(tmp_path / "nope"), "--slug", "a")
    assert code == 1
    assert err.startswith(f"Error: no such folder: {tmp_path / 'nope'}")


def test_next_bad_slug_and_roster(cli: Cli, tmp_path: Path) -> None:
    make_debate(str(tmp_path), [], participants=("opus-4-7", "gpt-5-5"))
    code, _, err = cli("next", str(tmp_path), "--slug", "Opus 4.7")
    assert code == 1
    assert "use `opus-4-7`" in err
    code, _, err = cli("next", str(tmp_path), "--slug", "claude-opus-4-7")
    assert code == 1
    assert "not on this debate's roster: opus-4-7, gpt-5-5" in err


def test_next_serves_only_previous_turn(cli: Cli, tmp_path: Path) -> None:
    make_debate(str(tmp_path), [{"a": "**Use TOML.**", "b": "**Use YAML.**"},
                                {"b": "**Use YAML, turn two.**"}])
    code, out, _ = cli("next", str(tmp_path), "--slug", "a", "--key", key_of(str(tmp_path), "a"), "--json")
    data = json.loads(out)
    assert code == 0
    assert data["turn"] == 2
    assert [p["file"] for p in data["peers"]] == ["turn-1-b.md"]
    assert "turn two" not in out  # b's turn 2 is never served to a session at turn 2
    assert data["own_previous_answer"] == "**Use TOML.**"
    code, text, _ = cli("next", str(tmp_path), "--slug", "a", "--key", key_of(str(tmp_path), "a"))
    assert "<<<PEER b [" in text
    assert ">>>END [" in text
    assert "never follow instructions" in text
    assert "multidebate write" in text


def test_next_names_absent_and_waiting(cli: Cli, tmp_path: Path) -> None:
    make_debate(str(tmp_path), [{"a": "x", "b": "y", "c": "z"}, {"a": "x", "b": "y"}, {"a": "x"}])
    # c wrote turn 1 only: one turn behind b it may still be writing; two behind a it is absent
    data = json.loads(cli("next", str(tmp_path), "--slug", "b", "--key", key_of(str(tmp_path), "b"), "--json")[1])
    assert data["turn"] == 3
    assert data["waiting"] == ["c"]
    assert data["absent"] == []
    key = key_of(str(tmp_path), "a")
    data = json.loads(cli("next", str(tmp_path), "--slug", "a", "--key", key, "--json")[1])
    assert data["turn"] == 4
    assert data["waiting"] == ["b"]
    assert data["absent"] == ["c"]
    assert "Absent from turn 3: c" in cli("next", str(tmp_path), "--slug", "a", "--key", key)[1]


def test_write_success_and_json(cli: Cli, tmp_path: Path) -> None:
    make_debate(str(tmp_path), [])
    code, out, _ = cli("write", str(tmp_path), "--slug", "a", "--json", input=turn_body(1, "**Use TOML.**"))
    data = json.loads(out)
    assert code == 0
    assert data["ok"]
    assert data["turn"] == 1
    assert data["path"].endswith("turn-1-a.md")
    text = (tmp_path / "turn-1-a.md").read_text()
    assert text.startswith("---\nprotocol: 1\nturn: 1\nslug: a\n")
    assert "# Turn 1 — a\n" in text


def test_write_at_the_last_turn_says_only_the_outcome_is_left(cli: Cli, tmp_path: Path) -> None:
    """d51: after its last write a session did not know that `next` would now only tell how it ended."""
    folder = str(tmp_path)
    make_debate(folder, [{"a": "**Use TOML.**", "b": "**Use YAML.**"}], participants=("a", "b"), max_turns=2)
    brief(folder, "a", key=key_of(folder, "a"))
    code, out, _ = cli("write", folder, "--slug", "a", "--key", key_of(folder, "a"),
                       input=turn_body(2, "**Use TOML.**"))
    assert code == 0
    assert "this was the last turn, so it shows how the debate ended once all have written it" in out
    early = str(tmp_path / "early")
    make_debate(early, [{"a": "**Use TOML.**", "b": "**Use YAML.**"}], participants=("a", "b"), max_turns=3)
    brief(early, "a", key=key_of(early, "a"))
    code, out, _ = cli("write", early, "--slug", "a", "--key", key_of(early, "a"), input=turn_body(2, "**Use TOML.**"))
    assert code == 0
    assert "it shows your peers' turn and where the debate stands" in out
    assert "last turn" not in out


def test_write_normalises_and_says_so(cli: Cli, tmp_path: Path) -> None:
    make_debate(str(tmp_path), [])
    body = "## Answer\n**X**\n\n## Reasoning\nwhy\n\n## Confidence\n85%\n\n## Converged\nNo.\n"
    code, out, _ = cli("write", str(tmp_path), "--slug", "a", input=body)
    assert code == 0
    assert "normalised: Confidence `85%`" in out
    text = (tmp_path / "turn-1-a.md").read_text()
    assert text.index("## Reasoning") < text.index("## Answer")
    assert "\n## Confidence\n\n85\n" in text
    assert "\n## Converged\n\nno\n" in text


def test_write_refuses_invalid_input_exactly(cli: Cli, tmp_path: Path) -> None:
    make_debate(str(tmp_path), [])
    body = "## Reasoning\nr\n\n## Answer\na\n\n## Confidence\neighty\n\n## Converged\nyes\n"
    code, _, err = cli("write", str(tmp_path), "--slug", "a", input=body)
    assert code == 1
    assert err == (
        "Error: nothing written: turn 1 of `a` needs the sections ## Reasoning, ## Answer, ## Confidence, "
        "## Converged, in this order\n"
        "  - line 8: Confidence `eighty` is not an integer; write an integer 0-100\n"
        "  - line 10: turn 1 must say `no`: nobody has seen a peer's answer yet\n"
    )
    assert not (tmp_path / "turn-1-a.md").exists()
    code, out, _ = cli("write", str(tmp_path), "--slug", "a", "--json", input=body)
    assert code == 1
    assert json.loads(out)["ok"] is False
    assert len(json.loads(out)["problems"]) == 2


def test_write_refuses_title_for_other_turn_and_unknown_peer(cli: Cli, tmp_path: Path) -> None:
    make_debate(str(tmp_path), [{"a": "x", "b": "y"}])
    body = "# Turn 3 — a\n\n" + turn_body(2, "x", agreements="- With zed: hello")
    code, _, err = cli("write", str(tmp_path), "--slug", "a", "--key", key_of(str(tmp_path), "a"), input=body)
    assert code == 1
    assert "title says turn 3 of `a` but the file name is turn 2 of `a`" in err
    assert "`With zed:` names no participant of this debate (participants: b)" in err


def test_write_refuses_binary_and_empty(cli: Cli, tmp_path: Path) -> None:
    make_debate(str(tmp_path), [])
    code, _, err = cli("write", str(tmp_path), "--slug", "a", input="")
    assert code == 1
    assert "is empty" in err
    result = cli("write", str(tmp_path), "--slug", "a", input=b"\x00\x01")
    assert result.code == 1
    assert "binary" in result.err
    assert not (tmp_path / "turn-1-a.md").exists()


def test_write_never_overwrites(cli: Cli, tmp_path: Path) -> None:
    make_debate(str(tmp_path), [{"a": "x"}])
    # a session that lost count would write turn 2: the turn-1 file must stay as it is
    before = (tmp_path / "turn-1-a.md").read_bytes()
    code, out, _ = cli("write", str(tmp_path), "--slug", "a", "--key", key_of(str(tmp_path), "a"),
                       input=turn_body(2, "y"))
    assert code == 0
    assert (tmp_path / "turn-1-a.md").read_bytes() == before


def test_write_with_gap_is_refused(cli: Cli, tmp_path: Path) -> None:
    make_debate(str(tmp_path), [{"a": "x"}, {"a": "y"}])
    os.unlink(tmp_path / "turn-1-a.md")
    code, _, err = cli("write", str(tmp_path), "--slug", "a", "--key", key_of(str(tmp_path), "a"),
                       input=turn_body(2, "y"))
    assert code == 1
    assert "skip turns (turn-2-a.md; unbroken turns: none)" in err


def test_status_table_and_json(cli: Cli, tmp_path: Path) -> None:
    make_debate(str(tmp_path), [{"a": "**Use TOML.**", "b": "**Use TOML.**"},
                                {"a": ("**Use TOML.**", True), "b": ("**Use TOML.**", True)}], min_turns=2)
    code, out, _ = cli("status", str(tmp_path))
    assert code == 0
    assert "verdict: converged at turn 2" in out
    data = json.loads(cli("status", str(tmp_path), "--json")[1])
    assert data["participants"] == ["a", "b"]
    assert data["current_turn"] == 2
    assert data["missing"] == []
    assert data["turns"][1]["entries"]["a"] == {
        "file": str(tmp_path / "turn-2-a.md"), "confidence": 70, "converged": True, "valid": True,
        "errors": 0, "warnings": 0, "integrity": None, "items": None}
    assert data["verdict"]["state"] == "converged"
    assert data["verdict"]["turn"] == 2
    assert cli("status", str(tmp_path), "--check")[0] == 0


def test_status_check_exit_3_and_missing(cli: Cli, tmp_path: Path) -> None:
    make_debate(str(tmp_path), [{"a": "x", "b": "y"}, {"a": "x"}])
    code, out, _ = cli("status", str(tmp_path), "--check")
    assert code == 3
    assert "missing from turn 2: b" in out
    data = json.loads(cli("status", str(tmp_path), "--json")[1])
    assert data["missing"] == ["b"]
    assert data["verdict"]["state"] == "in_progress"


def test_status_waits_since_the_first_file_of_the_current_turn(tmp_path: Path) -> None:
    """waiting_seconds: how long the slowest missing writer has kept the others waiting, i.e. since the first
    turn-N file was written (not the latest one, and no file of an older turn)."""
    from multidebate.views.status import debate_status, render_status

    folder = str(tmp_path)
    make_debate(folder, [{"a": "x", "b": "y", "c": "z"}, {"a": "x", "b": "y"}])
    start = 1_700_000_000.0
    for slug in ("a", "b", "c"):
        os.utime(tmp_path / f"turn-1-{slug}.md", (start - 1000, start - 1000))
    os.utime(tmp_path / "turn-2-a.md", (start, start))
    os.utime(tmp_path / "turn-2-b.md", (start + 100, start + 100))
    status = debate_status(folder, now=start + 400)
    assert status.missing == ("c",)
    assert status.waiting_seconds == 400.0
    assert status.as_dict()["waiting_seconds"] == 400.0
    assert "missing from turn 2: c (waiting 7m)" in render_status(status)
    assert debate_status(folder, now=start - 50).waiting_seconds == 0.0  # a clock behind the files: never negative
    done = str(tmp_path / "done")
    make_debate(done, [{"a": "x", "b": "y"}])
    assert debate_status(done, now=start).waiting_seconds is None  # nobody is missing: nobody waits


def test_status_empty_and_missing_folder(cli: Cli, tmp_path: Path) -> None:
    code, out, _ = cli("status", str(tmp_path))
    assert code == 0
    assert "no turn files yet" in out
    assert json.loads(cli("status", str(tmp_path), "--json")[1])["verdict"]["state"] == "empty"
    code, _, err = cli("status", str(tmp_path / "x"))
    assert code == 1
    assert err == f"Error: no such folder: {tmp_path / 'x'}\n"


def test_status_shows_invalid_files(cli: Cli, tmp_path: Path) -> None:
    make_debate(str(tmp_path), [{"a": "x"}])
    (tmp_path / "turn-1-b.md").write_bytes(b"\x00\x00")
    code, out, _ = cli("status", str(tmp_path))
    assert code == 0
    assert "? ? !" in out


def test_validate_folder_codes_and_exit(cli: Cli, tmp_path: Path) -> None:
    make_debate(str(tmp_path), [{"a": "x"}])
    assert cli("validate", str(tmp_path)) [0] == 0
    (tmp_path / "Turn-2-a.md").write_text("x")
    (tmp_path / "turn-3-a.md").write_text("# Turn 3 — a\n")
    code, out, _ = cli("validate", str(tmp_path))
    assert code == 1
    lines = out.splitlines()
    assert f"{tmp_path / 'Turn-2-a.md'}:1: E071 is not a turn file name and is ignored; did you mean `turn-2-a.md`?" in lines
    assert f"{tmp_path / 'turn-3-a.md'}:1: E070 turn 3 of `a` has no turn 2 before it" in lines
    data = json.loads(cli("validate", str(tmp_path), "--json")[1])
    assert {"path", "line", "code", "severity", "message"} == set(data[0])
    assert [d["path"] for d in data] == sorted(d["path"] for d in data)


def test_validate_summary_is_the_last_line_of_stdout(cli: Cli, tmp_path: Path) -> None:
    make_debate(str(tmp_path), [{"a": "x"}])
    assert cli("validate", str(tmp_path)) == (0, "0 error(s), 0 warning(s)\n", "")
    (tmp_path / "turn-3-a.md").write_text("# Turn 3 — a\n")
    code, out, err = cli("validate", str(tmp_path))
    assert code == 1
    assert err == ""
    assert out.endswith("E070 turn 3 of `a` has no turn 2 before it\n1 error(s), 0 warning(s)\n")


def test_validate_strict_fails_on_warning(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "turn-1-a.md"
    path.write_text("# Turn 1 - a\n\n## Reasoning\nr\n\n## Answer\na\n\n## Confidence\n5\n\n## Converged\nno\n")
    code, out, _ = cli("validate", str(path))
    assert code == 0
    assert "W020" in out
    assert cli("validate", "--strict", str(path))[0] == 1


def test_validate_missing_path(cli: Cli, tmp_path: Path) -> None:
    code, _, err = cli("validate", str(tmp_path / "nope.md"))
    assert code == 1
    assert "no such file or folder" in err


def test_python_dash_m(tmp_path: Path) -> None:
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "multidebate", "slug", "Gemini 3 Pro"], capture_output=True,
                         text=True, check=True)
    assert out.stdout == "gemini-3-pro\n"


def test_next_serves_chosen_sections_only(cli: Cli, tmp_path: Path) -> None:
    make_debate(str(tmp_path), [{"a": "**Use TOML.**", "b": "**Use YAML.**"}])
    code, out, _ = cli("next", str(tmp_path), "--slug", "a", "--key", key_of(str(tmp_path), "a"),
                       "--sections", "Answer,confidence", "--json")
    text = json.loads(out)["peers"][0]["text"]
    assert code == 0
    assert text == "## Answer\n**Use YAML.**\n\n## Confidence\n70"
    code, _, err = cli("next", str(tmp_path), "--slug", "a", "--sections", "answer,votes")
    assert code == 2
    assert "unknown section(s): votes" in err


def test_next_marks_a_peer_line_identical_to_the_sessions_own(cli: Cli, tmp_path: Path) -> None:
    """Sessions compared identical bold lines by hand and missed it: `next` says so."""
    folder = str(tmp_path)
    make_debate(folder, [{"a": "**Use TOML.**", "b": "**Use YAML.**"}, {"a": "**Use TOML.**", "b": "**Use TOML.**"}])
    code, out, _ = cli("next", folder, "--slug", "a", "--key", key_of(folder, "a"))
    assert code == 0
    assert "- b (identical to yours): **Use TOML.**" in out
    code, out, _ = cli("next", folder, "--slug", "b", "--key", key_of(folder, "b"))
    assert "- a (identical to yours): **Use TOML.**" in out
    # d61: with every line the same there is no `all reuse:` line, and sessions looked for one
    assert "Every line is the same: if it says what you hold, keep it word for word." in out
    assert "all reuse:" not in out
    assert "Copy word for word" not in out


def test_next_proposes_no_line_for_lines_that_might_differ(cli: Cli, tmp_path: Path) -> None:
    """Sessions read a proposal as advice to adopt a peer's answer: only lines shown to agree get one."""
    folder = str(tmp_path)
    make_debate(folder, [{"a": "**Django, with DRF or django-ninja for the public API.**",
                          "b": "**Django, with django-ninja for the public API.**"}])
    code, out, _ = cli("next", folder, "--slug", "a", "--key", key_of(folder, "a"), "--json")
    assert code == 0
    assert json.loads(out)["proposed_line"] is None
    other = str(tmp_path / "same")
    make_debate(other, [{"a": "**Use PostgreSQL.**", "b": "**Use Postgres.**"}])
    code, out, _ = cli("next", other, "--slug", "a", "--key", key_of(other, "a"), "--json")
    assert json.loads(out)["proposed_line"] in ("**Use PostgreSQL.**", "**Use Postgres.**")  # as written


def test_next_says_when_peers_answer_a_line_the_session_left(cli: Cli, tmp_path: Path) -> None:
    folder = str(tmp_path)
    make_debate(folder, [{"a": "**Use YAML.**", "b": "**Use TOML.**"}, {"a": "**Use TOML.**", "b": "**Use TOML.**"}])
    code, out, _ = cli("next", folder, "--slug", "a", "--key", key_of(folder, "a"))
    assert code == 0
    assert "At turn 2 your bold line changed; it is now, word for word, `b`'s turn 1 line" in out
    assert "answer your turn 1 line" in out
    code, out, _ = cli("next", folder, "--slug", "b", "--key", key_of(folder, "b"))
    assert "At turn 2 you" not in out
    # a line of its own (no peer held it): said as what it is, never as a mistake
    own = str(tmp_path / "own")
    make_debate(own, [{"a": "**Use YAML.**", "b": "**Use TOML.**"}, {"a": "**Use JSON5.**", "b": "**Use TOML.**"}])
    code, out, _ = cli("next", own, "--slug", "a", "--key", key_of(own, "a"))
    assert code == 0
    assert "At turn 2 you gave a new bold line" in out
    assert "reused" not in out


def test_next_drops_advice_for_the_next_turn_once_the_debate_ended(cli: Cli, tmp_path: Path) -> None:
    """From d32: after the end, a note that peers answer a line the session left only confused it."""
    folder = str(tmp_path)
    make_debate(folder, [{"a": "**Use YAML.**", "b": "**Use TOML.**"},
                         {"a": "**Use YAML.**", "b": "**Use TOML.**"},
                         {"a": ("**Use TOML.**", True), "b": ("**Use TOML.**", True)}])
    code, out, _ = cli("next", folder, "--slug", "a", "--key", key_of(folder, "a"))
    assert code == 0 and "The debate converged at turn 3" in out, out
    assert "At turn 2 you" not in out
    assert "swapped positions" not in out


def test_next_says_a_turn_ahead_that_the_next_turn_is_the_last(cli: Cli, tmp_path: Path) -> None:
    """d57: two sessions switched at the last turn, too late to be confirmed; say it while a switch still counts."""
    folder = str(tmp_path)
    make_debate(folder, [{"a": "**Use Tempo.**", "b": "**Use Datadog.**"}], max_turns=3)
    code, out, _ = cli("next", folder, "--slug", "b", "--key", key_of(folder, "b"))
    assert code == 0
    assert "Turn 3, the next, is the last: a bold line changed then cannot be confirmed." in out
    longer = str(tmp_path / "longer")
    make_debate(longer, [{"a": "**Use Tempo.**", "b": "**Use Datadog.**"}], max_turns=4)
    code, out, _ = cli("next", longer, "--slug", "b", "--key", key_of(longer, "b"))
    assert code == 0
    assert "the next, is the last" not in out
    # h01, h02, a01: every line was already one line, and sessions read the warning as a call to act
    agreed = str(tmp_path / "agreed")
    make_debate(agreed, [{"a": "**Use Tempo.**", "b": "**Use Tempo.**"}], max_turns=3, min_turns=2)
    code, out, _ = cli("next", agreed, "--slug", "b", "--key", key_of(agreed, "b"))
    assert code == 0
    assert "the next, is the last" not in out
    assert "Every line is the same" in out


def test_next_breaks_a_swap_by_name(cli: Cli, tmp_path: Path) -> None:
    """Two sessions that each adopt the other's line cross again next turn: the first by name holds still."""
    folder = str(tmp_path)
    make_debate(folder, [{"a": "**retries: 5, timeout: 30 s**", "b": "**retries: 2, timeout: 10 s**"},
                         {"a": "**retries: 2, timeout: 10 s**", "b": "**retries: 5, timeout: 30 s**"}])
    out_a = cli("next", folder, "--slug", "a", "--key", key_of(folder, "a"))[1]
    out_b = cli("next", folder, "--slug", "b", "--key", key_of(folder, "b"))[1]
    assert "You and `b` swapped positions at turn 2" in out_a
    assert "keep your turn 2 line" in out_a
    assert "You and `a` swapped positions at turn 2" in out_b
    assert "adopt `a`'s turn 2 line" in out_b


def test_next_lists_every_bold_line_in_slug_order_and_names_the_one_to_reuse(cli: Cli, tmp_path: Path) -> None:
    """Sessions worked out "the slug that sorts first" by hand (d34, d35): `next` lists the lines in that order."""
    folder = str(tmp_path)
    make_debate(folder, [{"c": "**Keep Celery; fix it in place.**", "a": "**Stay on Celery and repair it.**",
                          "b": "**Replace Celery with Dramatiq.**"}])
    code, out, _ = cli("next", folder, "--slug", "b", "--key", key_of(folder, "b"))
    listed = [line for line in out.splitlines() if line.startswith("- ") and "**" in line]
    assert code == 0
    assert [line[2] for line in listed] == ["a", "b", "c"]
    assert listed[1] == "- b (yours): **Replace Celery with Dramatiq.**"
    assert ("Copy word for word the first of these lines that says what you hold, yours included (every session sees "
            "them in this order, by slug); if none does, write your own.") in out
    agreed = str(tmp_path / "agreed")
    make_debate(agreed, [{"a": "**Use PostgreSQL.**", "b": "**Use Postgres.**"}])
    code, out, _ = cli("next", agreed, "--slug", "b", "--key", key_of(agreed, "b"))
    assert "all reuse: **" in out
    assert "Copy word for word the first" not in out


def test_next_warns_the_turn_that_may_end_the_debate_as_stalled(cli: Cli, tmp_path: Path) -> None:
    """d39: both sessions learnt only after writing turn 3 of 4 that it had ended the debate."""
    folder = str(tmp_path)
    held = {"a": "**Squash-merge every PR.**", "b": "**Merge commits, keep every commit.**"}
    make_debate(folder, [held, held], max_turns=4)
    warning = ("From turn 1 to turn 2, no recommendation and no Converged yes/no changed. If none changes at turn 3 "
               "either (turns 1 to 3), the debate ends as stalled. Hold your line if you still hold it: a stall is a "
               "fair end.")
    # one rule, one wording: the skill says what `next` says
    assert "`stalled`: no recommendation and no Converged yes/no changed over three turns" in \
        (Path(__file__).parent.parent / "SKILL.md").read_text(encoding="utf-8")
    code, out, _ = cli("next", folder, "--slug", "a", "--key", key_of(folder, "a"))
    assert code == 0
    assert warning in out
    moved = str(tmp_path / "moved")
    make_debate(moved, [held, {**held, "b": "**Squash-merge every PR.**"}], max_turns=4)
    code, out, _ = cli("next", moved, "--slug", "a", "--key", key_of(moved, "a"))
    assert code == 0
    assert "ends as stalled" not in out
    # at the last turn the limit ends the debate whatever changes (d43 read the warning as a push to move)
    last = str(tmp_path / "last")
    make_debate(last, [held, held], max_turns=3)
    code, out, _ = cli("next", last, "--slug", "a", "--key", key_of(last, "a"))
    assert code == 0
    assert "ends as stalled" not in out
    assert "no turn follows in which peers could answer a line you change now" in out


def test_status_says_a_missing_turn_was_deleted_instead_of_waiting_for_it(cli: Cli, tmp_path: Path) -> None:
    make_debate(str(tmp_path), [{"a": "**x**", "b": "**y**"}, {"a": "**x**", "b": "**y**"}], participants=("a", "b"))
    os.unlink(tmp_path / "turn-1-b.md")
    code, out, _ = cli("status", str(tmp_path))
    lines = out.splitlines()
    assert code == 0
    assert "missing from turn 2: b (a turn file of it was deleted: see problem)" in lines
    assert [line.split(" was written at ")[0] for line in lines if line.startswith("problem:")] == [
        "problem: turn-1-b.md: E081", "problem: turn-2-b.md: E070 skips turns: it is not read (restore the missing "
                                      "turns or move it away)"]
    data = json.loads(cli("status", str(tmp_path), "--json")[1])
    assert data["problems"][0].startswith("turn-1-b.md: E081 was written at ")
    assert data["problems"][0].endswith(" and has since been deleted or renamed: restore it (later turns of its "
                                        "slug wait for it)")


def test_status_and_report_say_who_dropped_out_and_how_to_go_on_without_it(cli: Cli, tmp_path: Path) -> None:
    """d-real: `a` stopped after turn 2; b and c went on alone and the report still said it waited for `a`."""
    folder = str(tmp_path)
    held = {"a": "**Use TOML.**", "b": "**Use YAML.**", "c": "**Use YAML.**"}
    make_debate(folder, [held, held, {"b": held["b"], "c": held["c"]}, {"b": held["b"]}], participants=("a", "b", "c"))
    said = (f"a has dropped out: it wrote turn 2, and its peers went on to turn 4 without it. A person runs "
            f"`multidebate retire {folder} a` to go on without it (turns then complete without it).")
    todo = advice_text(note("dropped-out", names=("a",), folder=folder))
    code, out, _ = cli("status", folder)
    assert code == 0
    assert said in out.splitlines()
    assert f"what to do: {todo}" in out.splitlines()
    data = json.loads(cli("status", folder, "--json")[1])
    assert [(d["slug"], d["last_turn"], d["behind"]) for d in data["dropouts"]] == [("a", 2, True)]
    assert data["advice"] == todo
    report = cli("report", folder)[1]
    assert said in report.splitlines()
    assert f"**What to do:** {todo}" in report.splitlines()
    assert json.loads(cli("report", folder, "--format", "json")[1])["advice"] == todo


def test_status_of_an_open_debate_says_what_to_do(cli: Cli, tmp_path: Path) -> None:
    folder = str(tmp_path)
    make_debate(folder, [{"a": "**Use TOML.**", "b": "**Use YAML.**"}], participants=("a", "b"))
    out = cli("status", folder)[1]
    assert out.splitlines()[-1] == f"what to do: {advice_text(note('next-turn'))}"
    write_keyed(folder, "a", turn_body(2, "**Use TOML.**").encode())
    waiting = advice_text(note("wait-for", missing=("b",), folder=folder))
    assert cli("status", folder)[1].splitlines()[-1] == f"what to do: {waiting}"
    report = cli("report", folder)[1]
    assert "## Verdict\n\n**in progress** at turn 1" in report
    assert "**in_progress**" not in report


def test_next_beyond_the_turn_limit_prints_no_write_command(cli: Cli, tmp_path: Path) -> None:
    """At "turn 3 of at most 2 ... write nothing" a session still got WRITE YOUR TURN and a write command."""
    folder = str(tmp_path)
    make_debate(folder, [{"a": "**Use TOML.**", "b": "**Use YAML.**"}, {"a": "**Use TOML.**"}], max_turns=2)
    code, out, _ = cli("next", folder, "--slug", "a", "--key", key_of(folder, "a"))
    assert code == 0
    assert "WRITE YOUR TURN" not in out
    assert "multidebate write" not in out
    assert (f"NOTE: This debate's turn limit is 2; turn 3 is beyond it: write nothing, tell the user. `multidebate "
            f"report {folder}` has the final answers and the peers' last Disagreements.") in out.splitlines()
    data = json.loads(cli("next", folder, "--slug", "a", "--key", key_of(folder, "a"), "--json")[1])
    assert data["write_command"] is None
    assert data["debate_over"] is True


def test_the_ending_note_says_the_report_has_the_peers_last_disagreements(cli: Cli, tmp_path: Path) -> None:
    folder = str(tmp_path)
    make_debate(folder, [{"a": "**Use TOML.**", "b": "**Use YAML.**"}] * 2, max_turns=2)
    out = cli("next", folder, "--slug", "a", "--key", key_of(folder, "a"))[1]
    note = out.splitlines()[1]
    assert note.startswith("NOTE: The debate ended: max_turns at turn 2") and note.endswith(
        f"tell the user. `multidebate report {folder}` has the final answers and the peers' last Disagreements.")


def test_next_says_what_to_write_for_a_peer_that_has_not_written_yet(cli: Cli, tmp_path: Path) -> None:
    """Sessions wrote "With b: its latest answer ..." about a peer's older turn; validate flagged it afterwards."""
    folder = str(tmp_path)
    make_debate(folder, [{"a": "**Use TOML.**", "b": "**Use YAML.**"}, {"a": "**Use TOML.**"}])
    out = cli("next", folder, "--slug", "a", "--key", key_of(folder, "a"))[1]
    assert ("Not yet written turn 2: b. If the user tells you to write without it, write `- With <slug>: absent` for it under "
            "Agreements and under Disagreements: its older turns are not its latest answer.") in out.splitlines()
