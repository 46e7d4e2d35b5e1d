"""The plugins (Claude Code marketplace, Codex), the `npx skills` layout, one SKILL.md behind every copy, and what
`doctor` says about the MCP server."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import Cli

import multidebate
from multidebate.mcp.clients import mcp_report

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "multidebate" / "skill" / "SKILL.md"
PLUGIN = ROOT / "plugins" / "multidebate"
SKIPPED = {".git", ".venv", "node_modules", "build", "dist", ".mypy_cache", ".pytest_cache"}


def shipped_skill_copies(root: Path, source: Path) -> list[Path]:
    """Every SKILL.md under `root` but the source, outside the tests' own fixtures and build output."""
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIPPED and not d.endswith(".egg-info")]
        if "SKILL.md" in files and not Path(folder).is_relative_to(root / "tests"):
            found.append(Path(folder) / "SKILL.md")
    return [p for p in found if p != source]


def drifted(root: Path, source: Path) -> list[Path]:
    """The copies that are neither a symlink to the source nor its bytes (a generated copy): text that can drift."""
    return [copy for copy in shipped_skill_copies(root, source)
            if copy.resolve() != source and copy.read_bytes() != source.read_bytes()]


def test_every_shipped_skill_md_is_the_one_source() -> None:
    copies = shipped_skill_copies(ROOT, SOURCE)
    assert {p.relative_to(ROOT).as_posix() for p in copies} >= {
        "SKILL.md", "plugins/multidebate/skills/multidebate/SKILL.md"}
    # symlinks in git; Claude Code's plugin install and `npx skills add` copy the content (both checked for real
    # in test_claude_code_validates_and_installs_the_plugin and bench/plugins.py)
    assert drifted(ROOT, SOURCE) == []
    assert all(p.is_symlink() for p in copies)


def test_a_drifted_copy_is_found(tmp_path: Path) -> None:
    source = tmp_path / "multidebate" / "skill" / "SKILL.md"
    source.parent.mkdir(parents=True)
    source.write_text("source\n")
    (tmp_path / "plugins" / "x").mkdir(parents=True)
    (tmp_path / "plugins" / "x" / "SKILL.md").write_text("an old copy\n")
    (tmp_path / "SKILL.md").symlink_to("multidebate/skill/SKILL.md")
    assert drifted(tmp_path, source) == [tmp_path / "plugins" / "x" / "SKILL.md"]


def load(path: Path) -> dict[str, object]:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_the_manifests_name_the_plugin_its_version_and_the_server() -> None:
    marketplace = load(ROOT / ".claude-plugin" / "marketplace.json")
    plugins = marketplace["plugins"]
    assert isinstance(plugins, list)
    assert [p["name"] for p in plugins] == ["multidebate"]
    assert (ROOT / plugins[0]["source"] / ".claude-plugin" / "plugin.json").is_file()
    for manifest in (PLUGIN / ".claude-plugin" / "plugin.json", PLUGIN / ".codex-plugin" / "plugin.json"):
        data = load(manifest)
        assert (data["name"], data["version"]) == ("multidebate", multidebate.__version__), manifest
    codex = load(PLUGIN / ".codex-plugin" / "plugin.json")
    assert (PLUGIN / str(codex["skills"]) / "multidebate" / "SKILL.md").is_file()
    assert (PLUGIN / str(codex["mcpServers"])).is_file()
    codex_market = load(ROOT / ".agents" / "plugins" / "marketplace.json")
    entry = codex_market["plugins"][0]  # type: ignore[index]
    assert (ROOT / entry["source"]["path"] / ".codex-plugin" / "plugin.json").is_file()
    servers = load(PLUGIN / ".mcp.json")["mcpServers"]
    assert servers == {"multidebate": {"command": "multidebate", "args": ["mcp"]}}


def test_mcp_is_listed_and_needs_the_extra_only_when_it_runs(cli: Cli) -> None:
    result = cli("mcp", "--help", mixed=True)
    assert result.code == 0
    assert "debate_next" in result.out
    # the CLI's start-up does not grow: nothing but `multidebate mcp` imports the SDK
    probe = subprocess.run([sys.executable, "-c", "import sys; from multidebate.cli import cli; "
                            "from multidebate.cli import turn_cmds, view_cmds, run_cmds, mcp_cmds; "
                            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('mcp', 'mcp_types', "
                            "'pydantic')))"], capture_output=True, text=True, check=True)
    assert probe.stdout.strip() == "[]"


def test_mcp_without_the_extra_says_how_to_install_it(tmp_path: Path) -> None:
    # a stand-in `mcp` package that cannot be imported, ahead of the real one on the path
    (tmp_path / "mcp").mkdir()
    (tmp_path / "mcp" / "__init__.py").write_text("raise ModuleNotFoundError('no SDK here', name='mcp')\n")
    done = subprocess.run([sys.executable, "-m", "multidebate", "mcp"], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(tmp_path)}, stdin=subprocess.DEVNULL, timeout=60)
    assert done.returncode == 1
    assert done.stderr == (
        "Error: the MCP server needs the `mcp` extra, which is not installed: pip install 'multidebate[mcp]' (in a "
        "clone: pip install '.[mcp]')\n")


def test_doctor_finds_the_server_in_each_assistants_config(cli: Cli, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    (home / ".claude" / "plugins").mkdir(parents=True)
    project.mkdir()
    (home / ".claude.json").write_text(json.dumps({
        "mcpServers": {"debates": {"type": "stdio", "command": "multidebate", "args": ["mcp"]},
                       "other": {"command": "npx", "args": ["something", "mcp"]}},
        "projects": {str(project): {"mcpServers": {"md": {"command": "uvx", "args": ["multidebate", "mcp"]}}}}}))
    (home / ".claude" / "plugins" / "installed_plugins.json").write_text(json.dumps(
        {"version": 2, "plugins": {"multidebate@multidebate": [{"scope": "user"}], "x@y": []}}))
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text(
        'model = "gpt-5.5"\n\n[mcp_servers.multidebate]\ncommand = "multidebate"\nargs = ["mcp"]\n\n'
        '[mcp_servers.git]\ncommand = "git-mcp"\n')
    (home / ".gemini").mkdir()
    (home / ".gemini" / "settings.json").write_text(json.dumps({"mcpServers": {"md": {"command": "multidebate",
                                                                                      "args": ["mcp"]}}}))
    (home / ".config" / "opencode").mkdir(parents=True)
    (home / ".config" / "opencode" / "opencode.json").write_text(json.dumps(
        {"mcp": {"multidebate": {"type": "local", "command": ["multidebate", "mcp"]}}}))
    (home / ".cursor").mkdir()
    (home / ".cursor" / "mcp.json").write_text("{not json")
    report = mcp_report(str(home), str(project))
    assert report.can_start
    assert report.reason == ""
    assert sorted((c.assistant, c.how, c.name) for c in report.configured) == [
        ("Claude Code", "mcp server", "debates"), ("Claude Code", "mcp server", "md"),
        ("Claude Code", "plugin", "multidebate@multidebate"), ("Codex", "mcp server", "multidebate"),
        ("Gemini CLI", "mcp server", "md"), ("OpenCode", "mcp server", "multidebate")]
    assert mcp_report(str(tmp_path / "nobody"), str(project)).configured == ()
    # the command, with --json and in words
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(project)
    data = cli("doctor", "--json", mixed=True).json()
    assert data["mcp"]["can_start"] is True
    assert len(data["mcp"]["configured"]) == 6
    text = cli("doctor", mixed=True).out
    assert "MCP server (multidebate mcp): can start\n" in text
    assert f"  Codex: mcp server `multidebate` in {home / '.codex' / 'config.toml'}\n" in text


def test_doctor_says_when_the_extra_is_missing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "mcp" else real(name, *a))
    report = mcp_report(str(tmp_path), str(tmp_path))
    assert not report.can_start
    assert report.reason.endswith("pip install 'multidebate[mcp]'")


CLAUDE = os.environ.get("MULTIDEBATE_CLAUDE") or shutil.which("claude")


def no_network() -> list[str]:
    """`unshare -n` where it works (root, Linux): the tool then cannot reach anything but itself."""
    unshare = shutil.which("unshare")
    if unshare and subprocess.run([unshare, "-n", "true"], capture_output=True).returncode == 0:
        return [unshare, "-n", "--"]
    return []


@pytest.mark.skipif(CLAUDE is None, reason="Claude Code (`claude`, from npm) is not installed")
def test_claude_code_validates_and_installs_the_plugin(tmp_path: Path) -> None:
    """The real `claude` (bench/plugins.py pins the version run): offline, in a temporary HOME."""
    assert CLAUDE is not None
    env = {"HOME": str(tmp_path), "PATH": os.environ.get("PATH", ""), "DISABLE_AUTOUPDATER": "1",
           "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_TELEMETRY": "1", "DISABLE_ERROR_REPORTING": "1"}
    offline = no_network()

    def claude(*args: str) -> str:
        done = subprocess.run([*offline, CLAUDE, *args], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120,
                              stdin=subprocess.DEVNULL)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    assert "Validation passed" in claude("plugin", "validate", "--strict", str(PLUGIN))
    assert "Validation passed" in claude("plugin", "validate", "--strict", str(ROOT))
    claude("plugin", "marketplace", "add", str(ROOT))
    claude("plugin", "install", "multidebate@multidebate")
    assert "multidebate@multidebate" in claude("plugin", "list")
    details = claude("plugin", "details", "multidebate@multidebate")
    assert "Skills (1)  multidebate" in details
    assert "MCP servers (1)  multidebate" in details
    installed = load(tmp_path / ".claude" / "plugins" / "installed_plugins.json")
    where = Path(installed["plugins"]["multidebate@multidebate"][0]["installPath"])  # type: ignore[index]
    assert (where / "skills" / "multidebate" / "SKILL.md").read_bytes() == SOURCE.read_bytes()
