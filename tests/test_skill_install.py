"""`multidebate skill`: install where each assistant looks, never clobber a person's edits, list, uninstall."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from conftest import Cli

from multidebate.skill.agents import AGENTS
from multidebate.skill.install import RECORD_NAME, bundled_skill

SHARED_READERS = "Codex CLI, Gemini CLI, Cursor, GitHub Copilot, OpenCode, Goose"
# --agent -> the folder it installs into, per scope (PRODUCT.md section 4, SKILL-GUIDE.md)
EXPECTED = {
    "claude": (".claude/skills", ".claude/skills"),
    "codex": (".agents/skills", ".agents/skills"),
    "goose": (".agents/skills", ".agents/skills"),
    "gemini": (".gemini/skills", ".gemini/skills"),
    "cursor": (".cursor/skills", ".cursor/skills"),
    "copilot": (".copilot/skills", ".github/skills"),
    "opencode": (".config/opencode/skills", ".opencode/skills"),
}


@pytest.fixture
def dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A home folder (through HOME, as Path.home() reads it) and a project folder as the current folder."""
    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    project.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(project)
    return home, project


def skill_file(base: Path, folder: str) -> Path:
    return base / folder / "multidebate" / "SKILL.md"


@pytest.mark.parametrize("scope", ["user", "project"])
@pytest.mark.parametrize("agent", [*AGENTS, "all"])
def test_install_for_every_agent_and_scope_passes_the_reference_validator(cli: Cli, 
        dirs: tuple[Path, Path], agent: str, scope: str) -> None:
    validate = pytest.importorskip("skills_ref.validator", reason="skills-ref needs Python 3.11").validate

    base = dirs[0] if scope == "user" else dirs[1]
    code, out, err = cli("skill", "install", "--agent", agent, "--scope", scope)
    assert (code, err) == (0, "")
    folders = {pair[scope == "project"] for pair in EXPECTED.values()} if agent == "all" \
        else {EXPECTED[agent][scope == "project"]}
    installed = {str(p.relative_to(base).parent.parent) for p in base.glob("**/multidebate/SKILL.md")}
    assert installed == folders
    for folder in folders:
        path = skill_file(base, folder)
        assert path.read_bytes() == bundled_skill()
        assert path.parent.name == "multidebate"
        assert validate(path.parent) == []
        assert f"created  {path}" in out


def test_default_is_the_shared_folder_and_claude_code(cli: Cli, dirs: tuple[Path, Path]) -> None:
    home, project = dirs
    code, out, err = cli("skill", "install")
    shared, claude = skill_file(home, ".agents/skills"), skill_file(home, ".claude/skills")
    assert code == 0
    assert err == ""
    assert out == (
        f"created  {shared}  (for {SHARED_READERS})\n"
        f"created  {claude}  (for Claude Code)\n"
        "New sessions load it. Claude Code: `/multidebate <folder>`; Codex: `$multidebate`; "
        "others: ask to debate a task in a folder.\n"
    )
    record = json.loads((claude.parent / RECORD_NAME).read_text())
    assert record["sha256"] == hashlib.sha256(bundled_skill()).hexdigest()
    assert not list(project.iterdir())
    # a second run changes nothing and says so
    code, out, _ = cli("skill", "install")
    assert code == 0
    assert out.splitlines()[1] == f"up to date  {claude}  (for Claude Code)"


def test_dry_run_writes_nothing_and_says_what_it_would(cli: Cli, dirs: tuple[Path, Path]) -> None:
    home, _ = dirs
    code, out, _ = cli("skill", "install", "--dry-run", "--agent", "gemini")
    assert code == 0
    assert out == (f"would create  {skill_file(home, '.gemini/skills')}  (for Gemini CLI)\n"
                   "Dry run: nothing was written.\n")
    assert not list(home.iterdir())


def test_a_copy_a_person_changed_is_kept_unless_forced(cli: Cli, dirs: tuple[Path, Path]) -> None:
    home, _ = dirs
    cli("skill", "install", "--agent", "claude")
    path = skill_file(home, ".claude/skills")
    path.write_text(path.read_text() + "\nMy own rule.\n")
    edited = path.read_bytes()
    code, out, err = cli("skill", "install", "--agent", "claude")
    assert code == 1
    assert out == f"kept  {path}  (changed by a person; --force replaces it)\n"
    assert err == "Error: 1 copy kept (rerun with --force to replace)\n"
    assert path.read_bytes() == edited
    assert json.loads(cli("skill", "list", "--json")[1])["copies"][1]["state"] == "modified"
    code, out, _ = cli("skill", "install", "--agent", "claude", "--force", "--dry-run")
    assert code == 0
    assert out.startswith(f"would replace  {path}")
    assert path.read_bytes() == edited
    code, out, err = cli("skill", "install", "--agent", "claude", "--dry-run")
    assert code == 1
    assert out.startswith(f"would keep  {path}")
    assert err == "Error: 1 copy would be kept (rerun with --force to replace)\n"
    code, out, _ = cli("skill", "install", "--agent", "claude", "--force")
    assert code == 0
    assert out.startswith(f"replaced  {path}")
    assert path.read_bytes() == bundled_skill()


def test_a_copy_of_an_earlier_version_is_updated(cli: Cli, dirs: tuple[Path, Path]) -> None:
    home, _ = dirs
    path = skill_file(home, ".agents/skills")
    old = b"---\nname: multidebate\ndescription: an earlier version\n---\n"
    path.parent.mkdir(parents=True)
    path.write_bytes(old)
    (path.parent / RECORD_NAME).write_text(json.dumps({"version": "0.0.9", "sha256": hashlib.sha256(old).hexdigest()}))
    data = json.loads(cli("skill", "list", "--json")[1])
    assert data["copies"][0] == {"scope": "user", "agents": ["codex", "gemini", "cursor", "copilot", "opencode",
                                                             "goose"],
                                 "skills_dir": str(home / ".agents/skills"), "path": str(path), "state": "stale",
                                 "installed_version": "0.0.9"}
    code, out, _ = cli("skill", "install", "--agent", "codex")
    assert code == 0
    assert out.startswith(f"updated  {path}")
    assert path.read_bytes() == bundled_skill()


def test_a_hand_copy_that_is_current_gets_a_record(cli: Cli, dirs: tuple[Path, Path]) -> None:
    home, _ = dirs
    path = skill_file(home, ".claude/skills")
    path.parent.mkdir(parents=True)
    path.write_bytes(bundled_skill())
    inode = path.stat().st_ino
    code, out, _ = cli("skill", "install", "--agent", "claude")
    assert code == 0
    assert out.startswith("up to date")
    assert (path.parent / RECORD_NAME).exists()  # so that a later version can update it
    assert path.stat().st_ino == inode  # the skill itself was left as it was


def test_a_hand_copy_that_differs_is_a_persons(cli: Cli, dirs: tuple[Path, Path]) -> None:
    home, _ = dirs
    path = skill_file(home, ".claude/skills")
    path.parent.mkdir(parents=True)
    path.write_text("---\nname: multidebate\ndescription: mine\n---\n")
    assert cli("skill", "install")[0] == 1
    assert path.read_text().endswith("mine\n---\n")


def test_a_symbolic_link_is_never_written_through(cli: Cli, dirs: tuple[Path, Path], tmp_path: Path) -> None:
    home, _ = dirs
    checkout = tmp_path / "checkout" / "multidebate"
    checkout.mkdir(parents=True)
    (checkout / "SKILL.md").write_text("a developer's working copy\n")
    (home / ".claude/skills").mkdir(parents=True)
    (home / ".claude/skills/multidebate").symlink_to(checkout)
    code, out, _ = cli("skill", "install", "--agent", "claude")
    assert code == 1
    assert "a symbolic link; --force replaces the link (not what it points to)" in out
    assert "linked" in cli("skill", "list")[1]
    code, out, _ = cli("skill", "install", "--agent", "claude", "--force")
    assert code == 0
    assert not (home / ".claude/skills/multidebate").is_symlink()
    assert (checkout / "SKILL.md").read_text() == "a developer's working copy\n"


def test_dest_installs_into_dir_slash_multidebate(cli: Cli, dirs: tuple[Path, Path], tmp_path: Path) -> None:
    validate = pytest.importorskip("skills_ref.validator", reason="skills-ref needs Python 3.11").validate

    dest = tmp_path / "somewhere"
    code, out, _ = cli("skill", "install", "--dest", str(dest))
    assert code == 0
    assert out.startswith(f"created  {dest / 'multidebate' / 'SKILL.md'}\n")
    assert validate(dest / "multidebate") == []
    assert json.loads(cli("skill", "list", "--json", "--dest", str(dest))[1])["copies"][-1]["state"] == "current"
    code, _, err = cli("skill", "install", "--dest", str(dest), "--agent", "claude")
    assert code == 2
    assert "--dest DIR names the folder itself; leave out --agent and --scope." in err


def test_uninstall_removes_ours_only(cli: Cli, dirs: tuple[Path, Path]) -> None:
    home, _ = dirs
    cli("skill", "install", "--agent", "all")
    claude, cursor = skill_file(home, ".claude/skills"), skill_file(home, ".cursor/skills")
    claude.write_text("edited\n")
    (cursor.parent / "notes.md").write_text("a person's own file\n")
    code, out, err = cli("skill", "uninstall")
    assert code == 1
    assert err == "Error: 1 copy kept (rerun with --force to remove)\n"
    assert f"kept     {claude}  (changed by a person; --force removes it)" in out
    assert f"removed  {cursor}  (kept the folder {cursor.parent}: it holds other files)" in out
    assert claude.read_text() == "edited\n"
    assert (cursor.parent / "notes.md").exists()
    assert not skill_file(home, ".agents/skills").parent.exists()
    assert cli("skill", "uninstall", "--force")[0] == 0
    assert not claude.exists()
    folders = ", ".join(str(home / folder) for folder in (".agents/skills", ".claude/skills", ".gemini/skills",
                                                          ".cursor/skills", ".copilot/skills",
                                                          ".config/opencode/skills"))
    assert cli("skill", "uninstall") == (0, f"No copy of the skill in {folders}.\n", "")


def test_uninstall_dry_run(cli: Cli, dirs: tuple[Path, Path]) -> None:
    home, _ = dirs
    cli("skill", "install", "--scope", "project")
    code, out, _ = cli("skill", "uninstall", "--scope", "project", "--dry-run")
    assert code == 0
    assert out.count("would remove") == 2
    assert out.endswith("Dry run: nothing was removed.\n")
    assert json.loads(cli("skill", "list", "--json")[1])["copies"][6]["state"] == "current"


def test_a_location_that_cannot_be_written_fails_cleanly(cli: Cli, dirs: tuple[Path, Path]) -> None:
    home, _ = dirs
    (home / ".claude").write_text("a file where a folder should be")
    code, out, err = cli("skill", "install")
    assert code == 1
    assert out.startswith("created ")
    assert "failed   " in out
    assert err == "Error: 1 location(s) failed\n"


def test_list_shows_every_location_of_both_scopes(cli: Cli, dirs: tuple[Path, Path]) -> None:
    home, project = dirs
    cli("skill", "install", "--scope", "project", "--agent", "copilot")
    code, out, _ = cli("skill", "list")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("bundled SKILL.md: multidebate ")
    assert lines[1].split() == ["scope", "state", "path", "read", "by"]
    assert len([line for line in lines if line.startswith(("user ", "project "))]) == 12
    assert any(line.split()[:3] == ["project", "current", str(skill_file(project, ".github/skills"))]
               for line in lines)
    # a folder without a copy is no fault: "missing" read as one; --json keeps the state's name
    assert any(line.split()[:3] == ["user", "not", "installed"] for line in lines)
    assert not any(" missing " in line for line in lines)
    data = json.loads(cli("skill", "list", "--json")[1])
    assert "missing" in {c["state"] for c in data["copies"]}
    assert data["bundled"]["sha256"] == hashlib.sha256(bundled_skill()).hexdigest()
    assert [c["scope"] for c in data["copies"]] == ["user"] * 6 + ["project"] * 6


def test_list_when_the_project_is_the_home_folder(cli: Cli, dirs: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(dirs[0])
    paths = [c["path"] for c in json.loads(cli("skill", "list", "--json")[1])["copies"]]
    # each path once: the six user folders, then the two project folders that differ (.github, .opencode)
    assert len(paths) == len(set(paths)) == 8


def test_show_prints_the_bundled_skill(cli: Cli, dirs: tuple[Path, Path]) -> None:
    assert cli("skill", "show") == (0, bundled_skill().decode(), "")


def test_a_missing_current_folder_is_a_clean_error(cli: Cli, dirs: tuple[Path, Path], tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    code, out, err = cli("skill", "install", "--scope", "project")
    assert (code, out) == (1, "")
    assert err.startswith("Error: cannot find the current folder: ")
    assert err.endswith("; or give --dest DIR\n")
    code, out, _ = cli("skill", "list", "--json")
    assert code == 1
    assert json.loads(out)["ok"] is False  # error.schema.json


def test_list_marks_folders_whose_readers_read_the_shared_copy_as_covered(cli: Cli, dirs: tuple[Path, Path]) -> None:
    """Gemini CLI, Cursor, Copilot and OpenCode read `.agents/skills`: their own folders need no copy."""
    cli("skill", "install", "--scope", "project")  # the default pair: .agents/skills and .claude/skills
    copies = {c["path"]: c["state"] for c in json.loads(cli("skill", "list", "--json")[1])["copies"]}
    project = [(p, s) for p, s in copies.items() if p.startswith(str(dirs[1]))]
    readers = (".gemini", ".cursor", ".github", ".opencode")  # Copilot's project folder is .github/skills
    assert {p: s for p, s in project if p.split(str(dirs[1]) + "/")[1].startswith(readers)} == {
        str(dirs[1] / folder / "skills" / "multidebate" / "SKILL.md"): "covered" for folder in readers}
    assert {s for p, s in project if "/.agents/" in p or "/.claude/" in p} == {"current"}
    user = [s for p, s in copies.items() if not p.startswith(str(dirs[1]))]
    assert set(user) == {"missing"}  # nothing installed for the user scope: nothing covered there
