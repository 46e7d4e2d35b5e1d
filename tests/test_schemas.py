"""The JSON Schemas shipped in multidebate/schemas describe the real --json outputs, every key of them."""

from __future__ import annotations

import json
import os
import shutil
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from conftest import Cli
from helpers import key_of, make_debate, turn_body
from jsonschema import Draft202012Validator

from multidebate.analysis.verdict import STATES
from multidebate.protocol.judgment import JUDGMENT_SECTIONS
from multidebate.protocol.profile import PROFILE_CRITIC, PROFILE_DEFENDER, PROFILE_V1
from multidebate.skill.agents import AGENTS
from multidebate.skill.install import STATES as SKILL_STATES

NAMES = ("status", "validate", "next", "write", "skill-list", "error", "report", "run-event", "doctor", "score")


def schema(name: str) -> dict[str, Any]:
    text = resources.files("multidebate").joinpath("schemas", f"{name}.schema.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def closed(node: Any) -> Any:
    """The schema with every described object closed, so a key the schema does not describe fails."""
    if isinstance(node, dict):
        out = {k: closed(v) for k, v in node.items()}
        if "properties" in node and "additionalProperties" not in node:
            out["additionalProperties"] = False
        return out
    if isinstance(node, list):
        return [closed(v) for v in node]
    return node


def check(name: str, data: Any) -> None:
    for variant in (schema(name), closed(schema(name))):
        Draft202012Validator(variant, format_checker=Draft202012Validator.FORMAT_CHECKER).validate(data)


def run_json(cli: Cli, *args: str, input: str | None = None) -> tuple[int, Any]:
    result = cli(*args, "--json", input=input)
    return result.code, result.json()


@pytest.mark.parametrize("name", NAMES)
def test_schema_is_valid_and_shipped(name: str) -> None:
    Draft202012Validator.check_schema(schema(name))
    assert schema(name)["title"].startswith("multidebate ")


def test_no_other_schema_files() -> None:
    shipped = {p.name for p in resources.files("multidebate").joinpath("schemas").iterdir() if p.name.endswith(".json")}
    assert shipped == {f"{n}.schema.json" for n in NAMES}


def test_shared_definitions_agree_with_the_code() -> None:
    status, next_ = schema("status"), schema("next")
    for name in ("slug", "verdict", "pair"):
        assert status["$defs"][name] == next_["$defs"][name] == schema("report")["$defs"][name], name
    assert status["$defs"]["verdict"]["properties"]["state"]["enum"] == list(STATES)
    assert schema("write")["properties"]["debate"]["properties"]["state"]["enum"] == list(STATES)
    assert next_["properties"]["sections"]["items"]["enum"] == list(dict.fromkeys(
        PROFILE_V1.sections + PROFILE_CRITIC.sections + PROFILE_DEFENDER.sections + JUDGMENT_SECTIONS))
    copies = schema("skill-list")["properties"]["copies"]["items"]["properties"]
    assert copies["state"]["enum"] == list(SKILL_STATES)
    assert copies["agents"]["items"]["enum"] == list(AGENTS)


def test_closing_catches_an_undocumented_key() -> None:
    from jsonschema import ValidationError

    data = {"ok": False, "error": "x", "problems": [], "surprise": 1}
    Draft202012Validator(schema("error")).validate(data)
    with pytest.raises(ValidationError):
        check("error", data)


def _debates(tmp_path: Path) -> list[str]:
    """Debates in every verdict state the outputs differ in, and one with unreadable values."""
    folders: dict[str, list[dict[str, str | tuple[str, bool]]]] = {
        "empty": [],
        "in_progress": [{"a": "**Use TOML.**", "b": "**Use YAML.**"}, {"a": "**Use TOML.**"}],
        "converged": [{"a": "**Use YAML.**", "b": "**Use TOML.**"},
                      {"a": ("**Use TOML.**", True), "b": ("**Use TOML.**", True)}],
        "unanimous": [{"a": "**Use TOML.**", "b": "**Use TOML.**"}],
        "hollow": [{"a": "**Use TOML, not YAML.**", "b": "**Use YAML, not TOML.**"}] + [
            {"a": ("**Use TOML, not YAML.**", True), "b": ("**Use YAML, not TOML.**", True)}] * 2,
        "unconfirmed": [{"a": "**Use TOML.**", "b": "**Use YAML.**"},
                        {"a": ("**Use TOML, read with tomllib.**", True), "b": ("**TOML it is.**", True)}],
    }
    made = []
    for name, turns in folders.items():
        made.append(make_debate(str(tmp_path / name), turns, participants=("a", "b") if name != "hollow" else None,
                                max_turns=4))
    # a file written after the end, by hand (`write` refuses it): listed as extra
    (tmp_path / "converged" / "turn-3-a.md").write_text("# Turn 3 \u2014 a\n\n## Answer\nlate\n\n## Confidence\n70\n\n"
                                                        "## Converged\nno\n")
    broken = tmp_path / "broken"
    make_debate(str(broken), [{"a": "x"}])
    (broken / "turn-1-b.md").write_text("# Turn 1 - b\n\n## Answer\nz\n\n## Confidence\n101\n\n## Converged\nmaybe\n")
    (broken / "turn-1-c.md").write_bytes(b"\x00\x01binary")
    (broken / "Turn-2-a.md").write_text("x")
    made.append(str(broken))
    return made


def test_status_outputs_match_the_schema(cli: Cli, tmp_path: Path) -> None:
    states = set()
    for folder in _debates(tmp_path):
        code, data = run_json(cli, "status", folder)
        assert code == 0
        check("status", data)
        states.add(data["verdict"]["state"])
    assert {"empty", "in_progress", "converged", "unanimous", "hollow", "unconfirmed"} <= states
    check("error", run_json(cli, "status", str(tmp_path / "nope"))[1])


def test_validate_outputs_match_the_schema(cli: Cli, tmp_path: Path) -> None:
    folders = _debates(tmp_path)
    code, data = run_json(cli, "validate", *folders)
    assert code == 1
    assert {f["severity"] for f in data} == {"error", "warning"}
    check("validate", data)
    check("validate", run_json(cli, "validate", folders[0])[1])
    check("error", run_json(cli, "validate", str(tmp_path / "nope.md"))[1])


def test_next_outputs_match_the_schema(cli: Cli, tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [{"a": "**Use TOML.**", "b": "**Use YAML.**", "c": "**Use JSON.**"},
                                               {"a": "**Use TOML.**", "b": "**Use YAML.**"}, {"a": "x"}])
    for slug in ("a", "b", "c"):
        code, data = run_json(cli, "next", folder, "--slug", slug, "--key", key_of(folder, slug))
        assert code == 0
        check("next", data)
    code, data = run_json(cli, "next", str(tmp_path / "new"), "--slug", "a", "--task", "Pick one.")
    assert code == 0
    assert data["turn"] == 1
    check("next", data)
    code, data = run_json(cli, "next", str(tmp_path / "none"), "--slug", "a")
    assert code == 1
    check("error", data)


def test_write_outputs_match_the_schema(cli: Cli, tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path), [{"a": "**Use TOML.**", "b": "**Use YAML.**"}])
    run_json(cli, "next", folder, "--slug", "a", "--key", key_of(folder, "a"))
    code, data = run_json(cli, "write", folder, "--slug", "a", "--key", key_of(folder, "a"),
                          input=turn_body(2, "**Use TOML.**").replace("70", "70%"))
    assert code == 0
    assert data["normalised"]
    assert data["peers_read"]
    check("write", data)
    code, data = run_json(cli, "write", folder, "--slug", "b", "--key", key_of(folder, "b"), input="## Answer\nx\n")
    assert code == 1
    assert data["problems"]
    check("error", data)


def test_a_judgments_write_output_matches_the_schema(cli: Cli, tmp_path: Path) -> None:
    folder = str(tmp_path / "d")
    assert cli("init", folder, "--task", "Pick a format.", "--participants", "a,b", "--max-turns", "1", "--role",
               "j=judge").code == 0
    for slug, answer in (("a", "**Use TOML.**"), ("b", "**Use YAML.**")):
        assert run_json(cli, "write", folder, "--slug", slug, input=turn_body(1, answer))[0] == 0
    run_json(cli, "next", folder, "--slug", "j")
    code, data = run_json(cli, "write", folder, "--slug", "j", input="## Decision\n**Use TOML.**\n\n## Reasoning\nB.\n\n"
                          "## What each side got right\n- a: comments\n\n## Contested points\n- None\n")
    assert code == 0
    assert data["path"].endswith("judgment-j.md")
    assert data["progress"] == {"written": 0, "waiting": []}
    check("write", data)


def test_skill_list_output_matches_the_schema(cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    cli("skill", "install", "--agent", "all")
    (tmp_path / ".claude/skills/multidebate/SKILL.md").write_text("edited")
    shutil.rmtree(tmp_path / ".gemini/skills/multidebate")
    os.symlink(tmp_path / ".cursor/skills/multidebate", tmp_path / ".gemini/skills/multidebate")
    code, data = run_json(cli, "skill", "list", "--dest", str(tmp_path / "elsewhere"))
    assert code == 0
    assert {c["state"] for c in data["copies"]} == {"current", "modified", "linked", "missing"}
    assert data["copies"][-1]["scope"] == "custom"
    check("skill-list", data)


def test_report_json_matches_its_schema(cli: Cli, tmp_path: Path) -> None:
    """Every shipped example, and a folder with problems, flags and a split: `report --format json` validates."""
    examples = Path(__file__).resolve().parent.parent / "examples"
    folders = [str(p) for p in sorted(examples.iterdir()) if p.is_dir()]
    broken = str(tmp_path / "broken")
    make_debate(broken, [{"a": "**Use TOML.**", "b": "**Use YAML.**"}, {"a": "**Use TOML.**", "b": "**Use YAML.**"}])
    Path(broken, "turn-1-b.md").write_text(Path(broken, "turn-1-b.md").read_text().replace("YAML", "INI"))
    for folder in folders + [broken, str(tmp_path / "empty")]:
        os.makedirs(folder, exist_ok=True)
        result = cli("report", folder, "--format", "json")
        assert result.code == 0, result
        data = result.json()
        check("report", data)
        if folder == broken:  # the parts the examples lack are really in the output that was checked
            assert data["problems"]
            assert data["flags"]
            assert data["final_answer"]["kind"] == "split"


def test_score_outputs_match_the_schema(cli: Cli, tmp_path: Path) -> None:
    make_debate(str(tmp_path / "d"), [{"a": "**Q1: 12, Q2: C**", "b": "**Q1: 13, Q2: C**", "c": "- Q1: 12\n- Q2: D"},
                                      {"a": "**Q1: 12, Q2: C**", "b": "**Q1: 12, Q2: C**", "c": "1. 12\n2. D"}],
                participants=("a", "b", "c"), sealed=True)
    (tmp_path / "key.txt").write_text("Q1: 12\nQ2: C\n", encoding="utf-8")
    code, data = run_json(cli, "score", str(tmp_path / "d"), "--key", str(tmp_path / "key.txt"))
    assert code == 0
    assert data["final"]["kind"] == "modal"
    assert data["final"]["right"] == 2
    check("score", data)
    make_debate(str(tmp_path / "empty"), [], participants=("a", "b"))
    code, data = run_json(cli, "score", str(tmp_path / "empty"), "--key", str(tmp_path / "key.txt"))
    assert code == 0
    assert data["vote"] is None
    assert data["final"]["kind"] == "none"
    check("score", data)
    (tmp_path / "key.txt").write_text("Q2: C\n", encoding="utf-8")
    code, data = run_json(cli, "score", str(tmp_path / "d"), "--key", str(tmp_path / "key.txt"))
    assert code == 1
    check("error", data)
