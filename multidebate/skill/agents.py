"""Where each assistant looks for skills: the table behind `multidebate skill install --agent`.

Kept free of imports so the CLI can build its options and help from it
without slowing down every command's start.
"""

from __future__ import annotations

__all__ = ["AGENTS", "SCOPES", "SHARED_FOLDER", "FOLDERS", "DEFAULT_AGENTS", "folder_for", "folder_table"]

# --agent value -> the assistant's name as people know it.
AGENTS: dict[str, str] = {
    "claude": "Claude Code",
    "codex": "Codex CLI",
    "gemini": "Gemini CLI",
    "cursor": "Cursor",
    "copilot": "GitHub Copilot",
    "opencode": "OpenCode",
    "goose": "Goose",
}
SCOPES = ("user", "project")
SHARED_FOLDER = ".agents/skills"
# Everyone but Claude Code reads the shared folder; Claude Code reads only its own.
_SHARED_READERS = ("codex", "gemini", "cursor", "copilot", "opencode", "goose")

# scope -> (skills folder relative to the home folder or the project folder, assistants that read it).
FOLDERS: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "user": (
        (SHARED_FOLDER, _SHARED_READERS),
        (".claude/skills", ("claude",)),
        (".gemini/skills", ("gemini",)),
        (".cursor/skills", ("cursor",)),
        (".copilot/skills", ("copilot",)),
        (".config/opencode/skills", ("opencode",)),
    ),
    "project": (
        (SHARED_FOLDER, _SHARED_READERS),
        (".claude/skills", ("claude",)),
        (".gemini/skills", ("gemini",)),
        (".cursor/skills", ("cursor",)),
        (".github/skills", ("copilot",)),
        (".opencode/skills", ("opencode",)),
    ),
}

# No --agent: one copy every assistant reads (the shared folder, and Claude Code's own).
DEFAULT_AGENTS = ("codex", "claude")


def folder_for(agent: str, scope: str) -> str:
    """The folder `--agent AGENT` installs into: the assistant's own, else the shared one (Codex, Goose)."""
    for folder, readers in FOLDERS[scope]:
        if readers == (agent,):
            return folder
    return SHARED_FOLDER


def folder_table() -> tuple[tuple[str, str, str], ...]:
    """(--agent value, its user folder, its project folder) for every assistant, as the help shows them."""
    return tuple((agent, f"~/{folder_for(agent, 'user')}", folder_for(agent, "project")) for agent in AGENTS)
