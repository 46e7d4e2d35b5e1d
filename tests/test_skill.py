"""SKILL.md: the Agent Skills format, the reference validator, and its size budget."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = ROOT / "multidebate" / "skill" / "SKILL.md"
ALLOWED_KEYS = {"name", "description", "license", "compatibility", "metadata", "allowed-tools"}


def _frontmatter_and_body() -> tuple[dict[str, object], str]:
    text = BUNDLED.read_text(encoding="utf-8")
    _, front, body = text.split("---\n", 2)
    data = yaml.safe_load(front)
    assert isinstance(data, dict)
    return data, body


def test_root_skill_is_the_bundled_file() -> None:
    # one file, not two copies kept in sync by hand
    assert (ROOT / "SKILL.md").resolve() == BUNDLED.resolve()


def test_frontmatter_keys_are_the_specifications() -> None:
    data, _ = _frontmatter_and_body()
    assert set(data) <= ALLOWED_KEYS
    assert data["name"] == "multidebate"
    assert isinstance(data["description"], str)
    assert 1 <= len(data["description"]) <= 1024
    # only a session's commands are pre-approved: retire and handover reach the person as a permission prompt
    tools = [t.strip() for t in str(data["allowed-tools"]).split(",")]
    assert tools == [f"Bash(multidebate {c}:*)" for c in ("next", "write", "status", "validate", "report", "slug")]
    assert "Bash(multidebate:*)" not in tools


def test_reference_validator_accepts_it(tmp_path: Path) -> None:
    validate = pytest.importorskip("skills_ref.validator", reason="skills-ref needs Python 3.11").validate

    folder = tmp_path / "multidebate"
    folder.mkdir()
    shutil.copy(BUNDLED, folder / "SKILL.md")
    assert validate(folder) == []
    exe = shutil.which("agentskills")
    if exe:
        result = subprocess.run([exe, "validate", str(folder)], capture_output=True, text=True)
        assert result.returncode == 0, result.stdout + result.stderr


def test_body_fits_the_token_budget() -> None:
    # counted with a real BPE tokenizer (cl100k_base, from the test extras); the budget is 1,500 tokens
    import bpe_openai

    _, body = _frontmatter_and_body()
    assert len(bpe_openai.get_encoding("cl100k_base").encode(body)) <= 1500


def test_skill_covers_the_protocol() -> None:
    _, body = _frontmatter_and_body()
    for needle in ("multidebate next", "multidebate write", "<<'TURN'", "## Converged", "quoted material",
                   "Never write, imagine or summarise a peer's position", "Without the CLI", "until converged"):
        assert needle in body, needle


def test_package_ships_skill() -> None:
    from importlib import resources

    assert resources.files("multidebate.skill").joinpath("SKILL.md").read_text(encoding="utf-8").startswith("---\n")
    assert os.path.islink(ROOT / "SKILL.md") or (ROOT / "SKILL.md").read_bytes() == BUNDLED.read_bytes()


def test_the_wait_timeout_advice_covers_a_shell_limit_equal_to_the_default() -> None:
    """Sessions whose shell stopped commands at exactly 600 s did not know whether `--timeout` was for them; the
    accuracy debates' sessions still asked, so the skill names no default: every session gives one."""
    _, body = _frontmatter_and_body()
    assert "add `--timeout` below your shell's command limit, e.g. `--timeout 90`, and rerun" in body
    assert "600" not in body
    assert "or after 10 minutes in all of waiting for one turn" in body


def test_without_the_cli_a_session_leaves_the_state_alone_reads_little_and_waits_in_short_commands(
        tmp_path: Path) -> None:
    """#34: a session without the CLI edited nothing it should not, but read whole files it only needed the
    bold line and Converged of, and waited in one loop that its shell killed at 120 s."""
    import shutil

    from helpers import make_debate

    _, body = _frontmatter_and_body()
    section = body.split("## Without the CLI", 1)[1].split("\n## ", 1)[0]
    assert "leave `.multidebate/` alone" in section
    assert "rerun `sleep 30; ls <folder>`, each well under your shell's time limit" in section
    reading = re.search(r"\(`(grep [^`]+ FILE)`\)", section)
    assert reading is not None, section
    folder = make_debate(str(tmp_path / "d"), [{"a": "**Use TOML.**\n\nLong prose nobody needs.", "b": "**Use YAML.**"},
                                               {"a": ("**Use YAML.**", True), "b": ("**Use YAML.**", True)}])
    if shutil.which("bash") is None or shutil.which("grep") is None:
        pytest.skip("no bash or grep to run the skill's command with")
    shown = subprocess.run(["bash", "-c", reading.group(1).replace("FILE", str(Path(folder, "turn-1-a.md")))],
                           capture_output=True, text=True, check=True).stdout
    assert "**Use TOML.**" in shown
    assert "no" in shown.split("## Converged", 1)[1]
    assert "Thinking for turn" not in shown
    assert "Long prose" not in shown
    assert "## Confidence" not in shown


def test_without_the_cli_a_session_reads_no_peer_file_of_its_own_turn_and_knows_every_end() -> None:
    """d82: a session without the CLI grepped its peers' turn-2 lines before writing its own turn 2 (the skill let
    it read "each participant's latest bold line"), and TASK.md's `min_turns` meant nothing to it."""
    _, body = _frontmatter_and_body()
    section = body.split("## Without the CLI", 1)[1].split("\n## ", 1)[0]
    reading, ending = section.split("After writing,", 1)
    assert "Read only peers' `turn-<N-1>-*.md`" in reading
    assert "latest bold line" not in reading
    assert "copy the first peer line, by slug, that says what you hold" in reading
    assert "latest bold line and Converged" in ending
    assert "all turn-1 lines are one line and TASK.md sets no `min_turns`" in ending
    assert "`max_turns`" in ending
