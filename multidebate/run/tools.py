"""The agent tools on this machine: where each program is, and its version (asked with a short timeout)."""

from __future__ import annotations

import shutil

from .supervise import Supervisor

__all__ = ["VERSION_TIMEOUT", "tool_version", "which"]

VERSION_TIMEOUT = 10.0


def which(program: str) -> str | None:
    """The program's path on PATH (or as given, when it names a file), else None."""
    return shutil.which(program)


def tool_version(program: str, timeout: float = VERSION_TIMEOUT) -> str:
    """`program --version`'s first line, or "" when it has none within `timeout` seconds."""
    if which(program) is None:
        return ""
    try:
        done = Supervisor().run((program, "--version"), b"", turn_timeout=timeout, idle_timeout=None,
                                max_output=64 * 1024)
    except OSError:
        return ""
    if done.stopped or done.exit_code != 0:
        return ""
    lines = [ln.strip() for ln in done.stdout.decode("utf-8", errors="replace").splitlines() if ln.strip()]
    return lines[0][:100] if lines else ""
