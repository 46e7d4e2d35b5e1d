"""For `doctor`: can the MCP server start here, and which assistants have it configured or the plugin installed.

Reads the assistants' own configuration files under HOME (and the current folder's project files); never
starts anything, and imports no part of the SDK (`find_spec` only looks for it).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import sys
from dataclasses import dataclass
from typing import Any

__all__ = ["Configured", "McpReport", "mcp_report"]


@dataclass(frozen=True)
class Configured:
    """One place that starts the server for an assistant (an MCP entry, or the plugin)."""

    assistant: str
    how: str  # "mcp server" or "plugin"
    path: str  # the configuration file that says so
    name: str  # the server's or the plugin's name there

    def as_dict(self) -> dict[str, object]:
        return {"assistant": self.assistant, "how": self.how, "path": self.path, "name": self.name}


@dataclass(frozen=True)
class McpReport:
    can_start: bool
    reason: str  # why not, and the command that fixes it ("" when it can)
    configured: tuple[Configured, ...]

    def as_dict(self) -> dict[str, object]:
        return {"can_start": self.can_start, "reason": self.reason or None,
                "configured": [c.as_dict() for c in self.configured]}


def _sdk_missing() -> str:
    for module in ("mcp", "mcp_types", "pydantic", "anyio"):
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            return (f"the `mcp` extra is not installed (no `{module}` module in {sys.executable}): "
                    "pip install 'multidebate[mcp]'")
    return ""


def _load_json(path: str) -> Any:
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except (OSError, ValueError):
        return None


def _ours(entry: object) -> bool:
    """An MCP server entry that starts `multidebate mcp` (directly, or through uvx, pipx, python -m, ...)."""
    if not isinstance(entry, dict):
        return False
    command, args = entry.get("command"), entry.get("args")
    words = (command if isinstance(command, list) else [command]) + (args if isinstance(args, list) else [])
    text = " ".join(word for word in words if isinstance(word, str))  # OpenCode gives the command as a list
    return "multidebate" in text and re.search(r"(^|\s)mcp(\s|$)", text) is not None


def _servers(path: str, *keys: str) -> list[str]:
    """Names of our servers in a JSON file's server table (`mcpServers`, VS Code's `servers`, OpenCode's `mcp`)."""
    data = _load_json(path)
    found: list[str] = []
    if not isinstance(data, dict):
        return found
    for key in keys:
        table = data.get(key)
        if isinstance(table, dict):
            found += [name for name, entry in table.items() if _ours(entry)]
    return found


def _claude_local(path: str, cwd: str) -> list[str]:
    """`claude mcp add` without `-s user` keeps the server under the project's entry of ~/.claude.json."""
    data = _load_json(path)
    projects = data.get("projects") if isinstance(data, dict) else None
    entry = projects.get(cwd) if isinstance(projects, dict) else None
    table = entry.get("mcpServers") if isinstance(entry, dict) else None
    return [name for name, server in table.items() if _ours(server)] if isinstance(table, dict) else []


def _claude_plugins(home: str) -> list[str]:
    data = _load_json(os.path.join(home, ".claude", "plugins", "installed_plugins.json"))
    plugins = data.get("plugins") if isinstance(data, dict) else None
    return [name for name in plugins if name.split("@")[0] == "multidebate"] if isinstance(plugins, dict) else []


def _codex_servers(path: str) -> list[str]:
    """`[mcp_servers.NAME]` tables of Codex's config.toml whose command starts `multidebate mcp`."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError):
        return []
    found: list[str] = []
    # read table by table: tomllib is Python 3.11+, and only two keys matter here
    for match in re.finditer(r"^\[mcp_servers\.([^\]\s]+)\]\s*$(.*?)(?=^\[|\Z)", text, re.M | re.S):
        body = match.group(2)
        command = re.search(r"^command\s*=\s*(.+)$", body, re.M)
        args = re.search(r"^args\s*=\s*(\[.*?\])", body, re.M | re.S)
        entry = {"command": command.group(1).strip().strip("\"'") if command else "",
                 "args": re.findall(r"[\"']([^\"']*)[\"']", args.group(1)) if args else []}
        if _ours(entry):
            found.append(match.group(1).strip("\"'"))
    return found


def _configured(home: str, cwd: str) -> list[Configured]:
    found: list[Configured] = []

    def add(assistant: str, path: str, names: list[str], how: str = "mcp server") -> None:
        found.extend(Configured(assistant, how, path, name) for name in names)

    claude_json = os.path.join(home, ".claude.json")
    add("Claude Code", claude_json, _servers(claude_json, "mcpServers") + _claude_local(claude_json, cwd))
    add("Claude Code", os.path.join(cwd, ".mcp.json"), _servers(os.path.join(cwd, ".mcp.json"), "mcpServers"))
    add("Claude Code", os.path.join(home, ".claude", "plugins", "installed_plugins.json"), _claude_plugins(home),
        how="plugin")
    codex_home = os.environ.get("CODEX_HOME") or os.path.join(home, ".codex")
    add("Codex", os.path.join(codex_home, "config.toml"), _codex_servers(os.path.join(codex_home, "config.toml")))
    add("Codex", os.path.join(cwd, ".codex", "config.toml"), _codex_servers(os.path.join(cwd, ".codex",
                                                                                         "config.toml")))
    for assistant, path, keys in (
            ("Gemini CLI", os.path.join(home, ".gemini", "settings.json"), ("mcpServers",)),
            ("Gemini CLI", os.path.join(cwd, ".gemini", "settings.json"), ("mcpServers",)),
            ("Qwen Code", os.path.join(home, ".qwen", "settings.json"), ("mcpServers",)),
            ("Cursor", os.path.join(home, ".cursor", "mcp.json"), ("mcpServers",)),
            ("Cursor", os.path.join(cwd, ".cursor", "mcp.json"), ("mcpServers",)),
            ("VS Code / Copilot", os.path.join(cwd, ".vscode", "mcp.json"), ("servers",)),
            ("Copilot CLI", os.path.join(home, ".copilot", "mcp-config.json"), ("mcpServers",)),
            ("OpenCode", os.path.join(home, ".config", "opencode", "opencode.json"), ("mcp",)),
            ("Claude Desktop", os.path.join(home, ".config", "Claude", "claude_desktop_config.json"), ("mcpServers",)),
            ("Claude Desktop", os.path.join(home, "Library", "Application Support", "Claude",
                                            "claude_desktop_config.json"), ("mcpServers",))):
        add(assistant, path, _servers(path, *keys))
    return found


def mcp_report(home: str | None = None, cwd: str | None = None) -> McpReport:
    """Whether `multidebate mcp` can start (the extra installed) and where assistants are set up to start it."""
    reason = _sdk_missing()
    return McpReport(not reason, reason, tuple(_configured(home or os.path.expanduser("~"), cwd or os.getcwd())))
